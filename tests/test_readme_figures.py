"""The measured figures of the documentation are the ones its cited benchmark CSVs hold.

A benchmark run recorded under ``benchmarks/results/`` (a script run with its
defaults, or ``make bench BENCH_OUT=benchmarks/results``) rewrites its CSV
there; ``docs/performance.md`` quotes a few of its medians, each with the CSV
and the command. Each test below recomputes those figures from the CSV the
page names and compares them with the quoted text at the precision it is
written in, so a stale sentence fails here instead of telling a reader a
number the data no longer shows. The README and ``docs/analysis.md`` quote no
measurement; every CSV any of them names must exist.
"""

from __future__ import annotations

import csv
import math
import re
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DOCS = ("README.md", "docs/analysis.md", "docs/performance.md", "benchmarks/README.md")
PERFORMANCE = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")


def rows(name: str) -> list[dict[str, str]]:
    with (RESULTS / name).open(newline="") as handle:
        return list(csv.DictReader(handle))


def quoted(pattern: str) -> list[str]:
    """The numbers the sentence of docs/performance.md matching `pattern` states, as written.

    A space in `pattern` matches any run of white space: rewrapping a paragraph keeps it.
    """
    found = re.search(pattern.replace(" ", r"\s+"), PERFORMANCE, re.DOTALL)
    assert found, f"docs/performance.md no longer has a sentence matching {pattern!r}"
    return list(found.groups())


def agrees(stated: str, measured: float) -> bool:
    """True when `measured`, rounded to the decimals of `stated`, reads as `stated`."""
    decimals = len(stated.partition(".")[2])
    return f"{measured:.{decimals}f}" == stated


def assert_all_agree(stated: list[str], measured: list[float], what: list[str]) -> None:
    wrong = [f"{name}: the page says {text}, the CSV gives {value:.4g}"
             for name, text, value in zip(what, stated, measured, strict=True)
             if not agrees(text, value)]
    assert not wrong, "; ".join(wrong)


def test_agrees_reads_the_precision_of_the_text():
    assert agrees("8.5", 8.48) and agrees("122", 122.09) and agrees("0.69", 0.6949)
    assert not agrees("8.5", 8.56) and not agrees("39", 38.4) and not agrees("0.70", 0.6949)


def test_the_solver_medians_are_those_of_solvers_csv():
    least: dict[tuple[str, str, str], float] = {}  # best of the repeats, as the script reports
    for row in rows("solvers.csv"):
        key = (row["set"], row["solver"], row["instance"])
        least[key] = min(least.get(key, math.inf), float(row["solve_ms"]))

    def median(set_name: str, solver: str) -> float:
        return statistics.median(
            ms for (name, who, _), ms in least.items() if name == set_name and who == solver
        )

    def ratio(set_name: str) -> float:  # cdclkit's median over ours, on the instances it ran
        ran = {i for (name, who, i) in least if name == set_name and who == "cdclkit"}
        theirs = [ms for (name, who, i), ms in least.items()
                  if name == set_name and who == "cdclkit"]
        ours = [ms for (name, who, i), ms in least.items()
                if name == set_name and who == "cdcl" and i in ran]
        return statistics.median(theirs) / statistics.median(ours)

    stated = quoted(
        r"top2365\.sdk\.txt`: ([\d.]+) ms; on 35 of `damnhard\.sdk\.txt`: ([\d.]+) ms; on "
        r"50 of `16x16\.txt`: ([\d.]+) ms; PySAT's Minisat22 \(C\+\+\) on the same: "
        r"([\d.]+), ([\d.]+) and ([\d.]+) ms; the pure-Python `cdclkit` ([\d.]+), ([\d.]+) and "
        r"([\d.]+) ms \(the last on the (\d+) it reached within its budget\), and on random "
        r"3-SAT of 50, 100 and 150 variables ([\d.]+), ([\d.]+) and ([\d.]+) times our time "
        r"\(`benchmarks/results/solvers\.csv`"
    )
    cases = [(s, solver) for solver in ("cdcl", "minisat22", "cdclkit")
             for s in ("top2365-200", "damnhard", "16x16-50")]
    reached = sum(1 for (name, who, _) in least if name == "16x16-50" and who == "cdclkit")
    randoms = ["random3sat-50", "random3sat-100", "random3sat-150"]
    assert_all_agree(
        stated,
        [*(median(*case) for case in cases), reached, *(ratio(s) for s in randoms)],
        [*(" ".join(c) for c in cases), "16x16 puzzles cdclkit reached",
         *(f"{s} ratio" for s in randoms)],
    )


def incremental_medians(name: str):
    """Two readers of an ``incremental.py`` CSV: (interleaved, back_to_back)(set, mode)."""
    table = rows(name)

    def interleaved(set_name: str, mode: str) -> float:
        return statistics.median(float(row["cpu_ms"]) for row in table
                                 if row["set"] == set_name and row["mode"] == mode)

    def back_to_back(set_name: str, mode: str) -> float:  # the least median of the passes
        passes: dict[str, list[float]] = {}
        for row in table:
            if row["set"] == set_name and row["mode"] == mode:
                passes.setdefault(row["pass"], []).append(float(row["cpu_ms"]))
        return min(map(statistics.median, passes.values()))

    return interleaved, back_to_back


def test_the_incremental_figures_are_those_of_incremental_csv():
    interleaved, back_to_back = incremental_medians("incremental.csv")
    top, course = "top2365/10", "course"
    stated = quoted(
        r"encoding took a median ([\d.]+) ms of CPU per puzzle on every 10th puzzle of top2365 "
        r"\(([\d.]+) times the Norvig-style solver\) and the default mode ([\d.]+) ms; on "
        r"`data/instances\.txt` ([\d.]+) ms and ([\d.]+) ms\. Interleaved .*?"
        r"extended incremental mode took ([\d.]+) and ([\d.]+) ms \(([\d.]+) and ([\d.]+) times "
        r"Norvig\)\. With the course encoding the incremental mode is the slower one "
        r"\(([\d.]+) and ([\d.]+) ms, interleaved\)"
    )
    measured = [
        back_to_back(top, "file-incr-extended"),
        back_to_back(top, "file-incr-extended") / back_to_back(top, "file-norvig"),
        back_to_back(top, "file-course"),
        back_to_back(course, "file-incr-extended"),
        back_to_back(course, "file-course"),
        interleaved(top, "incr-extended"),
        interleaved(course, "incr-extended"),
        interleaved(top, "incr-extended") / interleaved(top, "norvig"),
        interleaved(course, "incr-extended") / interleaved(course, "norvig"),
        interleaved(top, "incremental"),
        interleaved(course, "incremental"),
    ]
    what = ["back to back, extended, top2365", "its ratio to Norvig", "default, top2365",
            "back to back, extended, course", "default, course", "interleaved, extended, top2365",
            "interleaved, extended, course", "its ratio to Norvig, top2365",
            "its ratio to Norvig, course", "incremental course encoding, top2365",
            "incremental course encoding, course"]
    assert_all_agree(stated, measured, what)


