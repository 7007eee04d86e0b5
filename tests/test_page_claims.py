"""The solvers and heuristics pages say only what their data show (review findings 1-6).

Each prose helper is fed the numbers the reviewer read off the rendered pages, and the
sentence it writes must agree with them; the slow tests execute both notebooks on tiny
parameters and look at what the pages print.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from sudosat.report.solvers_page import (
    components_comment,
    growth_exponents,
    harder_sentence,
    rerun_caption,
)
from sudosat.studies import heuristics

ROOT = Path(__file__).resolve().parent.parent

# the component table of reports/solvers.html the reviewer read (ms)
COSTS = pd.DataFrame(
    {
        "order": [1, 2, 3, 4],
        "literals": [2, 840, 24_098, 249_984],
        "encoder ms": [0.072, 0.284, 2.819, 24.733],
        "DIMACS writer ms": [0.011, 0.131, 4.361, 54.780],
        "parser ms": [0.075, 0.192, 4.467, 49.819],
        "solver ms": [0.110, 0.379, 5.397, 52.527],
        "decoder ms": [0.006, 0.010, 0.041, 0.165],
        "check ms": [0.002, 0.009, 0.029, 0.0],
    }
).set_index("order")

# the search table of reports/solvers.html
COMPARISON = pd.DataFrame(
    {
        "puzzle": ["course example"] * 3 + ["traced puzzle"] * 3,
        "solver": ["dp", "dpll", "cdcl"] * 2,
        "answer": ["SAT"] * 6,
        "solver ms": [61.0, 19.9, 5.8, 104.2, 27.3, 6.3],
        "decisions": [209, 5, 20, 69, 20, 24],
        "propagations": [6938, 729, 1796, 3709, 1489, 1491],
        "conflicts": [200, 0, 19, 66, 15, 16],
    }
).set_index(["puzzle", "solver"])


# -- finding 2: growth exponents over the largest orders ------------------------------------


def test_growth_exponents_use_the_largest_orders_not_order_one():
    fits = growth_exponents(COSTS)
    assert set(fits["first order"]) == {3} and set(fits["last order"]) <= {3, 4}
    assert fits.loc["encoder", "k"] == pytest.approx(0.93, abs=0.005)
    assert fits.loc["DIMACS writer", "k"] == pytest.approx(1.08, abs=0.005)
    assert fits.loc["parser", "k"] == pytest.approx(1.03, abs=0.005)
    assert fits.loc["solver", "k"] == pytest.approx(0.97, abs=0.005)
    assert "check" not in fits.index  # 0 ms at order 4: below the clock's resolution


def test_components_comment_names_the_fitted_orders_and_not_the_old_exponents():
    text = components_comment(COSTS)
    assert "orders 3 and 4, the 2 largest measured (24,098 and 249,984 literals)" in text
    assert "Orders 1 and 2 are left out of the fit" in text
    assert "encoder 2.82 → 24.73 ms (k ≈ 0.93)" in text
    assert "solver 5.40 → 52.53 ms (k ≈ 0.97)" in text
    assert "k ≈ 0.5)" not in text and "From order 1" not in text
    assert "No exponent for check" in text


def test_components_comment_with_three_orders_and_with_one():
    three = growth_exponents(COSTS, 3)
    assert set(three["first order"]) == {2} and three.loc["check", "last order"] == 3
    assert "orders 2, 3 and 4, the 3 largest measured" in components_comment(COSTS, 3)
    assert "Order 1 is left out" in components_comment(COSTS, 3)
    assert components_comment(COSTS.loc[[2]]) == (
        "Only order 2 was measured: no growth exponent can be fitted."
    )
    assert "left out" not in components_comment(COSTS.loc[[1, 2]])
    with pytest.raises(ValueError):
        growth_exponents(COSTS, 1)


# -- finding 1: which solvers find the traced puzzle harder ---------------------------------


def test_harder_sentence_reads_which_solvers_needed_more_from_the_table():
    givens = {"course example": 27, "traced puzzle": 24}
    text = harder_sentence(COMPARISON, givens, "traced puzzle", "course example")
    assert text.startswith("The traced puzzle has 24 givens, the course example 27.")
    assert "dp needed fewer decisions (69 against 209) and fewer conflicts (66 against 200)" in text
    assert "dpll needed more decisions (20 against 5) and more conflicts (15 against 0)" in text
    assert "cdcl needed more decisions (24 against 20) and fewer conflicts (16 against 19)" in text
    assert text.endswith("harder than the course example for dpll only.")
    back = harder_sentence(COMPARISON, givens, "course example", "traced puzzle")
    assert back.endswith("harder than the traced puzzle for dp only.")


# -- finding 3: the caption's time against the table's ----------------------------------------


def test_rerun_caption_gives_both_times_and_whether_the_counters_agree():
    stats = {"decisions": 24, "propagations": 1491, "conflicts": 16}
    result = SimpleNamespace(elapsed_ms=4.04, stats=stats)
    text = rerun_caption(result, COMPARISON, "traced puzzle", "cdcl")
    assert "4.0 ms here, 6.3 ms for the same solver and puzzle in the table above" in text
    assert "the same 24 decisions and 16 conflicts as the table's run" in text
    assert "without the trace's observer" in text
    assert text.endswith("24 decisions, 1,491 propagations, 16 conflicts")
    other = SimpleNamespace(elapsed_ms=9.0, stats={**stats, "conflicts": 3})
    assert "the runs took different paths" in rerun_caption(other, COMPARISON, "traced puzzle")


# -- findings 4 and 5: the heuristics page's verdicts and time-outs ---------------------------


def _runs(counts: dict[str, list[int]], grades: list[str], timeouts: dict[str, set[int]]):
    rows = []
    for solver, values in counts.items():
        for index, value in enumerate(values):
            out = index in timeouts.get(solver, set())
            rows.append({"puzzle": f"p{index}", "grade": grades[index], "givens": 24,
                         "solver": solver, "status": "TIMEOUT" if out else "SAT",
                         "valid": not out, "decisions": value, "conflicts": 0, "ms": 1.0})
    return pd.DataFrame(rows)


def test_verdict_against_dp_is_mixed_when_counts_and_ratio_disagree():
    # MOMS far fewer on 4 puzzles, a little more on 6: the ratio favours MOMS, the counts do not
    moms = [10, 10, 10, 10, 12, 12, 12, 12, 12, 12]
    dp = [400, 400, 400, 400, 10, 10, 10, 10, 10, 10]
    grades = ["hard"] * 4 + ["easy"] * 6
    results = _runs({"moms": moms, "dlis": [m * 50 for m in moms], "dp": dp}, grades, {})
    by_rival = {c.rival: c for c in heuristics.compare(results)}
    dp_cmp = by_rival["dp"]
    assert (dp_cmp.fewer, dp_cmp.more) == (4, 6) and dp_cmp.ratio_low > 1
    sentence = heuristics.hypothesis_sentences(list(by_rival.values()))[1]
    assert sentence.startswith("Against dp:")
    assert "MOMS needed fewer" not in sentence
    assert ("mixed: the interval excludes 1 in MOMS's favour, but MOMS needed more decisions "
            "on more puzzles (6) than it needed fewer (4)") in sentence
    assert ("MOMS's median decisions per grade, against dp's: lower in “hard” (10 vs 400); "
            "higher in “easy” (12 vs 10);") in sentence


def test_timeout_sentences_count_the_cut_runs_and_say_they_are_not_censored():
    grades = ["g1", "g1", "g2", "g2"]
    counts = {"moms": [5, 5, 5, 5], "dlis": [90, 90, 40, 40], "dp": [7, 7, 7, 7]}
    results = _runs(counts, grades, {"dlis": {0, 1, 2}, "moms": {3}})
    sentences = heuristics.timeout_sentences(results, 300.0)
    assert sentences[0].startswith("4 of the 12 runs reached T = 300 ms (wall clock).")
    assert "depend on the machine's speed" in sentences[0]
    assert sentences[1] == "Time-outs are most of a solver's runs in “g1” (dlis 2 of 2)."
    assert "do not treat time-outs as censored values" in sentences[2]
    assert "against dlis, 3 puzzles on which only dlis timed out and 1 on which MOMS did" in (
        sentences[2])
    none = heuristics.timeout_sentences(_runs(counts, grades, {}), 200.0)
    assert none == ["None of the 12 runs reached T = 200 ms (wall clock): every decision count "
                    "here is the one the search needed to finish, which does not depend on the "
                    "machine's speed."]


def test_grade_table_splits_into_narrow_tables_of_one_column_per_solver():
    results = _runs({"moms": [1, 2], "dlis": [3, 4], "dp": [5, 6]}, ["a", "b"], {"dlis": {1}})
    grades = heuristics.grade_table(results)
    assert list(grades["median decisions"].columns) == ["moms", "dlis", "dp"]
    assert grades["time-outs"].loc["b", "dlis"] == 1


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
def test_solvers_page_prose_matches_its_tables(tmp_path):
    executed = _execute("solvers", tmp_path, {"max_order": 2, "trace_limit": 10})
    prose, _ = _outputs(executed)
    page = executed.read_text(encoding="utf-8")
    assert "harder order-3 puzzle" not in page
    assert "is fitted over orders 1 and 2" in prose
    assert re.search(r"harder than the course example for (dpll only|none|every)", prose)
    assert "in the table above" in prose or "in the table above" in page
    assert "Traced puzzle, solved in" not in page


@pytest.mark.slow
def test_heuristics_page_states_time_outs_and_keeps_its_tables_narrow(tmp_path):
    cache = tmp_path / "cache"
    executed = _execute(
        "heuristics", tmp_path, {"per_grade": 1, "time_limit_ms": 200.0, "cache_dir": str(cache)}
    )
    prose, tables = _outputs(executed)
    results = heuristics.run_experiment(
        heuristics.ExperimentSpec(time_limit_ms=200.0).shrunk(1), cache_dir=str(cache)
    )
    for sentence in heuristics.timeout_sentences(results, 200.0):
        assert sentence in prose
    assert "whatever the speed of the machine or\nthe language. Time" not in executed.read_text()
    widest = max(table.split("</tr>")[0].count("<th>") for table in tables)
    assert widest <= 12, "a table wider than an A4 page holds"
