"""What solving a Sudoku instance comes to: verdicts, rows, output lines, results tables.

Everything above the solvers speaks this module's words:

:class:`Verdict`
    SAT, UNSAT, TIMEOUT, UNKNOWN or ERROR: a solver's answer seen from the
    pipeline (:meth:`Verdict.of` is the one place where a
    :class:`~sudosat.sat.result.Stop` becomes a word: TIMEOUT when the time
    limit ended the search, UNKNOWN when a work budget did or an incomplete
    method gave up), plus ERROR for an instance that could not be answered.
:class:`Row`
    One row of the results table, a frozen dataclass with the columns of
    :data:`COLUMNS`, read like a mapping (``row["status"]``).
:func:`format_output` and :func:`parse_output`
    The one grammar of output lines: ``N T`` (the solved board), ``N UNSAT``,
    ``N TIMEOUT``, ``N UNKNOWN`` and ``ERROR <reason>``.
Results tables
    The only reader (:func:`read_rows`, :func:`read_table`) and writer
    (:class:`ResultsLog`, :func:`write_table`) of results files. The format
    follows ONE suffix rule (:func:`table_format`): ``.csv`` is CSV;
    ``.jsonl``, ``.json`` and ``.ndjson`` are JSON lines (one object per
    line); any other suffix is CSV. Case does not matter.

Examples
--------
>>> parse_output("2 UNSAT").verdict, parse_output("2 UNSAT").order
(<Verdict.UNSAT: 'UNSAT'>, 2)
>>> format_output(Verdict.ERROR, reason="no such\\nsolver")
'ERROR no such solver'
>>> table_format("res.json"), table_format("res.CSV"), table_format("res.txt")
('jsonl', 'csv', 'csv')
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import json
import math
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sudosat.errors import InstanceError, OutputError, open_error_reason
from sudosat.outputs import (
    SPECIAL_KINDS,
    ResultsLock,
    file_kind,
    output_target,
    write_atomically,
)
from sudosat.sat.result import Status, Stop

if TYPE_CHECKING:
    import pandas as pd

    from sudosat.sudoku.board import Board

__all__ = [
    "COLUMNS",
    "DECIDED",
    "JSONL_SUFFIXES",
    "MIXED_CLOCK_COLUMNS",
    "RENAMED_COLUMNS",
    "STATUSES",
    "OutputLine",
    "ResultsLog",
    "Row",
    "Verdict",
    "format_output",
    "parse_output",
    "read_rows",
    "read_table",
    "table_format",
    "typed_frame",
    "write_table",
]


class Verdict(StrEnum):
    """What one instance came to: the ``status`` column and the word of its output line."""

    SAT = "SAT"
    UNSAT = "UNSAT"
    TIMEOUT = "TIMEOUT"
    ERROR = "ERROR"
    UNKNOWN = "UNKNOWN"
    """No decision before the time limit: a work budget (``--max-conflicts``,
    ``--max-propagations``) ran out, or an incomplete method (local search) gave up.
    TIMEOUT stays the word for T."""

    @classmethod
    def of(cls, status: Status, stop: Stop) -> Verdict:
        """The verdict of a solver's answer and why it stopped; neither has a default.

        ``ANSWERED`` gives the answer (SAT or UNSAT), ``TIME`` TIMEOUT,
        ``CONFLICTS``, ``PROPAGATIONS`` and ``GAVE_UP`` UNKNOWN, ``ERROR`` ERROR.
        The stop decides: an answer whose stop is TIME (it came after T) is TIMEOUT.

        Raises
        ------
        ValueError
            ``ANSWERED`` with no answer (UNKNOWN).

        Examples
        --------
        >>> Verdict.of(Status.UNSAT, Stop.ANSWERED), Verdict.of(Status.UNKNOWN, Stop.TIME)
        (<Verdict.UNSAT: 'UNSAT'>, <Verdict.TIMEOUT: 'TIMEOUT'>)
        >>> Verdict.of(Status.UNKNOWN, Stop.CONFLICTS)
        <Verdict.UNKNOWN: 'UNKNOWN'>
        """
        if stop is not Stop.ANSWERED:
            return _OF_STOP[stop]
        if status is Status.UNKNOWN:
            raise ValueError("an UNKNOWN status cannot be answered")
        return cls.SAT if status is Status.SAT else cls.UNSAT


_OF_STOP = {
    Stop.TIME: Verdict.TIMEOUT,
    Stop.CONFLICTS: Verdict.UNKNOWN,
    Stop.PROPAGATIONS: Verdict.UNKNOWN,
    Stop.GAVE_UP: Verdict.UNKNOWN,
    Stop.ERROR: Verdict.ERROR,
}

STATUSES: tuple[str, ...] = tuple(verdict.value for verdict in Verdict)
"""The values of the ``status`` column."""

DECIDED: tuple[str, ...] = (Verdict.SAT.value, Verdict.UNSAT.value)
"""The values of the ``status`` column of a run that decided its formula, SAT or UNSAT (a run a
limit stopped, TIMEOUT or UNKNOWN, and an ERROR did not): what the studies and the report
count as solved."""

COLUMNS: tuple[str, ...] = (
    "line",
    "order",
    "givens",
    "solver",
    "core",
    "encoding",
    "status",
    "stop",
    "valid",
    "encode_wall_ms",
    "solve_wall_ms",
    "decode_wall_ms",
    "total_wall_ms",
    "encode_cpu_ms",
    "solve_cpu_ms",
    "decode_cpu_ms",
    "total_cpu_ms",
    "variables",
    "clauses",
    "decisions",
    "conflicts",
    "propagations",
    "load_cpu_ms",
    "search_cpu_ms",
    "search_wall_ms",
    "process_cpu_ms",
    "overhead_cpu_ms",
    "overhead_wall_ms",
    "error",
    "output",
    "line_hash",
    "run_hash",
    "row_hash",
)
"""The results table's columns: the instance, its answer and why the solver stopped, its
costs, the output line, then what ``resume`` checks.

