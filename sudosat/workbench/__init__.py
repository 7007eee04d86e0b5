"""The encoding workbench: switch clause families on and off and see what the solver returns.

:mod:`.switches` derives the switches, their labels and the presets from the
family declarations and the registered encodings; :mod:`.formula` builds the
formula from the switches and reads a model back (no widgets, no solvers);
:mod:`.compute` solves one setting through the runner; :mod:`.views` turns a
computed setting into HTML (and the static snapshot of the exported page);
:mod:`.grid` is the editable board and :mod:`.widgets` the live JupyterLab
widget that ties them together; :mod:`.page` ties them together without
widgets, for the page that runs the workbench in a browser (``make live``).
Only :mod:`.grid` and :mod:`.widgets` need ipywidgets (the extra ``widgets``).
"""
