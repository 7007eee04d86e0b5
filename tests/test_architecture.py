"""Guards that keep the package's shape: imports point down, sizes stay small.

Everything here reads the source with :mod:`ast`; nothing of sudosat is imported, so the
checks take well under a second. Each check is a plain function over a package folder, run
once on ``sudosat/`` and once on a small synthetic package built in ``tmp_path`` that breaks
it, so every guard is shown to fail when it should.

An import counts wherever it is written: at module level, inside a function (the usual way
to hide a circle) or under ``if TYPE_CHECKING:`` (a type an upper layer defines is still a
dependency on it).
"""

from __future__ import annotations

import ast
import fnmatch
import re
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sudosat"

# -- the declared shape ------------------------------------------------------------------
# Layers from the bottom up, one folder of the package each (the flat modules at the bottom,
# the command line at the top). A module may import modules of its own layer and of any layer
# below it, never above. Names are module paths inside the package ("sat.solvers.dpll"); a
# package's __init__.py is named by the package ("sat", "report"), the root one is "__init__".
# A pattern ("sat.*") covers a folder; where two patterns match, the longer one wins, so
# "sat.solvers.*" takes the solvers out of "sat.*". A module that matches no entry fails the
# test, and so does an entry that matches no module (a stale name).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Exceptions, line splitting, memory limits, English lists, programs under a deadline,
    # output files written whole: nothing of SAT or Sudoku.
    ("foundation", ("__init__", "errors", "lines", "limits", "words", "process", "outputs")),
    # Formulas: the CNF container, DIMACS and the other text formats, the Result every solver
    # gives, at-most-one constraints, classic test formulas.
    ("sat", ("sat", "sat.*")),
    # Our solvers, the adapters to external ones, their budgets and their registry.
    ("solvers", ("sat.solvers", "sat.solvers.*")),
    # Sudoku itself: boards, numberings, the encodings and decoding, rules-loaded solving.
    ("sudoku", ("sudoku", "sudoku.*")),
    # One instance end to end, a file of instances, executors, results tables, the generator.
    ("run", ("run", "run.*")),
    # The studies the report shows, and their cache.
    ("studies", ("studies", "studies.*")),
    # The encoding workbench: switched encodings, one setting solved, the widgets.
    ("workbench", ("workbench", "workbench.*")),
    # The report: one module per page, the build, the export.
    ("report", ("report", "report.*")),
    # Entry points: the command line.
    ("entry points", ("cli", "cli.*", "__main__")),
)

MAX_FLAT_MODULES = 8
"""Modules directly in sudosat/ (the foundation and ``__main__``): the rest live in folders."""

SUDOKU_MODULES = ("sudoku", "sudoku.*")
SUDOKU_FREE = ("sat", "sat.*")
"""The SAT layer and its solvers must never import a Sudoku module: a formula is a formula."""

SOLVER_MODULES = ("sat.solvers", "sat.solvers.*")
SOLVER_FREE = ("sudoku.board", "sudoku.numbering", "sudoku.encoding", "sudoku.encoding.*")
"""The reduction writes formulas for any solver and knows none of them."""

FORBIDDEN = (
    (SUDOKU_FREE, SUDOKU_MODULES, "the CNF layer and the solvers know nothing of Sudoku"),
    (SOLVER_FREE, SOLVER_MODULES, "the reduction knows no solver"),
)

MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80
# cdcl's propagate runs once per assigned literal, so its three steps (binary, ternary and
# watched clauses) are numbered sections of one function, not three methods: as methods they
# cost 16 % (random100) and 15 % (16x16) in the median per-instance CPU ratio, the same
# conflicts (benchmarks/results/cdcl_ab_split_propagate.csv, by ``benchmarks/cdcl_ab.py
# --base f6ca2c2 --sets random100,16x16 --repeat 2``). Its loop walks the trail with a list
# iterator started at qhead (propagation.unpropagated): a plain index loop cost 1-6 %
# (benchmarks/results/cdcl_ab_index_loop.csv, ``--sets random100,16x16,random150 --repeat
# 3``). The form kept measured 0.94-1.04 against f6ca2c2 over five such runs, where the
# committed form itself measured 1.00-1.02: within noise.
LONG_FUNCTIONS = {("sat.solvers.cdcl.propagation", "propagate")}
"""Functions allowed over the limit."""


