"""Acceptance: the experiment and results pages compare like with like, with a zChaff whose
search is fast and whose process is slow.

The pages run under papermill on three tiny instances with ``ZCHAFF`` naming a fake zChaff
that really solves (PySAT inside), answers in the layout of the real transcripts
(``tests/data/zchaff``), reports a ``Total Run Time`` of 1 microsecond and sleeps half a
second before answering. So the winners differ between the comparisons: end to end and in
overhead our ``cdcl`` wins, in search alone (on CPU time, both) zChaff does. The checks read
the results table and the pages' prose; the winners and the search ratio are worked out here
from the table, apart from the package.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from sudosat.report import build as reportbuild
from sudosat.report import clocks, formats
from sudosat.report.pages import Settings
from sudosat.sudoku.board import COURSE_EXAMPLE
from tests.fake_solvers.support import TRANSCRIPTS, make_launcher

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = [COURSE_EXAMPLE, "2 1000002000300004", "2 1100000000000000"]
RUN_TIME_S = 1e-06  # what the fake reports as its search: far below any search of ours
SLEEP_S = 0.5  # what its process costs on top: far above any whole instance of ours
ROUNDING = 0.0025


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict:
    """Run the experiment page, then the results page, with the fake zChaff as ZCHAFF."""
    base = tmp_path_factory.mktemp("race")
    instances = base / "tiny.txt"
    instances.write_text("\n".join(INSTANCES) + "\n")
    fake = make_launcher(base / "bin", "zchaff")
    patch = pytest.MonkeyPatch()
    for name, value in {"ZCHAFF": str(fake), "FAKE_MODE": "solve", "FAKE_DIR": str(TRANSCRIPTS),
                        "FAKE_RUN_TIME": f"{RUN_TIME_S:g}", "FAKE_SLEEP": str(SLEEP_S)}.items():
        patch.setenv(name, value)
    patch.delenv("FAKE_LOG", raising=False)
    settings = Settings(
        root=ROOT, instances=str(instances), time_limit_ms=20_000.0, solvers=["cdcl", "zchaff"],
        reports=base / "reports", figures_dir=base / "figures", build=base / "executed",
        jobs=1, quick=True, pdf=False,
    )
    try:
        executed = {name: reportbuild.execute(name, settings) for name in ("experiment", "report")}
    finally:
        patch.undo()
    return {
        "results": pd.read_csv(base / "reports" / "data" / "results.csv"),
        "prose": {name: prose(path) for name, path in executed.items()},
        "tables": {name: html_outputs(path) for name, path in executed.items()},
        "figures": base / "figures",
    }


def html_outputs(path: Path) -> str:
    """A page's HTML outputs (its tables), one after the other."""
    notebook = nbformat.read(path, as_version=4)
    return "\n".join("".join(output.get("data", {}).get("text/html", ""))
                     for cell in notebook.cells for output in cell.get("outputs", []))


def prose(path: Path) -> str:
    """A page's Markdown: its Markdown cells and the Markdown its code cells displayed."""
    notebook = nbformat.read(path, as_version=4)
    parts = []
    for cell in notebook.cells:
        assert not [o for o in cell.get("outputs", []) if o.output_type == "error"]
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("data", {}).get("text/markdown", "")))
    return "\n\n".join(parts)


def paragraph(text: str, lead: str) -> str:
    """The one paragraph of `text` that starts with `lead`."""
    found = [p for p in text.split("\n\n") if p.strip().startswith(lead)]
    assert len(found) == 1, (lead, found)
    return found[0]


def winner(results: pd.DataFrame, column: str) -> str:
    """The solver faster in `column` on more of the instances both decided, worked out here."""
    decided = results[results["status"].isin(["SAT", "UNSAT"])]
    wide = decided.pivot(index="line", columns="solver", values=column).dropna()
    cdcl_wins = int((wide["cdcl"] < wide["zchaff"]).sum())
    zchaff_wins = int((wide["zchaff"] < wide["cdcl"]).sum())
    assert cdcl_wins != zchaff_wins
    return "cdcl" if cdcl_wins > zchaff_wins else "zchaff"


def test_each_number_lands_in_its_column(pages):
    results = pages["results"]
    zchaff = results[results["solver"] == "zchaff"]
    assert len(zchaff) == 3 and set(zchaff["status"]) == {"SAT", "UNSAT"}
    assert (zchaff["search_cpu_ms"] == RUN_TIME_S * 1000).all()  # its Total Run Time, in ms
    assert (zchaff["solve_wall_ms"] >= SLEEP_S * 1000).all()  # the process, sleep and all
    assert zchaff["load_cpu_ms"].isna().all() and zchaff["overhead_wall_ms"].isna().all()
    assert (zchaff["solve_cpu_ms"] > 0).all()
    for _, row in results.iterrows():
        parts = row[["encode_cpu_ms", "overhead_cpu_ms", "search_cpu_ms", "decode_cpu_ms"]]
        assert abs(parts.fillna(0.0).sum() - row["total_cpu_ms"]) <= ROUNDING, row.to_dict()
    assert results[results["solver"] == "cdcl"]["search_cpu_ms"].notna().all()


