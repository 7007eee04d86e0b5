"""Verdicts, results rows, output lines and results tables (sudosat.run.results)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudosat.errors import InstanceError
from sudosat.report import io
from sudosat.run.batch import run_batch
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
from sudosat.sat.result import Result, Status, Stop
from sudosat.sudoku.board import Board
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

SUFFIXES = [".csv", ".jsonl", ".json", ".ndjson", ".CSV", ".JSON"]


def test_the_verdict_is_the_answer_or_the_word_for_why_the_solver_stopped():
    assert Verdict.of(Status.SAT, Stop.ANSWERED) is Verdict.SAT
    assert Verdict.of(Status.UNSAT, Stop.ANSWERED) is Verdict.UNSAT
    assert Verdict.of(Status.UNKNOWN, Stop.TIME) is Verdict.TIMEOUT
    for stop in (Stop.CONFLICTS, Stop.PROPAGATIONS, Stop.GAVE_UP):
        assert Verdict.of(Status.UNKNOWN, stop) is Verdict.UNKNOWN
    assert Verdict.of(Status.UNKNOWN, Stop.ERROR) is Verdict.ERROR
    assert Verdict.of(Status.SAT, Stop.TIME) is Verdict.TIMEOUT  # an answer after T
    with pytest.raises(ValueError, match="cannot be answered"):
        Verdict.of(Status.UNKNOWN, Stop.ANSWERED)
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
            stop=Stop.ANSWERED, valid=True, encode_wall_ms=1.5, solve_wall_ms=2.25,
            decode_wall_ms=0.125, total_wall_ms=4.0, encode_cpu_ms=1.25, solve_cpu_ms=2.0,
            decode_cpu_ms=0.125, total_cpu_ms=3.5, variables=729, clauses=11772, decisions=3,
            conflicts=0, propagations=900, load_cpu_ms=0.5, search_cpu_ms=1.25,
            search_wall_ms=1.75, overhead_cpu_ms=0.875, overhead_wall_ms=0.625,
            output=COURSE_SOLUTION, line_hash="ab12", run_hash="0123456789abcdef"),
        Row(line=2, order=3, givens=28, solver="cdcl", encoding="course", status=Verdict.UNSAT,
            stop=Stop.ANSWERED, total_wall_ms=3.0,
            error="the givens clash: row 1 holds 1 twice", output="3 UNSAT"),
        Row(line=3, order=4, solver="dpll", encoding="course", status=Verdict.TIMEOUT,
            stop=Stop.TIME, error="the time limit ran out while solving", output="4 TIMEOUT"),
        Row(line=4, solver="zchaff", encoding="course", status=Verdict.ERROR, stop=Stop.ERROR,
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
    assert list(frame["stop"]) == ["answered", "answered", "time", "error"]
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
        elif column == "stop":
            values[column] = draw(st.none() | st.sampled_from(list(Stop)))
        elif column == "valid":
            values[column] = draw(st.none() | st.booleans())
        elif column.endswith("_ms"):
            values[column] = draw(_floats)
        elif column in ("solver", "core", "encoding", "error", "output", "line_hash",
                        "run_hash", "row_hash"):
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
    row = Row.from_dict({"line": "7", "status": "BOGUS", "stop": "tired", "valid": "",
                         "decisions": "1.5", "total_wall_ms": float("nan"), "error": pd.NA,
                         "extra": "ignored"})
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


OLD_HEADER = ("line,order,givens,solver,encoding,status,valid,encode_ms,solve_ms,decode_ms,"
              "total_ms,variables,clauses,decisions,conflicts,propagations,load_ms,search_ms,"
              "overhead_ms,solve_cpu_ms,error,output,line_hash,run_hash,row_hash")


def test_a_table_with_the_older_names_reads_back_with_its_wall_times_and_no_mixed_clock(tmp_path):
    path = tmp_path / "old.csv"
    path.write_text(OLD_HEADER + "\n1,3,27,cdcl,course,SAT,True,1.5,2.5,0.5,4.5,729,11772,3,0,900,"
                    f"0.75,99.3,-95.3,5.05,,{COURSE_SOLUTION},ab,cd,ef\n")
    (row,) = [Row.from_dict(raw) for raw in read_rows(path)]
    assert (row.encode_wall_ms, row.solve_wall_ms, row.decode_wall_ms, row.total_wall_ms,
            row.solve_cpu_ms) == (1.5, 2.5, 0.5, 4.5, 5.05)
    # search_ms was the wall clock for cdcl and CPU for zChaff: it says nothing on either
    assert (row.load_cpu_ms, row.search_cpu_ms, row.search_wall_ms, row.overhead_cpu_ms,
            row.overhead_wall_ms, row.stop) == (None,) * 6
    frame = read_table(path)
    assert list(frame.columns) == list(COLUMNS)
    assert frame["total_wall_ms"].iloc[0] == 4.5 and frame["solve_cpu_ms"].iloc[0] == 5.05
    assert frame[["search_cpu_ms", "search_wall_ms", "overhead_cpu_ms"]].isna().all(axis=None)


def test_the_columns_name_their_clock_in_the_agreed_order():
    assert COLUMNS == (
        "line", "order", "givens", "solver", "core", "encoding", "status", "stop", "valid",
        "encode_wall_ms", "solve_wall_ms", "decode_wall_ms", "total_wall_ms",
        "encode_cpu_ms", "solve_cpu_ms", "decode_cpu_ms", "total_cpu_ms",
        "variables", "clauses", "decisions", "conflicts", "propagations",
        "load_cpu_ms", "search_cpu_ms", "search_wall_ms", "process_cpu_ms",
        "overhead_cpu_ms", "overhead_wall_ms",
        "error", "output", "line_hash", "run_hash", "row_hash",
    )
    timed = [column for column in COLUMNS if column.endswith("_ms")]
    assert all(column.endswith(("_wall_ms", "_cpu_ms")) for column in timed)


def test_a_result_states_why_it_stopped_and_the_stop_fits_the_status():
    assert Result(Status.UNKNOWN, stop=Stop.GAVE_UP).stop is Stop.GAVE_UP
    with pytest.raises(TypeError):
        Result(Status.SAT, [1])  # type: ignore[call-arg]  # no default: every solver says why
    for status, stop in ((Status.SAT, Stop.TIME), (Status.UNKNOWN, Stop.ANSWERED),
                         (Status.UNKNOWN, Stop.ERROR)):
        with pytest.raises(ValueError, match="cannot stop"):
            Result(status, stop=stop)