Times are milliseconds, and each column names its clock. ``*_wall_ms`` are
wall-clock times (``time.perf_counter``); ``*_cpu_ms`` are CPU times of this
process plus those of the children it reaped meanwhile (a solver program,
PySAT's worker; ``getrusage``, or this process's alone where the ``resource``
module is missing). ``encode``, ``solve`` (the solver call), ``decode`` (with
the board's check) and ``total`` (the whole line) come on both clocks.
``load_cpu_ms`` is loading the clauses into a solver in this process (``cdcl``,
``dpll``, local search, ``pysat:*``). ``search_cpu_ms`` is the solver's
**own** search on CPU time: measured around the search by the solvers in this
process, reported by a program for itself (zChaff's ``Total Run Time``,
MiniSat's ``CPU time``, CaDiCaL's process time; empty for one that reports
none). ``search_wall_ms`` is the search's wall time, for the solvers in this
process only. ``process_cpu_ms`` is a solver program's own CPU time (user and
system) as the operating system reports it when the program ends (``zchaff``,
``exec:``; empty for the solvers in this process): ``total_cpu_ms -
process_cpu_ms`` is what this process spent around it. ``overhead_cpu_ms =
total_cpu_ms - encode_cpu_ms - search_cpu_ms - decode_cpu_ms`` and
``overhead_wall_ms`` the same on the wall clock: the hand-over (loading,
writing and reading files, starting a program, parsing, checking the model);
empty without the search's time on that clock.
A wall time far above its CPU time means the machine was busy. ``stop`` is why
the solver stopped (:class:`~sudosat.sat.result.Stop`: ``answered``, ``time``,
``conflicts``, ``propagations``, ``gave up``, ``error``). ``line_hash``
fingerprints the input line a row answers, ``run_hash`` the parameters that
shape its answer (solver, encoding, T, seed, memory limit) and ``row_hash``
the answer itself bound to both: a resumed run keeps a row only when all
three match (see :mod:`sudosat.run.resume`).

A table written before a column existed reads back with it empty; one written
with the older names reads back under these (:data:`RENAMED_COLUMNS`), and
without the columns that mixed clocks (:data:`MIXED_CLOCK_COLUMNS`).
"""

RENAMED_COLUMNS: dict[str, str] = {
    "encode_ms": "encode_wall_ms",
    "solve_ms": "solve_wall_ms",
    "decode_ms": "decode_wall_ms",
    "total_ms": "total_wall_ms",
}
"""Older results tables' names of wall-clock columns -> their names now."""

MIXED_CLOCK_COLUMNS: tuple[str, ...] = ("load_ms", "search_ms", "overhead_ms")
"""Older results tables' columns that mixed clocks (a wall-clock search for one solver, a
CPU one for another): read back as nothing, their new columns left empty."""