def test_the_incremental_rerun_ratios_are_those_of_both_csvs():
    stated = quoted(
        r"the extended incremental mode took ([\d.]+) and ([\d.]+) times Norvig \(top2365 and "
        r"`data/instances\.txt`; ([\d.]+) and ([\d.]+) in `incremental\.csv`\) and the default "
        r"mode ([\d.]+) and ([\d.]+) times \(([\d.]+) and ([\d.]+)\); interleaved, the course "
        r"encoding's incremental mode took ([\d.]+) and ([\d.]+) times Norvig \(([\d.]+) and "
        r"([\d.]+)\)"
    )
    sets = ("top2365/10", "course")
    ratios: dict[str, list[float]] = {"extended": [], "default": [], "incremental": []}
    for name in ("incremental-2026-11-28.csv", "incremental.csv"):
        interleaved, back_to_back = incremental_medians(name)
        for set_name in sets:
            norvig = back_to_back(set_name, "file-norvig")
            ratios["extended"].append(back_to_back(set_name, "file-incr-extended") / norvig)
            ratios["default"].append(back_to_back(set_name, "file-course") / norvig)
            ratios["incremental"].append(
                interleaved(set_name, "incremental") / interleaved(set_name, "norvig"))
    # The page gives each pair as the rerun's two sets, then the earlier run's.
    measured = [*ratios["extended"], *ratios["default"], *ratios["incremental"]]
    what = [f"{kind}, {run}, {set_name}" for kind in ratios for run in ("rerun", "earlier")
            for set_name in sets]
    assert_all_agree(stated, measured, what)


def test_the_rescoring_gain_is_that_of_rescore_csv():
    median = {(row["set"], row["encoding"], row["threshold"]): float(row["median_ms"])
              for row in rows("rescore.csv")}
    stated = quoted(r"course encoding's median from ([\d.]+) to ([\d.]+) ms "
                    r"\(`benchmarks/results/rescore\.csv`")
    # The lines that took no part in choosing the threshold: top2365's 6th, 16th, ...
    unseen = [median[("top2365/10+5", "course", "never")], median[("top2365/10+5", "course", "16")]]
    assert_all_agree(stated, unseen, ["never rescoring", "the default threshold"])


def test_the_lateness_past_t_is_that_of_time_limits_csv():
    late: dict[str, float] = {}
    for row in rows("time_limits.csv"):
        if row["stage"] != "refused":  # refused at once by the size estimate, never late
            late[row["solver"]] = max(late.get(row["solver"], -math.inf), float(row["late_ms"]))
    stated = quoted(r"orders 6 and 7 and T from 0\.25 to 3\.5 s, at most ([\d.]+) ms past T for "
                    r"`cdcl`, ([\d.]+) for `dpll` and ([\d.]+) for `walksat` "
                    r"\(`benchmarks/results/time_limits\.csv`\)")
    solvers = ["cdcl", "dpll", "walksat"]
    assert_all_agree(stated, [late[name] for name in solvers], solvers)


def test_the_order_6_encoding_figures_are_those_of_encoding_csv():
    sections = {row["section"]: row for row in rows("encoding.csv")}
    build = sections["build course, order 6 (empty)"]
    write = sections["write order-6 course CNF as DIMACS (to_dimacs)"]
    read = sections["read it back (parse_dimacs)"]
    stated = quoted(r"empty board \(([\d,]+) clauses, ([\d.]+) M literals\) took ([\d.]+) ms CPU "
                    r"and ([\d.]+) MB peak; writing it as DIMACS took ([\d.]+) s and reading it "
                    r"back ([\d.]+) s")
    stated[0] = stated[0].replace(",", "")
    measured = [float(build["clauses"]), float(build["literals"]) / 1e6, float(build["build_ms"]),
                float(build["peak_mb"]), float(write["build_ms"]) / 1000,
                float(read["build_ms"]) / 1000]
    assert_all_agree(stated, measured, ["clauses", "literals", "build", "peak", "write", "read"])


def test_the_local_search_figures_are_those_of_local_search_csv():
    runs = rows("local_search.csv")
    solved = [row for row in runs if row["status"] == "SAT" and row["valid"] == "True"]
    assert all(row["status"] in ("SAT", "UNKNOWN") for row in runs)  # "none wrong"
    stated = quoted(r"WalkSAT solved (\d+) of (\d+) within 30 s of wall time, .*?the solved ones "
                    r"took a median ([\d.]+) s of wall time and ([\d.]+) s of CPU")
    measured = [len(solved), len(runs),
                statistics.median(float(row["wall_ms"]) for row in solved) / 1000,
                statistics.median(float(row["cpu_ms"]) for row in solved) / 1000]
    assert_all_agree(stated, measured, ["solved", "puzzles", "median wall", "median CPU"])


def test_the_parallel_speed_up_is_that_of_pipeline_parallel_csv():
    (run,) = rows("pipeline_parallel.csv")
    stated = quoted(r"`run_batch` over (\d+) lines with `cdcl` took ([\d.]+) s of wall time with "
                    r"`-j 1` and ([\d.]+) s with `-j 2`, a ([\d.]+)× speed-up")
    assert run["same_answers"] == "True"
    measured = [float(run["instances"]), float(run["j1_s"]), float(run["j2_s"]),
                float(run["speedup"])]
    assert_all_agree(stated, measured, ["lines", "-j 1", "-j 2", "speed-up"])


def test_the_large_orders_are_those_of_the_scaling_csvs():
    large = {(row["order"], row["alpha"]): row for row in rows("scaling-large.csv")}
    quarter = {row["order"]: row for row in rows("scaling-quarter.csv")}
    stated = quoted(r"orders 7, 8 and 9 took ([\d.]+), ([\d.]+) and ([\d.]+) s; with half given, "
                    r"all three ran past 300 s\. With a quarter given, the largest order solved "
                    r"is (\d) \(([\d.]+) s, ([\d,]+) clauses, (\d+) MB peak\); order (\d) ran "
                    r"past 300 s")
    stated[5] = stated[5].replace(",", "")
    assert all(large[order, "0.5"]["status"] == "TIMEOUT" for order in ("7", "8", "9"))
    solved = [int(order) for order, row in quarter.items()
              if row["status"] == "SAT" and row["valid"] == "True"]
    best = quarter[str(max(solved))]
    unsolved = min(int(order) for order, row in quarter.items() if row["status"] != "SAT")
    measured = [*(float(large[order, "0.75"]["total_ms"]) / 1000 for order in ("7", "8", "9")),
                max(solved), float(best["total_ms"]) / 1000, float(best["clauses"]),
                float(best["peak_rss_mb"]), unsolved]
    assert_all_agree(stated, measured, ["order 7", "order 8", "order 9", "largest solved",
                                        "its time", "its clauses", "its peak", "first unsolved"])


def test_every_csv_the_documentation_names_is_committed():
    named = set()
    for name in DOCS:
        named |= set(re.findall(r"benchmarks/results/([\w.-]+\.csv)",
                                (ROOT / name).read_text(encoding="utf-8")))
    assert named, "the documentation names no committed CSV"
    missing = sorted(name for name in named if not (RESULTS / name).is_file())
    assert not missing, f"named but not committed: {missing}"


