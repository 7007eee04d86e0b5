"""The page sentences that branch on their facts read right in every branch.

They live in the page modules, not in the notebooks' code cells, so that they are tested
here on facts made by hand: a quiet machine and a busy one, ties and clean sweeps, one
instance and many, nothing decided.
"""

from __future__ import annotations

from sudosat.report import comparison, results_page, run, solvers_page


def test_wall_cpu_words_judge_the_solvers_in_this_process_on_a_quiet_and_a_busy_machine():
    quiet = comparison.wall_cpu_words({"cdcl": 1.01})
    assert quiet.startswith("The median wall-clock time of a solver call over its CPU time was "
                            "1.01 for cdcl. At most 1.5 for cdcl, in this process: the machine "
                            "was quiet, and the wall-clock times below")
    assert "shown, not judged" not in quiet
    busy = comparison.wall_cpu_words({"cdcl": 2.0, "dpll": 1.2, "zchaff": 3.0})
    assert "was 2.00 for cdcl, 1.20 for dpll and 3.00 for zchaff. Above 1.5 for cdcl," in busy
    assert "the machine was busy, and the wall-clock times" in busy
    assert "so its ratio is shown, not judged. A busy machine inflates" in busy
    assert comparison.wall_cpu_words({"zchaff": 3.0}).startswith("No CPU time was recorded")


def test_busy_reference_says_busy_quiet_or_unknown():
    assert comparison.busy_reference({"cdcl": 2.0}, "the figures").startswith(
        "The machine was busy while the run was timed")
    assert comparison.busy_reference({"cdcl": 1.0}, "the figures").endswith(
        "gives each solver's ratio): the figures are not inflated.")
    assert comparison.busy_reference({}).startswith("Whether the machine was busy cannot be told")


def facts(own_faster: int, reference_faster: int, ties: int) -> dict:
    both = own_faster + reference_faster + ties
    return {"lacking": (), "both": both, "own_faster": own_faster,
            "reference_faster": reference_faster, "ties": ties, "median_ratio": 0.5}


def test_comparison_words_say_who_was_faster_in_every_case():
    versus = {("end to end", "wall"): facts(3, 0, 0), ("end to end", "CPU"): facts(1, 2, 1),
              ("overhead", "CPU"): facts(1, 1, 0), ("search", "CPU"): {"lacking": ("zchaff",)},
              ("overhead", "wall"): facts(0, 0, 1)}
    said = results_page.comparison_words(versus, "cdcl", "zchaff")
    assert said[0].startswith("Each comparison is made on the 3 instances both solvers decided")
    assert "cdcl was faster on all 3; the median ratio" in said[1]
    assert "zchaff was faster on 2 of the 4, cdcl on 1, and they tied on 1" in said[2]
    assert "each was faster on 1 of the 2" in said[3]
    assert "**Overhead on the wall clock**: they tied on it;" in said[4]
    assert said[5].startswith("Search alone on CPU time is not compared: zchaff has no search")
    assert results_page.comparison_words({}, "cdcl", None) == [
        "Only one solver ran: there is nothing to compare it with."]
    assert results_page.comparison_words(
        {("end to end", "wall"): facts(0, 0, 0)}, "cdcl", "zchaff") == [
        "No instance was decided by both solvers: there is nothing to compare."]


def test_comparison_words_with_ties_a_missing_ratio_and_both_kinds_of_search_time():
    versus = {("search", "CPU"): facts(2, 0, 1), ("end to end", "wall"): facts(1, 1, 1),
              ("end to end", "CPU"): {**facts(0, 0, 3), "median_ratio": None},
              ("overhead", "wall"): {"lacking": ("cdcl", "zchaff")}}
    said = results_page.comparison_words(versus, "cdcl", "zchaff")
    assert "**Search alone on CPU time**: cdcl was faster on 2 of the 3, and they tied on 1;" in (
        said[1])
    assert "each was faster on 1 of the 3, and they tied on 1;" in said[2]
    assert said[3] == "**End to end on CPU time**: they tied on all 3."
    assert said[4].startswith("Overhead on the wall clock is not compared: cdcl and zchaff have ")
    assert said[5] == ("Every search time is CPU time: zchaff reports it; the search of cdcl is "
                       "timed in this process.")
    programs = results_page.comparison_words(versus, "exec:kissat", "zchaff")
    assert programs[-1] == "Every search time is CPU time: exec:kissat and zchaff report it."


def test_growth_words_with_one_order_and_with_a_fit():
    one = solvers_page.ComponentGrowth((3,), (100,), (), (), ())
    assert solvers_page.growth_words(one).startswith("Only order 3 was measured")
    fit = solvers_page.ComponentFit("parser", 1.0, 2, 3, 4, 0.5, 4.0)
    two = solvers_page.ComponentGrowth((3, 4), (100, 800), (1, 2), (fit,), ("check",))
    said = solvers_page.growth_words(two)
    assert "the slope between them" in said and "Orders 1 and 2 are left out" in said
    assert "parser 0.50 → 4.00 ms (k ≈ 1.00)" in said and "No exponent for check" in said


def test_counters_and_stats_read_as_words():
    harder = solvers_page.HarderFacts(
        "traced puzzle", "course example", 20, 30,
        (solvers_page.SolverCounters("dp", (("decisions", 5, 2), ("conflicts", 0, 0))),), ("dp",))
    assert solvers_page.counter_words(harder) == (
        "dp needed more decisions (5 against 2) and as many conflicts (0 against 0)")
    assert solvers_page.stats_words({"search_cpu_ms": 1.25, "decisions": 1200, "load_s": 0.5}) == [
        "search CPU time 1.2 ms", "1,200 decisions", "load 0.500 s"]


def test_machine_and_method_say_how_many_workers_timed_the_run():
    facts = {"jobs": 2, "machine": {"cores": 4, "load_average": 0.5}}
    machine, method = run.machine_and_method(facts)
    assert machine.startswith("**Machine.** an unknown processor, 4 cores")
    assert "The load average when the run started was 0.5." in machine
    assert "timed by 2 worker processes, one per free core" in method


def test_two_measures_with_one_ratio_still_say_which_ratio_is_which():
    same = {**facts(4, 1, 0), "median_ratio": 0.18}
    versus = {("end to end", "wall"): same, ("end to end", "CPU"): same}
    said = results_page.comparison_words(versus, "cdcl", "zchaff")
    clauses = [sentence.split("; ")[-1] for sentence in said[1:3]]
    assert clauses == [
        "the median ratio of cdcl's time to zchaff's (end to end on the wall clock) is 0.18.",
        "the median ratio of cdcl's time to zchaff's (end to end on CPU time) is 0.18."]