STOPS: tuple[str, ...] = tuple(stop.value for stop in Stop)
"""The values of the ``stop`` column."""

_INTS = frozenset(
    {"line", "order", "givens", "variables", "clauses", "decisions", "conflicts", "propagations"}
)
_FLOATS = frozenset(column for column in COLUMNS if column.endswith("_ms"))
_TEXTS = frozenset(
    {"solver", "core", "encoding", "error", "output", "line_hash", "run_hash", "row_hash"}
)


# ---------------------------------------------------------------------------------------
# one row


@dataclass(frozen=True)
class Row(Mapping[str, Any]):
    """One row of the results table: one instance line answered by one solver.

    Read it as a mapping of :data:`COLUMNS` (``row["status"]``, ``dict(row)``)
    or by attribute; change it with :meth:`replace`. Missing values are None.
    ``status`` is a :class:`Verdict` (None only in a row read from a file
    that holds none), ``stop`` a :class:`~sudosat.sat.result.Stop` (None in a
    row of a table older than the column); ``valid`` says whether the decoded board passed
    :func:`sudosat.sudoku.board.check_solution` (None when there is no board);
    ``error`` says why a line was not solved. Times are milliseconds (see
    :data:`COLUMNS`).
    """

    line: int | None = None
    order: int | None = None
    givens: int | None = None
    solver: str | None = None
    core: str | None = None
    encoding: str | None = None
    status: Verdict | None = None
    stop: Stop | None = None
    valid: bool | None = None
    encode_wall_ms: float | None = None
    solve_wall_ms: float | None = None
    decode_wall_ms: float | None = None
    total_wall_ms: float | None = None
    encode_cpu_ms: float | None = None
    solve_cpu_ms: float | None = None
    decode_cpu_ms: float | None = None
    total_cpu_ms: float | None = None
    variables: int | None = None
    clauses: int | None = None
    decisions: int | None = None
    conflicts: int | None = None
    propagations: int | None = None
    load_cpu_ms: float | None = None
    search_cpu_ms: float | None = None
    search_wall_ms: float | None = None
    process_cpu_ms: float | None = None
    overhead_cpu_ms: float | None = None
    overhead_wall_ms: float | None = None
    error: str | None = None
    output: str | None = None
    line_hash: str | None = None
    run_hash: str | None = None
    row_hash: str | None = None

    def __getitem__(self, column: str) -> Any:
        if column not in _COLUMN_SET:
            raise KeyError(column)
        return getattr(self, column)

    def __iter__(self) -> Iterator[str]:
        return iter(COLUMNS)

    def __len__(self) -> int:
        return len(COLUMNS)

    def replace(self, **changes: Any) -> Row:
        """A copy with some columns changed."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The columns in order, plain values (``status`` and ``stop`` a ``str``)."""
        values = {column: getattr(self, column) for column in COLUMNS}
        for column in ("status", "stop"):
            if values[column] is not None:
                values[column] = str(values[column])
        return values

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Row:
        """A row from any mapping: a CSV row (strings), a JSON object, a pandas record.

        Unknown keys are ignored, missing ones are None, and so is any value
        that is empty, NaN, ``pd.NA`` or of the wrong kind (a count that is
        not a whole number, an unknown status): a row read back never raises.
        A row of an older table reads its wall-clock times under their names
        now (:data:`RENAMED_COLUMNS`) and leaves the columns that mixed clocks
        (:data:`MIXED_CLOCK_COLUMNS`) behind.

        Examples
        --------
        >>> row = Row.from_dict({"line": "3", "status": "SAT", "valid": "True", "x": 1})
        >>> row.line, row.status, row.valid, row.total_wall_ms
        (3, <Verdict.SAT: 'SAT'>, True, None)
        >>> Row.from_dict({"total_ms": "12.5", "search_ms": "3"}).total_wall_ms
        12.5
        """
        values = _renamed(values)
        return cls(**{c: _typed(c, values.get(c)) for c in COLUMNS if c in values})


def _renamed(values: Mapping[str, Any]) -> Mapping[str, Any]:
    """`values` with an older table's names of wall-clock columns made today's."""
    old = [name for name in RENAMED_COLUMNS if name in values]
    if not old:
        return values
    renamed = dict(values)
    for name in old:
        renamed.setdefault(RENAMED_COLUMNS[name], renamed.pop(name))
    return renamed


_COLUMN_SET = frozenset(COLUMNS)