def test_the_readme_and_the_analysis_quote_no_measured_time():
    # Measurements live in docs/performance.md, beside their CSV and command.
    for name in ("README.md", "docs/analysis.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        times = re.findall(r"\b\d[\d.,]* ?(?:ms|µs|ns)\b|\b\d+\.\d+ ?s\b", text)
        assert not times, f"{name} quotes {times}: move them to docs/performance.md with their CSV"


def test_the_cdcl_package_keeps_the_search_of_the_single_file():
    by_set: dict[str, list[dict[str, str]]] = {}
    for row in rows("cdcl_ab.csv"):
        by_set.setdefault(row["set"], []).append(row)
    stated = quoted(r"identical on all (\d+) sets \(damnhard ([\d,]+), top2365 ([\d,]+), "
                    r"16x16 ([\d,]+), random100 ([\d,]+)\)")
    assert int(stated[0]) == len(by_set)
    for group in by_set.values():
        assert [r["base_conflicts"] for r in group] == [r["new_conflicts"] for r in group]
    totals = [sum(int(r["new_conflicts"]) for r in by_set[name])
              for name in ("damnhard", "top2365", "16x16", "random100")]
    assert [int(text.replace(",", "")) for text in stated[1:]] == totals
    ratios = [statistics.median(float(r["new_ms"]) / float(r["base_ms"]) for r in group)
              for group in by_set.values()]
    low, high = quoted(r"new over old, lies between ([\d.]+) and ([\d.]+) per set")
    assert_all_agree([low, high], [min(ratios), max(ratios)], ["lowest", "highest"])


def test_the_freeing_shares_are_those_of_their_csvs():
    cold = [float(r["free_over_load"]) for r in rows("cdcl_free.csv") if r["mode"] == "cold"]
    stated = quoted(r"freed its tables in ([\d.]+) to ([\d.]+) of its loading time, loaded cold")
    assert_all_agree(stated, [min(cold), max(cold)], ["cdcl lowest", "cdcl highest"])
    measured = rows("free_ratio.csv")
    for solver, pattern in (("dpll", r"`dpll` freed its engine in ([\d.]+) to ([\d.]+)"),
                            ("walksat", r"`walksat` its lists in ([\d.]+) to ([\d.]+)")):
        ratios = [float(r["ratio"]) for r in measured if r["solver"] == solver]
        assert_all_agree(quoted(pattern), [min(ratios), max(ratios)], [solver, solver])


def _least_solver_times() -> dict[tuple[str, str, str], float]:
    """(set, solver, instance) -> the least solve_ms of the repeats, as solvers.py reports."""
    least: dict[tuple[str, str, str], float] = {}
    for row in rows("solvers.csv"):
        key = (row["set"], row["solver"], row["instance"])
        least[key] = min(least.get(key, math.inf), float(row["solve_ms"]))
    return least


def test_the_set_by_set_cdclkit_ratios_are_those_of_solvers_csv():
    least = _least_solver_times()
    sets = ["top2365-200", "damnhard", "16x16-50",
            "random3sat-50", "random3sat-100", "random3sat-150"]
    ratios = {name: {i: ms / least[name, "cdcl", i] for (s, who, i), ms in least.items()
                     if s == name and who == "cdclkit"} for name in sets}
    stated = quoted(
        r"top2365 ([\d.]+) \(([\d.]+)\), damnhard ([\d.]+) \(([\d.]+)\), 16x16 ([\d.]+) "
        r"\(([\d.]+)\), random 3-SAT of 50 variables ([\d.]+) \(([\d.]+)\), of 100 variables "
        r"([\d.]+) \(([\d.]+)\), of 150 variables ([\d.]+) \(([\d.]+)\)\. On single random "
        r"formulas the ratio spread from ([\d.]+) to ([\d.]+): `cdclkit` was the faster on (\d+) "
        r"of the (\d+) random formulas and on none of the (\d+) Sudoku ones"
    )
    measured: list[float] = []
    for name in sets:
        mine = ratios[name]
        theirs = sum(least[name, "cdclkit", i] for i in mine)
        measured += [statistics.median(mine.values()),
                     theirs / sum(least[name, "cdcl", i] for i in mine)]
    random_ratios = [r for name in sets[3:] for r in ratios[name].values()]
    sudoku_ratios = [r for name in sets[:3] for r in ratios[name].values()]
    assert min(sudoku_ratios) >= 1  # "on none of the Sudoku ones"
    measured += [min(random_ratios), max(random_ratios), sum(r < 1 for r in random_ratios),
                 len(random_ratios), len(sudoku_ratios)]
    what = [f"{name} {kind}" for name in sets for kind in ("median ratio", "ratio of sums")]
    assert_all_agree(stated, measured,
                     [*what, "lowest", "highest", "cdclkit faster", "random", "Sudoku"])


def test_the_clause_list_handover_is_that_of_cnf_handover_csv():
    median = {(row["formula"], row["mode"]): float(row["median_ms"])
              for row in rows("cnf_handover.csv")}
    first = "9x9 course #1"
    clauses = {row["formula"]: row["clauses"] for row in rows("cnf_handover.csv")}[first]
    stated = quoted(r"`CNF\(lists\)` took ([\d.]+) ms on the course encoding of the first 9×9 "
                    r"line of `data/instances\.txt` \(([\d,]+) clauses as lists\), where PySAT's "
                    r"`Minisat22\(bootstrap_with=lists\)` took ([\d.]+) ms .*?over the five 9×9 "
                    r"formulas our constructor took a median ([\d.]+) of MiniSat's time\. Clause "
                    r"by clause, .*? the first formula took ([\d.]+) ms")
    stated[1] = stated[1].replace(",", "")
    nine = sorted({formula for formula, _ in median if formula.startswith("9x9")})
    assert len(nine) == 5
    ratio = statistics.median(median[f, "cnf"] / median[f, "minisat22"] for f in nine)
    assert ratio <= 1  # the constructor is no slower than PySAT's hand-over of the same lists
    measured = [median[first, "cnf"], float(clauses), median[first, "minisat22"], ratio,
                median[first, "per-clause"]]
    assert_all_agree(stated, measured, ["cnf", "clauses", "minisat22", "ratio", "per-clause"])


def _hard_end_runs(name: str):
    runs = rows(name)
    assert all(row["valid"] == "True" for row in runs if row["status"] in ("SAT", "UNSAT"))
    assert not [row for row in runs if row["status"] in ("WRONG", "ERROR")]

    def pick(encoding: str, order: int, solver: str) -> list[dict[str, str]]:
        return [row for row in runs if (row["encoding"], row["order"], row["solver"])
                == (encoding, str(order), solver) and row["alpha"] == "0.4"]

    return pick


def _cpu(group: list[dict[str, str]]) -> list[float]:
    return sorted(float(row["cpu_s"]) for row in group)


def test_the_hard_end_is_that_of_hard_end_csv():
    pick = _hard_end_runs("hard_end.csv")
    stated = quoted(
        r"At order 6 `cdcl` took a median ([\d.]+) s, ([\d.]+) times MiniSat's ([\d.]+) s "
        r"\(CaDiCaL: ([\d.]+) s\)\. At order 7 `cdcl` answered all (\d) boards within 120 s "
        r"\(([\d.]+) to ([\d.]+) s\); MiniSat answered all 3 \(([\d.]+) to ([\d.]+) s\) "
        r"and CaDiCaL all 3 \(([\d.]+) to ([\d.]+) s\)\. The course encoding of the order-5 "
        r"seed-7 board took `cdcl` ([\d.]+) s, MiniSat ([\d.]+) s and CaDiCaL ([\d.]+) s\."
    )
    seven = {solver: pick("optimised", 7, solver) for solver in ("cdcl", "minisat22", "cadical195")}
    assert all(row["status"] == "SAT" and float(row["cpu_s"]) <= 120
               for runs in seven.values() for row in runs)
    ours, theirs = (statistics.median(_cpu(pick("optimised", 6, s))) for s in ("cdcl", "minisat22"))
    cdcl7, minisat7, cadical7 = (_cpu(runs) for runs in seven.values())
    (course,) = pick("course", 5, "cdcl")
    assert course["status"] == "SAT" and course["seed"] == "7"
    measured = [ours, ours / theirs, theirs, statistics.median(_cpu(pick("optimised", 6,
                                                                         "cadical195"))),
                len(cdcl7), cdcl7[0], cdcl7[-1], minisat7[0], minisat7[-1], cadical7[0],
                cadical7[-1], float(course["cpu_s"]), *_cpu(pick("course", 5, "minisat22")),
                *_cpu(pick("course", 5, "cadical195"))]
    assert_all_agree(stated, measured, [
        "order 6 cdcl", "its ratio", "order 6 MiniSat", "order 6 CaDiCaL", "order 7 boards",
        "cdcl fastest", "cdcl slowest", "MiniSat fastest", "MiniSat slowest", "CaDiCaL fastest",
        "CaDiCaL slowest", "course cdcl", "course MiniSat", "course CaDiCaL"])


def _by_setting(name: str, order: str) -> dict[str, dict[str, dict[str, str]]]:
    """setting -> seed -> run, at `order`, from a CSV of backtracking.py or shrinking.py."""
    table: dict[str, dict[str, dict[str, str]]] = {}
    for row in rows(name):
        if row["order"] == order:
            table.setdefault(row["setting"], {})[row["seed"]] = row
    return table


def _answered(runs: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """The runs (seed -> run) with a checked answer, in seed order."""
    return {seed: runs[seed] for seed in sorted(runs, key=int)
            if runs[seed]["status"] == "SAT" and runs[seed]["valid"] == "True"}


def _median_answered(runs: dict[str, dict[str, str]], column: str) -> float:
    """The median of `column`, a run without a checked answer counting as infinitely long."""
    values = [float(r[column]) for r in _answered(runs).values()]
    return statistics.median(values + [math.inf] * (len(runs) - len(values)))


def test_the_ways_of_backtracking_are_those_of_backtracking_csv():
    six = _by_setting("backtracking.csv", "6")
    settings = ["backjump", "reuse", "chrono", "chrono100"]

    stated = quoted(
        r"on (\w+) order-6 boards \(seeds 1 to (\d+), a CPU cap of (\d+) s, .*? backjumping "
        r"answered (\d+) of them, with a median of (\d+) conflicts and ([\d.]+) s; trail reuse "
        r"\(`chrono=1`\) answered (\d+), median (\d+) conflicts; chronological backtracking "
        r"\(`chrono=2`\) (\d+), median (\d+); chronological past a 100-level backjump only "
        r"\(`chrono_levels=100`\) (\d+), median (\d+)\. Trail reuse needed fewer conflicts than "
        r"backjumping on (\w+) of the (\w+) boards and more on the other (\w+)"
    )
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    seeds = sorted(int(seed) for seed in six["backjump"])
    assert list(six) == settings
    assert all(sorted(map(int, six[name])) == seeds for name in settings)
    some_run = next(iter(six["backjump"].values()))
    assert (words.index(stated[0]), int(stated[1]), float(stated[2])) == (
        len(seeds), max(seeds), float(some_run["cap_s"]))
    assert seeds == list(range(1, len(seeds) + 1))
    counts = [stated[3], stated[6], stated[8], stated[10]]
    assert [int(c) for c in counts] == [len(_answered(six[name])) for name in settings]
    medians = [stated[4], stated[7], stated[9], stated[11]]
    assert [float(m) for m in medians] == [
        _median_answered(six[name], "conflicts") for name in settings]
    assert_all_agree([stated[5]], [_median_answered(six["backjump"], "cpu_s")],
                     ["backjumping CPU"])
    jump = {seed: float(r["conflicts"]) for seed, r in _answered(six["backjump"]).items()}
    reuse = _answered(six["reuse"])
    fewer = sum(float(r["conflicts"]) < jump[seed] for seed, r in reuse.items())
    more = sum(float(r["conflicts"]) > jump[seed] for seed, r in reuse.items())
    more += len(six["reuse"]) - len(reuse)  # past the cap: more, surely
    assert [words.index(word) for word in stated[12:15]] == [fewer, len(seeds), more]
    # "By the median every way of keeping the trail searched more".
    backjumping = _median_answered(six["backjump"], "conflicts")
    assert all(_median_answered(six[name], "conflicts") > backjumping for name in settings[1:])


def test_shrinking_is_that_of_shrinking_csvs():
    stated = quoted(
        r"orders 5 and 6 \(seeds 1 to (\d+), .*? a CPU cap of (\d+) s\).*? Both settings "
        r"answered all (\d+) boards\. Shrinking needed fewer conflicts on (\d+) of the (\d+) "
        r"boards at order 5 and (\d+) at order 6, and less CPU time on (\d+) and (\d+)\. At "
        r"order 5 the median CPU time went from ([\d.]+) s to ([\d.]+) s \(median conflicts "
        r"(\d+) and (\d+)\); at order 6 from ([\d.]+) s to ([\d.]+) s \(median conflicts "
        r"(\d+) and (\d+)\), and the (\d+) order-6 boards took ([\d.]+) s of CPU in all with "
        r"shrinking against ([\d.]+) s without; the longest order-6 run took ([\d.]+) s shrunk "
        r"and ([\d.]+) s not\. On seeds 1 to (\d+) alone shrinking lost \(([\d.]+) s in all "
        r"against ([\d.]+) s\)"
    )
    five, six = _by_setting("shrinking.csv", "5"), _by_setting("shrinking.csv", "6")
    seeds = sorted(int(seed) for seed in six["first-uip"])
    assert seeds == list(range(1, int(stated[0]) + 1)) == sorted(map(int, five["shrink"]))
    assert float(stated[1]) == float(rows("shrinking.csv")[0]["cap_s"])
    every = [r for table in (five, six) for runs in table.values() for r in runs.values()]
    assert all(r["status"] == "SAT" and r["valid"] == "True" for r in every)
    assert int(stated[2]) == len(every) // 2 == 2 * len(seeds) == 2 * int(stated[4])
    assert int(stated[16]) == len(seeds)

    def wins(table: dict, column: str) -> int:
        return sum(float(table["shrink"][s][column]) < float(table["first-uip"][s][column])
                   for s in table["first-uip"])

    assert [int(stated[3]), int(stated[5]), int(stated[6]), int(stated[7])] == [
        wins(five, "conflicts"), wins(six, "conflicts"), wins(five, "cpu_s"), wins(six, "cpu_s")]
    measured = [_median_answered(t[k], c) for t in (five, six)
                for c in ("cpu_s", "conflicts") for k in ("first-uip", "shrink")]
    # The text gives each order's CPU medians, then its conflict medians.
    assert_all_agree(stated[8:16], measured,
                     ["5 CPU", "5 CPU shrunk", "5 conflicts", "5 conflicts shrunk", "6 CPU",
                      "6 CPU shrunk", "6 conflicts", "6 conflicts shrunk"])

    def cpu(setting: str, first: int = 1, last: int = len(seeds)) -> list[float]:
        return [float(six[setting][str(s)]["cpu_s"]) for s in range(first, last + 1)]

    first = int(stated[21])
    assert_all_agree(stated[17:21] + stated[22:], [
        sum(cpu("shrink")), sum(cpu("first-uip")), max(cpu("shrink")), max(cpu("first-uip")),
        sum(cpu("shrink", 1, first)), sum(cpu("first-uip", 1, first))],
        ["order 6 total shrunk", "order 6 total", "longest shrunk", "longest", "first seeds "
         "shrunk", "first seeds"])
    stated = quoted(
        r"solves the boards of seeds 7 to 9 under T = 5 s: at order 6 they took ([\d.]+), "
        r"([\d.]+) and ([\d.]+) s shrunk against ([\d.]+), ([\d.]+) and ([\d.]+) s not, .*? "
        r"of all (\d+) order-6 boards, (\d+) took more than 5 s shrunk and (\d+) not"
    )
    grid = [float(six[k][str(s)]["cpu_s"]) for k in ("shrink", "first-uip") for s in (7, 8, 9)]
    assert_all_agree(stated[:6], grid, [f"{k} seed {s}" for k in ("shrunk", "not")
                                        for s in (7, 8, 9)])
    assert [int(n) for n in stated[6:]] == [len(seeds)] + [
        sum(c > 5 for c in cpu(k)) for k in ("shrink", "first-uip")]
    seven = _by_setting("shrinking-order7.csv", "7")
    stated = quoted(
        r"`--orders 7 --seeds 1 2 3 4 5 6 7 8 9 --cap 120`\): the first-UIP clause answered "
        r"(\d) of the nine boards \(([\d.]+) to ([\d.]+) s\), the shrunk one (\d) \(([\d.]+) "
        r"to ([\d.]+) s\); the shrunk clause answered (\w+) boards the first-UIP one could not, "
        r"the first-UIP clause (\w+) that the shrunk one could not, and (\w+) boards neither"
    )
    assert sorted(map(int, seven["first-uip"])) == list(range(1, 10)) == sorted(
        map(int, seven["shrink"]))
    plain, shrunk = (_answered(seven[k]) for k in ("first-uip", "shrink"))
    assert all(float(r["cpu_s"]) <= 120 for r in [*plain.values(), *shrunk.values()])
    times = [sorted(float(r["cpu_s"]) for r in runs.values()) for runs in (plain, shrunk)]
    assert_all_agree(stated[:6], [len(plain), times[0][0], times[0][-1], len(shrunk),
                                  times[1][0], times[1][-1]],
                     ["first-UIP answered", "first-UIP fastest", "first-UIP slowest",
                      "shrunk answered", "shrunk fastest", "shrunk slowest"])
    words = ["none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    neither = set(seven["first-uip"]) - set(plain) - set(shrunk)
    assert [words.index(w) for w in stated[6:]] == [
        len(set(shrunk) - set(plain)), len(set(plain) - set(shrunk)), len(neither)]


def test_shrinking_by_default_is_that_of_cdcl_ab_shrink_csv():
    stated = quoted(
        r"Shrinking cut the conflicts on the Sudoku sets \(damnhard ([\d,]+) to ([\d,]+), "
        r"top2365 ([\d,]+) to ([\d,]+), 16x16 ([\d,]+) to ([\d,]+)\) but not on random "
        r"3-SAT \(random100 ([\d,]+) to ([\d,]+), random150 ([\d,]+) to ([\d,]+)\).*? "
        r"new over old: damnhard ([\d.]+), top2365 ([\d.]+), 16x16 ([\d.]+), random100 "
        r"([\d.]+), random150 ([\d.]+); the ratios of the sums: ([\d.]+), ([\d.]+), "
        r"([\d.]+), ([\d.]+) and ([\d.]+)\."
    )
    sets = ["damnhard", "top2365", "16x16", "random100", "random150"]
    by_set: dict[str, list[dict[str, str]]] = {name: [] for name in sets}
    for row in rows("cdcl_ab_shrink.csv"):
        assert row["status"] in ("SAT", "UNSAT")
        by_set[row["set"]].append(row)
    conflicts = [int(text.replace(",", "")) for text in stated[:10]]
    assert conflicts == [sum(int(r[column]) for r in by_set[name])
                         for name in sets for column in ("base_conflicts", "new_conflicts")]
    medians = [statistics.median(float(r["new_ms"]) / float(r["base_ms"]) for r in by_set[name])
               for name in sets]
    sums = [sum(float(r["new_ms"]) for r in by_set[name])
            / sum(float(r["base_ms"]) for r in by_set[name]) for name in sets]
    assert_all_agree(stated[10:], medians + sums, [f"{name} median" for name in sets]
                     + [f"{name} sums" for name in sets])


def test_the_hard_end_before_target_phases_is_that_of_its_csv():
    pick = _hard_end_runs("hard_end_before_target_phases.csv")
    stated = quoted(
        r"before target phases .*? at order 6 `cdcl` took a median ([\d.]+) s, ([\d.]+) times "
        r"MiniSat's ([\d.]+) s; at order 7 it answered (\d) of the (\d) boards within 120 s"
    )
    ours, theirs = (statistics.median(_cpu(pick("optimised", 6, s))) for s in ("cdcl", "minisat22"))
    answered = [row for row in pick("optimised", 7, "cdcl")
                if row["status"] == "SAT" and float(row["cpu_s"]) <= 120]
    (course,) = pick("course", 5, "cdcl")
    assert course["status"] == "TIMEOUT"  # "past its 60 s cap"
    assert_all_agree(stated, [ours, ours / theirs, theirs, len(answered),
                              len(pick("optimised", 7, "cdcl"))],
                     ["order 6 cdcl", "its ratio", "order 6 MiniSat", "order 7 answered",
                      "order 7 boards"])


def test_the_order_6_gap_is_that_of_hard_end_and_backjumps_csvs():
    pick = _hard_end_runs("hard_end.csv")
    stated = quoted(
        r"`cdcl` needed fewer conflicts than MiniSat on (no|one|two|all three)(?: of the three)? "
        r"order-6 boards, but "
        r"spent ([\d.]+) to ([\d.]+) µs of CPU per propagated literal where MiniSat spent "
        r"([\d.]+) to ([\d.]+) µs"
    )
    ours = {row["seed"]: row for row in pick("optimised", 6, "cdcl")}
    theirs = {row["seed"]: row for row in pick("optimised", 6, "minisat22")}
    fewer = sum(int(ours[s]["conflicts"]) < int(theirs[s]["conflicts"]) for s in ours)
    assert stated[0] == ["no", "one", "two", "all three"][fewer]

    def per_literal_us(group: dict) -> list[float]:
        return sorted(1e6 * float(r["cpu_s"]) / int(r["propagations"]) for r in group.values())

    mine, minisat = per_literal_us(ours), per_literal_us(theirs)
    assert_all_agree(stated[1:], [mine[0], mine[-1], minisat[0], minisat[-1]],
                     ["cdcl fastest", "cdcl slowest", "MiniSat fastest", "MiniSat slowest"])
    six = [row for row in rows("backjumps.csv") if row["order"] == "6" and row["alpha"] == "0.4"]
    assert sorted(row["seed"] for row in six) == sorted(ours)  # the same boards
    stated = quoted(
        r"backjump undid a mean of ([\d.]+) to ([\d.]+) decision levels and ([\d.]+) to ([\d.]+) "
        r"literals; the backjumps unassigned ([\d.]+) to ([\d.]+) literals for every literal "
        r"propagated, "
        r"and (\d+) to (\d+) % of the decisions re-made"
    )

    def spread(column: str, scale: float = 1.0) -> list[float]:
        values = sorted(scale * float(row[column]) for row in six)
        return [values[0], values[-1]]

    assert_all_agree(
        stated,
        [*spread("levels_per_backjump"), *spread("literals_per_backjump"),
         *spread("undone_per_propagated"), *spread("remade_share_of_decisions", 100.0)],
        ["levels fewest", "levels most", "literals fewest", "literals most", "undone least",
         "undone most", "re-made least", "re-made most"],
    )


def test_the_course_steps_are_those_of_course_steps_csv():
    nine = [r for r in rows("course_steps.csv") if r["order"] == "3"]
    stated = quoted(
        r"On the (\d+) 9×9 lines of `data/instances.txt` \(course encoding, a median of "
        r"([\d.]+) conflicts\), the steps of a one-shot solve took a median of: loading "
        r"([\d.]+) ms, propagating the givens ([\d.]+) ms, the level-0 simplification "
        r"([\d.]+) ms, the first scores and the heap ([\d.]+) ms, the search loop ([\d.]+) "
        r"ms\. Building the same formulas' `CNF` from their clauses as lists took a median "
        r"([\d.]+) ms .*? the start before the first decision took a median ([\d.]+) ms"
    )
    assert int(stated[0]) == len(nine)

    def median(*columns: str) -> float:
        return statistics.median(sum(float(r[f"{c}_cpu_ms"]) for c in columns) for r in nine)

    assert_all_agree(stated[1:], [
        statistics.median(int(r["conflicts"]) for r in nine), median("load"),
        median("propagate0"), median("simplify"), median("scores"), median("search"),
        median("cnf_from_lists"), median("propagate0", "simplify", "scores")],
        ["conflicts", "load", "givens", "simplify", "scores", "search", "CNF", "start"])


def _seed_ratios(name: str, order: str, reference: str) -> dict[int, float]:
    """seed -> cdcl's CPU over `reference`'s in hard_end.py's CSV `name`, a run without a
    checked answer charged its cap (as the script computes them)."""
    runs: dict[int, dict[str, dict[str, str]]] = {}
    for row in rows(name):
        if row["order"] == order and row["encoding"] == "optimised":
            runs.setdefault(int(row["seed"]), {})[row["solver"]] = row

    def charged(row: dict[str, str]) -> float:
        ok = row["status"] in ("SAT", "UNSAT") and row["valid"] == "True"
        return float(row["cpu_s"]) if ok else float(row["cap_s"])

    return {seed: charged(by["cdcl"]) / charged(by[reference]) for seed, by in runs.items()}


def test_the_per_seed_ratios_at_order_6_are_those_of_hard_end_order6_csv():
    stated = quoted(
        r"At order 6 \(seeds 1 to (\d+)\) the median of the per-seed ratios `cdcl` / MiniSat "
        r"was ([\d.]+) \(per seed ([\d.]+) to ([\d.]+)\) and `cdcl` / CaDiCaL ([\d.]+) "
        r"\(([\d.]+) to ([\d.]+)\); `cdcl` answered (\d+) of the (\d+) boards"
    )
    minisat = _seed_ratios("hard_end_order6.csv", "6", "minisat22")
    cadical = _seed_ratios("hard_end_order6.csv", "6", "cadical195")
    assert sorted(minisat) == list(range(1, int(stated[0]) + 1)) == sorted(cadical)
    ours = [r for r in rows("hard_end_order6.csv") if r["solver"] == "cdcl"]
    answered = sum(r["status"] == "SAT" and r["valid"] == "True" for r in ours)
    assert [int(stated[7]), int(stated[8])] == [answered, len(ours)]
    assert_all_agree(stated[1:7], [
        statistics.median(minisat.values()), min(minisat.values()), max(minisat.values()),
        statistics.median(cadical.values()), min(cadical.values()), max(cadical.values())],
        ["MiniSat median", "lowest", "highest", "CaDiCaL median", "lowest", "highest"])


def test_vivification_is_that_of_vivification_csv():
    stated = quoted(
        r"At order 5 no board took (\d+) conflicts: the two searches were the same \(identical "
        r"conflicts on all (\d+)\)\. At order 6 vivification needed fewer conflicts on (\d+) of "
        r"the (\d+) boards and more on (\d+), and less CPU time on (\d+); it answered (\d+) "
        r"boards within the cap, without it (\d+); the median CPU time went from ([\d.]+) s to "
        r"([\d.]+) s \(a time-out counting as infinitely long\), and the (\d+) boards took "
        r"([\d.]+) s of CPU in all with it against ([\d.]+) s without"
    )
    five, six = _by_setting("vivification.csv", "5"), _by_setting("vivification.csv", "6")
    assert all(int(r["conflicts"]) < int(stated[0]) for runs in five.values()
               for r in runs.values())
    assert int(stated[1]) == len(five["plain"]) == len(five["vivify"])
    assert all(five["plain"][s]["conflicts"] == five["vivify"][s]["conflicts"]
               for s in five["plain"])

    def conflicts(run: dict[str, str]) -> float:
        return float(run["conflicts"]) if run["status"] == "SAT" else math.inf

    seeds = list(six["plain"])
    fewer = sum(conflicts(six["vivify"][s]) < conflicts(six["plain"][s]) for s in seeds)
    more = sum(conflicts(six["vivify"][s]) > conflicts(six["plain"][s]) for s in seeds)
    faster = sum(float(six["vivify"][s]["cpu_s"]) < float(six["plain"][s]["cpu_s"])
                 for s in seeds)
    assert [int(text) for text in stated[2:8]] == [
        fewer, len(seeds), more, faster, len(_answered(six["vivify"])),
        len(_answered(six["plain"]))]
    assert int(stated[10]) == len(seeds)
    assert_all_agree(stated[8:10] + stated[11:], [
        _median_answered(six["plain"], "cpu_s"), _median_answered(six["vivify"], "cpu_s"),
        sum(float(r["cpu_s"]) for r in six["vivify"].values()),
        sum(float(r["cpu_s"]) for r in six["plain"].values())],
        ["median without", "median with", "total with", "total without"])



def test_the_per_seed_ratios_at_order_7_are_those_of_hard_end_order7_csv():
    stated = quoted(
        r"At order 7 \(seeds 1 to (\d+), a cap of (\d+) s\) the median of the per-seed ratios "
        r"`cdcl` / MiniSat was ([\d.]+) \(per seed ([\d.]+) to ([\d.]+)\) and `cdcl` / CaDiCaL "
        r"([\d.]+) \(([\d.]+) to ([\d.]+)\); within (\d+) s of CPU `cdcl` answered (\d+) of the "
        r"(\d+) boards, MiniSat (\d+) and CaDiCaL (\d+)"
    )
    minisat = _seed_ratios("hard_end_order7.csv", "7", "minisat22")
    cadical = _seed_ratios("hard_end_order7.csv", "7", "cadical195")
    assert sorted(minisat) == list(range(1, int(stated[0]) + 1)) == sorted(cadical)
    every = rows("hard_end_order7.csv")
    assert {float(r["cap_s"]) for r in every} == {float(stated[1])} == {float(stated[8])}

    def answered(solver: str) -> int:
        return sum(r["status"] == "SAT" and r["valid"] == "True" and float(r["cpu_s"]) <= 120
                   for r in every if r["solver"] == solver)

    assert [int(text) for text in stated[9:]] == [
        answered("cdcl"), len(minisat), answered("minisat22"), answered("cadical195")]
    assert_all_agree(stated[2:8], [
        statistics.median(minisat.values()), min(minisat.values()), max(minisat.values()),
        statistics.median(cadical.values()), min(cadical.values()), max(cadical.values())],
        ["MiniSat median", "lowest", "highest", "CaDiCaL median", "lowest", "highest"])


def test_the_quiet_hard_end_rerun_is_that_of_its_csv():
    name = "hard_end_2026-11-29.csv"
    every = rows(name)
    stated = quoted(
        r"with no other job on the machine \(the load average was ([\d.]+) to ([\d.]+) on the 2 "
        r"cores.*?took the same number of "
        r"conflicts \((\d+) of (\d+)\)"
    )
    loads = [float(r["load1"]) for r in every]
    earlier = {(r["order"], r["seed"], r["solver"]): r["conflicts"]
               for csv_name in ("hard_end_order6.csv", "hard_end_order7.csv")
               for r in rows(csv_name)}
    both = [(r["conflicts"], earlier[(r["order"], r["seed"], r["solver"])]) for r in every
            if r["conflicts"] and earlier.get((r["order"], r["seed"], r["solver"]))]
    assert [int(stated[2]), int(stated[3])] == [sum(a == b for a, b in both), len(both)]
    assert_all_agree(stated[:2], [min(loads), max(loads)], ["lowest load", "highest load"])
    ratios = quoted(
        r"In the quiet run, at order 6 the median of the per-seed ratios `cdcl` / MiniSat was "
        r"([\d.]+) \(per seed ([\d.]+) to ([\d.]+)\) and `cdcl` / CaDiCaL ([\d.]+) \(([\d.]+) to "
        r"([\d.]+)\); at order 7 \(a cap of 120 s\) `cdcl` / MiniSat ([\d.]+) \(([\d.]+) to "
        r"([\d.]+)\) and `cdcl` / CaDiCaL ([\d.]+) \(([\d.]+) to ([\d.]+)\); within 120 s of CPU "
        r"`cdcl` answered (\d+) of the (\d+) order-7 boards, MiniSat (\d+) and CaDiCaL (\d+)"
    )
    measured = []
    for order in ("6", "7"):
        for reference in ("minisat22", "cadical195"):
            each = _seed_ratios(name, order, reference).values()
            measured += [statistics.median(each), min(each), max(each)]
    assert_all_agree(ratios[:12], measured, ["median", "lowest", "highest"] * 4)
    seven = [r for r in every if r["order"] == "7"]

    def answered(solver: str) -> int:
        return sum(r["status"] == "SAT" and r["valid"] == "True" and float(r["cpu_s"]) <= 120
                   for r in seven if r["solver"] == solver)

    assert [int(text) for text in ratios[12:]] == [
        answered("cdcl"), len({r["seed"] for r in seven}), answered("minisat22"),
        answered("cadical195")]
    loaded = quoted(
        r"The ratios are close to those of the loaded runs above \(([\d.]+), ([\d.]+), ([\d.]+) "
        r"and ([\d.]+)\)"
    )
    assert_all_agree(loaded, [
        statistics.median(_seed_ratios(f"hard_end_order{order}.csv", order, reference).values())
        for order in ("6", "7") for reference in ("minisat22", "cadical195")],
        ["order 6 MiniSat", "order 6 CaDiCaL", "order 7 MiniSat", "order 7 CaDiCaL"])


def _step_medians(name: str, order: str) -> tuple[int, dict[str, tuple[float, float, float]]]:
    """On the boards of `order` every solver answered in hard_end.py's CSV `name`: how many,
    and per solver the medians of CPU µs per propagated literal, propagations and conflicts."""
    by_seed: dict[str, dict[str, dict[str, str]]] = {}
    for row in rows(name):
        if row["order"] == order:
            by_seed.setdefault(row["seed"], {})[row["solver"]] = row
    common = [runs for runs in by_seed.values()
              if all(r["status"] == "SAT" and r["valid"] == "True" for r in runs.values())]
    medians = {}
    for solver in ("cdcl", "minisat22", "cadical195"):
        mine = [runs[solver] for runs in common]
        medians[solver] = (
            statistics.median(float(r["cpu_s"]) * 1e6 / int(r["propagations"]) for r in mine),
            statistics.median(int(r["propagations"]) for r in mine),
            statistics.median(int(r["conflicts"]) for r in mine))
    return len(common), medians


def test_a_cpu_ratio_splits_into_step_cost_and_steps_as_the_quiet_run_shows():
    name = "hard_end_2026-11-29.csv"
    six = quoted(
        r"At order 6 \(all (\d+) boards\) a step of `cdcl` took a median ([\d.]+) µs of CPU, "
        r"MiniSat's ([\d.]+) µs and CaDiCaL's ([\d.]+) µs: ([\d.]+) and ([\d.]+) times as long; "
        r"`cdcl` took ([\d.]+) times MiniSat's steps and ([\d.]+) times CaDiCaL's \(([\d.]+) and "
        r"([\d.]+) times their conflicts\)"
    )
    count, m = _step_medians(name, "6")
    ours, minisat, cadical = m["cdcl"], m["minisat22"], m["cadical195"]
    assert int(six[0]) == count == 9
    assert_all_agree(six[1:], [
        ours[0], minisat[0], cadical[0], ours[0] / minisat[0], ours[0] / cadical[0],
        ours[1] / minisat[1], ours[1] / cadical[1], ours[2] / minisat[2], ours[2] / cadical[2]],
        ["ours", "MiniSat", "CaDiCaL", "step / MiniSat", "step / CaDiCaL", "steps / MiniSat",
         "steps / CaDiCaL", "conflicts / MiniSat", "conflicts / CaDiCaL"])
    seven = quoted(
        r"At order 7 \(the (\d+) boards all three answered\) a step took ([\d.]+) µs against "
        r"([\d.]+) and ([\d.]+) µs: ([\d.]+) and ([\d.]+) times as long; `cdcl` took ([\d.]+) "
        r"times MiniSat's steps and ([\d.]+) times CaDiCaL's"
    )
    count7, m7 = _step_medians(name, "7")
    ours7, minisat7, cadical7 = m7["cdcl"], m7["minisat22"], m7["cadical195"]
    assert int(seven[0]) == count7
    assert_all_agree(seven[1:], [
        ours7[0], minisat7[0], cadical7[0], ours7[0] / minisat7[0], ours7[0] / cadical7[0],
        ours7[1] / minisat7[1], ours7[1] / cadical7[1]],
        ["ours", "MiniSat", "CaDiCaL", "step / MiniSat", "step / CaDiCaL", "steps / MiniSat",
         "steps / CaDiCaL"])
    needed = quoted(
        r"At that cost a median ratio of 0.75 to MiniSat would need about ([\d.]+) times "
        r"MiniSat's steps at order 6, where `cdcl` takes ([\d.]+), and a ratio of 3 to CaDiCaL at "
        r"order 7 about ([\d.]+) times CaDiCaL's steps, where it takes ([\d.]*\d)"
    )
    assert_all_agree(needed, [
        0.75 / (ours[0] / minisat[0]), ours[1] / minisat[1],
        3 / (ours7[0] / cadical7[0]), ours7[1] / cadical7[1]],
        ["needed at 6", "taken at 6", "needed at 7", "taken at 7"])


def test_the_quiet_run_states_how_much_more_cpu_the_same_searches_took():
    stated = quoted(
        r"every solver took more CPU in the quiet run: `cdcl` ([\d.]+) to ([\d.]+) times as much, "
        r"MiniSat ([\d.]+) to ([\d.]+) times and CaDiCaL ([\d.]+) to ([\d.]+) times"
    )
    before = {(r["seed"], r["solver"]): r for r in rows("hard_end.csv")
              if r["order"] == "6" and r["encoding"] == "optimised"}
    factors: dict[str, list[float]] = {}
    for row in rows("hard_end_2026-11-29.csv"):
        old = before.get((row["seed"], row["solver"]))
        if row["order"] == "6" and old is not None:
            assert row["conflicts"] == old["conflicts"]  # the same search
            factors.setdefault(row["solver"], []).append(float(row["cpu_s"]) / float(old["cpu_s"]))
    assert all(len(each) == 3 for each in factors.values()) and len(factors) == 3
    assert_all_agree(stated, [
        bound(factors[solver]) for solver in ("cdcl", "minisat22", "cadical195")
        for bound in (min, max)], ["cdcl least", "cdcl most", "MiniSat least", "MiniSat most",
                                   "CaDiCaL least", "CaDiCaL most"])


def test_the_compiled_hard_end_is_that_of_hard_end_compiled_csv():
    name = "hard_end_compiled.csv"
    every = rows(name)
    assert {r["core"] for r in every if r["solver"] == "cdcl"} == {"compiled"}
    stated = quoted(
        r"at load ([\d.]+) to ([\d.]+) from other work.*?at order 6, `cdcl` ÷ MiniSat ([\d.]+) "
        r"\(([\d.]+) to ([\d.]+)\) and `cdcl` ÷ CaDiCaL ([\d.]+); at order 7, `cdcl` ÷ CaDiCaL "
        r"([\d.]+) \(([\d.]+) to ([\d.]+)\) and `cdcl` ÷ MiniSat ([\d.]+)\. Within 120 s of CPU at "
        r"order 7, `cdcl` answered (\d+) of (\d+) boards, MiniSat (\d+) and CaDiCaL (\d+)"
    )
    loads = [float(r["load1"]) for r in every]
    six_m = list(_seed_ratios(name, "6", "minisat22").values())
    six_c = list(_seed_ratios(name, "6", "cadical195").values())
    seven_c = list(_seed_ratios(name, "7", "cadical195").values())
    seven_m = list(_seed_ratios(name, "7", "minisat22").values())
    assert_all_agree(
        stated[:10],
        [min(loads), max(loads), statistics.median(six_m), min(six_m), max(six_m),
         statistics.median(six_c), statistics.median(seven_c), min(seven_c), max(seven_c),
         statistics.median(seven_m)],
        ["lowest load", "highest load", "order 6 / MiniSat", "lowest", "highest",
         "order 6 / CaDiCaL", "order 7 / CaDiCaL", "lowest", "highest", "order 7 / MiniSat"])
    answered = {s: sum(r["status"] == "SAT" and r["valid"] == "True" for r in every
                       if r["order"] == "7" and r["solver"] == s and float(r["cpu_s"]) <= 120)
                for s in ("cdcl", "minisat22", "cadical195")}
    boards = len({r["seed"] for r in every if r["order"] == "7"})
    assert [int(x) for x in stated[10:]] == [answered["cdcl"], boards, answered["minisat22"],
                                             answered["cadical195"]]


def test_a_compiled_step_is_that_of_hard_end_compiled_csv():
    stated = quoted(
        r"at order 6, on the (\d+) boards, `cdcl` spent a median ([\d.]+) µs of CPU per "
        r"propagated literal against MiniSat's ([\d.]+) µs and CaDiCaL's ([\d.]+) µs, while it "
        r"took ([\d.]+) times MiniSat's steps"
    )
    six = [r for r in rows("hard_end_compiled.csv") if r["order"] == "6"]
    per_step = {s: statistics.median(float(r["cpu_s"]) * 1e6 / int(r["propagations"])
                                     for r in six if r["solver"] == s)
                for s in ("cdcl", "minisat22", "cadical195")}
    steps = {s: statistics.median(int(r["propagations"]) for r in six if r["solver"] == s)
             for s in ("cdcl", "minisat22")}
    assert int(stated[0]) == len({r["seed"] for r in six})
    assert_all_agree(stated[1:], [per_step["cdcl"], per_step["minisat22"],
                                  per_step["cadical195"], steps["cdcl"] / steps["minisat22"]],
                     ["cdcl per step", "MiniSat per step", "CaDiCaL per step", "steps"])
    # The same searches as the Python core's quiet run: the same conflicts board by board.
    quiet = {(r["order"], r["seed"]): r["conflicts"] for r in rows("hard_end_2026-11-29.csv")
             if r["solver"] == "cdcl" and r["status"] == "SAT"}
    compiled = {(r["order"], r["seed"]): r["conflicts"] for r in rows("hard_end_compiled.csv")
                if r["solver"] == "cdcl"}
    assert quiet and all(compiled[key] == value for key, value in quiet.items())


def test_the_cores_end_to_end_are_those_of_cores_csv():
    stated = quoted(
        r"On the 9×9 lines the compiled search took a median ([\d.]+) ms of CPU against "
        r"([\d.]+) ms for the Python core \(([\d.]+) times\), loading ([\d.]+) ms against "
        r"([\d.]+) ms, and the whole line .*? ([\d.]+) ms against ([\d.]+) ms \(([\d.]+) times\)"
        r"\. zChaff 2007\.3\.12 prints its own search time \(`Total Run Time`\) as ([\d.]+) ms "
        r"on the course's example: the compiled search takes ([\d.]+) times that"
    )
    nine = [r for r in rows("cores.csv") if r["order"] == "3" and r["status"] in ("SAT", "UNSAT")]

    def median(core: str, column: str) -> float:
        return statistics.median(float(r[column]) for r in nine if r["core"] == core)

    search = (median("compiled", "search_cpu_ms"), median("python", "search_cpu_ms"))
    load = (median("compiled", "load_cpu_ms"), median("python", "load_cpu_ms"))
    total = (median("compiled", "total_cpu_ms"), median("python", "total_cpu_ms"))
    assert_all_agree(
        stated[:8] + stated[9:],
        [*search, search[0] / search[1], *load, *total, total[0] / total[1],
         search[0] / float(stated[8])],
        ["compiled search", "python search", "search ratio", "compiled load", "python load",
         "compiled line", "python line", "line ratio", "against zChaff"])
    assert {r["ran"] for r in rows("cores.csv")} == {"compiled", "python"}
