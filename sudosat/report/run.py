"""A timed run of the experiment: the solvers that can run, every instance with every solver
under one T, the machine and the method its times come from, read back for the results page.

:func:`run_timed_experiment` writes what :func:`read_run` reads: ``results.csv``, one
solutions file per solver and ``manifest.json``. What the pages say about a run (what it used,
where and how it was timed) they read from its manifest; the sentences are the notebooks',
but for the paragraphs both pages print alike (:func:`machine_and_method`, :func:`template_words`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sudosat.errors import InstanceError
from sudosat.report.formats import and_join, milliseconds
from sudosat.report.io import load_results, read_instances, read_manifest, resolve, write_manifest
from sudosat.run.results import Verdict
from sudosat.sat.solvers.cdcl.cores import default_core
from sudosat.sudoku.board import Board, check_solution

REFERENCE_FALLBACK = "pysat:minisat22"
"""The reference solver that stands in for zChaff when no zChaff binary is found."""


def timing_workers(requested: int | None = None) -> int:
    """How many processes may time instances at once on this machine.

    One per core at most and never more than the cores minus one, so that
    every timed process has a core to itself while the notebook's kernel, the
    operating system and anything else keep one: at least 1.

    Examples
    --------
    >>> timing_workers(1)
    1
    """
    cores = os.cpu_count() or 1
    allowed = max(1, cores - 1)
    return allowed if requested is None else max(1, min(int(requested), allowed))


def machine_facts() -> dict[str, Any]:
    """The machine a run is timed on: processor, cores, Python, load when the run starts."""
    import platform

    facts: dict[str, Any] = {
        "cores": os.cpu_count() or 1, "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.machine()}", "processor": _processor_name(),
    }
    if hasattr(os, "getloadavg"):
        facts["load_average"] = round(os.getloadavg()[0], 2)
    facts["cdcl_core"] = default_core()
    return facts


def _processor_name() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (Linux), else what platform says."""
    import platform

    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


@dataclass(frozen=True)
class SolverChoice:
    """The solvers a run uses (each once, in the order asked), the (asked, used) pairs of a
    solver that cannot run here and the one run in its place (zChaff's place goes to
    :data:`REFERENCE_FALLBACK`), and the (name, why) of those dropped without a stand-in."""

    solvers: tuple[str, ...]
    stand_ins: tuple[tuple[str, str], ...] = ()
    dropped: tuple[tuple[str, str], ...] = ()


def choose_solvers(names: str | Sequence[str]) -> SolverChoice:
    """The solvers to run of `names` (a list, or a comma-separated string), each probed on a
    one-clause formula: zChaff that cannot run is replaced by :data:`REFERENCE_FALLBACK`, any
    other solver that cannot run is dropped."""
    from sudosat.run.batch import probe_solver

    chosen, stand_ins, dropped = [], [], []
    listed = names.split(",") if isinstance(names, str) else names  # a notebook's parameter
    for name in filter(None, (name.strip() for name in listed)):
        why = probe_solver(name)
        if why is None:
            chosen.append(name)
        elif name == "zchaff":
            chosen.append(REFERENCE_FALLBACK)
            stand_ins.append((name, REFERENCE_FALLBACK))
        else:
            dropped.append((name, str(why)))
    return SolverChoice(tuple(dict.fromkeys(chosen)), tuple(stand_ins), tuple(dropped))


