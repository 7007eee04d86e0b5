"""CNF formulas: a compact container and the DIMACS reader and writer around it.

This layer knows nothing of Sudoku. Literals are signed DIMACS integers
(variable ``v`` is ``v``, its negation ``-v``).

The container stores every clause in one flat ``array('i')``, each clause
followed by a ``0`` exactly as in DIMACS. That costs 4 bytes a literal, so the
3.3 million clauses of an order-6 course encoding fit in about 40 MB instead of
the 300 MB that a list of Python lists would take, and writing DIMACS becomes
one ``join`` over the array.

The text side lives below this module: :mod:`sudosat.sat.dimacs` scans DIMACS
text (and holds the strict integer-token rule), :mod:`sudosat.sat.solutions` reads
and writes solution files. Their public names are re-exported here, where
callers have always imported them.

Examples
--------
>>> cnf = CNF([[1, -2], [2, 3]])
>>> cnf.num_vars, len(cnf)
(3, 2)
>>> print(cnf.to_dimacs(), end="")
p cnf 3 2
1 -2 0
2 3 0
>>> CNF.from_string("p cnf 2 1\\n1 -2 0\\n").clauses
((1, -2),)
"""

from __future__ import annotations

import os
import warnings
from array import array
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from functools import reduce
from itertools import accumulate, chain, islice
from operator import iadd, itemgetter
from pathlib import Path
from typing import TextIO

from sudosat.errors import DimacsError, open_error_reason
from sudosat.lines import read_text
from sudosat.sat.dimacs import Lit, count_empty_clauses, parse_int_token, scan_dimacs
from sudosat.sat.solutions import SOLUTION_STYLES, Solution, format_solution, parse_solution

__all__ = [
    "CNF",
    "SOLUTION_STYLES",
    "Clause",
    "DimacsWarning",
    "Lit",
    "Solution",
    "flat_blocks",
    "format_solution",
    "parse_dimacs",
    "parse_int_token",
    "parse_solution",
    "read_dimacs",
]

Clause = list[Lit]


class DimacsWarning(UserWarning):
    """A DIMACS file is readable but says something untrue (e.g. a wrong clause count)."""