# -- the checkers ------------------------------------------------------------------------


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the package at `root`, by name inside the package ("solvers.cdcl")."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts) or "__init__"] = path
    return found


def _resolve(dotted: str, package: str, modules: Iterable[str]) -> str | None:
    """The package module `dotted` names (its longest existing prefix), or None if outside."""
    if dotted != package and not dotted.startswith(package + "."):
        return None
    parts = dotted.split(".")[1:]
    known = set(modules)
    while parts and ".".join(parts) not in known:
        parts.pop()
    return ".".join(parts) or "__init__"


def _anchor(name: str, path: Path, level: int, package: str) -> str:
    """The absolute package a relative import of `level` dots in module `name` starts from."""
    parts = [package] + ([] if name == "__init__" else name.split("."))
    if path.name != "__init__.py":
        parts = parts[:-1]  # a module's own package
    return ".".join(parts[: len(parts) - level + 1])


def import_graph(root: Path, package: str | None = None) -> dict[str, set[str]]:
    """Which package modules each module imports, wherever the import statement stands."""
    package = package or root.name
    files = module_files(root)
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = _anchor(name, path, node.level, package)
                    base = f"{anchor}.{base}" if base else anchor
                # "from pkg import sub" imports the submodule when there is one
                targets = [f"{base}.{alias.name}" for alias in node.names] or [base]
            for target in targets:
                module = _resolve(target, package, files)
                if module is not None and module != name:
                    graph[name].add(module)
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (``[a, b, ..., a]``) per strongly connected group of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for child in sorted(graph.get(node, ())):
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in on_stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_circle_through(group, graph) for group in groups]


