"""The experiment and results pages: choosing the solvers, running every instance under one
T, the machine and method the times come from, and the sentences that read the results.

Also the solvers page's two measured runs, :func:`solver_comparison` and
:func:`component_costs`: each solves boards the page names and times them.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from sudosat.errors import InstanceError
from sudosat.report.io import (
    DECIDED,
    load_results,
    read_instances,
    read_manifest,
    resolve,
    solver_order,
    write_manifest,
)
from sudosat.report.plots import COLOURS, paired, panels, styled
from sudosat.report.tables import (
    HARD_CONFLICTS,
    difficulty_table,
    stage_name,
    time_split_table,
)
from sudosat.sudoku.board import COURSE_EXAMPLE, Board, check_solution
from sudosat.words import and_join

REFERENCE_FALLBACK = "pysat:minisat22"
"""The reference solver that stands in for zChaff when no zChaff binary is found."""


ZCHAFF_NOTE = (
    "zChaff is not installed on the machine that built this report, so PySAT's MiniSat 2.2 "
    f"({REFERENCE_FALLBACK}), a CDCL solver of the same family, stands in for it as the "
    "reference solver. zChaff is in no package registry: to compare with zChaff itself, build "
    "it from Princeton's sources and give its path, as ZCHAFF=/path/to/zchaff in the "
    "environment (for example ZCHAFF=/path/to/zchaff make report) or --zchaff /path/to/zchaff "
    "on the command line."
)
"""The plain-words note a page shows (once) when MiniSat stands in for zChaff."""


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
        "cores": os.cpu_count() or 1,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.machine()}",
        "processor": _processor_name(),
    }
    if hasattr(os, "getloadavg"):
        facts["load_average"] = round(os.getloadavg()[0], 2)
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


def method_text(manifest: Mapping[str, Any]) -> str:
    """How the times of a run were taken, in plain words, from its manifest (Markdown)."""
    machine = manifest.get("machine") or {}
    workers = manifest.get("jobs", 1)
    where = (
        f"{machine.get('processor', 'an unknown processor')}, {machine.get('cores', '?')} "
        f"cores, {machine.get('system', '')}, {machine.get('implementation', 'Python')} "
        f"{machine.get('python', '?')}"
    )
    load = machine.get("load_average")
    load_text = (
        f" The load average when the run started was {load:g}: other programs shared the "
        "machine, so single times can be inflated; the counters (conflicts, decisions) are not "
        "affected."
        if isinstance(load, int | float)
        else ""
    )
    worker_text = (
        "one worker process, so no two timed runs overlap"
        if workers == 1
        else f"{workers} worker processes, one per free core (at most the cores minus one)"
    )
    return (
        f"**Machine.** {where}.{load_text}\n\n"
        f"**Method.** Every (instance, solver) pair is timed by {worker_text}. The solvers are "
        "interleaved per instance (line 1 with every solver, then line 2, ...), so a change of "
        "load hits all of them alike. Times are wall-clock milliseconds: *encode* builds the "
        "CNF, *solve* runs the solver and checks its model, *decode* reads the board back and "
        "checks it; *total* is all three. For the solvers that run inside this Python process "
        "(our `cdcl` and PySAT's solvers) *solve* is split further into *load*, copying the "
        "clauses into the solver (for PySAT: from Python into C++), and *search*, the solving "
        "itself. External programs (zChaff, `exec:`) are timed as whole processes."
    )


def split_names(names: str | Sequence[str]) -> list[str]:
    """Solver names from a notebook parameter: a comma-separated string or a list."""
    if isinstance(names, str):
        names = names.split(",")
    return [name.strip() for name in names if name.strip()]


def choose_solvers(names: str | Sequence[str]) -> tuple[list[str], list[str]]:
    """The solvers to run, with zChaff replaced by PySAT's Minisat22 when it cannot run.

    Every name is probed on a one-clause formula; zChaff that cannot run is
    replaced by :data:`REFERENCE_FALLBACK`, any other solver that cannot run
    is dropped. Each change is explained in a note meant for the report.

    Returns
    -------
    (list of str, list of str)
        The solvers, and the notes.
    """
    from sudosat.run.pipeline import probe_solver

    chosen, notes = [], []
    for name in split_names(names):
        why = probe_solver(name)
        if why is None:
            chosen.append(name)
        elif name == "zchaff":
            chosen.append(REFERENCE_FALLBACK)
            notes.append(ZCHAFF_NOTE)
        else:
            notes.append(f"Solver {name} cannot run here and was left out: {why}.")
    return list(dict.fromkeys(chosen)), notes


def run_experiment(
    instances: str | os.PathLike[str],
    time_limit_ms: float,
    solvers: Sequence[str],
    encoding: str,
    output_dir: str | os.PathLike[str],
    *,
    jobs: int = 1,
    notes: Sequence[str] = (),
    progress: bool = False,
) -> pd.DataFrame:
    """Run every instance with every solver under the same T; write the results table.

    Writes ``results.csv`` (DESIGN.md's columns, then each output line), one
    output file per solver (``solutions.<solver>.txt``) and ``manifest.json``
    (the parameters, the notes, the machine and the number of workers) into
    `output_dir`. `jobs` is capped by :func:`timing_workers`, so timed runs
    never compete for a core.

    Returns
    -------
    DataFrame
        The results table.
    """
    from sudosat.run.pipeline import run_batch

    source = resolve(instances)
    folder = resolve(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    results = folder / "results.csv"
    jobs = timing_workers(jobs)
    machine = machine_facts()
    started = time.perf_counter()
    summary = run_batch(
        source,
        folder / "solutions.txt",
        solvers=list(solvers),
        encoding=encoding,
        time_limit_ms=time_limit_ms,
        results=results,
        jobs=jobs,
        progress=progress,
    )
    write_manifest(
        folder,
        instances=str(instances),
        time_limit_ms=time_limit_ms,
        solvers=list(solvers),
        encoding=encoding,
        jobs=jobs,
        machine=machine,
        notes=list(notes),
        wall_s=round(time.perf_counter() - started, 1),
        outputs={s: str(v.output) for s, v in summary.solvers.items()},
    )
    return load_results(results)


def invalid_sat_rows(results: pd.DataFrame, instances: str | os.PathLike[str]) -> list[str]:
    """Every SAT row whose board is not a solution of its input line, checked afresh.

    The ``output`` board of each SAT row is parsed again and checked against
    the input board of its line (rules and givens), independently of the
    ``valid`` column the runner wrote. An empty list means every SAT answer is
    a valid board.
    """
    boards = read_instances(instances)
    wrong = []
    for row in results[results["status"] == "SAT"].itertuples():
        line, puzzle = int(row.line), boards.get(int(row.line))
        try:
            why = check_solution(puzzle, Board.parse(str(row.output))) if puzzle else "no input"
        except InstanceError as exc:
            why = str(exc)
        if why is not None:
            wrong.append(f"line {line}, {row.solver}: {why}")
    return wrong


def solver_comparison(
    puzzles: Mapping[str, str], solvers: Sequence[str], time_limit_ms: float = 30_000
) -> pd.DataFrame:
    """Each solver's answer, time and counters on each puzzle (course encoding, T on the solver)."""
    from sudosat.run.runner import prepare, run_instance

    rows = []
    for label, line in puzzles.items():
        board = Board.parse(line)
        prepared = prepare(board, "course")  # built once, shared by the solvers
        for solver in solvers:
            outcome = run_instance(board, solver, prepared, time_limit_ms, limit_covers="solver")
            done = outcome.row
            rows.append(
                {
                    "puzzle": label,
                    "solver": solver,
                    "answer": str(done.status),
                    "solver ms": round(done.solve_ms or 0.0, 1),
                    **{
                        k: pd.NA if done[k] is None else int(done[k])
                        for k in ("decisions", "propagations", "conflicts")
                    },
                }
            )
    return pd.DataFrame(rows).set_index(["puzzle", "solver"])


def component_costs(
    orders: Iterable[int] = (1, 2, 3, 4), alpha: float = 0.5, solver: str = "cdcl", seed: int = 0
) -> pd.DataFrame:
    """Time each component of the pipeline on one generated board per order.

    Components: encoder (board -> CNF), DIMACS writer, parser (DIMACS ->
    CNF), solver, decoder (model -> board) and the rules check. The sizes
    (variables, clauses, literals) let a reader set each time against the
    input it is linear in.

    Returns
    -------
    DataFrame
        Index ``order``; sizes, then one ``<component> ms`` column each.
    """
    from sudosat.run.generate import generate
    from sudosat.run.runner import run_instance
    from sudosat.sat.cnf import parse_dimacs

    rows = []
    for order in orders:
        board = generate(order, alpha, seed=seed)
        outcome = run_instance(board, solver, "course", limit_covers="solver")
        done, cnf = outcome.row, outcome.formula.cnf
        timer = _Stopwatch()
        text = timer.run("DIMACS writer", cnf.to_dimacs)
        timer.run("parser", parse_dimacs, text, "<memory>")
        times = {
            "encoder": done.encode_ms,
            **timer.times,
            "solver": done.solve_ms,
            "decoder": outcome.stage_ms.get("decode", 0.0),
            "check": outcome.stage_ms.get("check", 0.0),
        }
        rows.append(
            {
                "order": order,
                "givens": board.num_givens,
                "variables": done.variables,
                "clauses": done.clauses,
                "literals": cnf.num_literals,
                **{f"{name} ms": round(ms or 0.0, 4) for name, ms in times.items()},
            }
        )
    return pd.DataFrame(rows).set_index("order")


class _Stopwatch:
    """Runs calls and keeps each one's wall time in milliseconds, by name."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}

    def run(self, name: str, function: Any, *args: Any) -> Any:
        started = time.perf_counter()
        value = function(*args)
        self.times[name] = (time.perf_counter() - started) * 1000.0
        return value


def own_and_reference(solvers: Sequence[str]) -> tuple[str, str | None]:
    """Our solver (``cdcl`` if it ran, else the first) and the reference it is compared with."""
    own = "cdcl" if "cdcl" in solvers else solvers[0]
    others = [s for s in solvers if s != own]
    preferred = [s for s in others if s == "zchaff" or s == REFERENCE_FALLBACK]
    return own, (preferred or others or [None])[0]  # type: ignore[list-item]


def scatter_comment(
    results: pd.DataFrame, own: str, reference: str, time_column: str = "total_ms"
) -> str:
    """One sentence on a scatter plot: on how many instances each solver was faster."""
    pair = paired(results, own, reference, time_column)
    both = pair[pair["answered_x"] & pair["answered_y"]].dropna(subset=["x", "y"])
    faster = int((both["y"] < both["x"]).sum())
    ratio = (both["y"] / both["x"]).median() if len(both) else math.nan
    what = stage_name(time_column)
    return (
        f"both solvers decided {len(both)} instances; {own} was faster on {faster} "
        f"of them and {reference} on {len(both) - faster}. The median ratio of {own}'s "
        f"{what} to {reference}'s is {ratio:.2f} (points below the diagonal: {own} faster)."
    )


def search_column(results: pd.DataFrame, solvers: Sequence[str]) -> str:
    """``search_ms`` when every one of `solvers` has it on its answers, else ``solve_ms``."""
    answered = results[results["status"].isin(DECIDED) & results["solver"].isin(solvers)]
    if len(answered) and answered["search_ms"].notna().all():
        return "search_ms"
    return "solve_ms"


def comparison_text(results: pd.DataFrame, own: str, reference: str | None) -> str:
    """What the two comparisons of the page measure and what they show, from the data (Markdown).

    Total time is what a user waits for; for an in-process reference it
    includes copying the formula into it. Search time alone compares the
    solving procedures. The sentence on loading names the order where the
    reference's loading is the largest share of its total.
    """
    if reference is None:
        return "Only one solver ran: there is nothing to compare it with."
    column = search_column(results, [own, reference])
    parts = [
        "**Total time** (encode + solve + decode) is what a user waits for: "
        + scatter_comment(results, own, reference, "total_ms"),
        f"**{stage_name(column).capitalize()}** compares the solving procedures alone"
        + (
            ", without loading the formula into the solver: "
            if column == "search_ms"
            else " (the reference runs as a separate program, so its load cannot be split off): "
        )
        + scatter_comment(results, own, reference, column),
    ]
    mine = results[(results["solver"] == reference) & results["status"].isin(DECIDED)]
    if len(mine) and mine["load_ms"].notna().any():
        share = (mine["load_ms"] / mine["total_ms"]).groupby(mine["order"]).median()
        order = int(share.idxmax())
        parts.append(
            f"**Loading** the formula into {reference} takes a median "
            f"{100 * share.max():.0f}% of its total time on order {order} "
            f"(order {order} formulas have about "
            f"{int(mine[mine['order'] == order]['clauses'].median()):,} clauses)."
        )
    return "\n\n".join(parts)


TIME_PARTS = {
    "encode": "encoding",
    "load": "loading",
    "search": "search",
    "other": "the rest of the solve",
    "solve": "solving",
    "decode": "decoding",
}
"""The parts of an instance's time that :func:`stage_comment` and :func:`plot_time_split` name.

Where load and search are measured (solvers run in this process), the solve
is drawn as load, search and ``other``, the rest of the solve (reading the
model out of the solver and checking it), which is the median solve less the
median load and search; elsewhere the solve is one part, ``solve``.
"""


def _known_parts(row: pd.Series) -> dict[str, float]:
    """The median parts (ms) of one :func:`time_split_table` row, in run order (see TIME_PARTS)."""
    split = not (pd.isna(row["load ms"]) and pd.isna(row["search ms"]))
    values = {part: row.get(f"{part} ms", math.nan) for part in TIME_PARTS}
    if split:
        inner = sum(v for v in (values["load"], values["search"]) if not pd.isna(v))
        values["other"] = max(values["solve"] - inner, 0.0)
        values["solve"] = math.nan
    return {part: float(value) for part, value in values.items() if not pd.isna(value)}


def stage_comment(results: pd.DataFrame) -> str:
    """Where the time goes, per solver and order, read from the results (one paragraph).

    The parts are those :func:`plot_time_split` draws, from :func:`time_split_table`
    (see :data:`TIME_PARTS`), each a median over the decided instances, as a
    share of the median total.
    """
    table = time_split_table(results)
    sentences = []
    for _, row in table.iterrows():
        known = _known_parts(row)
        total = row["total ms"]
        if not known or not total or pd.isna(total):
            continue
        top = max(known, key=lambda part: known[part])
        sentences.append(
            f"{row['solver']}, order {row['order']}: {TIME_PARTS[top]} "
            f"({100 * known[top] / total:.0f}% of the median total of {total:.1f} ms)"
        )
    if not sentences:
        return "No instance was decided: there is no time to break down."
    return "The largest part of the time, per solver and order: " + "; ".join(sentences) + "."


@styled
def plot_time_split(results: pd.DataFrame) -> Figure:
    """Where the time goes: the median parts of :func:`time_split_table`, one panel per order.

    Each panel has its own millisecond scale, so small orders stay readable
    beside large ones. A bar stacks, for one solver, the medians of the parts
    of :data:`TIME_PARTS` (encode, load, search, the rest of the solve,
    decode; the whole solve where load and search are not measured apart); a
    black tick marks the median total, of which :func:`stage_comment` takes shares.

    Parameters
    ----------
    results : DataFrame
        The results table; only decided instances (SAT, UNSAT) count.

    Returns
    -------
    Figure
        One panel per order, in increasing order (one empty panel when nothing was decided).
    """
    table = time_split_table(results)
    orders = sorted(table["order"].unique())
    figure, axes = panels(len(orders), width=max(3.6, 7.2 / max(len(orders), 1)), height=4.4)
    colours = {part: COLOURS[(k + 2) % len(COLOURS)] for k, part in enumerate(TIME_PARTS)}
    colours["other"] = "#b0b0b0"  # a remainder, not a step of its own
    drawn: set[str] = set()
    for ax, order in zip(axes, orders, strict=False):
        rows = table[table["order"] == order].reset_index(drop=True)
        for x, row in rows.iterrows():
            bottom = 0.0
            for part, value in _known_parts(row).items():
                label = None if part in drawn else _PART_LABELS[part]
                drawn.add(part)
                ax.bar(x, value, bottom=bottom, color=colours[part], width=0.6, label=label)
                bottom += value
            label = None if "total" in drawn else "median total"
            drawn.add("total")
            ax.plot([x - 0.38, x + 0.38], [row["total ms"]] * 2, color="black", lw=1.5, label=label)
        names = [f"{r.solver}\n{_instances(int(r.instances))}" for r in rows.itertuples()]
        ax.set_xticks(range(len(rows)), names, fontsize=8)
        ax.set_title(f"order {order}")
        ax.set_xlabel("solver and instances decided")
        ax.grid(True, axis="y")
    axes[0].set_ylabel("median time per instance (ms)")
    figure.suptitle("Where the time goes, per order (own scale per panel)")
    if drawn:
        figure.legend(loc="outside lower center", ncols=min(len(drawn), 4))
    return figure


_PART_LABELS = {
    "encode": "encode",
    "load": "load into the solver",
    "search": "search",
    "other": "rest of the solve",
    "solve": "solve (not split)",
    "decode": "decode",
}


GRADED_INSTANCES = "data/instances.txt"
"""The report's own instance file, whose order-3 puzzles ``data/make_data.py`` chose by grade."""

def instances_text(
    results: pd.DataFrame,
    instances: str | None,
    solver: str = "cdcl",
    *,
    boards: Mapping[int, Board] | None = None,
) -> str:
    """How hard the order-3 instances were for `solver`, computed from the results (Markdown).

    The figures for all order-3 instances are those of :func:`difficulty_table`
    (same data, same rounding). For the report's own instance file, given its
    `boards`, it also says which lines ``data/make_data.py`` chose as graded
    puzzles (order 3, not the course's example, givens that do not clash) and
    how, gives this run's conflicts on those lines alone and says whether they
    keep the file's order: the grades were taken with the ``cdcl`` of the day
    the file was written, which a later solver need not reproduce.

    Parameters
    ----------
    results : DataFrame
        The results table.
    instances : str or None
        The instance file the run read (the manifest's ``instances``).
    solver : str
        Whose conflicts to read.
    boards : mapping line -> Board, optional
        The input boards (:func:`read_run`); without them the file is not described.
    """
    own = bool(instances) and Path(str(instances)).as_posix().endswith(GRADED_INSTANCES)
    graded = _graded_lines(boards) if own and boards else []
    text = _made_text(boards, graded) if own and boards else ""
    table = difficulty_table(results)
    row = table[(table["solver"] == solver) & (table["order"] == 3)]
    if row.empty or pd.isna(row["median conflicts"].iloc[0]):
        return text + f"No order-3 instance was decided by {solver} in this run."
    row = row.iloc[0]
    text += f"In this run {solver} " + _conflicts_phrase(
        [int(row["least conflicts"]), int(row["most conflicts"])],
        int(row["instances"]),
        float(row["median conflicts"]),
        int(row[f"more than {HARD_CONFLICTS}"]),
        ("instance of order 3 it decided", "instances of order 3 it decided"),
    )
    decided = results[(results["solver"] == solver) & results["status"].isin(DECIDED)]
    mine = decided[decided["line"].isin(graded)].sort_values("line")["conflicts"].dropna()
    if len(mine):
        kept = "keep" if mine.is_monotonic_increasing else "do not keep"
        text += (
            f" On the graded puzzles alone ({_line_ranges(graded)}) it "
            + _conflicts_phrase(
                [int(mine.min()), int(mine.max())],
                len(mine),
                float(mine.median()),
                int((mine > HARD_CONFLICTS).sum()),
                ("graded puzzle it decided", "graded puzzles it decided"),
            )
            + " The file lists them easiest first by the grades `cdcl` gave when it was "
            f"written; this run's counts {kept} that order."
        )
    return text


def _conflicts_phrase(
    extremes: Sequence[int], count: int, median: float, above: int, noun: tuple[str, str]
) -> str:
    """Conflict counts in words, rounded as :func:`difficulty_table` shows them (a sentence's end).

    ``needed from 0 to 111 conflicts on the 50 <plural> (median 15.5); 17 of them
    needed more than 30.``; for one instance, ``needed 19 conflicts on the one <singular>.``
    `noun` is (singular, plural).
    """
    least, most = extremes
    if count == 1:
        return f"needed {least:,} conflicts on the one {noun[0]}."
    return (
        f"needed from {least:,} to {most:,} conflicts on the {count:,} {noun[1]} "
        f"(median {median:,.1f}); {above:,} of them needed more than {HARD_CONFLICTS}."
    )


def _graded_lines(boards: Mapping[int, Board]) -> list[int]:
    """Lines of order-3 puzzles other than the course's example whose givens do not clash."""
    example = Board.parse(COURSE_EXAMPLE)
    return sorted(
        line for line, board in boards.items()
        if board.order == 3 and board != example and board.is_consistent()
    )


def _made_text(boards: Mapping[int, Board], graded: Sequence[int]) -> str:
    """How ``data/make_data.py`` made the report's own file, scoped to the lines it concerns
    (`graded`: :func:`_graded_lines` of `boards`)."""
    clashing = sorted(line for line, board in boards.items() if not board.is_consistent())
    text = ""
    if graded:
        text = (
            f"The order-3 puzzles on {_line_ranges(graded)} of `{GRADED_INSTANCES}` are "
            "minimal puzzles with exactly one solution (no given can be removed without "
            "allowing a second one), made by `data/make_data.py` with the project's generator "
            "from a fixed seed and chosen from a larger batch by the conflicts `cdcl` needed on "
            "them when the file was written: half are the hardest of the batch, half spread evenly "
            "over the other grades (`data/README.md` gives the numbers). "
        )
    if clashing:
        holds = "holds a board" if len(clashing) == 1 else "hold boards"
        text += (
            f"{_line_ranges(clashing).capitalize()} {holds} whose givens clash, there for the "
            "UNSAT path (see the end of the page). "
        )
    return text


def _line_ranges(lines: Sequence[int]) -> str:
    """Sorted line numbers as words: ``lines 2–49 and 57``, ``line 5``."""
    spans: list[list[int]] = []
    for line in lines:
        if spans and line == spans[-1][1] + 1:
            spans[-1][1] = line
        else:
            spans.append([line, line])
    words = [f"{a}" if a == b else f"{a}–{b}" for a, b in spans]
    return ("line " if len(lines) == 1 else "lines ") + and_join(words)


def run_description(
    instances: Any,
    time_limit_ms: Any,
    solvers: Sequence[str],
    encoding: str,
    notes: Sequence[str] = (),
) -> str:
    """A Markdown paragraph naming what a run used, with the notes (e.g. zChaff's stand-in)."""
    limit = f"{float(time_limit_ms):g} ms" if time_limit_ms is not None else "none"
    text = (
        f"**Instance file** `{instances}` · **time limit T** {limit} for every solver · "
        f"**solvers** {', '.join(f'`{s}`' for s in solvers)} · **encoding** `{encoding}`"
    )
    return "\n\n".join([text, *(f"> **Note.** {note}" for note in notes)])


def read_run(
    results: str | os.PathLike[str],
) -> tuple[pd.DataFrame, dict[str, Any], dict[int, Board]]:
    """A run as the results page reads it: the table, its manifest, the input boards by line."""
    table = load_results(results)
    manifest = read_manifest(results)
    named = manifest.get("instances")
    return table, manifest, read_instances(named) if named else {}


def run_text(table: pd.DataFrame, manifest: Mapping[str, Any]) -> str:
    """What a run used and how its times were taken (Markdown), from its table and manifest."""
    described = run_description(
        manifest.get("instances", "?"),
        manifest.get("time_limit_ms"),
        solver_order(table),
        manifest.get("encoding", "?"),
        manifest.get("notes", []),
    )
    return described + "\n\n" + method_text(manifest)


# -- the rules loaded once (issue 14): the course's mode beside the incremental one ----------

MODES = ("fresh CNF", "rules loaded once")
"""The two ways the experiment page runs our solver on the same instances."""


def mode_comparison(
    instances: str | os.PathLike[str],
    time_limit_ms: float,
    encoding: str = "course",
    solver: str = "cdcl",
) -> pd.DataFrame:
    """Each instance solved both ways, alternately, under the same T: one row per instance and mode.

    *fresh CNF* is the course's mode (the whole formula built and loaded for
    every instance, what every solver of the experiment gets); *rules loaded
    once* keeps one solver loaded with the rules of each order and gives each
    instance's givens as assumptions (``sudosat solve --incremental``). The
    two runs of one instance follow each other, so a busy machine slows both
    alike. The first instance of each order in incremental mode pays for
    building and loading the rules, as a batch would. An encoding built from
    the givens (the optimised ones) cannot be loaded once: ``course`` stands
    in for it, and the ``encoding`` column says so.

    Returns
    -------
    DataFrame
        Columns ``line``, ``mode``, ``encoding``, ``status``, ``output``,
        ``encode_ms``, ``solve_ms`` and ``total_ms``.
    """
    from sudosat.errors import EncodingError
    from sudosat.run.runner import run_instance
    from sudosat.sudoku.incremental import check_encoding, forget_loaded

    try:
        check_encoding(encoding)
    except EncodingError:
        encoding = "course"

    forget_loaded()  # the first puzzle of each order loads the rules, as in a fresh batch
    rows = []
    for line, board in read_instances(instances).items():
        for mode, incremental in zip(MODES, (False, True), strict=True):
            done = run_instance(board, solver, encoding, time_limit_ms, incremental=incremental)
            row = done.row
            rows.append({"line": line, "mode": mode, "encoding": encoding,
                         "status": str(row.status),
                         "output": done.output_line, "encode_ms": row.encode_ms,
                         "solve_ms": row.solve_ms, "total_ms": row.total_ms})
    forget_loaded()
    return pd.DataFrame(rows)


def mode_table(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per mode: instances, answers, and the median and 90th-percentile milliseconds."""
    table = comparison.groupby("mode", sort=False).agg(
        instances=("line", "size"),
        decided=("status", lambda status: int(status.isin(DECIDED).sum())),
        encode=("encode_ms", "median"),
        solve=("solve_ms", "median"),
        total=("total_ms", "median"),
        p90=("total_ms", lambda total: total.quantile(0.9)),
    )
    table = table.rename(columns={"encode": "median encode ms", "solve": "median solve ms",
                                  "total": "median total ms", "p90": "p90 total ms"})
    return table.reindex([mode for mode in MODES if mode in table.index])


def modes_text(comparison: pd.DataFrame) -> str:
    """What the two modes' table says, every number computed from it."""
    medians = comparison.groupby("mode")["total_ms"].median()
    fresh, loaded = medians[MODES[0]], medians[MODES[1]]
    if loaded > 0 and fresh >= loaded:
        speed = f"{fresh / loaded:.1f} times faster with the rules loaded once"
    else:
        speed = f"{loaded / fresh:.1f} times slower with the rules loaded once"
    encoding = comparison["encoding"].iloc[0]
    return (
        f"{_mode_differences(comparison)} (the {encoding} encoding). The median instance took "
        f"{fresh:.1f} ms with a fresh CNF and {loaded:.1f} ms with the rules loaded once: "
        f"{speed}. The course's comparison keeps the fresh CNF, which every solver of the "
        "table above gets."
    )


def _mode_differences(comparison: pd.DataFrame) -> str:
    """Whether the two modes printed the same lines, and why not where they did not."""
    wide = comparison.pivot(index="line", columns="mode", values=["output", "status"])
    output, status = wide["output"], wide["status"]
    differ = output[MODES[0]] != output[MODES[1]]
    if not differ.any():
        return "Both modes gave the same output line on every instance"
    both_decided = status[MODES[0]].isin(DECIDED) & status[MODES[1]].isin(DECIDED)
    same_status = status[MODES[0]] == status[MODES[1]]
    reasons = [
        (int((differ & ~both_decided).sum()),
         "with no answer in one mode (a time-out or an error)"),
        # Two different boards, each checked against the puzzle: it has several solutions.
        (int((differ & both_decided & same_status).sum()),
         "with several solutions, each mode printing a checked one of its own"),
        (int((differ & both_decided & ~same_status).sum()),
         "with SAT in one mode and UNSAT in the other"),
    ]
    said = "; ".join(f"{_instances(count)} {why}" for count, why in reasons if count)
    return (f"The modes gave the same output line on {int((~differ).sum())} of "
            f"{_instances(len(differ))} ({said})")


def _instances(count: int) -> str:
    return f"{count} instance" if count == 1 else f"{count} instances"