class CNF:
    """A formula in conjunctive normal form.

    Parameters
    ----------
    clauses : iterable of iterables of int, optional
        The clauses, each a sequence of signed DIMACS literals.
    num_vars : int, optional
        The number of variables. It grows when a clause names a higher
        variable, so it is never below the highest variable used.
    comments : iterable of str, optional
        Comment lines (without the leading ``c``) written before the header.

    Attributes
    ----------
    clauses : tuple of tuple of int
        A read-only snapshot of the clauses (a new tuple each time it is
        read): appending to it raises ``AttributeError`` where PySAT's list
        would silently take a clause the formula never sees. Add clauses with
        :meth:`add_clause` and :meth:`extend`; iterate the formula itself for
        each clause as a list.
    num_vars : int
        Variables are numbered 1..num_vars.
    comments : list of str
        Comment lines kept for the writer.
    warnings : list of str
        What the reader found untrue in the file (e.g. the header's clause count).
    """

    __slots__ = (
        "num_vars", "comments", "warnings", "_flat", "_num_clauses", "_num_empty", "_shared"
    )

    def __init__(
        self,
        clauses: Iterable[Iterable[Lit]] = (),
        num_vars: int = 0,
        comments: Iterable[str] = (),
    ) -> None:
        self.num_vars = int(num_vars)
        self.comments = list(comments)
        self.warnings: list[str] = []
        self._flat = array("i")
        self._num_clauses = 0
        self._num_empty = 0
        # The prefix this formula shares with the formula it was copied from (and
        # that formula's other copies), which lets model checks use one index of it.
        self._shared: _SharedPrefix | None = None
        self.extend(clauses)

    # -- construction -------------------------------------------------------------

    @classmethod
    def from_clauses(cls, clauses: Iterable[Iterable[Lit]], num_vars: int = 0) -> CNF:
        """Build a formula from clauses (lists of signed literals)."""
        return cls(clauses, num_vars=num_vars)

    @classmethod
    def from_flat(cls, flat: array | Sequence[int], num_vars: int) -> CNF:
        """Adopt a zero-terminated flat literal array (DIMACS order) without copying.

        The caller promises every literal is within ``num_vars`` and the array
        ends with ``0`` (or is empty).
        """
        cnf = cls(num_vars=num_vars)
        cnf._flat = flat if isinstance(flat, array) and flat.typecode == "i" else array("i", flat)
        cnf._recount()
        return cnf

    @classmethod
    def from_counted_flat(
        cls, flat: array, num_vars: int, num_clauses: int, num_empty: int
    ) -> CNF:
        """:meth:`from_flat` for a writer that counted its clauses as it wrote them.

        The array is not rescanned (a count over tens of millions of entries
        takes most of a second). The caller promises what :meth:`from_flat`
        asks, and that `num_clauses` is the number of zeros in `flat` and
        `num_empty` the number of empty clauses.
        """
        cnf = cls(num_vars=num_vars)
        cnf._flat = flat
        cnf._num_clauses = num_clauses
        cnf._num_empty = num_empty
        return cnf

    @classmethod
    def from_string(cls, text: str, source: str = "<string>") -> CNF:
        """Read DIMACS text; see :func:`parse_dimacs`."""
        return parse_dimacs(text, source)

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> CNF:
        """Read a DIMACS file; see :func:`read_dimacs`."""
        return read_dimacs(path)

    def _recount(self) -> None:
        flat = self._flat
        if flat and flat[-1] != 0:
            raise ValueError("a flat clause array must end with 0")
        self._num_clauses = flat.count(0)
        self._num_empty = count_empty_clauses(flat)

    def add_clause(self, clause: Iterable[Lit]) -> None:
        """Append one clause (duplicates and tautologies are kept as given)."""
        lits = array("i", clause)
        if 0 in lits:
            raise ValueError("a clause cannot contain the literal 0")
        if lits:
            top = max(max(lits), -min(lits))
            if top > self.num_vars:
                self.num_vars = top
        else:
            self._num_empty += 1
        self._flat.extend(lits)
        self._flat.append(0)
        self._num_clauses += 1

    def extend(self, clauses: Iterable[Iterable[Lit]]) -> None:
        """Append several clauses.

        A list or tuple of clauses that are lists or tuples takes a bulk path
        (:func:`_flatten`): a block of clauses is flattened, converted and
        checked by a few C-level passes instead of one :meth:`add_clause`
        each (``benchmarks/cnf_handover.py`` times both). A block it refuses
        (a literal that is 0, not an integer or beyond 32 bits) and any other
        iterable go clause by clause through :meth:`add_clause`, which names
        the fault: the formula then holds the clauses before the faulty one,
        as it always has.
        """
        if not isinstance(clauses, list | tuple):
            for clause in clauses:
                self.add_clause(clause)
            return
        whole = len(clauses) <= _BULK_CLAUSES  # one block: no copy of the list
        for start in range(0, len(clauses), _BULK_CLAUSES):
            block = clauses if whole else clauses[start : start + _BULK_CLAUSES]
            bulk = _flatten(block)
            if bulk is not None:
                try:
                    self._flat.fromlist(bulk[0])  # on a fault, the array is left as it was
                except Exception:  # a float equal to an int literal: only the set saw the int
                    bulk = None
            if bulk is None:
                for clause in block:
                    self.add_clause(clause)
                continue
            _, top, empty = bulk
            if top > self.num_vars:
                self.num_vars = top
            self._num_clauses += len(block)
            self._num_empty += empty

    def copy(self) -> CNF:
        """An independent copy.

        The copy remembers that its clauses start with this formula's (see
        :meth:`first_falsified`). Clauses are only ever appended, so that
        prefix stays shared whatever either formula gains later.
        """
        twin = CNF(num_vars=self.num_vars, comments=self.comments)
        twin._flat = array("i", self._flat)
        twin._num_clauses = self._num_clauses
        twin._num_empty = self._num_empty
        if self._shared is None and self._flat:
            # A formula that is not itself a copy: its whole array is the prefix. A
            # copy passes on its own prefix, so copies of copies share one index.
            self._shared = _SharedPrefix(len(self._flat))
        twin._shared = self._shared
        return twin

    def __getstate__(self) -> tuple[None, dict]:
        # A pickled formula travels without the shared prefix and its index.
        names = (name for name in CNF.__slots__ if name != "_shared")
        return None, {name: getattr(self, name) for name in names}

    def __setstate__(self, state: tuple[None, dict]) -> None:
        for name, value in state[1].items():
            setattr(self, name, value)
        self._shared = None

    # -- reading --------------------------------------------------------------------

    def __len__(self) -> int:
        return self._num_clauses

    @property
    def num_clauses(self) -> int:
        """How many clauses the formula holds."""
        return self._num_clauses

    @property
    def num_literals(self) -> int:
        """How many literal occurrences the formula holds (its size)."""
        return len(self._flat) - self._num_clauses

    @property
    def flat(self) -> array:
        """The zero-terminated literal array (do not modify it)."""
        return self._flat

    @property
    def has_empty_clause(self) -> bool:
        """True when some clause has no literal (the formula is then UNSAT)."""
        return self._num_empty > 0

    def __iter__(self) -> Iterator[Clause]:
        """Every clause, as a new list of signed literals."""
        return _split(self._flat, list)

    @property
    def clauses(self) -> tuple[tuple[Lit, ...], ...]:
        """Every clause, as a tuple of signed literals, in a tuple.

        A read-only snapshot: unlike PySAT's ``CNF.clauses`` list, it cannot be
        appended to (a tuple has no ``append``), so a clause meant for the
        formula cannot be lost in a copy; :meth:`add_clause` and
        :meth:`extend` add clauses. Iterating the formula gives the clauses as
        lists without building the whole snapshot.
        """
        return tuple(_split(self._flat, tuple))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CNF):
            return NotImplemented
        return self.num_vars == other.num_vars and self._flat == other._flat

    def __repr__(self) -> str:
        """An expression that rebuilds this formula: ``eval(repr(cnf)) == cnf``.

        Like PySAT's, it lists every clause, so it grows with the formula; ``len(cnf)``
        and :attr:`num_vars` give the size without it.

        Examples
        --------
        >>> CNF([[1, -2], [2]], num_vars=3)
        CNF([[1, -2], [2]], num_vars=3)
        >>> CNF([[1]], comments=["from a test"])
        CNF([[1]], num_vars=1, comments=['from a test'])
        """
        comments = f", comments={self.comments!r}" if self.comments else ""
        return f"CNF({list(self)!r}, num_vars={self.num_vars}{comments})"

    # -- models -----------------------------------------------------------------------

    def first_falsified(self, model: Iterable[Lit]) -> int | None:
        """Index of the first clause no literal of `model` satisfies, or None.

        Variables the model does not mention count as unassigned, so a clause
        made only of them is reported too.

        The scan of the whole formula runs in C (see :func:`_scan`), about
        50 ns a literal. Formulas made by :meth:`copy` share their source's
        clauses: from the second check of any of them (or of the source) on,
        those clauses are read through one index built for them all
        (:class:`_PrefixIndex`), and only the clauses appended since are
        scanned. The index is built from the clauses alone, so the check stays
        independent of whoever made the model.
        """
        return self._first_falsified(model, exact=False)

    def _first_falsified(self, model: Iterable[Lit], exact: bool) -> int | None:
        """:meth:`first_falsified`; `exact`: `model` gives each of 1..num_vars one value."""
        shared = self._shared
        if shared is None or self._num_empty:  # an empty clause: the scan finds it
            return _scan(self._flat, model, self.num_vars)
        index = shared.index_for(self._flat)
        if index is None:
            return _scan(self._flat, model, self.num_vars)
        if not isinstance(model, list | tuple):
            model = list(model)
        true = set(model)
        true.discard(0)  # never a clause's literal (the units test below reads 0s too)
        if not index.satisfied_by(true, exact and self.num_vars >= index.num_vars):
            return _scan(self._flat, model, self.num_vars)
        rest = self._flat[index.length :]
        left = self._num_clauses - index.num_clauses
        if len(rest) == 2 * left and true.issuperset(rest[::2]):
            return None  # only unit clauses were appended (no empty ones), and all hold
        broken = _scan(rest, model, self.num_vars)
        return None if broken is None else index.num_clauses + broken

    def is_satisfied_by(self, model: Iterable[Lit]) -> bool:
        """True when every clause has a literal in `model`."""
        return self.first_falsified(model) is None

    def check_model(self, model: Sequence[Lit]) -> None:
        """Raise ``ValueError`` naming the first broken clause unless `model` is a model.

        A model must give every variable 1..num_vars exactly one value.
        """
        n = self.num_vars
        # Sorting a solver's model (variables in order) takes one pass.
        if len(model) != n or sorted(map(abs, model)) != list(range(1, n + 1)):
            raise ValueError(f"the model does not assign each of the {n} variables exactly once")
        broken = self._first_falsified(model, exact=True)
        if broken is not None:
            clause = next(islice(self, broken, None))
            raise ValueError(f"the model falsifies clause {broken + 1}: {clause}")

    # -- writing ----------------------------------------------------------------------

    def to_dimacs(self, comments: Iterable[str] | None = None) -> str:
        """Strict DIMACS text: comments, one header, one clause per line ending in ``0``."""
        lines = [f"c {text}".rstrip() for text in (self.comments if comments is None else comments)]
        lines.append(f"p cnf {self.num_vars} {self._num_clauses}")
        head = "\n".join(lines) + "\n"
        if not self._num_clauses:
            return head
        if self._num_empty:
            body = "".join(" ".join(map(str, clause + [0])) + "\n" for clause in self)
            return head + body
        return head + "".join(_dimacs_chunks(self._flat))

    def dimacs_clause_lines(
        self, literals: int | None = None, *, strict: bool = False
    ) -> Iterator[str]:
        """The clause lines of :meth:`to_dimacs`, in slices of about `literals` literals.

        For a writer that looks at a clock between slices (a solver program's
        input written under T): each slice costs work in proportion to its own
        size, nothing to the whole formula's. The formula must hold no empty
        clause (its line would be a lone ``0``, which strict writers refuse).
        With `strict`, each slice is checked to hold no literal beyond
        ``num_vars`` before it is given (a ValueError names the largest).
        """
        if self._num_empty:
            raise ValueError("the formula has an empty clause")
        within = self.num_vars if strict else None
        return _dimacs_chunks(self._flat, literals or 4 * _CHUNK_CLAUSES, within)

    def dimacs_clause_bytes(
        self, literals: int | None = None, *, strict: bool = False
    ) -> Iterator[bytes]:
        """:meth:`dimacs_clause_lines` as ASCII bytes, for a writer of binary files.

        The rule clauses a formula shares with the one it was copied from (see
        :meth:`copy`) become text once, slice by slice in the first formula's
        write, kept with the shared prefix once that write completes them: every
        later formula sharing them reuses it, cut where the first write's slices
        ended, and turns only its own clauses (the givens) into text. A slice is a
        slice's work either way, so a writer that looks at a clock between slices
        stops within one. Kept for prefixes up to :data:`TEXT_MAX_ENTRIES` entries.
        """
        if self._num_empty:
            raise ValueError("the formula has an empty clause")
        within = self.num_vars if strict else None
        literals = literals or 4 * _CHUNK_CLAUSES
        start = 0
        shared = self._shared
        text = None if shared is None else shared.text_for(self._flat)
        if text is not None:
            if within is not None and text.top > within:
                raise ValueError(f"literal {text.top} is beyond the formula's {within} variables")
            yield from text.slices()
            start = text.length
        elif shared is not None and shared.keeps_text():
            made: list[bytes] = []
            for chunk in _dimacs_chunks(self._flat, literals, within, 0, shared.length):
                made.append(chunk.encode("ascii"))
                yield made[-1]
            shared.keep_text(self._flat, made)  # reached only when every slice was taken
            start = shared.length
        for chunk in _dimacs_chunks(self._flat, literals, within, start):
            yield chunk.encode("ascii")

    def write_dimacs(
        self, target: str | os.PathLike | TextIO, comments: Iterable[str] | None = None
    ) -> None:
        """Write strict DIMACS to a path or an open text file."""
        text = self.to_dimacs(comments)
        if hasattr(target, "write"):
            target.write(text)
        else:
            Path(target).write_text(text, encoding="ascii")