def run_timed_experiment(
    instances: str | os.PathLike[str], time_limit_ms: float, solvers: Sequence[str],
    encoding: str, output_dir: str | os.PathLike[str], *, jobs: int = 1,
    notes: Sequence[str] = (), progress: bool = False,
) -> pd.DataFrame:
    """Time every instance with every solver under the same T; return the results table.

    Writes ``results.csv`` (:data:`sudosat.report.io.RESULT_COLUMNS`, then each output line),
    one output file per solver (``solutions.<solver>.txt``) and ``manifest.json`` (the
    parameters, the `notes`, the machine and the number of workers) into `output_dir`.
    `jobs` is capped by :func:`timing_workers`, so timed runs never compete for a core.
    """
    from sudosat.run.batch import run_batch

    source = resolve(instances)
    folder = resolve(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    results = folder / "results.csv"
    jobs = timing_workers(jobs)
    machine = machine_facts()
    started = time.perf_counter()
    warmed = warm_up(source, solvers, encoding, time_limit_ms) if jobs == 1 else []
    summary = run_batch(source, folder / "solutions.txt", solvers=list(solvers), encoding=encoding,
                        time_limit_ms=time_limit_ms, results=results, jobs=jobs, progress=progress)
    write_manifest(folder, instances=str(instances), time_limit_ms=time_limit_ms,
                   solvers=list(solvers), encoding=encoding, jobs=jobs, machine=machine,
                   notes=list(notes), wall_s=round(time.perf_counter() - started, 1),
                   outputs={s: str(v.output) for s, v in summary.solvers.items()},
                   warm_up=warmed)
    return load_results(results)


def warm_up(
    instances: str | os.PathLike[str], solvers: Sequence[str], encoding: str,
    time_limit_ms: float | None,
) -> list[dict[str, Any]]:
    """Before a timed run in this process, solve the first board of each order once with
    each solver, untimed: the one-time costs of a process land in no row of the race.

    The first formula of an order builds its rule template (the clauses every
    board of the order copies), the first checks and writes of those clauses
    build what later ones reuse, and a solver loads its code on its first
    call: whichever solver ran first would pay for all of it. Returns, per
    order, the line solved and the CPU milliseconds its first encoding took
    (the template's build, which the run's rows no longer carry).
    """
    from sudosat.run.runner import run_instance

    first: dict[int, tuple[int, Board]] = {}
    for line, board in read_instances(instances).items():
        first.setdefault(board.order, (line, board))
    warmed = []
    for order, (line, board) in sorted(first.items()):
        template_ms = None
        for solver in solvers:
            row = run_instance(board, solver, encoding, time_limit_ms, line=line).row
            if template_ms is None:
                template_ms = row.encode_cpu_ms
        warmed.append({"order": order, "line": line, "template_cpu_ms": template_ms})
    return warmed


def read_run(
    results: str | os.PathLike[str],
) -> tuple[pd.DataFrame, dict[str, Any], dict[int, Board]]:
    """A run as the results page reads it: the table, its manifest, the input boards by line."""
    table = load_results(results)
    manifest = read_manifest(results)
    named = manifest.get("instances")
    return table, manifest, read_instances(named) if named else {}


def invalid_sat_rows(results: pd.DataFrame, instances: str | os.PathLike[str]) -> list[str]:
    """Every SAT row whose board is not a solution of its input line (empty: none), checked
    afresh: each ``output`` board parsed again and checked against the rules and the givens,
    independently of the ``valid`` column the runner wrote."""
    boards = read_instances(instances)
    wrong = []
    for row in results[results["status"] == Verdict.SAT].itertuples():
        line, puzzle = int(row.line), boards.get(int(row.line))
        try:
            why = check_solution(puzzle, Board.parse(str(row.output))) if puzzle else "no input"
        except InstanceError as exc:
            why = str(exc)
        if why is not None:
            wrong.append(f"line {line}, {row.solver}: {why}")
    return wrong


def machine_and_method(manifest: Mapping[str, Any]) -> tuple[str, str]:
    """The **Machine.** and **Method.** paragraphs of a timed run from its manifest, as the
    experiment page prints them (the results page refers to them)."""
    machine = manifest.get("machine") or {}
    cores = int(machine["cores"]) if isinstance(machine.get("cores"), int) else "?"
    load = machine.get("load_average")
    load = ("" if not isinstance(load, int | float) else
            f" The load average when the run started was {float(load):g}.")
    jobs = int(manifest.get("jobs", 1))
    workers = ("one worker process, so no two timed runs overlap" if jobs == 1 else
               f"{jobs} worker processes, one per free core (at most the cores minus one)")
    core = {"compiled": " Our `cdcl` ran its compiled core (the Cython twin of its Python code, "
                        "the same search, decision for decision).",
            "python": " Our `cdcl` ran its pure-Python core (no compiled core was built "
                      "here)."}.get(str(machine.get("cdcl_core", "")), "")
    said = (f"**Machine.** {machine.get('processor', 'an unknown processor')}, {cores} cores, "
            f"{machine.get('system', '')}, {machine.get('implementation', 'Python')} "
            f"{machine.get('python', '?')}.{load}{core}")
    method = (
        f"**Method.** Every (instance, solver) pair is timed by {workers}. The solvers are "
        "interleaved per instance (line 1 with every solver, then line 2, ...), so a change of "
        f"load hits all of them alike. {template_words(manifest)} Every time is taken on two "
        "clocks: the *wall clock*, what a user waits, and *CPU time*, this process's and its "
        "solver programs', which leaves out the time other programs held the processor (though "
        "they still slow each step). *total* is the time of an instance from its line to its "
        "checked board: *encode* builds the CNF, *decode* reads the board back and checks it, and "
        "between them the solver spends its own *search* time on CPU, as it measures it (our "
        "`cdcl` and PySAT's solvers: this process's CPU time around the search) or reports it "
        "(zChaff's `Total Run Time`, the CPU time an `exec:` program prints), and the *overhead*, "
        "the rest of the hand-over: loading the clauses into the solver, writing the CNF file, "
        "starting the program and reading its answer back, checking the model. A solver "
        "program's own CPU time (*process*) is the operating system's count for its whole "
        "process, read as it ends: starting, reading the formula, searching and printing the "
        "answer; the total less it is what this process spent around the program."
    )
    return said, method


def template_words(manifest: Mapping[str, Any]) -> str:
    """What the run of `manifest` did about the first encoding of each order (the rule
    template's build)."""
    warmed = manifest.get("warm_up") or ()
    if warmed:
        built = and_join([f"{milliseconds(w['template_cpu_ms'])} ms at order {int(w['order'])}"
                          for w in warmed if w.get("template_cpu_ms") is not None])
        cost = f" (of CPU time: {built})" if built else ""
        return (
            "Before the run every solver solved the first board of each order once, untimed (a "
            "warm-up), so that the one-time costs of this process fall in no row: the rule "
            f"template of each order, which every board's formula copies{cost}, and what the "
            "first checks and writes of those clauses build for the next.")
    if int(manifest.get("jobs", 1)) > 1:
        return (
            "There is no warm-up with several workers: the first instance of each order in a "
            "worker also builds that order's rule template, which every later board's formula "
            "copies, and the row that ran it carries that cost.")
    return (
        "The first instance of each order also built that order's rule template, which every "
        "later board's formula copies: the row of the solver that ran it first carries that "
        "cost.")

