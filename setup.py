"""Builds the compiled twin of the cdcl solver where a C compiler exists (metadata: pyproject.toml).

The twin (``sudosat/sat/solvers/cdcl/compiled/*.pyx``) is optional: without a
compiler, or with a compiler that fails, the install still succeeds, says so
in one line, and the pure-Python reference core runs (``c core python``).
Cython (pinned in ``[build-system] requires``) writes its C under ``build/``,
never beside the sources, and the modules are compiled without debug symbols.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

TWIN = Path("sudosat/sat/solvers/cdcl/compiled")
FALLBACK = (
    "sudosat: the compiled cdcl core was not built ({cause}); the pure-Python core will run"
)


class OptionalBuildExt(build_ext):
    """build_ext that turns any failure to compile the twin into one line and no error.

    The first module that fails ends the build (the others are not tried), so the
    line is printed once, however many modules would fail.
    """

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means: no twin
            print(FALLBACK.format(cause=_first_line(exc)), file=sys.stderr)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def twin_extensions() -> list:
    """The twin's extension modules, cythonized; none when Cython or the sources are absent."""
    sources = sorted(TWIN.glob("*.pyx"))
    if not sources:
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        print(FALLBACK.format(cause=f"Cython is missing: {exc}"), file=sys.stderr)
        return []
    modules = [
        Extension(
            ".".join((*TWIN.parts, source.stem)),
            [str(source)],
            extra_compile_args=["-O2", "-g0"],
            extra_link_args=["-s"],
        )
        for source in sources
    ]
    try:
        # The Cython directives are in each .pyx file's first line, nowhere else.
        return cythonize(modules, build_dir="build/cython", quiet=True)
    except Exception as exc:  # noqa: BLE001 - a twin that does not cythonize is not built
        print(FALLBACK.format(cause=_first_line(exc)), file=sys.stderr)
        return []


setup(ext_modules=twin_extensions(), cmdclass={"build_ext": OptionalBuildExt})