_CHUNK_CLAUSES = 1 << 18
_ITER_BLOCK = 1 << 16  # literals CNF.__iter__ turns into a list at a time (about 1 ms)
_BULK_CLAUSES = 1 << 16  # clauses CNF.extend flattens at a time: bounds its temporary list
_CLAUSE_END = (0,)  # what _flatten weaves in after every clause
_SEQUENCES = frozenset((list, tuple))
_SEPARATOR = 2  # the byte that stands for a clause's closing 0 in _scan
_SEPARATOR_BYTE = bytes([_SEPARATOR])
_GATHER_CHUNK = 1 << 14  # literals per itemgetter: bounds the temporary tuples


def _flatten(clauses: list | tuple) -> tuple[list, int, int] | None:
    """Clauses woven into one list with a 0 after each, their top variable and empty count.

    None when a clause is not a list or tuple (its type exactly), or holds a
    literal that :meth:`CNF.add_clause` would refuse, or when any step fails:
    the caller then takes the clause-by-clause path, which names the fault.
    Every step is one C-level pass (no Python code runs per clause), and it
    accepts exactly what :meth:`CNF.add_clause` accepts: ``array("i")`` reads
    each distinct literal through ``__index__`` as there (the caller converts
    the whole list the same way), and a literal that reads as 0 is found either
    equal to 0 (counted in the woven list, whose clause ends are the only
    zeros allowed) or unequal to it (a second 0 among the distinct values).
    """
    count = len(clauses)
    if not _SEQUENCES.issuperset(map(type, clauses)):
        return None  # an iterator could not be read again by the fallback
    woven: list = [_CLAUSE_END] * (2 * count)
    woven[::2] = clauses
    try:
        lits: list = reduce(iadd, woven, [])
        if lits.count(0) != count:
            return None
        distinct = array("i", set(lits))  # the clause end's 0 and each literal once
    except Exception:  # whatever it is, add_clause meets it again and says so
        return None
    if distinct.count(0) != 1:
        return None
    empty = 0 if all(clauses) else count - sum(map(bool, clauses))
    return lits, max(max(distinct), -min(distinct)), empty


