"""The solvers and heuristics pages' facts are what their data show.

Each fact is computed from tables like those a rendered page showed (the numbers below), and
must agree with them; the slow tests execute both notebooks on tiny parameters and look for
those facts in what the pages print.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from sudosat.report import heuristics_page
from sudosat.report.solvers_page import (
    ComponentFit,
    SolverCounters,
    component_growth,
    growth_exponents,
    harder_facts,
    rerun_facts,
)
from sudosat.run.results import DECIDED
from sudosat.studies import heuristics
from tests.heuristics_rows import experiment_rows

ROOT = Path(__file__).resolve().parent.parent

# a component table of the solvers page (CPU ms)
COSTS = pd.DataFrame(
    {
        "order": [1, 2, 3, 4],
        "literals": [2, 840, 24_098, 249_984],
        "encoder CPU ms": [0.072, 0.284, 2.819, 24.733],
        "DIMACS writer CPU ms": [0.011, 0.131, 4.361, 54.780],
        "parser CPU ms": [0.075, 0.192, 4.467, 49.819],
        "solver CPU ms": [0.110, 0.379, 5.397, 52.527],
        "decoder CPU ms": [0.006, 0.010, 0.041, 0.165],
        "check CPU ms": [0.002, 0.009, 0.029, 0.0],
    }
).set_index("order")

# a search table of the solvers page
COMPARISON = pd.DataFrame(
    {
        "puzzle": ["course example"] * 3 + ["traced puzzle"] * 3,
        "solver": ["dp", "dpll", "cdcl"] * 2,
        "answer": ["SAT"] * 6,
        "solver CPU ms": [61.0, 19.9, 5.8, 104.2, 27.3, 6.3],
        "decisions": [209, 5, 20, 69, 20, 24],
        "propagations": [6938, 729, 1796, 3709, 1489, 1491],
        "conflicts": [200, 0, 19, 66, 15, 16],
    }
).set_index(["puzzle", "solver"])


# -- growth exponents over the largest orders ------------------------------------


def test_growth_exponents_use_the_largest_orders_not_order_one():
    fits = growth_exponents(COSTS)
    assert set(fits["first order"]) == {3} and set(fits["last order"]) <= {3, 4}
    assert fits.loc["encoder", "k"] == pytest.approx(0.93, abs=0.005)
    assert fits.loc["DIMACS writer", "k"] == pytest.approx(1.08, abs=0.005)
    assert fits.loc["parser", "k"] == pytest.approx(1.03, abs=0.005)
    assert fits.loc["solver", "k"] == pytest.approx(0.97, abs=0.005)
    assert "check" not in fits.index  # 0 ms at order 4: below the clock's resolution


def test_component_growth_names_the_fitted_orders_and_leaves_out_the_small_ones():
    growth = component_growth(COSTS)
    assert growth.orders == (3, 4) and growth.literals == (24_098, 249_984)
    assert growth.left_out == (1, 2) and growth.unfitted == ("check",)
    fits = {fit.component: fit for fit in growth.fits}
    assert fits["encoder"] == ComponentFit("encoder", pytest.approx(0.93, abs=0.005), 2, 3, 4,
                                           2.819, 24.733)
    assert fits["solver"].k == pytest.approx(0.97, abs=0.005)
    assert (fits["solver"].first_ms, fits["solver"].last_ms) == (5.397, 52.527)


def test_component_growth_with_three_orders_and_with_one():
    three = growth_exponents(COSTS, 3)
    assert set(three["first order"]) == {2} and three.loc["check", "last order"] == 3
    growth = component_growth(COSTS, 3)
    assert growth.orders == (2, 3, 4) and growth.left_out == (1,)
    check = {fit.component: fit for fit in growth.fits}["check"]
    assert check.orders == 2 and (check.first_order, check.last_order) == (2, 3)
    one = component_growth(COSTS.loc[[2]])
    assert one.orders == (2,) and one.fits == () and one.unfitted == () and one.left_out == ()
    assert component_growth(COSTS.loc[[1, 2]]).left_out == ()
    with pytest.raises(ValueError):
        growth_exponents(COSTS, 1)


# -- which solvers find the traced puzzle harder ---------------------------------


def test_harder_facts_read_which_solvers_needed_more_from_the_table():
    givens = {"course example": 27, "traced puzzle": 24}
    facts = harder_facts(COMPARISON, givens, "traced puzzle", "course example")
    assert (facts.puzzle_givens, facts.against_givens) == (24, 27)
    assert facts.solvers == (
        SolverCounters("dp", (("decisions", 69, 209), ("conflicts", 66, 200))),
        SolverCounters("dpll", (("decisions", 20, 5), ("conflicts", 15, 0))),
        SolverCounters("cdcl", (("decisions", 24, 20), ("conflicts", 16, 19))),
    )
    assert facts.harder == ("dpll",) and not facts.harder_for_every_solver
    back = harder_facts(COMPARISON, givens, "course example", "traced puzzle")
    assert back.harder == ("dp",)
    alone = harder_facts(COMPARISON.loc[(slice(None), ["dpll"]), :], givens, "traced puzzle",
                         "course example")
    assert alone.harder == ("dpll",) and alone.harder_for_every_solver
    unknown = COMPARISON.astype({"conflicts": "Int64", "decisions": "Int64"})
    unknown.loc[("traced puzzle", "dp"), ["decisions", "conflicts"]] = pd.NA
    assert [s.solver for s in harder_facts(unknown, givens, "traced puzzle",
                                           "course example").solvers] == ["dpll", "cdcl"]


# -- the rerun's time against the table's ----------------------------------------


def test_rerun_facts_give_both_times_and_whether_the_counters_agree():
    stats = {"decisions": 24, "propagations": 1491, "conflicts": 16}
    result = SimpleNamespace(stats=stats)
    facts = rerun_facts(result, 4.04, 4.5, COMPARISON, "traced puzzle", "cdcl")
    assert (facts.cpu_ms, facts.wall_ms, facts.table_cpu_ms) == (4.04, 4.5, 6.3)
    assert facts.table_counters == (("decisions", 24), ("conflicts", 16)) and facts.same_counters
    assert facts.stats == stats
    other = SimpleNamespace(stats={**stats, "conflicts": 3})
    assert not rerun_facts(other, 9.0, 9.0, COMPARISON, "traced puzzle").same_counters
    silent = SimpleNamespace(stats={"decisions": 24})
    assert not rerun_facts(silent, 9.0, 9.0, COMPARISON, "traced puzzle").same_counters


# -- the heuristics page's verdicts and unfinished runs ------------------------------------


def test_verdict_against_dp_is_mixed_when_counts_and_ratio_disagree():
    # MOMS far fewer on 4 puzzles, a little more on 6: the ratio favours MOMS, the counts do not
    moms = [10, 10, 10, 10, 12, 12, 12, 12, 12, 12]
    dp = [400, 400, 400, 400, 10, 10, 10, 10, 10, 10]
    grades = ["hard"] * 4 + ["easy"] * 6
    results = experiment_rows({"moms": moms, "dlis": [m * 50 for m in moms], "dp": dp}, grades, {})
    by_rival = {c.rival: c for c in heuristics.compare(results)}
    dp_cmp = by_rival["dp"]
    assert (dp_cmp.fewer, dp_cmp.more) == (4, 6) and dp_cmp.ratio_low > 1
    # the ratio's interval favours MOMS, the counts favour dp: a mixed verdict, not a win
    assert dp_cmp.interval_favours == 1 and dp_cmp.counts_favour == -1
    assert dp_cmp.grade_medians == (("hard", 10.0, 400.0), ("easy", 12.0, 10.0))
    conclusion = heuristics_page.conclusion_words(list(by_rival.values()), results, "a", "b")
    assert [said.split(":")[0] for said in conclusion[:2]] == ["Against dlis", "Against dp"]
    # dlis is beaten on every puzzle; the split 4-6 against dp is no significant win
    assert by_rival["dlis"].significant() and not dp_cmp.significant()
    assert conclusion[2].startswith("The hypothesis does not hold")
    assert conclusion[2].endswith("fewer decisions than dp.")
    assert conclusion[3].startswith("Against dp the geometric mean of the ratios is above 1")


def test_hypothesis_holds_only_when_every_named_rival_is_beaten_significantly():
    def comparison(rival, p_holm, effect):
        return heuristics.Comparison(rival, 10, 8, 1, 1, 1.0, p_holm, p_holm, effect, 2.0, 1.5,
                                     2.5, 0, 0)

    def verdict(comparisons):
        return heuristics_page.verdict_words(comparisons, 10, 0, "limits")[0]

    both = [comparison("dlis", 0.01, 0.8), comparison("dp", 0.02, 0.5), comparison("jw", 0.9, 0)]
    assert verdict(both).startswith("The hypothesis holds") and "than dlis and than dp" in (
        verdict(both))
    weak = verdict([comparison("dlis", 0.01, 0.8), comparison("dp", 0.2, 0.5)])
    assert weak.startswith("The hypothesis does not hold") and weak.endswith("than dp.")
    backwards = verdict([comparison("dlis", 0.01, -0.3)])
    assert backwards.startswith("The hypothesis does not hold") and backwards.endswith("dlis.")
    assert verdict([]).startswith("Too few runs finished for a verdict")


def test_friedman_and_grade_medians_read_the_results():
    results = experiment_rows({"moms": [1, 2, 3], "dlis": [3, 4, 9], "dp": [5, 6, 7]},
                              ["a", "a", "b"], {})
    assert heuristics.grade_medians(results) == [
        ("a", {"moms": 1.5, "dlis": 3.5, "dp": 5.5}), ("b", {"moms": 3.0, "dlis": 9.0, "dp": 7.0})]
    statistic, p, solvers, puzzles, done = heuristics.friedman(results)
    assert (solvers, puzzles, done) == (3, 3, 3)
    # ranks moms 1,1,1; dlis 2,2,3; dp 3,3,2: chi-square 14/3 on 2 degrees of freedom
    assert statistic == pytest.approx(14 / 3) and p == pytest.approx(math.exp(-7 / 3))
    # three puzzles are too few to state the test
    assert heuristics_page.friedman_words(results).startswith(
        "Friedman's test over the 3 solvers is not run: 3 of the 3 puzzles")


def test_grade_table_splits_into_narrow_tables_of_one_column_per_solver():
    results = experiment_rows({"moms": [1, 2], "dlis": [3, 4], "dp": [5, 6]}, ["a", "b"],
                              {"dlis": {1}})
    grades = heuristics.grade_table(results)
    assert list(grades["median decisions"].columns) == ["moms", "dlis", "dp"]
    assert grades["not finished"].loc["b", "dlis"] == 1


# -- the pages themselves, executed on tiny parameters ----------------------------------------


def _outputs(path: Path) -> tuple[str, list[str]]:
    """The Markdown the notebook rendered and the HTML tables it showed."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    markdown, tables = [], []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            markdown.append("".join(data.get("text/markdown", "")))
            html = "".join(data.get("text/html", ""))
            tables += re.findall(r"<table class=\"sudosat-table\">.*?</table>", html, re.S)
    return "\n".join(markdown), tables


