"""Verdicts, results rows, output lines and results tables (sudosat.run.results)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.errors import InstanceError
from sudosat.report import io
from sudosat.run.pipeline import run_batch
from sudosat.run.results import (
    COLUMNS,
    STATUSES,
    Row,
    Verdict,
    format_output,
    parse_output,
    read_rows,
    read_table,
    table_format,
    write_table,
)
from sudosat.sat.result import Status
from sudosat.sudoku.board import Board
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

SUFFIXES = [".csv", ".jsonl", ".json", ".ndjson", ".CSV", ".JSON"]


def test_verdict_from_status_maps_no_decision_to_timeout():
    assert Verdict.from_status(Status.SAT) is Verdict.SAT
    assert Verdict.from_status(Status.UNSAT) is Verdict.UNSAT
    assert Verdict.from_status(Status.UNKNOWN) is Verdict.TIMEOUT
    assert Verdict.from_status(Status.UNKNOWN, "max_conflicts") is Verdict.UNKNOWN
    assert STATUSES == ("SAT", "UNSAT", "TIMEOUT", "ERROR", "UNKNOWN")
    assert Verdict.TIMEOUT == "TIMEOUT" and f"{Verdict.UNSAT}" == "UNSAT"


def test_one_suffix_rule():
    assert [table_format(f"r{suffix}") for suffix in SUFFIXES] == [
        "csv", "jsonl", "jsonl", "jsonl", "csv", "jsonl"
    ]
    assert table_format("results.txt") == "csv" and table_format("results") == "csv"


def _rows() -> list[Row]:
    return [
        Row(line=1, order=3, givens=27, solver="cdcl", encoding="course", status=Verdict.SAT,
            valid=True, encode_ms=1.5, solve_ms=2.25, decode_ms=0.125, total_ms=4.0,
            variables=729, clauses=11772, decisions=3, conflicts=0, propagations=900,
            load_ms=0.5, search_ms=1.75, output=COURSE_SOLUTION, line_hash="ab12",
            run_hash="0123456789abcdef"),
        Row(line=2, order=3, givens=28, solver="cdcl", encoding="course", status=Verdict.UNSAT,
            total_ms=3.0, error="the givens clash: row 1 holds 1 twice", output="3 UNSAT"),
        Row(line=3, order=4, solver="dpll", encoding="course", status=Verdict.TIMEOUT,
            error="the time limit ran out while solving", output="4 TIMEOUT"),
        Row(line=4, solver="zchaff", encoding="course", status=Verdict.ERROR,
            error='zChaff not found, "quoted", a,comma', output="ERROR zChaff not found"),
    ]


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_rows_written_in_each_suffix_read_back_equal(tmp_path, suffix):
    path = tmp_path / f"results{suffix}"
    write_table(path, _rows())
    assert [Row.from_dict(raw) for raw in read_rows(path)] == _rows()
    frame = read_table(path)
    assert list(frame.columns) == list(COLUMNS)
    assert list(frame["status"]) == ["SAT", "UNSAT", "TIMEOUT", "ERROR"]
    assert list(frame["valid"]) == [True, False, False, False]
    assert frame["decisions"].iloc[0] == 3 and math.isnan(frame["decisions"].iloc[1])
    assert frame["error"].iloc[0] == "" and frame["output"].iloc[1] == "3 UNSAT"


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".json", ".ndjson"])
def test_run_batch_then_load_results_in_each_suffix(tmp_path, suffix):
    """The bug: results="res.json" was written as JSON lines, then read as CSV (TypeError)."""
    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n3 12\n")
    results = tmp_path / f"res{suffix}"
    run_batch(instances, tmp_path / "out.txt", results=results, progress=False)
    table = io.load_results(results)
    assert list(table["status"]) == ["SAT", "ERROR"]
    assert table["output"].iloc[0] == COURSE_SOLUTION and bool(table["valid"].iloc[0])
    reference = tmp_path / "ref.csv"
    run_batch(instances, tmp_path / "out2.txt", results=reference, progress=False)
    untimed = [c for c in COLUMNS if not c.endswith("_ms")]
    pd.testing.assert_frame_equal(
        table[untimed], io.load_results(reference)[untimed], check_dtype=False
    )


def test_a_missing_table_is_an_error_naming_it(tmp_path):
    with pytest.raises(InstanceError, match="nothing.json"):
        read_table(tmp_path / "nothing.json")
    assert read_rows(tmp_path / "nothing.json") == []


_texts = st.none() | st.text(max_size=30)
_ints = st.none() | st.integers(min_value=0, max_value=10**12)
_floats = st.none() | st.floats(min_value=0, max_value=1e9, allow_nan=False)


@st.composite
def rows(draw) -> Row:
    values = {}
    for column in COLUMNS:
        if column == "status":
            values[column] = draw(st.none() | st.sampled_from(list(Verdict)))
        elif column == "valid":
            values[column] = draw(st.none() | st.booleans())
        elif column.endswith("_ms"):
            values[column] = draw(_floats)
        elif column in ("solver", "encoding", "error", "output", "line_hash", "run_hash",
                        "row_hash"):
            values[column] = draw(_texts.filter(lambda t: t != ""))
        else:
            values[column] = draw(_ints)
    return Row(**values)


@settings(max_examples=200, deadline=None)
@given(row=rows())
def test_row_dict_round_trip(row):
    assert Row.from_dict(row.to_dict()) == row
    assert dict(row) == {column: getattr(row, column) for column in COLUMNS}
    assert list(row.to_dict()) == list(COLUMNS)


def test_from_dict_is_tolerant_of_missing_extra_and_na_values():
    row = Row.from_dict({"line": "7", "status": "BOGUS", "valid": "", "decisions": "1.5",
                         "total_ms": float("nan"), "error": pd.NA, "extra": "ignored"})
    assert row == Row(line=7)
    assert Row.from_dict({}) == Row()
    assert Row.from_dict({"valid": "False", "clauses": 12.0}).valid is False


@settings(max_examples=200, deadline=None)
@given(
    order=st.integers(min_value=1, max_value=99),
    reason=st.text(min_size=1, max_size=40).filter(lambda t: t.split()),
)
def test_output_lines_round_trip(order, reason):
    for verdict in (Verdict.UNSAT, Verdict.TIMEOUT):
        said = parse_output(format_output(verdict, order=order))
        assert (said.verdict, said.order, said.reason) == (verdict, order, None)
    error = parse_output(format_output(Verdict.ERROR, reason=reason))
    assert error.verdict is Verdict.ERROR and error.reason == " ".join(reason.split())


def test_a_solved_line_round_trips_through_the_board():
    solution = Board.parse(COURSE_SOLUTION)
    line = format_output(Verdict.SAT, solution=solution)
    said = parse_output(line)
    assert said.verdict is Verdict.SAT and said.order == 3
    assert Board.parse(said.text) == solution


def test_format_output_needs_what_each_verdict_prints():
    with pytest.raises(ValueError, match="solved board"):
        format_output(Verdict.SAT)
    with pytest.raises(ValueError, match="order"):
        format_output(Verdict.UNSAT)


def test_an_unwritable_output_is_an_output_error_naming_it(tmp_path, capsys):
    from sudosat.cli import main
    from sudosat.errors import InstanceError, OutputError

    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n")
    folder_in_the_way = tmp_path / "taken"
    folder_in_the_way.mkdir()
    with pytest.raises(OutputError, match="taken: is a folder") as caught:
        run_batch(instances, folder_in_the_way, progress=False)
    assert not isinstance(caught.value, InstanceError)
    solution = tmp_path / "s.sol"
    solution.write_text("s cnf 0 729\n")
    target = folder_in_the_way / "missing" / "out.txt"
    code = main(["decode", str(solution), "--order", "3", "-o", str(target)])
    assert code == 1
    assert f"{target}: cannot write: No such file or directory" in capsys.readouterr().err