def flat_blocks(flat: array, start: int = 0, literals: int = _ITER_BLOCK) -> Iterator:
    """``(stop, block)`` for the zero-terminated `flat` from `start` (a clause's first entry)
    on: ``block`` is ``flat[begin:stop]`` as a list, at least `literals` entries (but the
    last) and ending at a clause end; the next begins at ``stop``. A reader that looks at a
    clock between blocks waits for one block's conversion at most (slicing a block is
    cheaper than converting each clause).

    >>> list(flat_blocks(array("i", [1, 2, 0, 3, 0, -1, 0]), literals=2))
    [(3, [1, 2, 0]), (7, [3, 0, -1, 0])]
    """
    size = len(flat)
    begin = start
    while begin < size:
        stop = size if begin + literals >= size else flat.index(0, begin + literals) + 1
        yield stop, flat[begin:stop].tolist()
        begin = stop


def _split(flat: array, kind: type) -> Iterator:
    """The clauses of a zero-terminated flat array, each a `kind` (list or tuple).

    A block of the array at a time becomes one `kind` (:func:`flat_blocks`): a
    reader that looks at a clock between clauses then never waits for the whole
    array's conversion, which takes a large part of a second at orders 6 and 7.
    """
    for _, lits in flat_blocks(flat):
        block = lits if kind is list else kind(lits)
        index = block.index
        start = 0
        for _ in range(block.count(0)):
            end = index(0, start)
            yield block[start:end]
            start = end + 1


