"""The live workbench: a static site that runs sudosat's workbench in the reader's browser.

:mod:`live.build` (``make live``) writes the site into ``build/live/`` from the
package's light core, the page in ``live/page/`` and Pyodide's core (CPython
compiled to WebAssembly) from the npm registry, at the version
``pyproject.toml`` pins; :mod:`live.serve` (``make serve``) serves it with the
rendered report on 127.0.0.1; :mod:`live.site` (``make site``) puts the report
and the site under one root, the folder a course publishes. The Python the page
runs is :mod:`sudosat.workbench.page`.
"""
