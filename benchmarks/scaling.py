"""Scaling benchmark: the N x alpha grid, orders 7 to 9, the largest quarter-filled N.

Parts (each prints a table and writes a CSV under --out):

grid
    N in {3,4,5,6} x alpha in {0, 0.2, 0.4, 0.6}, a few boards per cell, our
    ``cdcl`` and PySAT's CaDiCaL through the same registry, same limits, same
    formula (optimised encoding). Every time is CPU time, the columns named by
    their clock (``solve_cpu_ms`` ...); CaDiCaL's search is timed apart from
    its loading (``search_cpu_ms``, ``load_cpu_ms``): for the largest formulas
    most of its time is handing the clauses from Python to C.
large
    orders 7, 8, 9 at alpha = 0.75 and 0.5 with the optimised encoding, each
    board in a fresh process so its peak memory is its own; the time counted
    is encoding plus search plus decoding (generating the board is not).
quarter
    the largest order at which cdcl solves a board with a quarter of its cells
    given within --quarter-limit (default 300 s), trying N = 3, 4, ... up to 9.
sizes
    encoding size and build time against N for every encoding, empty and half
    filled, through the encoding benchmark (benchmarks/encoding.py); a table,
    and log-scale plots saved as figures/scaling-encodings-*.png and .svg.

The limit is T in CPU time (``-T``), or with ``--max-conflicts`` a conflict
budget, which decides the same boards on every machine and at every load, T
then a safety net far above it (the report's scaling page runs the grid so).

Usage::

    python benchmarks/scaling.py                       # every part
    python benchmarks/scaling.py --parts grid --max-conflicts 20000 -T 600000
    python benchmarks/scaling.py --parts grid --boards 2
    python benchmarks/scaling.py --parts large quarter --out build/bench
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
from pathlib import Path

import pandas as pd

from sudosat.run.generate import generate, generate_many
from sudosat.run.runner import prepare
from sudosat.studies.scaling import (
    cell_seed,
    measure,
    measure_isolated,
    ratio_table,
)

OWN, REFERENCE = "cdcl", "pysat:cadical195"
ENCODING = "optimised"
PARTS = ("grid", "large", "quarter", "sizes")
ROOT = Path(__file__).resolve().parent.parent
# `make bench` points SUDOSAT_BENCH_RESULTS at build/bench/: the CSVs and the plots of a
# rerun go there, and the committed runs and figures (which the READMEs quote) stay.
OUTPUT = os.environ.get("SUDOSAT_BENCH_RESULTS")
RESULTS = Path(OUTPUT) if OUTPUT else ROOT / "benchmarks" / "results"
FIGURES = Path(OUTPUT) if OUTPUT else ROOT / "figures"


def run_grid(orders, alphas, boards: int, time_limit_ms: float, seed: int,
             max_conflicts: int | None = None) -> pd.DataFrame:
    """Every cell of the grid: both solvers through the registry, CaDiCaL's loading and search
    apart (its row's ``load_cpu_ms`` and ``search_cpu_ms``)."""
    rows = []
    for order in orders:
        for alpha in alphas:
            first = cell_seed(seed, order, alpha)
            for index, board in enumerate(generate_many(order, alpha, boards, seed=first)):
                prepared = prepare(board, ENCODING)  # built once behind the memory guard
                for solver in (OWN, REFERENCE):
                    row = measure(board, solver, ENCODING, time_limit_ms=time_limit_ms,
                                  max_conflicts=max_conflicts, prepared=prepared)
                    row.update(alpha=alpha, board=index, seed=first + index)
                    rows.append(row)
                    _progress(row)
    return pd.DataFrame(rows)


def grid_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell: median solve CPU times of both solvers, their ratio, CaDiCaL's search CPU
    time."""
    ratios = ratio_table(table, OWN, REFERENCE)
    reference = table[table["solver"] == REFERENCE]
    search = reference.groupby(["encoding", "order", "alpha"])["search_cpu_ms"]
    ratios[f"{REFERENCE} search cpu ms"] = search.median()
    ratios[f"{REFERENCE} search max cpu ms"] = search.max()
    ratios["ratio to search"] = ratios[f"{OWN} cpu ms"] / ratios[f"{REFERENCE} search cpu ms"]
    ratios[f"{OWN} max cpu ms"] = table[table["solver"] == OWN].groupby(
        ["encoding", "order", "alpha"])["solve_cpu_ms"].max()
    ratios["clauses"] = table.groupby(["encoding", "order", "alpha"])["clauses"].median()
    return ratios


def run_large(orders, alphas, time_limit_ms: float, seed: int,
              encoding: str = ENCODING, max_conflicts: int | None = None) -> pd.DataFrame:
    """Orders 7..9: one board per (order, alpha), solved by cdcl in a fresh process."""
    rows = []
    for alpha in alphas:
        for order in orders:
            board = generate(order, alpha, seed=cell_seed(seed, order, alpha))
            row = measure_isolated(board, OWN, encoding, time_limit_ms=time_limit_ms,
                                   max_conflicts=max_conflicts)
            row.update(alpha=alpha, seed=cell_seed(seed, order, alpha))
            rows.append(row)
            _progress(row, memory=True)
    return pd.DataFrame(rows)


def run_quarter(time_limit_ms: float, seed: int, first_order: int = 3, max_order: int = 9,
                encoding: str = ENCODING) -> pd.DataFrame:
    """Orders first_order, ... with a quarter of the cells given, until cdcl misses the limit."""
    rows = []
    for order in range(first_order, max_order + 1):
        board = generate(order, 0.25, seed=cell_seed(seed, order, 0.25))
        row = measure_isolated(board, OWN, encoding, time_limit_ms=time_limit_ms)
        row.update(alpha=0.25, seed=cell_seed(seed, order, 0.25))
        rows.append(row)
        _progress(row, memory=True)
        if row["status"] != "SAT":
            break
    return pd.DataFrame(rows)


def run_sizes(orders, alpha: float, max_build: int) -> pd.DataFrame:
    """Size and build time of every encoding against N, from the encoding benchmark.

    Reuses ``scaling_rows`` of benchmarks/encoding.py (each build in a fresh
    process; encodings above `max_build` clauses are sized by ``estimate``).
    """
    path = Path(__file__).with_name("encoding.py")
    spec = importlib.util.spec_from_file_location("encoding_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = pd.DataFrame(module.scaling_rows(list(orders), alpha, 1, max_build))
    rows["build_ms"] = pd.to_numeric(rows["build_ms"], errors="coerce")
    return rows.pivot_table(index=["board", "order"], columns="encoding",
                            values=["clauses", "build_ms"], aggfunc="first")


def plot_sizes(sizes: pd.DataFrame, figures: Path) -> None:
    """Clauses and build time against N for every encoding (log scale), one panel per board."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sudosat.report.plots import legend_outside, save_figure

    boards = list(dict.fromkeys(sizes.index.get_level_values("board")))
    for measure_name, label in (("clauses", "clauses"), ("build_ms", "build time (ms)")):
        figure, axes = plt.subplots(1, len(boards), figsize=(5.5 * len(boards), 4),
                                    squeeze=False, sharey=True, layout="constrained")
        for axis, board in zip(axes[0], boards, strict=True):
            part = sizes.loc[board, measure_name]
            for name in part.columns:
                series = part[name].dropna()
                axis.plot(series.index, series.values, marker="o", label=name)
            axis.set_yscale("log")
            axis.set_xlabel("order N")
            axis.set_title(f"{board} board")
            axis.grid(True, which="both", alpha=0.3)
        axes[0][0].set_ylabel(label)
        legend_outside(axes[0][-1], fontsize="small")  # beside the panels: it covers no line
        measure = measure_name.replace("_ms", "")
        save_figure(figure, f"scaling-encodings-{measure}-vs-order", figures)
        plt.close(figure)


def _progress(row: dict, memory: bool = False) -> None:
    extra = f" {row['peak_rss_mb']:8.0f} MB" if memory else ""
    print(f"  N={row['order']} alpha={row['alpha']:.2f} {row['solver']:>17} {row['status']:>7} "
          f"encode {row['encode_cpu_ms'] or 0:9.0f} ms  solve {row['solve_cpu_ms'] or 0:9.0f} ms "
          f"of CPU  clauses {row['clauses'] or 0:>10,}{extra}", file=sys.stderr, flush=True)


def _show(title: str, frame: pd.DataFrame, path: Path) -> None:
    frame.to_csv(path)
    print(f"\n== {title}  ({path})")
    with pd.option_context("display.width", 200, "display.max_columns", 30,
                           "display.float_format", "{:,.2f}".format):
        print(frame.to_string())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--orders", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--alphas", type=float, nargs="+", default=[0.0, 0.2, 0.4, 0.6])
    parser.add_argument("--boards", type=int, default=3, help="boards per grid cell (default 3)")
    parser.add_argument("-T", "--time-limit", dest="time_limit_ms", type=float, default=60_000,
                        help="grid limit in ms of CPU time (default 60000)")
    parser.add_argument("--max-conflicts", type=int, default=None,
                        help="conflict budget of the grid and large parts: the same boards "
                        "decided on every machine (default none; T then only a safety net)")
    parser.add_argument("--large-orders", type=int, nargs="+", default=[7, 8, 9])
    parser.add_argument("--large-alphas", type=float, nargs="+", default=[0.75, 0.5])
    parser.add_argument("--large-limit", type=float, default=300_000,
                        help="limit in ms of CPU time for the large orders (default 300000)")
    parser.add_argument("--quarter-limit", type=float, default=300_000,
                        help="limit in ms of CPU time for the quarter-filled search "
                        "(default 300000)")
    parser.add_argument("--size-orders", type=int, nargs="+", default=list(range(2, 10)))
    parser.add_argument("--max-build-clauses", type=int, default=4_000_000,
                        help="encodings larger than this are sized by estimate() only")
    parser.add_argument("--figures", type=Path, default=FIGURES, help="directory of the size plots")
    parser.add_argument("--quarter-from", type=int, default=3, help="first order tried")
    parser.add_argument("--encoding", default=ENCODING,
                        help="encoding of the large and quarter parts (default optimised)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS, help="directory of the CSV files")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if "grid" in args.parts:
        table = run_grid(args.orders, args.alphas, args.boards, args.time_limit_ms, args.seed,
                         args.max_conflicts)
        table.to_csv(out / "scaling-grid-rows.csv", index=False)
        summary = grid_summary(table)
        _show("grid: median CPU ms per cell, ratio = cdcl / CaDiCaL (through the registry)",
              summary, out / "scaling-grid.csv")
        _verdict_grid(table, args.time_limit_ms)
    if "large" in args.parts:
        large = run_large(args.large_orders, args.large_alphas, args.large_limit, args.seed,
                          args.encoding, args.max_conflicts)
        _show(f"large orders, {args.encoding} encoding, cdcl", _large_view(large),
              out / "scaling-large.csv")
    if "quarter" in args.parts:
        quarter = run_quarter(args.quarter_limit, args.seed, args.quarter_from,
                              encoding=args.encoding)
        _show(f"a quarter of the cells given, {args.encoding} encoding, cdcl", _large_view(quarter),
              out / "scaling-quarter.csv")
        solved = quarter[quarter["status"] == "SAT"]["order"]
        print(f"largest order solved with alpha = 0.25 within {args.quarter_limit / 1000:.0f} s "
              "of CPU: "
              f"{solved.max() if len(solved) else 'none'}")
    if "sizes" in args.parts:
        sizes = run_sizes(args.size_orders, 0.5, args.max_build_clauses)
        _show("encoding size and build time against N", sizes, out / "scaling-sizes.csv")
        plot_sizes(sizes, Path(args.figures))
    return 0


def _large_view(frame: pd.DataFrame) -> pd.DataFrame:
    columns = ["order", "alpha", "givens", "status", "stop", "valid", "encode_cpu_ms",
               "solve_cpu_ms", "total_cpu_ms", "variables", "clauses", "conflicts", "peak_rss_mb"]
    return frame[columns].set_index(["order", "alpha"])


def _verdict_grid(table: pd.DataFrame, time_limit_ms: float) -> None:
    own = table[table["solver"] == OWN]
    reference = table[table["solver"] == REFERENCE]
    worst_own = own["solve_cpu_ms"].max()
    search = reference["search_cpu_ms"].dropna()
    print(f"\ncdcl: {int((own['status'] == 'SAT').sum())}/{len(own)} solved, slowest "
          f"{worst_own / 1000:.1f} s of CPU (target 60 s); CaDiCaL search: slowest "
          f"{search.max() / 1000:.2f} s of CPU (target 1 s), median "
          f"{statistics.median(search):.0f} ms; limit {time_limit_ms / 1000:.0f} s of CPU")


if __name__ == "__main__":
    sys.exit(main())