def _scan(flat: array, model: Iterable[Lit], num_vars: int) -> int | None:
    """The index of the first clause of `flat` no literal of `model` satisfies, or None.

    The scan runs in C: every literal of the flat array is mapped to one byte
    (true, not true, or the clause separator); with the "not true" bytes
    removed, a clause without a true literal is an empty run between two
    separators. Every literal of `flat` is within `num_vars`.
    """
    n = num_vars
    # truth[lit] for 1 <= lit <= n; a negative literal -k indexes 2n+1-k (from the end).
    truth = bytearray(2 * n + 1)
    truth[0] = _SEPARATOR
    for lit in model:
        if 0 < abs(lit) <= n:
            truth[lit] = 1
    runs = b"".join(_gather(truth, flat)).replace(b"\x00", b"")
    if runs.startswith(_SEPARATOR_BYTE):
        return 0
    found = runs.find(_SEPARATOR_BYTE * 2)
    if found < 0:
        return None
    return runs.count(_SEPARATOR_BYTE, 0, found + 1)


def _gather(table: bytearray, flat: array) -> Iterator[bytes]:
    """``table[x]`` for every x of `flat`, as bytes, chunk by chunk.

    An :func:`operator.itemgetter` over a chunk reads all its entries in one C
    call, about twice as fast as mapping ``table.__getitem__``.
    """
    for start in range(0, len(flat), _GATHER_CHUNK):
        yield bytes(_pick(table, flat[start : start + _GATHER_CHUNK]))