def _circle_through(group: set[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest import path from the group's first module back to itself."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & group):
                if child == start:
                    return paths[node] + [start]
                if child not in paths:
                    paths[child] = paths[node] + [child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"{sorted(group)} is not strongly connected")


def _layer_of(module: str, layers: Sequence[tuple[str, Sequence[str]]]) -> int | None:
    """The layer whose longest matching pattern matches `module`, or None."""
    best: tuple[int, int] | None = None  # (pattern length without '*', layer position)
    for position, (_, patterns) in enumerate(layers):
        for pattern in patterns:
            literal = len(pattern.replace("*", ""))
            if fnmatch.fnmatchcase(module, pattern) and (best is None or literal > best[0]):
                best = (literal, position)
    return None if best is None else best[1]


def _matches(module: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(module, pattern) for pattern in patterns)


def unplaced_modules(
    graph: dict[str, set[str]], layers: Sequence[tuple[str, Sequence[str]]]
) -> list[str]:
    """Modules in no layer, each with what to do about it."""
    return [
        f"module {module!r} is in no layer: add it to LAYERS in tests/test_architecture.py "
        "(the lowest layer holding everything it imports)"
        for module in sorted(graph)
        if _layer_of(module, layers) is None
    ]


def upward_imports(
    graph: dict[str, set[str]], layers: Sequence[tuple[str, Sequence[str]]]
) -> list[str]:
    """Imports from a layer to a higher one, one message each."""
    found = []
    for module in sorted(graph):
        mine = _layer_of(module, layers)
        for target in sorted(graph[module]):
            theirs = _layer_of(target, layers)
            if mine is not None and theirs is not None and theirs > mine:
                found.append(
                    f"{module} (layer {layers[mine][0]!r}) imports {target} "
                    f"(higher layer {layers[theirs][0]!r})"
                )
    return found


def forbidden_imports(
    graph: dict[str, set[str]],
    rules: Iterable[tuple[Sequence[str], Sequence[str], str]] = FORBIDDEN,
) -> list[str]:
    """Imports a rule forbids whatever the layers say, one message each."""
    return [
        f"{module} imports {target}: {why}"
        for importers, imported, why in rules
        for module in sorted(graph)
        if _matches(module, importers)
        for target in sorted(graph[module])
        if _matches(target, imported)
    ]


def oversized_modules(
    root: Path, limit: int = MAX_MODULE_LINES, allowed: Iterable[str] = ()
) -> list[str]:
    """Modules longer than `limit` lines, but those `allowed` (the package allows none)."""
    found = []
    for name, path in module_files(root).items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit and name not in set(allowed):
            found.append(f"{path.relative_to(root.parent)} has {lines} lines (at most {limit})")
    return found


def long_functions(
    root: Path,
    limit: int = MAX_FUNCTION_LINES,
    allowed: Iterable[tuple[str, str]] = LONG_FUNCTIONS,
) -> list[str]:
    """Functions and methods (nested ones too) longer than `limit` lines, but those `allowed`."""
    allowed = set(allowed)
    found = []
    for name, path in module_files(root).items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit and (name, node.name) not in allowed:
                found.append(
                    f"{path.relative_to(root.parent)}:{node.lineno} {node.name}() has "
                    f"{lines} lines (at most {limit})"
                )
    return found


# -- the package -------------------------------------------------------------------------


def _private(name: str) -> bool:
    """One leading underscore (``_helper``), not a dunder (``__version__``)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(root: Path, package: str | None = None) -> list[tuple[str, str]]:
    """Every private name a module takes from another module of the package, as
    (module, ``file:line what``): ``from x import _y``, or ``x._y`` where ``x`` names a
    package module through an import (``import pkg.x as x``, ``from pkg import x``)."""
    package = package or root.name
    files = module_files(root)

    def module_of(dotted: str) -> str | None:
        inside = dotted.removeprefix(package + ".")
        if dotted == package:
            return "__init__"
        return inside if inside != dotted and inside in files else None

    found = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = path.relative_to(root.parent)
        bound: dict[str, str] = {}  # a local name -> the dotted path it was imported as
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = alias.name if alias.asname else local
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = _anchor(name, path, node.level, package)
                    base = f"{anchor}.{base}" if base else anchor
                if _resolve(base, package, files) is None:
                    continue
                for alias in node.names:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
                    if _private(alias.name):
                        taken = f"from {base} import {alias.name}"
                        found.append((name, f"{where}:{node.lineno} {taken}"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            chain, value = [], node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in bound:
                dotted = ".".join([bound[value.id], *reversed(chain)])
                if module_of(dotted) not in (None, name):
                    found.append((name, f"{where}:{node.lineno} {dotted}.{node.attr}"))
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(PACKAGE, "sudosat")


def test_every_module_has_a_layer(graph):
    unplaced = unplaced_modules(graph, LAYERS)
    assert unplaced == [], "\n".join(unplaced)


def test_every_layer_entry_names_a_module(graph):
    stale = [
        f"{entry!r} (layer {layer!r}) matches no module: remove it from LAYERS"
        for layer, entries in LAYERS
        for entry in entries
        if not fnmatch.filter(graph, entry)
    ]
    assert stale == [], "\n".join(stale)


def test_no_import_circles(graph):
    circles = [" -> ".join(circle) for circle in import_circles(graph)]
    assert circles == [], "import circles:\n" + "\n".join(circles)


def test_imports_point_down_the_layers(graph):
    upward = upward_imports(graph, LAYERS)
    assert upward == [], "upward imports:\n" + "\n".join(upward)


def test_cnf_and_solvers_know_nothing_of_sudoku(graph):
    forbidden = forbidden_imports(graph)
    assert forbidden == [], "\n".join(forbidden)


def test_no_module_over_800_lines():
    oversized = oversized_modules(PACKAGE)
    assert oversized == [], "\n".join(oversized)


def test_no_function_over_80_lines():
    long = long_functions(PACKAGE)
    assert long == [], "\n".join(long)


def cython_functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every def, cdef and cpdef function in a Cython file.

    A function runs from its header to the last line before the next one that is
    indented no deeper than its header (blank and comment lines do not end it).
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    header = re.compile(r"^(\s*)(?:c?p?def|cdef inline)\s[^=]*?(\w+)\s*\(")
    found = []
    for start, line in enumerate(lines):
        match = header.match(line)
        if match is None or line.rstrip().endswith(("=", ",")) or "class " in line:
            continue
        depth, end = len(match.group(1)), start
        for k in range(start + 1, len(lines)):
            text = lines[k]
            if text.strip() and not text.lstrip().startswith("#"):
                if len(text) - len(text.lstrip()) <= depth and not text.lstrip().startswith(")"):
                    break
                end = k
        found.append((match.group(2), start + 1, end - start + 1))
    return found


def test_the_compiled_core_keeps_the_size_rules():
    sources = sorted((PACKAGE / "sat/solvers/cdcl/compiled").glob("*.p[yx][xd]"))
    oversized = [f"{p.name} has {n} lines" for p in sources
                 if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    long = [f"{p.name}:{line} {name}() has {n} lines" for p in sources
            for name, line, n in cython_functions(p) if n > MAX_FUNCTION_LINES]
    assert oversized + long == []


def test_the_cython_function_reader_measures_a_function(tmp_path):
    source = "cdef int f(int a):\n    a += 1\n\n    # why\n    return a\n\ndef g():\n    pass\n"
    path = tmp_path / "m.pyx"
    path.write_text(source)
    assert cython_functions(path) == [("f", 1, 5), ("g", 7, 2)]


def test_the_layer_table_names_each_module_once():
    names = [name for _, patterns in LAYERS for name in patterns]
    assert len(names) == len(set(names))


def flat_modules(root: Path) -> list[str]:
    """The modules directly in the package folder (not in a sub-folder)."""
    return sorted(path.stem for path in root.glob("*.py") if path.name != "__init__.py")


def test_at_most_eight_modules_lie_flat_in_the_package():
    flat = flat_modules(PACKAGE)
    assert len(flat) <= MAX_FLAT_MODULES, f"{len(flat)} flat modules: {flat}"


def test_each_layer_is_a_folder():
    # Each layer above the foundation is one folder ("F" and "F.*"), so a module's layer can
    # be read from its path; the foundation is the flat modules (and __main__ sits on top).
    for layer, patterns in LAYERS:
        names = [pattern for pattern in patterns if pattern != "__main__"]
        if layer == "foundation":
            assert all("." not in name for name in names), names
            continue
        folder = names[0]
        assert sorted(names) == sorted([folder, f"{folder}.*"]), (layer, names)


def test_the_longer_pattern_decides_a_layer(tmp_path):
    root = write_package(
        tmp_path, {"a/__init__.py": "", "a/x.py": "", "a/b/__init__.py": "", "a/b/y.py": ""}
    )
    layers = (("low", ("__init__", "a", "a.*")), ("high", ("a.b", "a.b.*")))
    graph = import_graph(root)
    assert [_layer_of(module, layers) for module in ("a", "a.x", "a.b", "a.b.y")] == [0, 0, 1, 1]
    assert unplaced_modules(graph, layers) == []


# -- each guard fails when it should -----------------------------------------------------


def write_package(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package ``pkg`` under `tmp_path` holding `files` (path inside it -> source)."""
    root = tmp_path / "pkg"
    for name, source in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return root


TOY_LAYERS = (("bottom", ("__init__", "low")), ("middle", ("mid", "sub", "sub.*")),
              ("top", ("high",)))  # fmt: skip


def test_a_circle_through_a_function_level_import_is_named(tmp_path):
    root = write_package(
        tmp_path,
        {
            "low.py": "from pkg.mid import thing\n",
            "mid.py": "def thing():\n    from pkg import high\n    return high\n",
            "high.py": "import pkg.low\n",
        },
    )
    assert import_circles(import_graph(root)) == [["high", "low", "mid", "high"]]


def test_a_circle_through_relative_imports_and_a_subpackage_is_named(tmp_path):
    root = write_package(
        tmp_path,
        {
            "sub/__init__.py": "from .core import run\n",
            "sub/core.py": "from ..mid import helper\n",
            "mid.py": "from .sub import core\n",
        },
    )
    graph = import_graph(root)
    assert graph["sub"] == {"sub.core"} and graph["mid"] == {"sub.core"}
    assert import_circles(graph) == [["mid", "sub.core", "mid"]]


def test_an_upward_import_is_reported_even_under_type_checking(tmp_path):
    root = write_package(
        tmp_path,
        {
            "low.py": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from pkg import mid
            """,
            "mid.py": "from pkg.low import x\n",
            "high.py": "from pkg import mid, low\n",
        },
    )
    graph = import_graph(root)
    assert upward_imports(graph, TOY_LAYERS) == [
        "low (layer 'bottom') imports mid (higher layer 'middle')"
    ]
    assert import_circles(graph) == [["low", "mid", "low"]]


def test_a_module_in_no_layer_is_reported(tmp_path):
    root = write_package(tmp_path, {"low.py": "", "stray.py": "import pkg.low\n"})
    assert unplaced_modules(import_graph(root), TOY_LAYERS) == [
        "module 'stray' is in no layer: add it to LAYERS in tests/test_architecture.py "
        "(the lowest layer holding everything it imports)"
    ]


def test_a_forbidden_import_is_reported(tmp_path):
    root = write_package(tmp_path, {"low.py": "", "mid.py": "def f():\n    import pkg.low\n"})
    rules = ((("mid",), ("low",), "mid knows nothing of low"),)
    assert forbidden_imports(import_graph(root), rules) == [
        "mid imports low: mid knows nothing of low"
    ]


def test_a_900_line_module_is_reported(tmp_path):
    root = write_package(tmp_path, {"big.py": "x = 1\n" * 900, "small.py": "x = 1\n" * 800})
    assert oversized_modules(root, allowed=()) == ["pkg/big.py has 900 lines (at most 800)"]
    assert oversized_modules(root, allowed=("big",)) == []


def test_a_90_line_function_is_reported(tmp_path):
    body = "".join(f"    x{k} = {k}\n" for k in range(89))
    nested = "class Box:\n    def method(self):\n" + "".join(
        f"        y{k} = {k}\n" for k in range(90)
    )
    root = write_package(
        tmp_path, {"mod.py": f"def long():\n{body}\n\ndef short():\n    pass\n\n{nested}"}
    )
    assert long_functions(root, allowed=()) == [
        "pkg/mod.py:1 long() has 90 lines (at most 80)",
        "pkg/mod.py:97 method() has 91 lines (at most 80)",
    ]
    assert long_functions(root, allowed=(("mod", "long"), ("mod", "method"))) == []


VERDICT_WORDS = ("SAT", "UNSAT", "TIMEOUT", "ERROR")
WORD_HOMES = ("run.results", "sat.result")
"""Where the verdict words are values: ``Verdict`` and ``Status``."""
PROGRAM_WORDS = ("sat.solvers.zchaff", "sat.solvers.competition")
"""Readers of zChaff's and MiniSat's output: there "SAT" and "UNSAT" are the programs' words."""
PROGRAM_NAMES = {("cli", "SAT")}
"""Where "SAT" is a program's name (``SAT -Sn FILE``, :data:`sudosat.cli.SAT_SN_PROGRAM`)."""


def test_the_verdict_words_are_defined_once():
    # The verdict words as values are sudosat.run.results.Verdict's (and Status's); every
    # other module compares with Verdict.SAT, Verdict.TIMEOUT ..., so that no word can drift.
    found = []
    for name, path in module_files(PACKAGE).items():
        if name in WORD_HOMES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Constant) and node.value in VERDICT_WORDS):
                continue
            if name in PROGRAM_WORDS and node.value in ("SAT", "UNSAT"):
                continue
            if (name, node.value) not in PROGRAM_NAMES:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.value!r}")
    assert found == [], "use sudosat.run.results.Verdict instead of:\n" + "\n".join(found)


def test_no_private_name_crosses_a_module_boundary():
    # What another module uses has a public name and a docstring (MiniSat and PySAT expose
    # budgets and stats as API); an underscore name stays inside its module.
    found = [what for _, what in private_imports(PACKAGE)]
    assert found == [], "give these names a public name and a docstring:\n" + "\n".join(found)


def test_a_private_name_taken_from_another_module_is_reported(tmp_path):
    root = write_package(tmp_path, {
        "__init__.py": "",
        "a.py": "_hidden = 1\n__version__ = '1'\n\n\ndef _own():\n    return _hidden\n",
        "b.py": "from pkg.a import _hidden, __version__\n",
        "c.py": "from . import a\n\nx = a._hidden\n",
        "d.py": "import pkg.a as alias\nimport pkg\n\ny = alias._own() + pkg.a._hidden\n",
        "e.py": "import os\n\nz = os._exit\n",
    })
    assert [what for _, what in private_imports(root)] == [
        "pkg/b.py:1 from pkg.a import _hidden",
        "pkg/c.py:3 pkg.a._hidden",
        "pkg/d.py:4 pkg.a._hidden",
        "pkg/d.py:4 pkg.a._own",
    ]