def _typed(column: str, value: Any) -> Any:
    """`value` as column `column` holds it, or None when it is missing or cannot be."""
    if _missing(value):
        return None
    try:
        if column in _INTS:
            number = float(value) if isinstance(value, str) else value
            whole = int(number)
            return whole if whole == number else None
        if column in _FLOATS:
            number = float(value)
            return number if math.isfinite(number) else None
    except (TypeError, ValueError, OverflowError):
        return None
    if column == "status":
        return Verdict(value) if value in STATUSES else None
    if column == "stop":
        return Stop(value) if value in STOPS else None
    if column == "valid":
        return _boolean(value)
    return str(value)


def _missing(value: Any) -> bool:
    if value is None or (isinstance(value, str) and value == ""):
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return type(value).__name__ in ("NAType", "NaTType")  # pandas' markers, without pandas


def _boolean(value: Any) -> bool | None:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("true", "1", "yes"):
            return True
        return False if word in ("false", "0", "no") else None
    return bool(value)


# ---------------------------------------------------------------------------------------
# output lines


class OutputLine(NamedTuple):
    """One output line read back by :func:`parse_output`.

    Attributes
    ----------
    verdict : Verdict
        SAT for a line that is neither ``N UNSAT``, ``N TIMEOUT``, ``N UNKNOWN``
        nor ``ERROR ...``: it claims to be a solved board (``text``; parse it with
        :meth:`sudosat.sudoku.board.Board.parse` to check it).
    order : int or None
        N of ``N UNSAT`` / ``N TIMEOUT`` (None when it is not a number), or the
        first token of a board line when it is one.
    reason : str or None
        The reason of an ``ERROR`` line.
    text : str
        The line itself.
    """

    verdict: Verdict
    order: int | None
    reason: str | None
    text: str


def format_output(
    verdict: Verdict | str,
    *,
    order: int | None = None,
    solution: Board | None = None,
    reason: str | None = None,
) -> str:
    """The output file's line for one instance (no line end).

    ``SAT`` needs `solution` (the line is ``solution.to_line()``), ``UNSAT``
    ``TIMEOUT`` and ``UNKNOWN`` need `order`, ``ERROR`` takes `reason`, folded to one line.

    Examples
    --------
    >>> format_output(Verdict.TIMEOUT, order=3)
    '3 TIMEOUT'
    """
    verdict = Verdict(verdict)
    if verdict is Verdict.SAT:
        if solution is None:
            raise ValueError("a SAT output line needs the solved board")
        return solution.to_line()
    if verdict is Verdict.ERROR:
        return f"ERROR {one_line(reason or '')}"
    if order is None:
        raise ValueError(f"a {verdict} output line needs the order")
    return f"{order} {verdict}"


def parse_output(line: str) -> OutputLine:
    """Read one output line (see :func:`format_output`); never raises.

    Examples
    --------
    >>> parse_output("ERROR order 3 needs 81 symbols").reason
    'order 3 needs 81 symbols'
    >>> parse_output("1 1").verdict
    <Verdict.SAT: 'SAT'>
    """
    words = line.split()
    if words and words[0] == Verdict.ERROR:
        return OutputLine(Verdict.ERROR, None, line.strip()[len(Verdict.ERROR) :].strip(), line)
    order = _order(words[0]) if words else None
    if len(words) == 2 and words[1] in (Verdict.UNSAT, Verdict.TIMEOUT, Verdict.UNKNOWN):
        return OutputLine(Verdict(words[1]), order, None, line)
    return OutputLine(Verdict.SAT, order, None, line)


def _order(token: str) -> int | None:
    return int(token) if token.isascii() and token.isdigit() and len(token) < 6 else None


def one_line(text: str) -> str:
    """`text` with every run of white space (line ends included) one space."""
    return " ".join(str(text).split()) or "unknown error"


# ---------------------------------------------------------------------------------------
# results tables

JSONL_SUFFIXES = (".jsonl", ".json", ".ndjson")
"""Suffixes of JSON-lines results tables; every other suffix is CSV."""


def table_format(path: str | os.PathLike) -> str:
    """``jsonl`` for a ``.jsonl``, ``.json`` or ``.ndjson`` file (any case), else ``csv``."""
    return "jsonl" if Path(path).suffix.lower() in JSONL_SUFFIXES else "csv"


def _plain(row: Mapping[str, Any], columns: Sequence[str]) -> dict[str, Any]:
    values = {column: row.get(column) for column in columns}
    for column in ("status", "stop"):
        word = values.get(column)
        if isinstance(word, Verdict | Stop):
            values[column] = word.value
    return values