def _execute(name: str, tmp_path: Path, parameters: dict) -> Path:
    papermill = pytest.importorskip("papermill")
    target = tmp_path / f"{name}.ipynb"
    papermill.execute_notebook(
        str(ROOT / "notebooks" / f"{name}.ipynb"), str(target), cwd=str(ROOT),
        kernel_name="python3", progress_bar=False,
        parameters={**parameters, "figures_dir": str(tmp_path / "figures")},
    )
    return target


@pytest.mark.slow
def test_solvers_page_states_the_facts_of_its_tables(tmp_path):
    executed = _execute("solvers", tmp_path, {"max_order": 2, "trace_limit": 10})
    prose, _ = _outputs(executed)
    page = executed.read_text(encoding="utf-8")
    assert "harder order-3 puzzle" not in page
    assert "is fitted over orders 1 and 2" in prose
    assert re.search(r"harder than the course example for (dpll only|none|every)", prose)
    assert "in the table above" in prose or "in the table above" in page
    assert "Traced puzzle, solved in" not in page


@pytest.mark.slow
def test_heuristics_page_states_unfinished_runs_and_keeps_its_tables_narrow(tmp_path):
    cache = tmp_path / "cache"
    executed = _execute(
        "heuristics", tmp_path,
        {"per_grade": 1, "max_propagations": 20_000, "cache_dir": str(cache)}
    )
    prose, tables = _outputs(executed)
    results = heuristics.run_heuristics_experiment(
        heuristics.ExperimentSpec(max_propagations=20_000).shrunk(1), cache_dir=str(cache)
    )
    unfinished = int((~results["status"].isin(DECIDED)).sum())
    stopped = int((results["stop"] == "propagations").sum())
    said = (f"{unfinished} of the {len(results)} runs did not finish: {stopped} used up a budget "
            "of 20,000 propagations" if unfinished else
            f"All {len(results)} runs finished within a budget of 20,000 propagations")
    assert said in prose
    assert "whatever the speed of the machine or\nthe language. Time" not in executed.read_text()
    widest = max(table.split("</tr>")[0].count("<th>") for table in tables)
    assert widest <= 12, "a table wider than an A4 page holds"