def _pick(table: Sequence, keys: Collection[int]) -> tuple:
    """``table[x]`` for every x of `keys`, in one C call."""
    if len(keys) > 1:
        return itemgetter(*keys)(table)
    return tuple(map(table.__getitem__, keys))  # itemgetter of one key returns a bare value


INDEX_MAX_ENTRIES = 1 << 20
"""Longest shared prefix (literals and clause ends) indexed for model checks, 4 MB
of int32 (the 16x16 course rules take 1.5 MB). Its index takes two to three
times as much once built, up to fifteen times while being built; longer
prefixes are always scanned."""


TEXT_MAX_ENTRIES = 1 << 22
"""Longest shared prefix whose DIMACS text is kept for the next write
(:meth:`CNF.dimacs_clause_bytes`): 16 MB of int32, about 30 MB of text. The 25x25 course rules
(2.3 million entries) fit, so a board of order 5 is written for a solver program in
milliseconds instead of a third of a second."""


class _SharedPrefix:
    """The first `length` entries of the flat arrays of a formula and of its copies.

    Its :class:`_PrefixIndex` is built at the second check through it (one
    copy checked once pays nothing) and lives as long as the formulas that
    share the prefix: nothing is kept for formulas that are gone. Both answer
    only a flat array that still :meth:`holds` the prefix."""

    __slots__ = ("length", "checks", "index", "text", "snapshot")

    def __init__(self, length: int) -> None:
        self.length = length
        self.checks = 0
        self.index: _PrefixIndex | None = None
        self.text: _PrefixText | None = None
        self.snapshot: bytes | None = None

    def holds(self, flat: array) -> bool:
        """Whether `flat` starts with the prefix the text and the index were made of: a flat
        array changed in place, against its contract, gets no answer for clauses they never
        read. Copy then compare (0.3 ms for 4 MB) beats a memoryview's item-by-item compare."""
        if self.snapshot is None:
            self.snapshot = memoryview(flat)[: self.length].tobytes()
            return True
        return memoryview(flat)[: self.length].tobytes() == self.snapshot

    def text_for(self, flat: array) -> _PrefixText | None:
        """The DIMACS text of `flat`'s prefix, if a write kept it and `flat` still holds it."""
        text = self.text
        return text if text is not None and self.holds(flat) else None

    def keeps_text(self) -> bool:
        """Whether a write should keep the prefix's text (none yet, and short enough)."""
        return self.text is None and self.length <= TEXT_MAX_ENTRIES

    def keep_text(self, flat: array, slices: list[bytes]) -> None:
        """Keep the text a write made of `flat`'s prefix, in its `slices`."""
        if self.holds(flat):  # the text is kept only of the prefix the index was made of
            self.text = _PrefixText(flat[: self.length], slices)

    def index_for(self, flat: array) -> _PrefixIndex | None:
        """The index of `flat`'s prefix, or None (not built yet, too long, or another prefix)."""
        self.checks += 1
        if not self.holds(flat):
            return None
        if self.index is None and self.checks >= 2 and self.length <= INDEX_MAX_ENTRIES:
            self.index = _PrefixIndex(flat[: self.length])
        return self.index