LEADS = {"**End to end on the wall clock**": ("total_wall_ms", "cdcl"),
         "**End to end on CPU time**": ("total_cpu_ms", "cdcl"),
         "**Search alone on CPU time**": ("search_cpu_ms", "zchaff"),
         "**Overhead on CPU time**": ("overhead_cpu_ms", "cdcl")}


def test_the_results_page_names_the_winner_of_each_comparison_on_its_clock(pages):
    results, text = pages["results"], pages["prose"]["report"]
    for lead, (column, solver) in LEADS.items():
        assert winner(results, column) == solver  # the fake did what it was made for
        said = paragraph(text, lead)
        other = "zchaff" if solver == "cdcl" else "cdcl"
        assert f"{solver} was faster on" in said and f"{other} was faster on" not in said, said
    assert "not compared" in paragraph(text, "Overhead on the wall clock")
    assert "zchaff reports it" in paragraph(text, "Every search time is CPU time")


def test_the_search_ratio_the_page_prints_is_cpu_against_cpu(pages):
    results, text = pages["results"], pages["prose"]["report"]
    decided = results[results["status"].isin(["SAT", "UNSAT"])]
    wide = decided.pivot(index="line", columns="solver", values="search_cpu_ms").dropna()
    ratio = float((wide["cdcl"] / wide["zchaff"]).median())
    said = paragraph(text, "**Search alone on CPU time**")
    assert (f"the median ratio of cdcl's time to zchaff's (search alone on CPU time) is "
            f"{formats.ratio(ratio)}.") in said


@pytest.mark.parametrize("page", ["experiment", "report"])
def test_the_page_says_whether_wall_and_cpu_time_disagree_as_the_data_does(pages, page):
    results, text = pages["results"], pages["prose"][page]
    said = paragraph(text, "**Wall against CPU time.**")
    decided = results[results["status"].isin(["SAT", "UNSAT"]) & (results["solver"] == "cdcl")]
    # The median of the calls' ratios, as the page labels it.
    ratio = float((decided["solve_wall_ms"] / decided["solve_cpu_ms"]).median())
    busy = ratio > clocks.BUSY_RATIO
    assert ("machine was busy" in said) is busy
    assert ("machine was quiet" in said) is not busy
    if page == "experiment":  # the paragraph itself, written once
        assert f"{formats.ratio(ratio)} for cdcl" in said
        assert "zchaff" in said and "shown, not judged" in said  # a sleeping program: not judged
        assert "not those on CPU time" in said
    else:  # the results page refers to it instead of repeating it
        assert formats.ratio(ratio) not in said and "experiment page" in said


def test_the_busy_machine_is_told_before_the_first_time_on_the_results_page(pages):
    text = pages["prose"]["report"]
    assert text.index("**Wall against CPU time.**") < text.index("median total time")


@pytest.mark.parametrize("page", ["experiment", "report"])
def test_the_page_names_zchaff_and_states_no_sentence_twice(pages, page):
    text = pages["prose"][page]
    assert "stands in for it" not in text and "zchaff" in text
    sentences = [" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+", text)]
    long = [s for s in sentences if len(s.split()) >= 8]
    assert sorted({s for s in long if long.count(s) > 1}) == []
    assert "solve time" not in text.lower()  # a search is never set against a process
    # sentences that once came out garbled from their data
    assert not re.search(r"\bon 0\b|\b1\.0 times\b|, which searches in", text)


def test_the_experiment_page_lists_the_solvers_that_run(pages):
    said = paragraph(pages["prose"]["experiment"], "**Solvers that run:**")
    assert "`cdcl` and `zchaff`" in said


def test_the_programs_own_cpu_time_our_side_and_the_pipeline_are_each_shown(pages):
    results, text = pages["results"], pages["prose"]["report"]
    zchaff = results[results["solver"] == "zchaff"]
    assert (zchaff["process_cpu_ms"] > 0).all()  # from the operating system, for every call
    assert results[results["solver"] == "cdcl"]["process_cpu_ms"].isna().all()
    assert (zchaff["process_cpu_ms"] <= zchaff["solve_cpu_ms"] + ROUNDING).all()
    for lead in ("**The solver alone on CPU time**", "**Around the solver on CPU time**"):
        assert "was faster on" in paragraph(text, lead)
    assert "*End to end* is an instance from its line to its checked board" in text
    table = pages["tables"]["report"]
    assert "zchaff own CPU ms" in table and "zchaff around CPU ms" in table


def test_the_results_page_draws_the_three_comparisons(pages):
    for name in ("report-scatter", "report-scatter-search", "report-scatter-overhead"):
        assert (pages["figures"] / f"{name}.png").stat().st_size > 1000
