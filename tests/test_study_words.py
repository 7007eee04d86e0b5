"""The study pages' sentences say what their data say, branch by branch.

Each sentence is computed from rows, a summary or comparisons built here by hand: the tests
check which branch the data take and that their numbers reach the text, not the wording
itself (the built pages are checked for repeated sentences and for numbers matching their
data).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest

from sudosat.report import heuristics_page, scaling_page
from sudosat.studies import grid as gridstudy
from sudosat.studies.grid import Fit, GridSpec
from sudosat.studies.heuristics import MIN_BOTH_FINISHED, Comparison, ExperimentSpec
from tests.heuristics_rows import experiment_rows as _runs

# -- the heuristics page ---------------------------------------------------------------------

WON = Comparison("dlis", 20, 15, 3, 2, 12.0, 0.001, 0.002, 0.7, 3.5, 2.1, 5.2, 1, 0,
                 grade_medians=(("easy", 4.0, 9.0), ("hard", math.inf, math.inf)))
"""MOMS ahead of dlis on the counts and the ratio, significantly."""


GRADES = ["g1", "g1", "g2", "g2"]
COUNTS = {"moms": [5, 5, 5, 5], "dlis": [90, 90, 40, 40], "dp": [7, 7, 7, 7]}


def test_limit_words_name_the_budget_and_the_cap_or_their_absence():
    spec = ExperimentSpec(max_propagations=60_000, time_limit_ms=20_000.0)
    assert heuristics_page.limit_words(spec) == ("a budget of 60,000 propagations",
                                                  "a CPU-time cap of 20,000 ms")
    bare = replace(spec, max_propagations=None, time_limit_ms=None)
    assert heuristics_page.limit_words(bare) == ("no budget", "no CPU-time cap")


def test_data_words_count_how_the_runs_ended_and_when_they_were_measured():
    results = _runs(COUNTS, GRADES, {"dlis": {0, 1}}, capped={"dp": {3}})
    said = heuristics_page.data_words(results)
    assert said == ("4 puzzles, 12 runs: 9 solved, each checked valid; 2 stopped by the budget, "
                    "1 by the CPU cap.")
    results.loc[0, ["status", "stop"]] = ["ERROR", "error"]
    results["computed_at"] = [f"2026-11-28 10:0{k % 3}" for k in range(len(results))]
    failed = heuristics_page.data_words(results)
    assert failed.startswith("4 puzzles, 12 runs: 8 solved")
    assert failed.endswith("1 by the CPU cap; not finished for another reason: moms on puzzle "
                           "p0: ERROR (stopped: error) (read from the cache, measured at 3 times "
                           "between 2026-11-28 10:00 and 2026-11-28 10:02).")
    # rows without the stop column: a stopped run is set apart, its reason not recorded
    unrecorded = heuristics_page.data_words(_runs(COUNTS, GRADES, {"dlis": {0}}).drop(
        columns="stop"))
    assert unrecorded.endswith("0 stopped by the budget, 0 by the CPU cap; not finished for "
                               "another reason: dlis on puzzle p0: UNKNOWN (stopped: not "
                               "recorded).")


def test_unfinished_words_say_all_finished_or_count_the_stops_and_the_pairs():
    [every] = heuristics_page.unfinished_words(_runs(COUNTS, GRADES, {}),
                                                "a budget of 9 propagations", "a cap")
    assert "All 12 runs finished within a budget of 9 propagations" in every
    cut = _runs(COUNTS, GRADES, {"dlis": {0, 1}, "moms": {3}}, capped={"dlis": {2}})
    said = heuristics_page.unfinished_words(cut, "the budget", "the cap")
    assert len(said) == 4
    assert said[0] == "4 of the 12 runs did not finish: 3 used up the budget, 1 reached the cap."
    assert "1 run the CPU cap stopped" in said[1]
    assert "in “g1” (dlis 2 of 2)." in said[2]
    assert "against dlis, 3 puzzles on which only dlis" in said[3]
    assert "and 1 on which MOMS did not" in said[3]
    assert "against dp, 0 puzzles on which only dp" in said[3]
    uncapped = heuristics_page.unfinished_words(_runs(COUNTS, GRADES, {"dlis": {0}}), "b", "c")
    assert len(uncapped) == 3 and "No solver left most of its runs unfinished" in uncapped[1]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({}, "MOMS needed fewer decisions on more puzzles than more, and the interval"),
        ({"ratio_low": 0.8}, "the interval includes 1"),
        ({"fewer": 3, "more": 15, "ratio": 0.3, "ratio_low": 0.2, "ratio_high": 0.5},
         "MOMS needed more decisions on more puzzles than fewer"),
        ({"fewer": 8, "more": 8}, "in MOMS's favour, though MOMS needed fewer decisions on as"),
        ({"fewer": 3, "more": 15}, "mixed: the interval excludes 1 in MOMS's favour, but MOMS "
                                   "needed more decisions on more puzzles (15) than it needed "
                                   "fewer (3)"),
        ({"ratio": 0.3, "ratio_low": 0.2, "ratio_high": 0.5},
         "mixed: the interval excludes 1 in dlis's favour, but MOMS needed fewer decisions"),
    ],
)
def test_direction_words_never_go_beyond_the_counts_or_the_interval(change, says):
    assert says in heuristics_page.direction_words(replace(WON, **change))


def test_grade_words_group_the_grades_and_name_an_unfinished_median():
    said = heuristics_page.grade_words(
        replace(WON, grade_medians=(("a", 4.0, 9.0), ("b", 9.0, 4.0), ("c", math.inf, math.inf),
                                    ("d", 2.0, 3.0))))
    assert said.startswith(" ") and said.endswith(";")
    assert "lower in “a” (4 vs 9) and “d” (2 vs 3); higher in “b” (9 vs 4)" in said
    assert "the same as dlis's in “c” (not finished)" in said
    assert heuristics_page.grade_words(replace(WON, grade_medians=())) == ""


def test_comparison_words_give_the_test_or_say_why_there_is_none():
    tested = heuristics_page.comparison_words(WON)
    for number in ("15 of 20 puzzles", "p = 0.001", "Holm-adjusted p = 0.002", "r = +0.70",
                   "3.50 times", "95 % CI 2.10 to 5.20", "MOMS 0, dlis 1"):
        assert number in tested
    few = replace(WON, unfinished_pairs=20 - MIN_BOTH_FINISHED + 1)
    untested = heuristics_page.comparison_words(few)
    assert f"both finished on {MIN_BOTH_FINISHED - 1} of 20" in untested
    assert "not tested" in untested and "Wilcoxon" not in untested


def test_verdict_words_state_a_verdict_only_when_every_named_rival_was_tested():
    dp, jw = replace(WON, rival="dp"), replace(WON, rival="jw", p_holm=0.9)
    holds = heuristics_page.verdict_words([WON, dp, jw], 20, 0, "limits")
    assert holds[0].startswith("The hypothesis holds at the 0.05 level")
    # jw is not named by the hypothesis: its comparison decides nothing
    assert "than dlis and than dp on" in holds[0] and "same on any machine" in holds[1]
    weak = replace(dp, p_holm=0.2)
    fails = heuristics_page.verdict_words([WON, weak], 20, 2, "limits")
    assert fails[0].startswith("The hypothesis does not hold") and fails[0].endswith("than dp.")
    assert "Against dp the geometric mean" in fails[1]  # its interval favours MOMS all the same
    assert "The CPU cap stopped 2 runs" in fails[2]
    backwards = replace(WON, p_holm=0.01, rank_biserial=-0.3, ratio=0.5, ratio_low=0.3,
                        ratio_high=0.8, fewer=3, more=15)
    wrong = heuristics_page.verdict_words([backwards, dp], 20, 0, "limits")
    assert wrong[0].endswith("than dlis.") and len(wrong) == 2  # no ratio above 1 to explain
    untested = replace(dp, unfinished_pairs=20)
    none = heuristics_page.verdict_words([WON, untested], 20, 1, "the budget and the cap")
    assert len(none) == 1 and "with dp could not be tested within the budget and the cap" in none[0]
    assert none[0].endswith("keeps the cap from stopping them first.")
    uncapped = heuristics_page.verdict_words([WON, untested], 20, 0, "limits")
    assert uncapped[0].endswith("lets more runs finish.")
    small = heuristics_page.verdict_words([untested], 3, 0, "limits")
    assert len(small) == 1 and "the experiment has 3 puzzles" in small[0]
    assert heuristics_page.verdict_words([], 20, 0, "limits")[0].startswith("Too few runs")


def test_conclusion_words_are_the_named_comparisons_then_the_verdict():
    results = _runs({"moms": [1] * 20, "dlis": [2] * 20}, ["g"] * 20, {}, capped={"dlis": {0}})
    jw = replace(WON, rival="jw")
    said = heuristics_page.conclusion_words([WON, jw], results, "a", "b")
    assert said[0] == heuristics_page.comparison_words(WON)
    assert said[1:] == heuristics_page.verdict_words([WON], 20, 1, "a and b")


def test_friedman_words_give_the_test_or_say_why_it_is_not_run():
    ranked = {"moms": list(range(1, 16)), "dlis": [m + 5 for m in range(1, 16)],
              "dp": [2 * m for m in range(1, 16)]}
    differ = heuristics_page.friedman_words(_runs(ranked, ["g"] * 15, {}))
    assert differ.startswith("Friedman's test over the 3 solvers on the same 15 puzzles "
                             "(unfinished runs censored): chi² = 24.1, p = 5.8e-06")
    assert differ.endswith("the solvers do differ in decisions beyond chance.")
    # each solver first on five puzzles, second on five, third on five: no difference
    mixed = {"moms": [1, 2, 3] * 5, "dlis": [2, 3, 1] * 5, "dp": [3, 1, 2] * 5}
    alike = heuristics_page.friedman_words(_runs(mixed, ["g"] * 15, {}))
    assert "p = 1.000" in alike and alike.endswith("the solvers do not differ in decisions "
                                                   "beyond chance.")
    stopped = _runs(ranked, ["g"] * 15, {"dp": set(range(6))})
    assert heuristics_page.friedman_words(stopped) == (
        "Friedman's test over the 3 solvers is not run: 9 of the 15 puzzles were finished by "
        "every solver, fewer than the 10 it needs.")


def test_load_words_say_how_busy_the_machine_was_and_what_that_leaves_alone():
    unknown = _runs(COUNTS, GRADES, {}).assign(solve_cpu_ms=0.0)
    assert heuristics_page.load_words(unknown) == (
        "No run recorded a CPU time, so how busy the machine was is not known.")
    busy = heuristics_page.load_words(_runs(COUNTS, GRADES, {}, capped={"dp": {0}}, wall=2.25,
                                             cached="yesterday"))
    assert "12 solver calls, some or all of them measured by an earlier build" in busy
    assert "2.25 times CPU time (all calls together): above 1.5, so the machine was busy" in busy
    assert busy.endswith("except the runs the CPU cap stopped.")
    quiet = heuristics_page.load_words(_runs(COUNTS, GRADES, {}, wall=1.01))
    assert "not above 1.5, so the machine was not busy" in quiet and quiet.endswith("budget.")
    assert "earlier build" not in quiet
    # a quiet machine stretched nothing: the sentence says what a busy one would have done
    assert "That stretches" not in quiet and "did not stretch the times above" in quiet


def test_alike_words_name_the_solvers_that_ran_alike_and_why_on_the_course_encoding():
    counts = {"moms": [5, 6], "dlis": [9, 8], "jw1": [9, 8], "dp": [9, 3]}
    said = heuristics_page.alike_words(_runs(counts, ["g", "g"], {}), "course")
    assert len(said) == 1 and said[0].startswith("dlis and jw1 ran alike on all 2 puzzles")
    assert "a negative literal occurs only in two-literal clauses" in said[0]
    [other] = heuristics_page.alike_words(_runs(counts, ["g", "g"], {}), "extended")
    assert other.endswith("their rows of the tables and tests above are the same.")
    # moms and dp choose alike, but they do not count literals: no reason is given
    pair = {"moms": [5, 6], "dp": [5, 6], "dlis": [9, 8]}
    [plain] = heuristics_page.alike_words(_runs(pair, ["g", "g"], {}), "course")
    assert plain.startswith("moms and dp ran alike on all 2 puzzles")
    assert plain.endswith("their rows of the tables and tests above are the same.")
    # the same counts, but one of the two stopped: not alike
    assert heuristics_page.alike_words(_runs(counts, ["g", "g"], {"jw1": {1}}), "course") == []


def test_the_cache_times_are_given_as_a_span_not_a_list():
    assert scaling_page.measured_words(("2026-11-28 10:00",)) == "measured 2026-11-28 10:00"
    nine = tuple(f"2026-11-28 10:0{k}" for k in range(9))
    assert scaling_page.measured_words(nine) == (
        "measured at 9 times between 2026-11-28 10:00 and 2026-11-28 10:08")


# -- the scaling page ------------------------------------------------------------------------

GRID = GridSpec(orders=(2, 3), alphas=(0.0, 0.5), boards=3, seed=7, max_conflicts=20000,
                time_limit_ms=600000.0, solver="cdcl", encodings=("course",),
                reference="pysat:minisat22", reference_encodings=("course",))


def _row(order, alpha, encoding, status, ms=10.0, conflicts=5, solver="cdcl", board=0,
         **more):
    """One grid row; an UNKNOWN row is one the conflict budget stopped, a TIMEOUT row one the
    CPU cap stopped."""
    stop = {"UNKNOWN": "conflicts", "TIMEOUT": "time"}.get(status, "answered")
    return {"order": order, "alpha": alpha, "encoding": encoding, "solver": solver,
            "board": board, "seed": 7 + board, "status": status, "stop": stop,
            "valid": status == "SAT", "solve_cpu_ms": ms, "solve_wall_ms": 1.1 * ms,
            "clauses": 100 * order, "variables": 10 * order, "conflicts": conflicts,
            "decisions": conflicts, "encode_cpu_ms": 1.0, "computed_at": "", **more}


def _cell(order, alpha, encoding, statuses, solver="cdcl", ms=10.0):
    """The rows of one cell, one board per status."""
    return [_row(order, alpha, encoding, status, ms, solver=solver, board=board)
            for board, status in enumerate(statuses)]


def test_grid_words_name_the_limits_and_the_cells_that_repeat_a_board():
    distinct = gridstudy.distinct_boards(GRID)  # an empty board is the same for every seed
    every = distinct.drop(index=[(2, 0.0), (3, 0.0)])
    said = scaling_page.grid_words(GRID, every)
    assert said.startswith("Budget: 20,000 conflicts for every solver call; behind it a CPU-time "
                           "cap of 600 s on cdcl's calls")
    assert "3 boards per cell (generator seeds 7..9)" in said
    assert "runs: course / cdcl, course / pysat:minisat22." in said
    assert said.endswith("In every cell the 3 seeds give 3 different boards.")
    repeated = scaling_page.grid_words(replace(GRID, time_limit_ms=None), distinct)
    assert "no CPU-time cap" in repeated
    assert "in 2 of 4 cells; at 0 % given (N = 2 and 3) they give 1 distinct board" in repeated
    assert repeated.endswith("counted once per run.")
    given = distinct.assign(givens=1)  # were the repeated boards not empty, no reason is given
    assert scaling_page.grid_words(GRID, given).endswith("they give 1 distinct board.")
    one = gridstudy.distinct_boards(replace(GRID, boards=1))
    said = scaling_page.grid_words(replace(GRID, boards=1), one)
    assert "1 board per cell (generator seed 7)" in said and "different boards" not in said


def test_run_words_say_what_stopped_the_undecided_runs():
    rows = pd.DataFrame(_cell(2, 0.0, "course", ["SAT", "SAT", "UNKNOWN"])
                        + _cell(2, 0.5, "course", ["SAT", "UNKNOWN", "ERROR"]))
    rows["computed_at"] = "2026-11-28"
    said = scaling_page.run_words(rows)
    assert said.startswith("6 runs: 3 solved, each checked valid; 2 undecided, 1 refused.")
    assert "The budget stopped all 2 undecided runs" in said
    assert "Cells read from the cache: 2 of 2 (measured 2026-11-28)." in said
    assert "not which boards were decided" in said
    decided = rows[rows["status"] == "SAT"].assign(computed_at="")
    none = scaling_page.run_words(decided)
    assert "No run was stopped by a limit; the CPU cap stopped none" in none
    assert "Cells read from the cache: 0 of 2. Over" in none
    capped = rows.copy()
    capped.loc[2, ["status", "stop"]] = ["TIMEOUT", "time"]
    said = scaling_page.run_words(capped)
    assert ("The CPU cap stopped 1 run before the budget did (course / cdcl (order 2, alpha 0.0, "
            "seed 9))") in said
    assert "the other 1 undecided runs were stopped by the budget" in said


def _peak(alphas, by, conflicts, times, unfinished=0, boards=3):
    return {"alphas": alphas, "by": by, "median_conflicts": conflicts, "median_cpu_ms": times,
            "unfinished": unfinished, "boards": boards}


@pytest.mark.parametrize(
    ("peak", "says"),
    [
        (_peak((0.2, 0.4), "unfinished", (9.0, 9.0), (5.0, 5.0), 2),
         "20 % and 40 % tie (median undecided: 2 of 3 stopped by the budget in each)"),
        (_peak((0.2,), "unfinished", (9.0,), (5.0,), 2),
         "20 % (median undecided: 2 of 3 stopped by the budget)"),
        (_peak((0.2,), "time", (), (1.5,)), "20 % (median 1.5 ms of CPU; no conflict"),
        (_peak((0.2,), "conflicts", (0.0,), (1.0,)), "no fill's median board met a"),
        (_peak((0.2, 0.4), "conflicts", (1500.0, 1500.0), (1.0, 2.0)),
         "20 % and 40 % tie (median 1,500 conflicts each)"),
        (_peak((0.2,), "conflicts", (2.5,), (12.0,)), "20 % (median 2.5 conflicts, 12 ms of CPU)"),
    ],
)
def test_peak_words_name_tied_fills_together(peak, says):
    assert scaling_page.peak_words(peak).startswith(says)


def _fit(measure="median_conflicts", censored=False, lower_bound=False):
    return Fit("course", measure, 2.04, 1.5, 2.6, 0.0, 0.987, 4, censored, (5, 6), lower_bound)


def test_growth_words_give_each_exponent_and_what_undecided_runs_do_to_it():
    [none] = scaling_page.growth_words([], "cdcl")
    assert "fewer than three orders" in none
    clauses, conflicts = scaling_page.growth_words(
        [_fit("clauses"), _fit(censored=True, lower_bound=True)], "cdcl")
    assert "the clauses grow like N^2.0 (95 % CI 1.5 to 2.6, R² = 0.99, 4 orders)." in clauses
    assert "the median number of conflicts of cdcl grows like" in conflicts
    assert conflicts.endswith("(a lower bound: at N = 5 and 6 some runs were undecided, and "
                              "their conflicts stopped counting at the budget).")
    neither = scaling_page.bound_words(_fit("median_cpu_ms", censored=True))
    assert neither.startswith(" (not a bound either way: at N = 5 and 6 some medians are runs")


def test_closed_form_words_give_the_measured_exponent_beside_the_closed_forms():
    alone = scaling_page.closed_form_words([6, 3, 4, 5], [_fit()])
    assert alone == ("The closed form N⁴ + 2(N⁸ − N⁶) of the course encoding, fitted the same way "
                     "over N = 3, 4, 5, 6, gives an exponent of 8.12 (the leading term alone "
                     "would give 8).")
    measured = scaling_page.closed_form_words([3, 4, 5, 6], [_fit(), _fit("clauses")])
    assert "gives an exponent of 8.12; the measured clause counts give 2.04 (the" in measured


def test_usable_words_say_where_an_encoding_stops_being_usable():
    rows = []
    for order, undecided in ((4, (0, 0, 0, 0)), (5, (1, 3, 2, 1)), (6, (3, 3, 3, 3))):
        for alpha, out in zip((0.0, 0.2, 0.4, 0.6), undecided, strict=True):
            rows += _cell(order, alpha, "course", ["UNKNOWN"] * out + ["SAT"] * (3 - out))
            rows += _cell(order, alpha, "optimised", ["SAT"] * 3)
    spec = GridSpec(orders=(4, 5, 6), encodings=("course", "optimised"), reference=None)
    course, optimised = scaling_page.usable_words(gridstudy.summarise(pd.DataFrame(rows)), spec,
                                                   "the budget")
    assert optimised.startswith("With cdcl, the optimised encoding stayed usable up to N = 6")
    assert course.startswith("With cdcl, the course encoding stops being usable at N = 5")
    # each cell's own count (half or more of it), then the order's, which may be less than half
    assert course.endswith("half or more of the boards of a cell were undecided at 20 % given "
                           "(3 of 3), 40 % given (2 of 3); over the whole order, 7 of the course "
                           "encoding's 12 runs were undecided; at N = 6, 12 of 12.")


def test_reference_words_compare_the_same_cells_and_name_the_boards_it_missed():
    rows = [_row(3, a, "optimised", "SAT", 10.0 if a == 0.0 else 50.0, board=b)
            for a in (0.0, 0.5) for b in (0, 1)]
    rows += [_row(3, a, "optimised", "SAT", 20.0, solver="ref", board=b)
             for a in (0.0, 0.5) for b in (0, 1)]
    rows.append(_row(4, 0.0, "optimised", "UNKNOWN", 90.0))  # ours alone: not compared
    frame = pd.DataFrame(rows)
    summary = gridstudy.summarise(frame)
    [absent] = scaling_page.reference_words(frame, summary, "cdcl", "ref", "b", "course")
    assert absent == "ref was not run with the course encoding."
    [said] = scaling_page.reference_words(frame, summary, "cdcl", "ref", "the budget")
    assert "cdcl decided 4 and ref 4 of the same 4 runs within the budget" in said
    assert "the lower in 1 of 2 cells" in said
    frame.loc[4, ["status", "stop", "conflicts", "solve_cpu_ms"]] = [
        "UNKNOWN", "conflicts", 20000, 120.0]
    frame.loc[5, ["status", "stop", "conflicts"]] = ["UNKNOWN", "conflicts", None]
    frame.loc[frame["solver"] == "cdcl", "conflicts"] = [900, math.nan, 3, 3, 3]
    frame["load_cpu_ms"] = [None] * 4 + [30.0, None, None, None, None]
    summary = gridstudy.summarise(frame)
    said, missed = scaling_page.reference_words(frame, summary, "cdcl", "ref", "the budget")
    assert "cdcl decided 4 and ref 2 of the same 4 runs" in said
    assert missed.startswith("ref did not decide 2 boards that cdcl decided")
    assert ("N = 3, 0 % given, seed 7: it stopped (UNKNOWN, conflicts) after 20,000 conflicts "
            "and 120 ms of CPU, 30 of them loading the clauses, where cdcl needed 900 conflicts "
            "and 10 ms") in missed
    assert ("N = 3, 0 % given, seed 8: it stopped (UNKNOWN, conflicts) and 20 ms of CPU, "
            "where cdcl needed 10 ms.") in missed


def test_cell_words_say_what_the_encoding_changed_on_the_same_boards():
    def words(course, optimised):
        rows = _cell(6, 0.4, "course", course, ms=40.0) + _cell(6, 0.4, "optimised", optimised)
        return scaling_page.cell_words(gridstudy.summarise(pd.DataFrame(rows)), 6, 0.4, "cdcl",
                                        20000)

    said = words(["SAT", "UNKNOWN", "UNKNOWN"], ["SAT"] * 3)
    assert said.startswith("At N = 6 with 40 % given, within 20,000 conflicts: course with cdcl: "
                           "1 of 3 solved, 2 undecided (median of the solved 40 ms of CPU); "
                           "optimised with cdcl: 3 of 3 solved (median of the solved 10 ms")
    assert "the encoding decides whether the board is solved at all" in said
    none = words(["UNKNOWN"] * 3, ["UNKNOWN"] * 3)
    assert "course with cdcl: 0 of 3 solved, 3 undecided; optimised" in none
    assert "both encodings decided 0 of 3 boards" in none
    worse = words(["SAT"] * 3, ["SAT", "UNKNOWN", "UNKNOWN"])
    assert worse.endswith("the course encoding decided more boards (3) than the optimised "
                          "encoding (1).")
    summary = gridstudy.summarise(pd.DataFrame(_cell(6, 0.4, "course", ["SAT"])))
    assert "no cell N = 7, 50 % given" in scaling_page.cell_words(summary, 7, 0.5, "cdcl", 1)


def test_large_intro_words_give_the_sizes_and_the_fills_tried():
    said = scaling_page.large_intro_words([8, 7], [3, 4, 5, 6], [0.7, 0.6], "cdcl", 20000)
    assert said.startswith("At N = 7 and 8 (the grid stops at N = 6), the course encoding of an "
                           "empty board would have 11,296,705 clauses at N = 7 and 33,034,240 at "
                           "N = 8 (about 33 million)")
    assert "one board per fill from 70 % given down (70 %, 60 %)" in said
    one = scaling_page.large_intro_words([4], [2, 3], [0.7], "cdcl", 1)
    assert one.endswith("One board per order, at 70 % given.") and "million" not in one


def test_large_words_say_how_far_each_order_went_and_what_stopped_it():
    def order(n, lowest, stopped=None, status=None):
        tried = [_row(n, 0.8, "optimised", "SAT", 900.0), _row(n, lowest, "optimised", "SAT",
                                                                1500.0)]
        return tried + ([] if stopped is None else [_row(n, stopped, "optimised", status)])

    rows = ([_row(7, 0.75, "optimised", "UNKNOWN")] + order(8, 0.6, 0.55, "UNKNOWN")
            + order(9, 0.7, 0.65, "TIMEOUT") + order(10, 0.7, 0.65, "ERROR") + order(11, 0.5))
    said = scaling_page.large_words(pd.DataFrame(rows), "cdcl")
    assert said[0] == "N = 7: cdcl decided no board within the budget."
    assert said[1] == ("N = 8: down to 60 % given, cdcl decided the board within the budget "
                       "(800 clauses, 1,500 ms of CPU), and was stopped by the budget at 55 %.")
    assert "stopped by the CPU cap" in said[2] and "failed (ERROR) at 65 %" in said[3]
    assert said[4].endswith("ms of CPU).")
    assert said[5].startswith("Where the CPU cap stopped a board")
    assert len(scaling_page.large_words(pd.DataFrame(rows[:4]), "cdcl")) == 2


def test_hardest_table_has_a_row_per_encoding_and_a_column_per_order():
    summary = pd.DataFrame({
        "order": [3, 3, 3], "alpha": [0.2, 0.4, 0.2], "encoding": ["course", "course", "alone"],
        "solver": ["cdcl", "cdcl", "ref"], "boards": [1, 1, 1], "solved": [1, 1, 1],
        "unfinished": [0, 0, 0], "censored": [False] * 3, "median_conflicts": [4.0, 9.0, 1.0],
        "median_cpu_ms": [1.0, 2.0, 1.0], "clauses": [100, 100, 100],
    })
    table = scaling_page.hardest_table(summary, "cdcl")
    assert table.index.name == "encoding" and list(table.index) == ["course"]
    assert table.loc["course", "N = 3"].startswith("40 % (median 9 conflicts")