class _PrefixText:
    """The clause lines of one zero-terminated flat array as DIMACS text, and where the slices
    of the write that made it ended."""

    __slots__ = ("length", "top", "lines", "ends")

    def __init__(self, prefix: array, slices: list[bytes]) -> None:
        self.length = len(prefix)
        self.top = max(max(prefix), -min(prefix)) if prefix else 0
        self.lines = b"".join(slices)
        self.ends = list(accumulate(map(len, slices)))

    def slices(self) -> Iterator[bytes]:
        """The text, cut where the write that made it cut it."""
        begin = 0
        for end in self.ends:
            yield self.lines[begin:end]
            begin = end


class _PrefixIndex:
    """The clauses of one zero-terminated flat array, indexed to check models fast.

    A binary clause {a, b} is broken only when ¬a is true and so is ¬b (the
    model assigning b): ``forbidden[¬a]`` holds ¬b, with ¬a positive where it
    can be (one-hot encodings make few positive literals true, so few lists
    are read). ``holders[lit]`` numbers the other clauses that hold `lit`; a
    model satisfies them all when its true literals' numbers cover them. Both
    tables are lists indexed by literal (a negative one from the end), so one
    :func:`operator.itemgetter` reads a model's entries in C; the entries are
    tuples (``()`` when empty) of shared int objects, 8 bytes a number. The
    index of the 9x9 course rules takes 0.4 MB and 6 ms to build (their flat
    array: 0.14 MB); a check then costs about 0.1 ms instead of 1.2 ms.

    Both tests need every variable assigned: with a unassigned, the clause
    {a, b} would go unread.
    """

    __slots__ = (
        "length", "num_vars", "num_clauses", "num_long", "forbidden", "holders", "keys"
    )

    def __init__(self, prefix: array) -> None:
        self.length = len(prefix)
        n = self.num_vars = max(max(prefix), -min(prefix)) if prefix else 0
        self.num_clauses = prefix.count(0)
        lits = prefix.tolist()
        forbidden: list[list[int]] = [[] for _ in range(2 * n + 1)]
        holders: list[list[int]] = [[] for _ in range(2 * n + 1)]
        start, long_clauses, find = 0, 0, lits.index
        for _ in range(self.num_clauses):
            end = find(0, start)
            if end - start == 2:
                a, b = lits[start], lits[start + 1]
                if a > 0:  # key on ¬b rather than ¬a: positive whenever b is negative
                    a, b = b, a
                forbidden[-a].append(-b)
            else:
                for lit in lits[start:end]:
                    holders[lit].append(long_clauses)
                long_clauses += 1
            start = end + 1
        self.num_long = long_clauses
        # One int object per literal and per clause number, shared by every entry.
        literal = list(range(n + 1)) + list(range(-n, 0))  # literal[x] == x, x in -n..n
        number = list(range(long_clauses))
        self.forbidden = [tuple(map(literal.__getitem__, e)) if e else () for e in forbidden]
        self.holders = [tuple(map(number.__getitem__, e)) if e else () for e in holders]
        # The literals with an entry: a model's other literals need not be read.
        self.keys = frozenset(
            lit for lit in literal if self.forbidden[lit] or self.holders[lit]
        )

    def satisfied_by(self, true: set[Lit], assigned: bool) -> bool:
        """True when every clause holds a literal of `true`; False may be wrong.

        `assigned`: `true` is known to hold a literal of each variable. False
        is also the answer when it does not, or when a variable has both values.
        """
        if not assigned and not set(map(abs, true)).issuperset(range(1, self.num_vars + 1)):
            return False  # a variable left unassigned: only the scan reads that right
        active = self.keys.intersection(true)
        if not true.isdisjoint(chain.from_iterable(_pick(self.forbidden, active))):
            return False
        return len(set().union(*_pick(self.holders, active))) == self.num_long