def _csv_ready(row: Mapping[str, Any], columns: Sequence[str]) -> dict[str, Any]:
    return {key: "" if value is None else value for key, value in _plain(row, columns).items()}


def _table_text(
    path: str | os.PathLike, columns: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> str:
    buffer = io.StringIO()
    if table_format(path) == "csv":
        writer = csv.DictWriter(buffer, list(columns), extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(_csv_ready(row, columns) for row in rows)
    else:
        buffer.writelines(json.dumps(_plain(row, columns)) + "\n" for row in rows)
    return buffer.getvalue()


def write_table(
    path: str | os.PathLike,
    rows: Iterable[Mapping[str, Any]],
    columns: Sequence[str] = COLUMNS,
    *,
    lock: ResultsLock | None = None,
) -> None:
    """Write a whole results table at once, atomically (:func:`sudosat.outputs.write_atomically`).

    Raises
    ------
    OutputError
        The file cannot be written; the message names it.
    """
    write_atomically(path, _table_text(path, columns, rows), lock=lock)


class ResultsLog:
    """A results table written row by row, each row written whole as soon as it is known.

    Parameters
    ----------
    path : path-like
        The CSV or JSONL file (by suffix, see :func:`table_format`).
    columns : sequence of str
        The columns, in order.
    rows : sequence of mappings
        Rows to start with (those kept by a resumed run). A regular file is
        first rewritten atomically with just the header and these rows, which
        also drops a last row that a kill cut short; a special file (a FIFO, a
        character device) is written in place through one handle.
    lock : ResultsLock, optional
        The lock this run holds on `path`; it moves with the atomic rewrite.

    Notes
    -----
    Each row goes to the operating system in one piece, unbuffered
    (:meth:`append`); a write that fails part-way (a full disk) is cut back
    off the regular file before the error is raised, so the table holds whole
    rows only, and ``--resume`` completes it.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        columns: Sequence[str] = COLUMNS,
        rows: Sequence[Mapping[str, Any]] = (),
        *,
        lock: ResultsLock | None = None,
    ) -> None:
        self.path = Path(path)
        self.columns = tuple(columns)
        self.format = table_format(self.path)
        target = output_target(self.path)
        self._special = file_kind(target) in SPECIAL_KINDS
        if self._special:
            with self._named_errors():
                self._file = open(target, "wb", buffering=0)  # noqa: SIM115
                self._write_whole(_table_text(self.path, self.columns, rows).encode("utf-8"))
        else:
            write_table(self.path, rows, self.columns, lock=lock)
            with self._named_errors():
                self._file = open(self.path, "ab", buffering=0)  # noqa: SIM115

    def append(self, row: Mapping[str, Any]) -> None:
        """Write `row` whole to the operating system, or nothing of it.

        Raises
        ------
        OutputError
            The row cannot be written (a full disk); the table is left as it
            was before the row, and the message names it.
        """
        if self.format == "csv":
            buffer = io.StringIO()
            csv.DictWriter(buffer, self.columns, extrasaction="ignore",
                           lineterminator="\n").writerow(_csv_ready(row, self.columns))
            text = buffer.getvalue()
        else:
            text = json.dumps(_plain(row, self.columns)) + "\n"
        with self._named_errors():
            self._write_whole(text.encode("utf-8"))

    def _write_whole(self, data: bytes) -> None:
        """All of `data` at the end of the file; on a failure, a regular file loses it all."""
        handle = self._file.fileno()
        start = None if self._special else os.lseek(handle, 0, os.SEEK_END)
        left = memoryview(data)
        try:
            while left:
                left = left[os.write(handle, left):]
        except OSError:
            if start is not None:  # truncating frees blocks: it works on a full disk too
                with contextlib.suppress(OSError):
                    os.ftruncate(handle, start)
            raise

    def close(self) -> None:
        with self._named_errors():
            self._file.close()

    @contextlib.contextmanager
    def _named_errors(self) -> Iterator[None]:
        """A write that fails (a full disk) is an OutputError naming the table."""
        try:
            yield
        except OSError as exc:
            raise OutputError(open_error_reason(exc, "write"), file=str(self.path)) from None

    def __enter__(self) -> ResultsLog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def read_rows(
    path: str | os.PathLike, *, missing_ok: bool = True, warn_torn: bool = False
) -> list[dict[str, Any]]:
    """The rows of a results file (CSV or JSONL, see :func:`table_format`), as dicts.

    A last line without its line end was cut short (a kill, a crash, a full
    disk) and is dropped, with a warning when `warn_torn`; so is any row that
    cannot be read (a CSV row with the wrong number of fields or a field
    beyond the csv module's limit, a line that is not a JSON object). Bytes
    that are not UTF-8 become U+FFFD, which no row of ours holds, so such a
    row fails any check a caller makes. CSV values come back
    as strings (empty for a missing value); JSONL values keep their types;
    :meth:`Row.from_dict` types either.

    Parameters
    ----------
    missing_ok : bool
        A missing file is ``[]`` (a run that has not started); else an error.
    warn_torn : bool
        Say so (:func:`warnings.warn`, naming the file) when a torn last row is dropped.

    Raises
    ------
    InstanceError
        The file cannot be read (or is missing, unless `missing_ok`).

    Examples
    --------
    >>> read_rows("no-such-results.csv")
    []
    """
    try:
        text = Path(path).read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        if missing_ok:
            return []
        raise InstanceError("no such results table", file=str(path)) from None
    except OSError as exc:
        raise InstanceError(open_error_reason(exc), file=str(path)) from None
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        if warn_torn:
            warnings.warn(f"{path}: its last row was cut short (a crash or a full disk); "
                          "it is dropped and its line solved again", stacklevel=2)
    if table_format(path) == "csv":
        return _csv_rows(text)
    rows = []
    for line in text.splitlines():
        with contextlib.suppress(json.JSONDecodeError, RecursionError):
            value = json.loads(line)
            if isinstance(value, dict):
                rows.append(value)
    return rows


def _csv_rows(text: str) -> list[dict[str, Any]]:
    reader = csv.reader(io.StringIO(text))
    header = _next_csv_row(reader)
    rows = []
    while header:
        fields = _next_csv_row(reader)
        if fields is None:
            break
        if len(fields) == len(header):
            rows.append(dict(zip(header, fields, strict=True)))
    return rows


def _next_csv_row(reader) -> list[str] | None:
    """The next row; ``[]`` for one that cannot be read (the reader goes on after it)."""
    try:
        return next(reader)
    except StopIteration:
        return None
    except csv.Error:
        return []


def read_table(path: str | os.PathLike) -> pd.DataFrame:
    """A results file as a typed :class:`pandas.DataFrame` (see :func:`typed_frame`).

    Raises
    ------
    InstanceError
        The file is missing or cannot be read.
    """
    import pandas as pd

    rows = read_rows(path, missing_ok=False)
    if table_format(path) == "csv":  # CSV has no other way to say "missing"
        rows = [{k: (None if v == "" else v) for k, v in row.items()} for row in rows]
    return typed_frame(pd.DataFrame(rows))


def typed_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` with every column of :data:`COLUMNS` present and typed.

    Counts and times become numbers (missing: NaN), ``valid`` a boolean
    (missing: False), ``error`` and ``output`` strings (missing: empty),
    ``status`` a string (missing: ERROR), ``stop`` a string (missing: empty).
    A table with the older names reads them under today's
    (:data:`RENAMED_COLUMNS`) and loses the columns that mixed clocks
    (:data:`MIXED_CLOCK_COLUMNS`). Other columns are kept after these.
    """
    import pandas as pd

    renames = {old: new for old, new in RENAMED_COLUMNS.items()
               if old in frame.columns and new not in frame.columns}
    dropped = [column for column in (*MIXED_CLOCK_COLUMNS, *RENAMED_COLUMNS)
               if column in frame.columns and column not in renames]
    frame = frame.drop(columns=dropped).rename(columns=renames)
    for column in COLUMNS:
        if column not in frame.columns:
            frame[column] = pd.NA
    for column in sorted(_INTS | _FLOATS):
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    frame["valid"] = frame["valid"].map(lambda value: bool(_typed("valid", value)))
    for column in ("stop", "error", "output", "line_hash", "run_hash", "row_hash"):
        frame[column] = frame[column].astype(object).where(frame[column].notna(), "").astype(str)
    frame["status"] = frame["status"].astype(object).where(frame["status"].notna(), "ERROR")
    frame["status"] = frame["status"].astype(str)
    frame["solver"] = frame["solver"].astype(str)
    extra = [column for column in frame.columns if column not in _COLUMN_SET]
    return frame[[*COLUMNS, *extra]]