def _dimacs_chunks(
    flat: array, literals: int = 4 * _CHUNK_CLAUSES, within: int | None = None, start: int = 0,
    stop_at: int | None = None,
) -> Iterator[str]:
    """The clause lines of a flat array free of empty clauses, a slice at a time.

    Every 0 ends a non-empty clause, so " 0 " marks exactly the clause ends and
    one ``join`` per slice writes the lines at C speed. Slicing at clause ends
    bounds the temporary strings, so the peak memory stays near the text's size.
    With `within`, a slice holding a literal beyond it raises ValueError instead.
    `start` and `stop_at` are where the lines begin and end in `flat` (a clause's first
    literal, the entry after a clause's 0; default: the whole array).
    """
    total = len(flat) if stop_at is None else stop_at
    while start < total:
        stop = min(total, start + literals)
        if stop < total:
            stop = flat.index(0, stop - 1) + 1
        part = flat[start:stop]
        if within is not None and part:
            top = max(max(part), -min(part))
            if top > within:
                raise ValueError(f"literal {top} is beyond the formula's {within} variables")
        text = " ".join(map(str, part)).replace(" 0 ", " 0\n")
        yield text + "\n"
        start = stop


# ---------------------------------------------------------------------------------------
# DIMACS reader


def read_dimacs(path: str | os.PathLike, max_bytes: int | None = None) -> CNF:
    """Read a DIMACS CNF file.

    Raises
    ------
    DimacsError
        The file is missing, unreadable or malformed; the message names the
        file, the line and the reason.
    ResourceLimitError
        The header declares more variables than fit in `max_bytes`.
    """
    name = os.fspath(path)
    try:
        text = read_text(name)
    except OSError as exc:
        raise DimacsError(open_error_reason(exc, expected="a DIMACS file"), file=name) from None
    return parse_dimacs(text, name, max_bytes=max_bytes)


def parse_dimacs(
    text: str,
    source: str = "<string>",
    max_bytes: int | None = None,
    *,
    check: Callable[[], object] | None = None,
) -> CNF:
    """Parse DIMACS CNF text into a formula.

    The accepted text is :func:`sudosat.sat.dimacs.scan_dimacs`'s. A header whose
    clause count is wrong is accepted with a :class:`DimacsWarning` (real
    files lie about it), also kept in the formula's ``warnings``.

    Parameters
    ----------
    text, source, max_bytes, check
        As :func:`~sudosat.sat.dimacs.scan_dimacs` takes them: the text, the
        name messages give it, the memory limit (``--max-memory``) and the
        callable that may stop the reading between chunks (a time limit's
        ``Deadline.check``).

    Raises
    ------
    DimacsError, ResourceLimitError
        As :func:`~sudosat.sat.dimacs.scan_dimacs` raises them: the message
        names `source`, the line and the reason.
    """
    scanned = scan_dimacs(text, source, max_bytes, check=check)
    # The reader counted the clauses as it went: a recount would make an int of every entry.
    cnf = CNF.from_counted_flat(scanned.flat, scanned.num_vars, scanned.clauses, scanned.empty)
    if cnf.num_clauses != scanned.declared:
        where = f"{source}:{scanned.header_line}"
        message = f"header declares {scanned.declared} clauses but the file holds {cnf.num_clauses}"
        cnf.warnings.append(f"{where}: {message}")
        warnings.warn(f"{where}: {message}", DimacsWarning, stacklevel=2)
    return cnf
