"""Our CDCL solver: conflict-driven clause learning in pure Python.

The design follows MiniSat's core, rewritten for CPython's cost model:

* Literal codes (``Code``, :mod:`sudosat.sat.solvers.codes`; signed DIMACS
  literals only at the :class:`Solver` boundary): variable ``v`` (1..V) has
  codes ``2v`` (positive) and ``2v + 1`` (negative), so negation is
  ``lit ^ 1`` and every per-literal table is a flat list indexed by the code.
  Codes 0 and 1 are unused.
* ``val[lit]`` is 1 (true), -1 (false) or 0 (unassigned); both codes of a
  variable are written on assignment, so a lookup never negates.
* Binary clauses live only in implication lists: ``bins[p]`` holds every
  literal implied when ``p`` becomes true. Sudoku's CNF is over 97 % binary,
  so most propagation never touches a clause object. A binary reason is stored
  as the int of the clause's other (false) literal.
* Input ternary clauses (all of random 3-SAT) live in full occurrence lists:
  ``terns[p]`` holds (b, c, clause) for every clause {¬p, b, c}, ``clause``
  being the one tuple of its three literals that its three entries share; a
  visit reads two values and never moves a watch, and an implication or a
  conflict names the shared tuple instead of building one.
* Longer clauses are Python lists with two watched literals at positions 0
  and 1; ``watches[l]`` lists the clauses watching ``l`` and is visited when
  ``l`` becomes false. The other watch is checked first and acts as the
  blocking literal (a satisfied clause costs one lookup, no scan).
* First-UIP conflict analysis with recursive (MiniSat "deep") minimisation;
  VSIDS kept in :mod:`heapq` (C) with lazy re-insertion instead of an indexed
  heap written in Python, starting from occurrence counts as in Chaff or, when
  level 0 holds facts, from Jeroslow–Wang products of the formula they leave
  (:meth:`Engine.init_activity`); phase saving, each variable first tried
  with the sign it has in more clauses (without level-0 facts); Luby
  restarts; learnt-clause deletion by LBD (glue clauses are kept forever);
  level-0 simplification that drops satisfied clauses and strips false
  literals.
* Optional DRAT proof logging (text), checked by :func:`certify` with the
  independent ``dratify`` checker.
* One budget (:mod:`sudosat.sat.solvers.budget`): a call's :class:`Deadline` is
  read by :meth:`Engine.within_budget` in the search loop before each
  decision (where MiniSat calls ``withinBudget()``) and by the loader;
  past it they raise :class:`OutOfTime` and the call answers UNKNOWN.
  ``propagate`` returns a conflict or nothing.
* An optional observer (``Solver(cnf, observer=...)``) is told of every
  decision and learnt clause, for tracing; without one the search runs the
  plain engine.
* Incremental use (:class:`Solver`, PySAT's shape): clauses added between
  calls, assumptions decided first, one level each (MiniSat's ``solve(assumps)``),
  the failed subset from final conflict analysis (``analyzeFinal``); the
  assumption levels a next call shares are kept, not decided again.
  :func:`solve` is one call on a fresh :class:`Solver`.

Examples
--------
>>> from sudosat.sat.cnf import CNF
>>> solve(CNF([[1, 2], [-1, 2], [-2, 3]])).model  # 2 first (most frequent), true (2 of 3)
[-1, 2, 3]
>>> solve(CNF([[1], [-1]]), proof=True).proof
'0\\n'
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator
from enum import Enum
from heapq import heapify, heappop, heappush
from itertools import compress, islice
from operator import add, gt, mul, not_, or_, sub, xor
from random import Random
from typing import Protocol, TypeAlias, cast

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status
from sudosat.sat.solvers.base import verify_result
from sudosat.sat.solvers.budget import (
    Deadline,
    OutOfTime,
    Tunable,
    collector_paused,
    declare,
    settings_from,
)
from sudosat.sat.solvers.codes import Code, code_table, to_codes, to_dimacs, to_dimacs_list

Clause = list[Code]  # a stored clause: literal codes, the two watched ones at positions 0 and 1
#: A clause as a reason or a conflict: a stored clause, or an input ternary clause's tuple.
Implication: TypeAlias = tuple[Code, ...] | Clause
#: What ``Engine.reason[v]`` holds, by kind (see :class:`ReasonKind`): None, a
#: binary clause's other literal, or an implication (the implied literal and false ones).
Reason: TypeAlias = Code | Implication | None

#: Every tunable, declared once. ``solve(cnf, **tunables)`` accepts these names.
TUNABLES: dict[str, Tunable] = declare(
    Tunable("var_decay", 0.95, 0.5, 0.9999, "VSIDS activity decay per conflict"),
    Tunable("restart_first", 100, 1, 1e9, "conflicts in the first Luby restart unit"),
    Tunable("reduce_first", 2000, 10, 1e9, "conflicts before the first learnt-clause cut"),
    Tunable("reduce_inc", 300, 0, 1e9, "growth of the reduction interval after each reduction"),
    Tunable("glue_lbd", 2, 0, 1e9, "learnt clauses with LBD at most this are never deleted"),
    Tunable("minimize", 2, 0, 2, "learnt-clause minimisation: 0 none, 1 local, 2 recursive"),
    Tunable(
        "initial_phase", 2, 0, 2,
        "value tried first on a fresh variable: 0 false, 1 true, 2 the sign it has in more "
        "clauses (ties false; false on a formula with level-0 facts, such as a puzzle's givens)",
    ),
    Tunable("random_var_freq", 0.0, 0.0, 1.0, "share of decisions on a random variable"),
    Tunable("check_model", 1, 0, 1, "1: check the model against the input before returning"),
    Tunable(
        "rescore_conflicts", 16, 0, 1e9,
        "a new question's first decision ranks the variables anew (Jeroslow-Wang products) "
        "when the calls so far averaged at least this many conflicts",
    ),
)

# What next_assumption returns when an assumption is false (not a literal code).
_FAILED = -2
# Free literal codes drop_satisfied_binaries filters between two looks at the clock.
_DROP_CHUNK = 8192
# The deadline of an engine outside a timed call.
_NO_DEADLINE = Deadline(None)
# Empty per-literal lists grow makes between two looks at the clock (about 1 ms).
_GROW_CHUNK = 16384
# Freeing a one-shot solver's tables, before its answer returns, takes about this long per
# entry of the formula's flat array (its literals and clause-ending zeros): 2.7 to 3.7 ns
# measured on order-5 to order-7 Sudoku (8 ms to 127 ms once loaded), so _one_shot stops
# the search that much before T.
_FREE_S_PER_ENTRY = 4e-9


class ReasonKind(Enum):
    """Why a variable has its value; ``Engine.reason[v]`` holds one of these shapes.

    The shapes are told apart by their type, which costs nothing to store:
    an explicit tag per assignment would be one more store per implied literal
    in :meth:`Engine.propagate` (the hot loop). :func:`reason_kind` names the
    kind; :func:`reason_literals` gives the false literals of a reason.
    """

    DECISION = "decision"  # None: a decision, an assumption or a level-0 fact
    BINARY = "binary"  # an int: the other (false) literal of a binary clause
    CLAUSE = "clause"  # a sequence of the implied literal and false ones: a stored
    # clause (a list, watched, implied literal first) or an input ternary clause (the
    # tuple its occurrence entries share, implied literal at any position)


def reason_kind(reason: object) -> ReasonKind:
    """The kind of a reason (see :class:`ReasonKind`)."""
    if reason is None:
        return ReasonKind.DECISION
    return ReasonKind.BINARY if reason.__class__ is int else ReasonKind.CLAUSE


def reason_literals(reason: Code | Implication, implied: Code) -> Implication:
    """The false literals of a BINARY or CLAUSE reason of `implied` (all but that one).

    The hot loops (:meth:`Engine.analyze`, :meth:`Engine.minimize`,
    :meth:`Engine.redundant`) read a CLAUSE reason whole instead: its implied
    literal's variable is marked there, and skipped as such, wherever it sits.
    """
    if isinstance(reason, int):
        return (reason,)
    return tuple(q for q in reason if q != implied)


class Observer(Protocol):
    """What :class:`Solver` tells an ``observer`` (either method may be missing).

    Literals are signed DIMACS integers; levels count decisions (0: none).
    """

    def decided(self, literal: int, level: int, trail_size: int) -> None:
        """The heuristic decided `literal`, opening `level`; the trail held `trail_size`."""

    def learnt(self, clause: list[int], backjump_level: int, level: int) -> None:
        """A conflict at `level` taught `clause` (asserting literal first); jump back."""


class ProofStep(Enum):
    """The kind of one DRAT step; the proof log holds ``(kind, codes)`` pairs."""

    ADD = ""
    DELETE = "d "


_RUN = 0x4000  # binary clauses the loader adds between two looks at the clock


def _run_end(codes: array, start: int, limit: int, width: int) -> int:
    """The end of the run of clauses of `width` literals that begins at `start` in `codes`.

    `codes` is zero-terminated clauses of DIMACS literals (an array).

    Pre: ``codes[start:start + 2 * (width + 1)]`` is two such clauses (`width`
    non-zero literals and a 0, each). Returns the first index after the longest
    run of such clauses, at most `limit`. Each position of the clauses (first
    literal, second, ..., the 0) is sliced out whole and searched as raw bytes
    in C for the first clause that breaks the pattern: a handful of C calls
    however long the run (an ``in`` test on an array would make a Python int
    of every element).
    """
    stride = width + 1
    stop = start + stride * ((limit - start) // stride)
    size = codes.itemsize
    ends = int.from_bytes(codes[start + width : stop : stride].tobytes(), "little")
    # The lowest set bit of the little-endian number is in the first non-zero word.
    clauses = ((ends & -ends).bit_length() - 1) // (8 * size) if ends else (stop - start) // stride
    for k in range(width):
        literals = codes[start + k : start + stride * clauses : stride].tobytes()
        clauses = min(clauses, _first_zero_word(literals, size))
    return start + stride * clauses


def _first_zero_word(data: bytes, size: int) -> int:
    """The index of the first `size`-byte word of `data` that is 0, or the word count.

    Zero bytes can also straddle two non-zero words (5 then 256, little-endian):
    only a hit at a word boundary counts.
    """
    zero = bytes(size)
    at = data.find(zero)
    while at >= 0 and at % size:
        at = data.find(zero, at + 1)
    return len(data) // size if at < 0 else at // size


# Memo of big runs of binary clauses (see Engine._add_run): a run's DIMACS bytes ->
# what it adds.
# A run is remembered as seen the first time and grouped the second time, so a
# formula loaded once pays only for hashing it. Both tables stay small.
_MEMO_MIN_RUN = 1024
_MEMO_SIZE = 8
_RUN_SEEN: dict[bytes, bool] = {}
# Grouped runs by the bytes of their first _MEMO_PREFIX words: (the run's bytes, what it adds).
_RUN_MEMO: dict[bytes, tuple[bytes, list[list[Code]], list[bool]]] = {}
_MEMO_PREFIX = 3 * 64


def _remember(table: dict, key: bytes, value) -> None:
    """Store `value` under `key`, dropping the oldest entry beyond :data:`_MEMO_SIZE`."""
    if len(table) >= _MEMO_SIZE:
        del table[next(iter(table))]
    table[key] = value


def _group_run(firsts: list[Code], seconds: list[Code]) -> tuple[list[list[Code]], list[bool]]:
    """What the run {firsts[i], seconds[i]} adds: per literal code, the literals it
    appends to that code's implication list, in order; per variable, whether it
    occurs (both lists cover codes and variables up to the run's highest)."""
    top = max(max(firsts), max(seconds)) | 1
    appended: list[list[Code]] = [[] for _ in range(top + 1)]
    for a, b in zip(firsts, seconds, strict=True):
        appended[a ^ 1].append(b)
        appended[b ^ 1].append(a)
    occurs = [False] * (top // 2 + 1)
    for lit in {*firsts, *seconds}:
        occurs[lit >> 1] = True
    return appended, occurs


#: ``Engine.level_bit`` for levels 0..31: 1 << (level & 31).
_LEVEL_BITS = [1 << lv for lv in range(32)]


def _variables_of_codes(first: int, last: int) -> list[int]:
    """The variable of each code of the variables first..last: [first, first, ..., last, last]."""
    table = [0] * (2 * (last - first + 1))
    table[::2] = table[1::2] = range(first, last + 1)  # slice assignments, in C
    return table


def _negations(first: int, last: int) -> list[int]:
    """The negation of each code of the variables first..last (``code ^ 1``), built in C."""
    table = [0] * (2 * (last - first + 1))
    table[::2] = range(2 * first + 1, 2 * last + 2, 2)
    table[1::2] = range(2 * first, 2 * last + 1, 2)
    return table


def _first_phases(first: int, last: int, initial_phase: int) -> list[int]:
    """The literal each of the variables first..last is decided to at first (see ``phase``)."""
    return list(range(2 * first + 1 - (initial_phase == 1), 2 * last + 2, 2))


def luby(y: float, x: int) -> float:
    """The x-th term (from 0) of the Luby sequence scaled by powers of `y`.

    >>> [int(luby(2, i)) for i in range(7)]
    [1, 1, 2, 1, 1, 2, 4]
    """
    size, seq = 1, 0
    while size < x + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != x:
        size = (size - 1) >> 1
        seq -= 1
        x = x % size
    return y**seq


class Engine:
    """The CDCL search state (create, :meth:`load`, then :meth:`solve`, again and again).

    :class:`Solver` is the public, DIMACS-speaking face of it; this class works
    in literal codes and keeps everything between calls: clauses (input and
    learnt), activities, saved phases, level-0 facts, the proof log.

    Parameters
    ----------
    num_vars : int
        Variables are 1..num_vars.
    settings : dict
        Every name of :data:`TUNABLES` with its value.
    seed : int
        Seeds the only random source (random decisions, initial activity jitter).
    proof : bool
        Log a DRAT proof (learnt clauses added, deleted clauses as ``d`` lines).

    Attributes
    ----------
    deadline : Deadline
        The budget of the current call: :meth:`within_budget` reads it, and
        :meth:`load` and :meth:`search` raise :class:`OutOfTime` past it
        (:meth:`solve` answers UNKNOWN then), as do :meth:`prepare_first_call`
        and :meth:`simplify`. No limit between calls.
    """

    def __init__(
        self,
        num_vars: int,
        settings: dict,
        seed: int = 0,
        proof: bool = False,
    ) -> None:
        n = num_vars
        self.num_vars = n
        self.settings = settings
        self.rng = Random(seed)
        self.seed = seed
        self.deadline = _NO_DEADLINE
        size = 2 * n + 2
        self.val = [0] * size  # per literal: 1 true, -1 false, 0 unassigned
        self.level = [0] * (n + 1)  # per variable: decision level of its assignment
        self.reason: list[Reason] = [None] * (n + 1)  # per variable: see ReasonKind
        self.seen = [0] * (n + 1)
        # var_of[lit] is lit >> 1: a list lookup costs CPython 3.11 less than the shift
        # (which it does not specialise); conflict analysis reads it per literal.
        self.var_of = _variables_of_codes(0, n)
        self.neg_of = _negations(0, n)  # neg_of[lit] is lit ^ 1, for the same reason
        # level_bit[lv] is 1 << (lv & 31), the level's bit in minimize's abstract, for
        # every level so far (see more_levels): a lookup costs less than the two ops.
        self.level_bit = list(_LEVEL_BITS)
        self.activity = [0.0] * (n + 1)
        self.heap_key = [-1.0] * (n + 1)  # activity of the live heap entry, -1 when none
        self.heap: list[tuple[float, int]] = []
        # phase[v]: the literal v is decided to, its last value (phase saving); index 0 unused.
        # A literal code rather than a sign bit: backjumping stores the undone literal as
        # it is, and a decision returns it as it is.
        self.phase = _first_phases(0, n, int(settings["initial_phase"]))
        self.bins: list[list[Code]] = [[] for _ in range(size)]
        # terns[p]: (b, c, clause) per input clause {¬p, b, c}; see add_ternary
        self.terns: list[list[tuple[Code, Code, tuple[Code, Code, Code]]]] = [
            [] for _ in range(size)
        ]
        self.watches: list[list[Clause]] = [[] for _ in range(size)]
        self.clauses: list[Clause] = []  # original clauses of length >= 3
        self.learnts: list[Clause] = []
        self.lbd: list[int] = []  # parallel to learnts
        self.trail: list[Code] = []
        self.trail_lim: list[int] = []
        self.qhead = 0
        self.var_inc = 1.0
        self.var_decay = settings["var_decay"]
        self.ok = True  # False once the formula is known UNSAT
        self.used = [False] * (n + 1)
        self.simp_trail = -1  # trail size at the last level-0 simplification
        self.bins_trail = 0  # trail size when bins were last cleaned (see simplify)
        self.decisions = self.propagations = self.conflicts = 0
        self.restarts = self.learnt_count = self.deleted = 0
        self.proof: list[tuple[ProofStep, tuple[Code, ...]]] | None = [] if proof else None
        self.units_logged = 0
        self.lit_str: list[str] = []
        if proof:
            self.lit_str = ["0", "0"] + [s for v in range(1, n + 1) for s in (str(v), str(-v))]
        # Incremental solving (MiniSat's solve(assumps)): the assumptions of the
        # current call are decided first, one decision level each; `core` is the
        # failed subset after an UNSAT answer under assumptions.
        self.assumptions: list[Code] = []
        self.core: list[Code] | None = None
        self.started = False  # activities are initialised by the first solve only
        self.heap_stale = False  # variables became used since the heap was built
        self.heap_after_assumptions = False  # trim the heap at the call's first decision
        self.rescore_next = False  # the next call ranks the variables anew (expect_new_question)
        self.rescore_now = False  # this call does, at its first free decision
        self.conflicts_per_call = 0.0  # a moving average over the answered calls
        self.next_reduce = settings["reduce_first"]
        self.reduce_interval = settings["reduce_first"]

    def grow(self, num_vars: int) -> None:
        """Make room for variables up to `num_vars` (new ones unused, unassigned, inactive).

        Pre: decision level 0. Post: every per-variable and per-literal table
        covers 1..num_vars. Raises :class:`OutOfTime` past the deadline (only
        a one-shot load has one) with every table as it was.
        """
        old = self.num_vars
        if num_vars <= old:
            return
        extra = num_vars - old
        # The per-literal lists take most of the time (80 to 200 ms for an order-7
        # Sudoku's 117,649 variables): they are built first, between looks at the clock.
        bins = self._empty_lists(2 * extra)
        terns = self._empty_lists(2 * extra)
        watches = self._empty_lists(2 * extra)
        self.num_vars = num_vars
        self.val += [0] * (2 * extra)
        # One statement per table (each is extended in place): their element types differ.
        self.level += [0] * extra
        self.seen += [0] * extra
        self.var_of += _variables_of_codes(old + 1, num_vars)
        self.neg_of += _negations(old + 1, num_vars)
        self.activity += [0.0] * extra
        self.heap_key += [-1.0] * extra
        self.used += [False] * extra
        self.reason += [None] * extra
        self.phase += _first_phases(old + 1, num_vars, int(self.settings["initial_phase"]))
        self.bins += bins
        self.terns += terns
        self.watches += watches
        if self.proof is not None:
            self.lit_str += [s for v in range(old + 1, num_vars + 1) for s in (str(v), str(-v))]

    def _empty_lists(self, count: int) -> list[list]:
        """`count` new empty lists, made in chunks; raises :class:`OutOfTime` between them."""
        made: list[list] = []
        within_budget = self.within_budget
        for start in range(0, count, _GROW_CHUNK):
            made += [[] for _ in range(min(_GROW_CHUNK, count - start))]
            if not within_budget():
                raise OutOfTime
        return made

    # -- loading ------------------------------------------------------------------

    def load(self, flat: array) -> None:
        """Read a zero-terminated DIMACS literal array into the solver.

        Pre: decision level 0, nothing loaded. Post: binary clauses are in
        ``bins``, longer ones watched on positions 0 and 1, unit clauses on the
        trail (not yet propagated); ``ok`` is False when an empty clause or two
        opposite units were read. Raises :class:`OutOfTime` when the deadline
        passes meanwhile (the clock is read between runs of binary clauses,
        every 16,384 clauses, and after each huge clause).
        """
        # The clauses are read from the DIMACS array itself and converted clause by
        # clause (table[x] is codes.to_code(x), inlined): a run of binary clauses met
        # before is then added from its memo without converting it at all.
        table = code_table(self.num_vars)
        if not isinstance(flat, array) or flat.typecode != "i":
            flat = array("i", flat)
        if flat and flat[-1] != 0:
            flat = flat + array("i", [0])
        used, clauses = self.used, self.clauses
        first_new = len(clauses)
        units: list[Code] = []
        add_ternary = self.add_ternary
        index = flat.index
        start = 0
        end_all = len(flat)
        within_budget = self.within_budget
        count = 0
        while start < end_all:
            stop = self._add_uniform_run(flat, start, table, units)
            if stop:
                start = stop
                if not within_budget():
                    raise OutOfTime
                continue
            end = index(0, start)
            length = end - start
            if length == 2:
                self._add_binary(table[flat[start]], table[flat[start + 1]], units)
            elif length == 3:
                a = table[flat[start]]
                b = table[flat[start + 1]]
                c = table[flat[start + 2]]
                if a ^ b > 1 and a ^ c > 1 and b ^ c > 1:  # distinct, no tautology
                    add_ternary(a, b, c)
                    used[a >> 1] = used[b >> 1] = used[c >> 1] = True
                else:
                    self._add_long([a, b, c], units)
            elif length > 3:
                self._add_long(list(map(table.__getitem__, flat[start:end])), units)
                if length > 0x3FFF and not within_budget():
                    raise OutOfTime  # a huge clause alone can take a while (issue 17, fault 8)
            elif length == 1:
                units.append(table[flat[start]])
            else:
                self.ok = False
            start = end + 1
            count += 1
            if not count & 0x3FFF and not within_budget():
                raise OutOfTime
        for lit in units:
            used[lit >> 1] = True
            value = self.val[lit]
            if value < 0:
                self.ok = False
            elif value == 0:
                self.assign(lit, None)
        self.watch_all(clauses[first_new:])
        self.heap_stale = True

    def _add_uniform_run(
        self, flat: array, start: int, table: list[Code], units: list[Code]
    ) -> int:
        """Add the run of binary or ternary clauses at `start`; the index after it, or 0.

        A run is two clauses of the same width or more (Sudoku's CNF is mostly
        long runs of binary clauses, random 3-SAT one run of ternary ones); it
        is sliced and converted in C, at most :data:`_RUN` clauses at a time so
        that the caller reads the clock often enough. 0: no such run starts here.
        """
        end_all = len(flat)
        if (
            start + 5 < end_all
            and flat[start + 2] == 0 == flat[start + 5]
            and flat[start] and flat[start + 1] and flat[start + 3] and flat[start + 4]
        ):
            limit = min(end_all, start + 3 * _RUN)
            stop = self._add_remembered_run(flat, start, limit)
            if stop < 0:
                stop = _run_end(flat, start, limit, 2)
                self._add_run(flat, start, stop, table, units)
            return stop
        if (
            start + 7 < end_all
            and flat[start + 3] == 0 == flat[start + 7]
            and flat[start] and flat[start + 1] and flat[start + 2]
            and flat[start + 4] and flat[start + 5] and flat[start + 6]
        ):
            stop = _run_end(flat, start, min(end_all, start + 4 * _RUN), 3)
            self._add_ternary_run(flat, start, stop, table, units)
            return stop
        return 0

    def add_codes(self, clause: Clause) -> None:
        """Add one input clause between solves, against what level 0 already knows.

        Pre: decision level 0 (its trail may still await propagation). Post: a
        clause satisfied at level 0 is dropped, its false literals are removed;
        what remains is stored like a loaded clause (a unit goes on the trail,
        an empty clause sets ``ok`` False). Watches never sit on false literals.
        """
        val = self.val
        if any(val[q] == 1 for q in clause):
            return
        rest = [q for q in clause if not val[q]]
        units: list[Code] = []
        if not rest:
            self.ok = False
        elif len(rest) == 1:
            units.append(rest[0])
        elif len(rest) == 2:
            self._add_binary(rest[0], rest[1], units)
        else:
            before = len(self.clauses)
            self._add_long(rest, units)
            self.watch_all(self.clauses[before:])
        for lit in units:
            self.used[lit >> 1] = True
            if not val[lit]:
                self.assign(lit, None)
        self.heap_stale = True

    def _add_binary(self, a: Code, b: Code, units: list[Code]) -> None:
        """Add the input clause {a, b}: a unit when a == b, nothing when a tautology."""
        if a ^ b > 1:
            self.bins[a ^ 1].append(b)
            self.bins[b ^ 1].append(a)
            self.used[a >> 1] = self.used[b >> 1] = True
        elif a == b:
            units.append(a)

    def _add_run(
        self, flat: array, start: int, stop: int, table: list[Code], units: list[Code]
    ) -> None:
        """Add the run of binary clauses ``flat[start:stop]`` (DIMACS, each ``a b 0``).

        A run met for the third time (the same Sudoku rules, instance after
        instance) is added from a memo, found by the run's DIMACS bytes before
        any conversion: per implication list, the literals the run appends, in
        the same order, so each list grows by one ``extend`` instead of one
        ``append`` per clause (see :data:`_RUN_MEMO`).
        """
        key = flat[start:stop].tobytes() if stop - start >= 3 * _MEMO_MIN_RUN else None
        code = table.__getitem__
        firsts = list(map(code, flat[start:stop:3]))
        seconds = list(map(code, flat[start + 1 : stop : 3]))
        self._add_binaries(firsts, seconds, units, key, _MEMO_PREFIX * flat.itemsize)

    def _add_remembered_run(self, flat: array, start: int, limit: int) -> int:
        """Add the remembered run that starts at `start`, if any; the index after it, else -1.

        The memo is found by the bytes of the run's first clauses, then the whole
        run is compared byte for byte (one C call), so the run's end need not be
        searched for. The run must end by `limit`.
        """
        if start + 3 * _MEMO_MIN_RUN > limit:
            return -1
        entry = _RUN_MEMO.get(flat[start : start + _MEMO_PREFIX].tobytes())
        if entry is None:
            return -1
        run, appended, occurs = entry
        stop = start + len(run) // flat.itemsize
        if stop > limit or flat[start:stop].tobytes() != run:
            return -1
        self._add_memo(appended, occurs)
        return stop

    def _add_binaries(
        self,
        firsts: list[Code],
        seconds: list[Code],
        units: list[Code],
        key: bytes | None,
        prefix_bytes: int,
    ) -> None:
        """Add the binary clauses {firsts[i], seconds[i]} in order (see :meth:`_add_run`).

        `key` is the run's DIMACS bytes (None: not to be remembered); a memo is
        filed under its first `prefix_bytes` bytes.
        """
        if min(map(xor, firsts, seconds)) <= 1:  # a duplicate literal or a tautology: one by one
            for a, b in zip(firsts, seconds, strict=True):
                self._add_binary(a, b, units)
            return
        if key is not None and _RUN_SEEN.get(key):
            appended, occurs = _group_run(firsts, seconds)
            _remember(_RUN_MEMO, key[:prefix_bytes], (key, appended, occurs))
            self._add_memo(appended, occurs)
            return
        if key is not None:
            _remember(_RUN_SEEN, key, True)
        bins, used = self.bins, self.used
        for a, b in zip(firsts, seconds, strict=True):
            bins[a ^ 1].append(b)
            bins[b ^ 1].append(a)
        for lit in {*firsts, *seconds}:
            used[lit >> 1] = True

    def _add_ternary_run(
        self, flat: array, start: int, stop: int, table: list[Code], units: list[Code]
    ) -> None:
        """Add the run of ternary clauses ``flat[start:stop]`` (DIMACS, each ``a b c 0``).

        The literals are converted in C, and the whole run is tested at once for a
        repeated literal or a tautology (then it is added clause by clause).
        """
        code = table.__getitem__
        firsts = list(map(code, flat[start:stop:4]))
        seconds = list(map(code, flat[start + 1 : stop : 4]))
        thirds = list(map(code, flat[start + 2 : stop : 4]))
        if min(min(map(xor, firsts, seconds)), min(map(xor, firsts, thirds)),
               min(map(xor, seconds, thirds))) <= 1:
            for a, b, c in zip(firsts, seconds, thirds, strict=True):
                self._add_long([a, b, c], units)
            return
        terns = self.terns
        # add_ternary, inlined: a call per clause cost random 50 1.5 % more instructions
        # (965 against 951 M, benchmarks/instructions.py). The tuple zip makes is the
        # clause's shared tuple.
        for clause in zip(firsts, seconds, thirds, strict=True):
            a, b, c = clause
            terns[a ^ 1].append((b, c, clause))
            terns[b ^ 1].append((a, c, clause))
            terns[c ^ 1].append((a, b, clause))
        used = self.used
        for lit in {*firsts, *seconds, *thirds}:
            used[lit >> 1] = True

    def _add_memo(self, appended: list[list[Code]], occurs: list[bool]) -> None:
        """Add a remembered run (see :func:`_group_run`): every list grows in one C pass.

        Each implication list is replaced by its concatenation with what the run
        appends (nothing outside the loader holds these lists while it runs).
        """
        bins, used = self.bins, self.used
        bins[: len(appended)] = map(add, bins[: len(appended)], appended)
        used[: len(occurs)] = map(or_, used[: len(occurs)], occurs)

    def _add_long(self, clause: Clause, units: list[Code]) -> None:
        """Store a clause of three or more literals: drop duplicates, skip tautologies."""
        variables = {lit >> 1 for lit in clause}
        if len(variables) == len(clause):  # the usual case: no repeated variable at all
            used = self.used
            for v in variables:
                used[v] = True
            if len(clause) == 3:
                self.add_ternary(clause[0], clause[1], clause[2])
            else:
                self.clauses.append(clause)
            return
        present = set(clause)
        if len(present) != len(clause):
            clause = list(dict.fromkeys(clause))
        # A set, not the list: `in` on a list made one clause of 100,000 literals
        # cost 66 s (issue 17, fault 8); this is linear.
        if any(lit ^ 1 in present for lit in clause):
            return
        used = self.used
        for lit in clause:
            used[lit >> 1] = True
        if len(clause) == 2:
            self._add_binary(clause[0], clause[1], units)
        elif len(clause) == 1:
            units.append(clause[0])
        elif len(clause) == 3:
            self.add_ternary(clause[0], clause[1], clause[2])
        else:
            self.clauses.append(clause)

    def add_ternary(self, a: Code, b: Code, c: Code) -> None:
        """Index the input clause {a, b, c} under the negation of each of its literals.

        Random 3-SAT is all ternary clauses. Full occurrence lists cost more
        visits than two watches but a visit only reads two values: no watch
        moves, no list rebuilt. The three entries share the clause's tuple,
        which propagation names as the reason (or conflict) when a visit
        implies (or falsifies), instead of building a tuple each time.
        """
        terns = self.terns
        clause = (a, b, c)
        terns[a ^ 1].append((b, c, clause))
        terns[b ^ 1].append((a, c, clause))
        terns[c ^ 1].append((a, b, clause))

    def watch_all(self, clauses: list[Clause]) -> None:
        """Watch positions 0 and 1 of every clause (watch lists must not hold them yet)."""
        watches = self.watches
        for clause in clauses:
            watches[clause[0]].append(clause)
            watches[clause[1]].append(clause)

    # -- assignment -----------------------------------------------------------------

    def assign(self, lit: Code, why) -> None:
        """Make `lit` true at the current level. Pre: `lit` is unassigned."""
        val = self.val
        val[lit] = 1
        val[lit ^ 1] = -1
        var = lit >> 1
        self.level[var] = len(self.trail_lim)
        self.reason[var] = why
        self.trail.append(lit)

    def propagate(self) -> Implication | None:
        """Unit propagation of every literal on the trail from ``qhead``.

        Pre: watched literals are clause[0] and clause[1]; ``trail[:qhead]`` is
        propagated. Post: returns None with ``qhead == len(trail)``, or the
        conflicting clause (a list or tuple of false literals; a fresh 2-list
        for a binary clause). An implied literal sits at position 0 of a
        stored reason clause, anywhere in an input ternary one (see
        :class:`ReasonKind`). It never reads the clock:
        :meth:`search` does, between two calls.
        """
        val = self.val
        trail = self.trail
        level = self.level
        reason = self.reason
        watches = self.watches
        bins = self.bins
        terns = self.terns
        var_of, neg_of = self.var_of, self.neg_of
        dl = len(self.trail_lim)
        qhead = start = self.qhead
        confl: Implication | None = None
        # A list iterator sees what is appended while it runs: it walks the trail
        # from qhead as it grows, without a length test and an index per literal.
        # typeshed types iter(list) as a plain Iterator, without list_iterator's
        # __setstate__; a cast would cost a call per propagate (per search step).
        pending = iter(trail)
        pending.__setstate__(qhead)  # type: ignore[attr-defined]
        for p in pending:
            qhead += 1
            np = neg_of[p]
            implied = bins[p]
            if implied:  # a test, not an empty loop: most literals imply no binary here
                for q in implied:
                    vq = val[q]
                    if vq == 1:
                        continue
                    if vq:
                        confl = [q, np]
                        break
                    val[q] = 1
                    val[neg_of[q]] = -1
                    v = var_of[q]
                    level[v] = dl
                    reason[v] = np
                    trail.append(q)
                if confl is not None:
                    break
            ts = terns[p]
            if ts:  # Sudoku has no ternary clauses: one test per literal
                for b, c, tern in ts:
                    # The sum is -1 only for one false and one free literal
                    # (a unit) and -2 only for two false ones (a conflict).
                    if val[b] + val[c] >= 0:
                        continue
                    if val[b]:  # b false: c is implied, or the clause is falsified
                        if val[c]:
                            confl = tern
                            break
                        b = c
                    val[b] = 1
                    val[neg_of[b]] = -1
                    v = var_of[b]
                    level[v] = dl
                    reason[v] = tern  # the clause's own tuple: nothing is built
                    trail.append(b)
                if confl is not None:
                    break
            ws = watches[np]
            if not ws:
                continue
            keep: list[Clause] = []
            rest = iter(ws)
            for clause in rest:
                first = clause[0]
                if first == np:
                    first = clause[1]
                    clause[0] = first
                    clause[1] = np
                if val[first] == 1:  # the other watch is true: it blocks the scan
                    keep.append(clause)
                    continue
                lit = clause[2]  # most moves find their new watch here, without a loop
                if val[lit] != -1:
                    clause[1] = lit
                    clause[2] = np
                    watches[lit].append(clause)
                    continue
                for k in range(3, len(clause)):
                    lit = clause[k]
                    if val[lit] != -1:
                        clause[1] = lit
                        clause[k] = np
                        watches[lit].append(clause)
                        break
                else:
                    keep.append(clause)
                    if val[first]:
                        confl = clause
                        keep.extend(rest)
                        break
                    val[first] = 1
                    val[neg_of[first]] = -1
                    v = var_of[first]
                    level[v] = dl
                    reason[v] = clause
                    trail.append(first)
            watches[np] = keep
            if confl is not None:
                break
        self.propagations += qhead - start
        self.qhead = qhead
        return confl

    def cancel_until(self, lvl: int) -> None:
        """Undo every assignment above decision level `lvl`.

        Pre: ``lvl`` <= current level. Post: the trail ends at level ``lvl``;
        each undone variable keeps its last value as its saved phase and is
        back in the VSIDS heap with its current activity.
        """
        trail_lim = self.trail_lim
        if len(trail_lim) <= lvl:
            return
        trail = self.trail
        lim = trail_lim[lvl]
        val = self.val
        var_of, neg_of = self.var_of, self.neg_of
        phase = self.phase
        activity = self.activity
        key = self.heap_key
        heap = self.heap
        for lit in trail[lim:]:
            val[lit] = 0
            val[neg_of[lit]] = 0
            v = var_of[lit]
            phase[v] = lit
            a = activity[v]
            if a != key[v]:
                key[v] = a
                heappush(heap, (-a, v))
        del trail[lim:]
        del trail_lim[lvl:]
        self.qhead = lim

    # -- decisions --------------------------------------------------------------------

    def init_heap(self) -> None:
        """Put every used, unassigned variable in the heap (activity ties: lower index first)."""
        self.init_activity()
        if self.seed:
            jitter = self.rng.random
            self.activity = [a + jitter() * 1e-5 for a in self.activity]
        self.rebuild_heap()

    def init_activity(self) -> None:
        """Start each activity at a static score, scaled into [0, 1).

        One conflict's bump (at least 1) outweighs it: the score orders the
        first decisions and breaks ties between equally bumped variables.
        Pre: level 0, propagated (:meth:`solve` propagates the level-0 facts
        first).

        With level-0 facts (a Sudoku's givens), the score is the
        :meth:`jw_products` of the formula they leave: median conflicts 74 -> 16
        on the course puzzles, 45 -> 28 on every 10th of top2365, 784 -> 586 on
        16x16 ones, against occurrence counts (which tie every Sudoku variable).
        Without any (random 3-SAT), it is the variable's number of occurrences,
        as in Chaff's original VSIDS (random 3-SAT needs about a fifth fewer
        conflicts than with a flat start). There the products are no better:
        median conflicts over six seeds 1585 against 1600 at 150 variables, 250
        against 252 at 100, while one seed's median moves by up to a fifth
        either way; so a formula without facts keeps the order it had. With
        ``initial_phase`` 2 (the default), each variable of such a formula is
        first tried with the sign it has in more clauses: on 300 random 3-SAT
        formulas of each of three seeds (50 and 100 variables), 3-10 % fewer
        conflicts in all than starting false (medians 5-11 % fewer), and fewer
        in all on each of the five random sets of ``benchmarks/cdcl_ab.py``.
        """
        if self.trail:
            scores = self.jw_products()
            top = max(scores)
            scale = 0.5 / top if top else 0.0
            self.activity = [score * scale for score in scores]
            return
        in_long = [0] * len(self.val)  # per literal code: its long clauses
        for clause in self.clauses:
            for lit in clause:
                in_long[lit] += 1
        # Binary and ternary clauses holding ¬p are listed under p; the occurrences of
        # v and of ¬v (v = 1..n) are summed by map in C: this runs at the start of every
        # one-shot call.
        under = list(map(add, map(len, self.bins), map(len, self.terns)))
        positive = list(map(add, in_long[2::2], under[3::2]))
        negative = list(map(add, in_long[3::2], under[2::2]))
        counts = [0, *map(add, positive, negative)]
        scale = 1.0 / (max(counts) + 1)
        self.activity = [count * scale for count in counts]
        if self.settings["initial_phase"] == 2:
            # The more frequent sign first, ties false: 2v + 1 - (positive > negative).
            odd = range(3, 2 * len(positive) + 2, 2)
            self.phase[1:] = map(sub, odd, map(gt, positive, negative))

    def jw_products(self) -> list[float]:
        """Per variable (index 0 unused), ``J(x) * J(¬x)``: Jeroslow–Wang weights multiplied.

        ``J(l)`` sums ``2**-k`` over the clauses holding ``l`` that the current
        assignment does not satisfy, ``k`` their free literals (Jeroslow and
        Wang: short clauses weigh most); learnt clauses do not count, except
        binary ones. The product ranks first a variable whose two values both
        shorten short clauses, as lookahead solvers (march) rank theirs. On a
        Sudoku's course CNF the givens leave each cell an at-least-one clause of
        its candidates, so the first decisions fall on the cells with fewest
        candidates. Pre: propagated, at level 0 or with only the call's
        assumptions decided (:meth:`rescore`).
        """
        val = self.val
        value = val.__getitem__
        # under[p]: the weight of the clauses that hold ¬p (bins[p] and terns[p]
        # list such clauses by their other literals); J(l) is under[l ^ 1].
        under = [0.0] * len(val)
        bins, terns = self.bins, self.terns
        free = list(compress(range(2, len(val)), map(not_, islice(val, 2, None))))  # in C
        for p in free:
            implied = bins[p]
            if implied:
                # The other literal of a binary clause listed under a free p is true
                # (the clause is satisfied) or free, never false: propagation would
                # have set p false. The sum counts the true ones.
                under[p] = 0.25 * (len(implied) - sum(map(value, implied)))
        if any(terns):
            for p in free:
                pairs = terns[p]
                if pairs:
                    for b, c, _ in pairs:
                        vb, vc = val[b], val[c]
                        if vb != 1 and vc != 1:
                            under[p] += 0.5 ** (1 + (not vb) + (not vc))
        for clause in self.clauses:
            values = list(map(value, clause))
            if 1 not in values:
                weight = 0.5 ** values.count(0)
                for lit in clause:
                    if not val[lit]:
                        under[lit ^ 1] += weight
        return [0.0, *map(mul, under[2::2], under[3::2])]

    def rebuild_heap(self) -> None:
        """Rebuild the heap from scratch. Post: exactly one live entry per free used variable."""
        activity, used, val, key = self.activity, self.used, self.val, self.heap_key
        free = [v for v in range(1, self.num_vars + 1) if used[v] and not val[2 * v]]
        key[:] = [-1.0] * len(key)
        for v in free:
            key[v] = activity[v]
        heap = [(-activity[v], v) for v in free]
        heapify(heap)
        self.heap = heap

    def pick_branch_lit(self) -> Code:
        """The next decision literal, or -1 when every used variable is assigned.

        Post: the returned literal is unassigned; its sign is the saved phase.
        """
        freq = self.settings["random_var_freq"]
        val = self.val
        if freq and self.rng.random() < freq:
            free = [v for v in range(1, self.num_vars + 1) if self.used[v] and not val[2 * v]]
            if free:
                v = self.rng.choice(free)
                return self.phase[v]
        heap = self.heap
        key = self.heap_key
        while heap:
            a, v = heappop(heap)
            if -a == key[v]:
                key[v] = -1.0
            if not val[2 * v]:
                return self.phase[v]
        return -1

    def rescale(self) -> None:
        """Scale every activity down by 1e100 (they only grow) and rebuild the heap."""
        self.activity = [x * 1e-100 for x in self.activity]
        self.var_inc *= 1e-100
        self.rebuild_heap()

    # -- conflict analysis ------------------------------------------------------------

    def analyze(self, confl: Implication) -> tuple[Clause, int, int]:
        """First-UIP learning from a conflict at the current level.

        Pre: every literal of ``confl`` is false; current level > 0; ``seen`` is
        all zero. Post: returns (learnt, backtrack level, LBD); learnt[0] is the
        asserting literal (the negated UIP), learnt[1] has the highest level
        among the rest; ``seen`` is all zero again.
        """
        seen, level, reason, trail = self.seen, self.level, self.reason, self.trail
        var_of = self.var_of
        activity = self.activity
        inc = self.var_inc
        dl = len(self.trail_lim)
        if dl >= len(self.level_bit):
            self.more_levels(dl)
        level_bit = self.level_bit
        # The learnt clause's literals below the current level. Here and below, list
        # appends are spelled out: CPython 3.11 inlines `xs.append(x)`, and calls a
        # bound `append` kept in a local.
        found: list[Code] = []
        abstract = 0  # their levels, hashed to 32 bits (see redundant)
        path = 0
        # The trail walked down from its end: a reverse iterator costs less per step
        # than an index, and each walk resumes where the last one stopped.
        walk = reversed(trail)
        lits = confl
        pv = 0  # the variable whose reason `lits` is (0, never seen, for the conflict)
        while True:
            for q in lits:
                v = var_of[q]
                if not seen[v]:
                    lv = level[v]
                    if lv >= dl:
                        seen[v] = 1
                        activity[v] += inc
                        path += 1
                    elif lv:  # level-0 literals are left out
                        seen[v] = 1
                        activity[v] += inc
                        found.append(q)
                        abstract |= level_bit[lv]
            # Unmarked only now: its own literal, first in its reason, was skipped as
            # seen, which costs less than a slice without it. The trail walk is below
            # it already, and no earlier reason holds it, so the late mark is never read.
            seen[pv] = 0
            for p in walk:  # a marked literal lies below: `path` counts them
                if seen[var_of[p]]:
                    break
            pv = var_of[p]
            path -= 1
            if not path:
                break
            r = reason[pv]
            # An implied literal's reason is never None, and mypy narrows `__class__ is
            # int` in its own branch only (bool would take the other): telling it so (a
            # cast, an assert) would cost work per literal.
            lits = (r,) if r.__class__ is int else r  # type: ignore[assignment]
        seen[pv] = 0
        # An activity is at most inc / (1 - var_decay) (a geometric series of
        # bumps), so checking inc alone keeps every activity far from overflow.
        if inc > 1e100:
            self.rescale()
        if not found:
            return [p ^ 1], 0, 1
        if len(found) > 1 and self.settings["minimize"]:
            kept = self.minimize(found, abstract)
        else:
            kept = found
            for q in found:
                seen[var_of[q]] = 0
        # The backtrack level, where out[1] goes, and the LBD: bit 0 of `levels`
        # stands for the current level (the UIP's), above every level of `kept`.
        # A counted index: enumerate, or indexing the clause, costs more.
        i = best = top = 0
        levels = 1
        for q in kept:
            i += 1  # noqa: SIM113
            lv = level[var_of[q]]
            levels |= 1 << lv
            if lv > top:
                best, top = i, lv
        out = [p ^ 1, *kept]
        out[1], out[best] = out[best], out[1]
        return out, top, levels.bit_count()

    def more_levels(self, top: int) -> None:
        """Make ``level_bit`` cover levels 0..top (analyze checks its level first).

        Its values repeat every 32 levels, so it is built by repetition, in C.
        """
        self.level_bit = _LEVEL_BITS * (top // 32 + 1)

    def minimize(self, found: list[Code], abstract: int) -> list[Code]:
        """The literals of `found` not implied by the others (by reasons), in order.

        Pre: ``seen`` marks exactly the variables of `found` (1); ``abstract``
        has bit ``level & 31`` set for the level of each of them. Post:
        ``seen`` is all zero again.
        """
        reason, level, seen, var_of = self.reason, self.level, self.seen, self.var_of
        level_bit = self.level_bit
        if self.settings["minimize"] < 2:
            kept = [q for q in found if not self._locally_redundant(q)]
        else:
            kept = []
            settled: list[Code] = []  # what redundant marks, to unmark
            redundant = self.redundant
            for q in found:
                r = reason[var_of[q]]
                if r is None:
                    kept.append(q)
                    continue
                # The first step of redundant(q), inlined: most literals are settled by
                # their reason's own literals (marked, or failing at once), without a
                # call. A whole reason is read: its first literal is q's own, marked.
                for x in (r,) if r.__class__ is int else r:  # type: ignore[union-attr]
                    v = var_of[x]
                    mark = seen[v]
                    if mark == 1 or not level[v]:
                        continue
                    if (
                        mark or reason[v] is None or not level_bit[level[v]] & abstract
                        or not redundant(x, abstract, settled)
                    ):
                        kept.append(q)
                        break
            for q in settled:
                seen[var_of[q]] = 0
        for q in found:
            seen[var_of[q]] = 0
        return kept

    def _locally_redundant(self, q: Code) -> bool:
        """True when the reason of the false literal `q` holds only marked or level-0 literals."""
        r = self.reason[q >> 1]
        if r is None:
            return False
        seen, level = self.seen, self.level
        return all(seen[x >> 1] or not level[x >> 1] for x in reason_literals(r, q ^ 1))

    def redundant(self, p: Code, abstract: int, toclear: list[Code]) -> bool:
        """True when the (false) literal `p` follows from marked literals by reasons.

        Pre: ``seen`` is 1 for the literals of the learnt clause and those
        proved redundant so far, 2 for those proved not to be; `p` is unmarked
        at a level > 0 in ``abstract``, with a reason. Post: every literal this
        call settles, `p` too, is marked (1 or 2) and recorded in ``toclear``,
        so no later call explores it again (MiniSat's ``litRedundant`` with its
        "failed" marks): a depth-first walk along reasons, the path kept as
        frames (the reason's iterator, literal). A literal fails when it is
        unmarked at a level > 0 and is a decision or lies at a level the clause
        lacks (``abstract``); then so does every literal on the path to it.
        """
        seen, level, reason, var_of = self.seen, self.level, self.reason, self.var_of
        level_bit = self.level_bit
        path: list[tuple[Iterator[Code], Code]] = []
        # A literal is marked 1 on entry: only its own reason's first literal (its
        # negation) could meet it before its walk ends, and is skipped so, without a
        # slice. A failure marks it 2 (below).
        v = var_of[p]
        seen[v] = 1
        toclear.append(p)
        r = reason[v]
        # Not None by the precondition; mypy keeps int in the else branch (see analyze).
        it = iter((r,) if r.__class__ is int else r)  # type: ignore[arg-type]
        while True:
            for q in it:
                v = var_of[q]
                mark = seen[v]
                if mark == 1 or not level[v]:
                    continue
                r = reason[v]
                if mark or r is None or not level_bit[level[v]] & abstract:
                    seen[var_of[p]] = 2
                    for _, x in path:
                        seen[var_of[x]] = 2
                    return False
                path.append((it, p))
                p = q
                seen[v] = 1
                toclear.append(q)
                it = iter((r,) if r.__class__ is int else r)  # type: ignore[arg-type]
                break
            else:
                if not path:
                    return True
                it, p = path.pop()

    def record(self, learnt: Clause, lbd: int) -> None:
        """Store a learnt clause and assert its first literal.

        Pre: backtracked to the level where learnt[0] is the only unassigned
        literal. Post: learnt[0] is true with the clause as its reason.
        """
        self.learnt_count += 1
        if self.proof is not None:
            self.log_add(learnt)
        size = len(learnt)
        first = learnt[0]
        why: Reason
        if size > 2:
            why = learnt
            self.learnts.append(learnt)
            self.lbd.append(lbd)
            watches = self.watches
            watches[first].append(learnt)
            watches[learnt[1]].append(learnt)
        elif size == 2:
            why = learnt[1]
            bins = self.bins
            bins[first ^ 1].append(why)
            bins[why ^ 1].append(first)
        else:
            why = None
        # assign(first, why), inlined: once per conflict.
        val = self.val
        val[first] = 1
        val[first ^ 1] = -1
        v = first >> 1
        self.level[v] = len(self.trail_lim)
        self.reason[v] = why
        self.trail.append(first)

    # -- proof ----------------------------------------------------------------------------

    # Proof steps are kept as (ProofStep, literal codes) and turned into text
    # once, at the end, and only for UNSAT.
    #
    # log_add and log_delete are called once per learnt or deleted clause, each
    # time after the caller tested ``self.proof is not None``; mypy cannot carry
    # that test into the method, and testing again (or a cast) would cost once
    # more per clause, so their `union-attr` is ignored.

    def log_add(self, clause: Clause) -> None:
        """Record one DRAT addition (a snapshot: the solver keeps reordering the clause).

        Pre: ``proof`` is not None.
        """
        self.proof.append((ProofStep.ADD, tuple(clause)))  # type: ignore[union-attr]

    def log_delete(self, clause: Clause) -> None:
        """Record one DRAT deletion (a copy: simplification may shrink the clause later).

        Pre: ``proof`` is not None.
        """
        self.proof.append((ProofStep.DELETE, tuple(clause)))  # type: ignore[union-attr]

    def log_level0_units(self) -> None:
        """Record every level-0 literal not recorded yet as a unit (all are RUP), so that
        later deletions of their reason clauses cannot weaken the checker's database.
        Nothing without a proof log."""
        proof = self.proof
        if proof is None:
            return
        limit = self.trail_lim[0] if self.trail_lim else len(self.trail)
        proof.extend((ProofStep.ADD, (q,)) for q in self.trail[self.units_logged : limit])
        self.units_logged = max(self.units_logged, limit)

    # -- clause database ------------------------------------------------------------------

    def locked(self, clause: Clause) -> bool:
        """True when `clause` is the reason of its first literal's current value."""
        first = clause[0]
        return self.val[first] == 1 and self.reason[first >> 1] is clause

    def reduce_db(self) -> None:
        """Delete about half of the learnt clauses, those of highest LBD first.

        Pre: any level. Post: glue clauses (LBD <= glue_lbd) and reason clauses
        remain; deleted clauses are gone from their watch lists and logged.
        """
        glue = self.settings["glue_lbd"]
        learnts, lbd = self.learnts, self.lbd
        order = sorted(range(len(learnts)), key=lambda i: (lbd[i], -i))
        doomed_count = len(order) // 2
        keep, keep_lbd, dead = [], [], set()
        for rank, i in enumerate(order):
            clause = learnts[i]
            if rank >= len(order) - doomed_count and lbd[i] > glue and not self.locked(clause):
                dead.add(id(clause))
                self.delete_clause(clause)
            else:
                keep.append(clause)
                keep_lbd.append(lbd[i])
        self.learnts, self.lbd = keep, keep_lbd
        self.unwatch(dead, learnts)

    def delete_clause(self, clause: Clause) -> None:
        """Count and log a deleted clause (its watches are removed by :meth:`unwatch`)."""
        self.deleted += 1
        if self.proof is not None:
            self.log_delete(clause)

    def unwatch(self, dead: set[int], candidates: list[Clause]) -> None:
        """Remove the clauses whose id is in `dead` from the watch lists of their watches."""
        if not dead:
            return
        watches = self.watches
        touched = {lit for c in candidates if id(c) in dead for lit in (c[0], c[1])}
        for lit in touched:
            ws = watches[lit]
            ws[:] = [c for c in ws if id(c) not in dead]

    def simplify(self) -> None:
        """Level-0 simplification.

        Pre: decision level 0, trail propagated without conflict. Post: no
        long clause is satisfied at level 0 or holds a false literal; watch
        lists are rebuilt; clauses that shrank to two literals moved to bins.
        Raises :class:`OutOfTime` from :meth:`drop_satisfied_binaries`, with
        the watches rebuilt already: the next call simplifies again.
        """
        if self.proof is not None:
            self.log_level0_units()
        # Only the lists of watched literals hold clauses: clearing those alone (read
        # before simplification rewrites the clauses) spares a pass over every literal.
        watches = self.watches
        for clause in (*self.clauses, *self.learnts):
            watches[clause[0]].clear()
            watches[clause[1]].clear()
        self.clauses = self._simplify_list(self.clauses, learnt=False)
        kept = self._simplify_list(self.learnts, learnt=True, lbds=self.lbd)
        self.learnts, self.lbd = kept[0], kept[1]
        self.watch_all(self.clauses)
        self.watch_all(self.learnts)
        if len(self.trail) >= self.bins_trail + self.num_vars // 8:
            self.drop_satisfied_binaries()
            self.bins_trail = len(self.trail)
            self.trim_heap()  # many variables became fixed: each entry would cost a pop
        self.simp_trail = len(self.trail)

    def drop_satisfied_binaries(self) -> None:
        """Remove from ``bins`` the implied literals that are true at level 0.

        Such a binary clause is satisfied for good, yet its entry would be read
        each time the other literal is assigned: after a Sudoku's givens, most
        entries of the free cells' lists are of this kind. Only the lists of
        free literals are filtered (the others are never read again). The
        clauses stay in a DRAT checker's database: deleting is optional there.
        """
        val, bins = self.val, self.bins
        free = list(compress(range(2, len(bins)), map(not_, islice(val, 2, None))))  # in C
        # Each list's filter stands alone, so stopping between two leaves a valid state:
        # the clock is read between chunks (an order-6 Sudoku's pass takes about 80 ms).
        for start in range(0, len(free), _DROP_CHUNK):
            if start and not self.within_budget():
                raise OutOfTime
            for p in free[start : start + _DROP_CHUNK]:
                implied = bins[p]
                if implied:
                    kept = [q for q in implied if val[q] != 1]
                    if len(kept) != len(implied):
                        bins[p] = kept

    def _simplify_list(self, clauses: list[Clause], learnt: bool, lbds=None):
        val = self.val
        out: list[Clause] = []
        out_lbd: list[int] = []
        logging = self.proof is not None
        value = val.__getitem__
        for index, clause in enumerate(clauses):
            values = list(map(value, clause))  # in C: this pass runs at every restart
            if 1 in values:
                if learnt:
                    self.delete_clause(clause)
                continue
            if -1 in values:
                short = [q for q in clause if not val[q]]
                if learnt and logging:
                    self.log_add(short)
                    self.log_delete(clause)
                if len(short) == 2:
                    a, b = short
                    self.bins[a ^ 1].append(b)
                    self.bins[b ^ 1].append(a)
                    continue
                clause[:] = short
            out.append(clause)
            if learnt:
                out_lbd.append(lbds[index])
        return (out, out_lbd) if learnt else out

    # -- search ---------------------------------------------------------------------------

    def within_budget(self) -> bool:
        """MiniSat's ``withinBudget()``: False once the deadline has passed."""
        return time.monotonic() < self.deadline.at

    def search(self, budget: float) -> Status | None:
        """CDCL until SAT, UNSAT, or `budget` conflicts (then restart).

        Pre: level 0 after a restart. Post: SAT leaves a full assignment of the
        used variables; UNSAT sets ``ok`` False; None means restart (level 0).
        Raises :class:`OutOfTime` when the deadline has passed; the clock is
        read where MiniSat reads its budget: after each propagation that ends
        without a conflict, before the next decision (a run of conflicts is
        bounded by the decision level, each backjumping at least one level).
        """
        conflicts_here = 0
        within_budget = self.within_budget
        while True:
            confl = self.propagate()
            if confl is not None:
                self.conflicts += 1
                conflicts_here += 1
                if not self.trail_lim:
                    self.ok = False
                    return Status.UNSAT
                learnt, back, lbd = self.analyze(confl)
                self.cancel_until(back)
                self.record(learnt, lbd)
                self.var_inc /= self.var_decay
                continue
            if conflicts_here >= budget:
                self.cancel_until(0)
                return None
            if not within_budget():
                raise OutOfTime
            if not self.trail_lim and len(self.trail) != self.simp_trail:
                self.simplify()
            if self.conflicts >= self.next_reduce:
                self.next_reduce += self.reduce_interval
                self.reduce_interval += self.settings["reduce_inc"]
                self.reduce_db()
            lit = self.next_assumption() if len(self.trail_lim) < len(self.assumptions) else -1
            if lit == _FAILED:
                return Status.UNSAT
            if lit < 0:
                if self.heap_after_assumptions:
                    self.heap_after_assumptions = False
                    if self.rescore_now:
                        self.rescore_now = False
                        self.rescore()
                    else:
                        self.trim_heap()
                lit = self.pick_branch_lit()
                if lit < 0:
                    return Status.SAT
                self.decisions += 1
            self.trail_lim.append(len(self.trail))
            self.assign(lit, None)

    def expect_new_question(self) -> None:
        """Rank the variables anew at the next call's first free decision, if calls cost enough.

        The activities of one question (one puzzle under its givens) say little
        about the next. :meth:`rescore` ranks the variables on what the next
        call's assumptions leave, as the first call ranks them on the level-0
        facts; it reads every clause, so it is worth its time only when calls
        take many conflicts (the tunable ``rescore_conflicts``). On every 10th
        top2365 puzzle, incremental: the course encoding's conflicts fall from
        17,571 to 10,250 and its instructions by 31 %; the extended encoding
        averages 8 conflicts a puzzle, and rescoring would cost it 13 % more
        instructions though its conflicts fell by a quarter.
        """
        self.rescore_next = self.conflicts_per_call >= self.settings["rescore_conflicts"]

    def rescore(self) -> None:
        """Set the activities to the :meth:`jw_products` of the current assignment, and the heap.

        Scaled to half of one conflict's bump, as :meth:`init_activity` scales
        the first scores: the next conflict's bumps outweigh them. Pre: no
        decision beyond the call's assumptions; propagated.
        """
        scores = self.jw_products()
        top = max(scores)
        scale = 0.5 * self.var_inc / top if top else 0.0
        self.activity = [score * scale for score in scores]
        self.rebuild_heap()

    def trim_heap(self) -> None:
        """Rebuild the heap when most of its entries are assigned variables.

        Called when many variables may have just been fixed: by a call's first
        heuristic decision once its assumptions hold (a puzzle's givens fix
        most variables) and by a level-0 simplification that fixed many; each
        assigned variable's entry would cost a pop.
        """
        free = self.num_vars - len(self.trail)
        if len(self.heap) > 2 * free + 64:
            self.rebuild_heap()

    def next_assumption(self) -> Code:
        """The next assumption to decide, -1 when all hold, or _FAILED (``core`` set).

        Pre: every decision level so far holds one assumption (MiniSat's order:
        assumption k is decided at level k + 1). An assumption already true
        gets an empty level of its own; a false one ends the call.
        """
        assumptions, val, trail_lim = self.assumptions, self.val, self.trail_lim
        while len(trail_lim) < len(assumptions):
            p = assumptions[len(trail_lim)]
            if val[p] == 1:
                trail_lim.append(len(self.trail))
            elif val[p]:
                self.core = self.analyze_final(p)
                return _FAILED
            else:
                return p
        return -1

    def analyze_final(self, p: Code) -> list[Code]:
        """The assumptions that force `p` false (MiniSat's analyzeFinal), `p` included.

        Pre: ``val[p]`` is false; every decision on the trail is an assumption.
        Post: returns the failed subset of the assumptions in their given order;
        ``seen`` is all zero again. Their conjunction with the clauses is
        unsatisfiable, and unit propagation alone shows it.
        """
        core = {p}
        seen, level, reason, trail = self.seen, self.level, self.reason, self.trail
        if level[p >> 1] and self.trail_lim:
            seen[p >> 1] = 1
            for i in range(len(trail) - 1, self.trail_lim[0] - 1, -1):
                x = trail[i] >> 1
                if not seen[x]:
                    continue
                seen[x] = 0
                r = reason[x]
                if r is None:
                    core.add(trail[i])  # a decision: one of the assumptions
                    continue
                for q in reason_literals(r, trail[i]):
                    if level[q >> 1]:
                        seen[q >> 1] = 1
        return [q for q in dict.fromkeys(self.assumptions) if q in core]

    def prepare_first_call(self) -> bool:
        """Propagate the level-0 facts, simplify, and score the variables: the first call's start.

        The first activities score the formula the level-0 facts leave
        (:meth:`init_activity`), so those facts are propagated first; a
        conflict there is the clauses' own (False: UNSAT), as it would be in
        search. The search would simplify first thing anyway; before the
        scores, it shortens what they read. Raises :class:`OutOfTime` between
        the steps (each takes tens of ms on an order-6 Sudoku): every step can
        run again, so a later call starts over where this one stopped.
        """
        self.cancel_until(0)
        if self.propagate() is not None:
            self.conflicts += 1
            self.ok = False
            return False
        if not self.within_budget():
            raise OutOfTime
        self.simplify()
        if not self.within_budget():
            raise OutOfTime
        self.init_heap()
        return True

    def solve(self, assumptions: list[Code] | tuple = ()) -> Status:
        """Restart loop (Luby), under `assumptions` (literal codes, decided first).

        Pre: level 0, loaded. Post: SAT (the trail is a full assignment, to be
        read before :meth:`cancel_until` (0)), UNSAT (``ok`` False when the
        clauses alone are unsatisfiable, else ``core`` is the failed subset of
        the assumptions) or UNKNOWN (:class:`OutOfTime` from
        :meth:`prepare_first_call` or :meth:`search`: the deadline passed; the
        state is consistent, at any level).
        """
        self.core = None
        if not self.ok:
            self.core = []
            return Status.UNSAT
        if not self.started:
            try:
                if not self.prepare_first_call():
                    self.core = []
                    return Status.UNSAT
            except OutOfTime:
                return Status.UNKNOWN
            self.started = True
        elif self.heap_stale:
            self.rebuild_heap()
        self.heap_stale = False
        self.assumptions = list(assumptions)
        # Only the call right after expect_new_question ranks anew, even if it ends
        # before any free decision (an assumption fails, or propagation solves it).
        self.rescore_now, self.rescore_next = self.rescore_next, False
        self.heap_after_assumptions = bool(assumptions) or self.rescore_now
        unit = self.settings["restart_first"]
        conflicts_before = self.conflicts
        restarts = 0
        while True:
            try:
                status = self.search(luby(2, restarts) * unit)
            except OutOfTime:
                return Status.UNKNOWN
            if status is not None:
                if status is Status.UNSAT and not self.ok:
                    self.core = []
                spent = self.conflicts - conflicts_before
                self.conflicts_per_call = 0.75 * self.conflicts_per_call + 0.25 * spent
                return status
            self.restarts += 1
            restarts += 1
            if len(self.heap) > 3 * self.num_vars + 100:
                self.rebuild_heap()  # drop the stale entries lazy re-insertion leaves behind

    # -- answers --------------------------------------------------------------------------

    def model(self) -> list[int]:
        """One signed literal per variable; unassigned (unused) variables read as false.

        The values are only read: the solver may go on (incremental use).
        """
        val = self.val
        return [v if val[2 * v] == 1 else -v for v in range(1, self.num_vars + 1)]

    def counters(self) -> dict[str, float]:
        """The counters since the engine was made."""
        return {
            "decisions": self.decisions,
            "propagations": self.propagations,
            "conflicts": self.conflicts,
            "restarts": self.restarts,
            "learnt": self.learnt_count,
            "deleted": self.deleted,
        }

    def stats(self, cpu_started: float) -> dict[str, float]:
        """The counters as ``Result.stats``."""
        return {**self.counters(), "solver_cpu_s": time.process_time() - cpu_started}

    def proof_text(self, inputs: set | None = None) -> str:
        """The DRAT proof so far as text, ending with the empty clause.

        Deletions of a clause whose literal set is in `inputs` are left out.
        Raises :class:`SolverError` when the engine logs no proof.
        """
        proof = self.proof
        if proof is None:
            raise SolverError("cdcl: this solver was made without proof=True")
        name = self.lit_str.__getitem__
        add = ProofStep.ADD
        lines = [
            kind.value + " ".join(map(name, codes)) + " 0"
            for kind, codes in proof
            if kind is add or inputs is None or frozenset(codes) not in inputs
        ]
        lines.append("0")
        return "\n".join(lines) + "\n"

    # -- invariants (cdclkit's checkers; for tests, never called by the search) ---------

    def invariant_violations(self, propagated: bool = False) -> list[str]:
        """Every broken invariant of the search state, described; empty when all hold.

        Checked: the trail (each assigned variable on it once, both codes'
        values consistent, levels non-decreasing and matching ``trail_lim``, a
        decision opens each non-empty level), the reasons (each is unit under
        the assignment at its trail position: the implied literal first, the
        others false earlier on the trail) and the watches (each stored
        clause of three literals or more is watched by its first two literals,
        once each, and nowhere else; no other clause is watched). With
        `propagated` (no conflict pending, ``qhead == len(trail)``), also: a
        false watch has a true partner assigned no later (MiniSat's watch
        invariant).
        """
        problems = self._trail_violations()
        if not problems:
            problems += self._reason_violations()
        problems += self._watch_violations(propagated and self.ok)
        return problems

    def _trail_violations(self) -> list[str]:
        val, level, trail, trail_lim = self.val, self.level, self.trail, self.trail_lim
        problems = []
        on_trail = [q >> 1 for q in trail]
        if len(set(on_trail)) != len(on_trail):
            problems.append("a variable is on the trail twice")
        assigned = {v for v in range(1, self.num_vars + 1) if val[2 * v]}
        if assigned != set(on_trail):
            problems.append(f"assigned but not on the trail: {sorted(assigned - set(on_trail))}")
        for v in range(1, self.num_vars + 1):
            if val[2 * v] != -val[2 * v + 1]:
                problems.append(f"the two codes of variable {v} disagree")
        if any(val[q] != 1 for q in trail):
            problems.append("a literal on the trail is not true")
        if trail_lim != sorted(trail_lim) or (trail_lim and trail_lim[-1] > len(trail)):
            problems.append(f"trail_lim {trail_lim} is not a non-decreasing list of positions")
        levels = [level[q >> 1] for q in trail]
        if levels != sorted(levels):
            problems.append("levels decrease along the trail")
        for i, q in enumerate(trail):
            if level[q >> 1] != bisect_right(trail_lim, i):
                problems.append(f"trail[{i}] has level {level[q >> 1]}, trail_lim says otherwise")
                break
        for k, start in enumerate(trail_lim):
            end = trail_lim[k + 1] if k + 1 < len(trail_lim) else len(trail)
            if start < end and self.reason[trail[start] >> 1] is not None:
                problems.append(f"level {k + 1} does not open with a decision")
        if not 0 <= self.qhead <= len(trail):
            problems.append(f"qhead {self.qhead} is outside the trail")
        return problems

    def _reason_violations(self) -> list[str]:
        val, reason = self.val, self.reason
        position = {q >> 1: i for i, q in enumerate(self.trail)}
        problems = []
        for i, p in enumerate(self.trail):
            r = reason[p >> 1]
            kind = reason_kind(r)
            if kind is ReasonKind.DECISION:
                continue
            if kind is ReasonKind.CLAUSE and p not in cast(Implication, r):
                problems.append(f"the reason of trail[{i}] does not hold it")
            if isinstance(r, list) and r[0] != p:
                problems.append(f"the stored reason clause of trail[{i}] does not imply it first")
            for q in reason_literals(cast(Code | Implication, r), p):
                if val[q] != -1 or position.get(q >> 1, len(self.trail)) >= i:
                    problems.append(f"the reason of trail[{i}] is not unit at its position")
                    break
        return problems

    def _watch_violations(self, propagated: bool) -> list[str]:
        val, level = self.val, self.level
        problems = []
        stored = self.clauses + self.learnts
        expected: Counter[tuple[Code, int]] = Counter()
        for clause in stored:
            if len(clause) < 3 or len(set(clause)) != len(clause):
                problems.append(f"stored clause {clause} is short or repeats a literal")
                continue
            expected[clause[0], id(clause)] += 1
            expected[clause[1], id(clause)] += 1
        actual = Counter((lit, id(c)) for lit, ws in enumerate(self.watches) for c in ws)
        if actual != expected:
            problems.append(f"watch lists differ from positions 0 and 1: {actual - expected}"
                            f" extra, {expected - actual} missing")
        if propagated and self.qhead == len(self.trail):
            for clause in stored:
                for w, other in ((clause[0], clause[1]), (clause[1], clause[0])):
                    if val[w] == -1 and not (
                        val[other] == 1 and level[other >> 1] <= level[w >> 1]
                    ):
                        problems.append(f"clause {clause} has a false watch and no true one")
        return problems


class _ObservedEngine(Engine):
    """The engine with an observer (see :class:`Solver`): two methods wrapped, nothing else.

    Decisions are reported from :meth:`pick_branch_lit` and learnt clauses
    from :meth:`analyze`, so the search loop itself is the plain engine's.
    """

    def __init__(
        self, num_vars: int, settings: dict, seed: int, proof: bool, observer: Observer
    ) -> None:
        super().__init__(num_vars, settings, seed, proof)
        self.on_decided = getattr(observer, "decided", None)
        self.on_learnt = getattr(observer, "learnt", None)

    def pick_branch_lit(self) -> Code:
        lit = super().pick_branch_lit()
        if lit >= 0 and self.on_decided is not None:
            self.on_decided(to_dimacs(lit), len(self.trail_lim) + 1, len(self.trail))
        return lit

    def analyze(self, confl: Implication) -> tuple[Clause, int, int]:
        learnt, back, lbd = super().analyze(confl)
        if self.on_learnt is not None:
            self.on_learnt(to_dimacs_list(learnt), back, len(self.trail_lim))
        return learnt, back, lbd


class Solver:
    """Our CDCL solver as an object that stays loaded: MiniSat's and PySAT's shape.

    Clauses are added once; each :meth:`solve` may assume literals for that
    call only. Learnt clauses, VSIDS activities, saved phases and level-0
    facts carry over from call to call (every learnt clause follows from the
    clauses alone, never from assumptions, so it stays valid).

    Parameters
    ----------
    cnf : CNF, optional
        Clauses to start with (more with :meth:`add_clause`, :meth:`append_formula`).
    seed : int
        Seeds the solver's only random source (0: fully deterministic).
    proof : bool
        Log a DRAT proof; an UNSAT :class:`Result` then carries it (see :meth:`solve`).
    observer : object, optional
        Told of the search as it runs (for tracing and teaching; see
        :class:`Observer`): ``observer.decided(literal, level, trail_size)``
        at each decision of the branching heuristic (assumptions are not
        reported) and ``observer.learnt(clause, backjump_level, level)`` at
        each learnt clause, literals as signed DIMACS integers. Either method
        may be left out. None (the default) costs nothing: the plain engine
        runs.
    **tunables
        Any name of :data:`TUNABLES`.

    Raises
    ------
    SolverError
        An unknown or out-of-range tunable.

    Examples
    --------
    >>> class Count:
    ...     decisions = 0
    ...     def decided(self, literal, level, trail_size):
    ...         self.decisions += 1
    >>> counter = Count()
    >>> Solver(CNF([[1, 2], [-1, 2]]), observer=counter).solve().status, counter.decisions
    (<Status.SAT: 'SAT'>, 1)
    >>> with Solver(CNF([[1, 2], [-1, 3]])) as s:
    ...     s.solve([-3]).status, s.get_model()
    ...     s.solve([1, -3]).status, s.get_core()
    ...     s.add_clause([-2])
    ...     s.solve([-3]).status, s.get_core()
    (<Status.SAT: 'SAT'>, [-1, 2, -3])
    (<Status.UNSAT: 'UNSAT'>, [1, -3])
    (<Status.UNSAT: 'UNSAT'>, [-3])
    """

    def __init__(
        self,
        cnf: CNF | None = None,
        *,
        seed: int = 0,
        proof: bool = False,
        observer: Observer | None = None,
        **tunables: float,
    ) -> None:
        self.settings = settings_from("cdcl", TUNABLES, tunables)
        # The observer is served by a subclass chosen here, once, so that the
        # search without one runs exactly the plain engine's code.
        self._engine: Engine | None = (
            Engine(0, self.settings, seed, proof) if observer is None
            else _ObservedEngine(0, self.settings, seed, proof, observer)
        )
        self._formula = CNF()  # every clause added, for the model check and the proof filter
        self._model: list[int] | None = None
        self._core: list[int] | None = None
        self._checker: _ModelChecker | None = None
        self._checks = 0
        if cnf is not None:
            self.append_formula(cnf)

    def __enter__(self) -> Solver:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.delete()

    def delete(self) -> None:
        """Free the solver's tables (PySAT's name); the object is unusable afterwards."""
        self._engine = None

    def _live_engine(self) -> Engine:
        """The engine; raises :class:`SolverError` once :meth:`delete` freed it."""
        engine = self._engine
        if engine is None:
            raise SolverError("cdcl: this solver was deleted")
        return engine

    # -- clauses ------------------------------------------------------------------

    @property
    def num_vars(self) -> int:
        """The highest variable seen in a clause or an assumption."""
        return self._live_engine().num_vars

    @property
    def num_clauses(self) -> int:
        """Input clauses added so far (learnt clauses not counted)."""
        return self._formula.num_clauses

    def add_clause(self, clause: list[int] | tuple[int, ...]) -> None:
        """Add one clause of signed DIMACS literals (it holds for every later call)."""
        self.append_formula(CNF([list(clause)]))

    def append_formula(self, formula: CNF | list) -> None:
        """Add every clause of `formula` (a :class:`CNF` or a list of clauses).

        Raises
        ------
        ValueError
            A clause holds the literal 0.
        """
        cnf = formula if isinstance(formula, CNF) else CNF(formula)
        with collector_paused():
            self._append(cnf)

    def _append(self, cnf: CNF, adopt: bool = False) -> None:
        """Add `cnf`'s clauses; with `adopt`, keep `cnf` itself as the formula (no copy).

        Adopting is for a solver that lives for one call on a formula nobody
        changes meanwhile, and asks no assumption beyond its variables
        (:func:`solve`): copying an order-7 Sudoku's formula takes 60 to 280 ms.
        """
        engine = self._live_engine()
        engine.cancel_until(0)  # clauses are added at level 0 (assumption levels may remain)
        engine.grow(cnf.num_vars)
        # Only a one-shot call loads under a deadline (solve): growing the tables for an
        # order-7 Sudoku takes 0.1 s.
        if not engine.within_budget():
            raise OutOfTime
        if not self._formula.num_clauses:
            self._formula = cnf if adopt else cnf.copy()
        else:
            self._formula.extend(cnf)
        if self._checker is not None:
            self._checker.extend(cnf)
        if self._formula.num_vars != engine.num_vars:
            self._formula.num_vars = engine.num_vars
        if not engine.trail and not engine.trail_lim:
            engine.load(cnf.flat)  # nothing decided yet: the bulk loader applies
            return
        for clause in cnf:
            engine.add_codes(to_codes(clause))

    def forget_learnts(self, keep_lbd: int = 0) -> int:
        """Delete the learnt clauses (of three literals or more) whose LBD exceeds `keep_lbd`.

        Between unrelated questions on the same clauses (the next puzzle on the
        same rules) the learnt clauses of the last one are valid but mostly
        useless, and each costs watch visits: on hard 9×9 puzzles, keeping them
        all made the search about 1.7 times slower. Returns how many went.
        """
        engine = self._live_engine()
        engine.cancel_until(0)
        dead = set()
        keep: list[Clause] = []
        keep_lbd_list: list[int] = []
        for clause, lbd in zip(engine.learnts, engine.lbd, strict=True):
            if lbd > keep_lbd:
                dead.add(id(clause))
                engine.delete_clause(clause)
            else:
                keep.append(clause)
                keep_lbd_list.append(lbd)
        engine.unwatch(dead, engine.learnts)
        engine.learnts, engine.lbd = keep, keep_lbd_list
        return len(dead)

    def next_question(self, keep_lbd: int = 0) -> int:
        """Get ready for an unrelated question on the same clauses (the next puzzle on the rules).

        Drops the long learnt clauses (:meth:`forget_learnts`) and, when the
        calls so far took many conflicts (tunable ``rescore_conflicts``), has
        the next call rank the variables anew on what its assumptions leave
        (see :meth:`Engine.expect_new_question`). Answers stay the same; only
        the search's order changes. Returns how many learnt clauses went.
        """
        dropped = self.forget_learnts(keep_lbd)
        self._live_engine().expect_new_question()
        return dropped

    # -- solving -------------------------------------------------------------------

    def solve(self, assumptions=(), time_limit_ms: float | None = None) -> Result:
        """Decide the clauses with the `assumptions` (signed literals) holding for this call.

        Returns
        -------
        Result
            SAT with a model that satisfies every clause and every assumption
            (checked unless ``check_model=0``); UNSAT, where :meth:`get_core`
            names the assumptions that failed (empty: the clauses alone are
            unsatisfiable); UNKNOWN when `time_limit_ms` ran out. Stats count
            this call only. With ``proof=True``, an UNSAT result's ``proof`` is
            a DRAT proof of the clauses added so far plus the core as unit
            clauses (check it with :func:`certify` on :meth:`proof_formula`).
        """
        cpu_started = time.process_time()
        return self._solve(assumptions, Deadline(time_limit_ms), cpu_started)

    def _solve(self, assumptions, deadline: Deadline, cpu_started: float) -> Result:
        """:meth:`solve` under `deadline`, the CPU clock read by the caller
        (``solver_cpu_s`` counts from it)."""
        started = time.perf_counter()
        engine = self._live_engine()
        assumptions = list(assumptions)
        for lit in assumptions:
            if not isinstance(lit, int) or lit == 0:
                raise SolverError(f"cdcl: an assumption must be a non-zero integer, got {lit!r}")
            engine.grow(abs(lit))
        # An adopted formula stays as it is: its one call has no assumptions (see _append).
        if self._formula.num_vars != engine.num_vars:
            self._formula.num_vars = engine.num_vars
        codes = to_codes(assumptions)
        before = engine.counters()
        engine.deadline = deadline
        try:
            with collector_paused():
                engine.cancel_until(_shared_prefix(engine.assumptions, codes))
                status = engine.solve(codes)
                model = engine.model() if status is Status.SAT else None
                # Keep the assumption levels: the next call re-decides only from the
                # first assumption that differs (levels 1..k hold assumptions 1..k).
                keep = len(codes) if status is not Status.UNKNOWN else 0
                engine.cancel_until(min(keep, len(engine.trail_lim)))
        finally:
            engine.deadline = _NO_DEADLINE
        stats: dict[str, float] = {k: v - before[k] for k, v in engine.counters().items()}
        stats["solver_cpu_s"] = time.process_time() - cpu_started
        # A complete solver answers UNKNOWN only when it runs out of time.
        result = Result(status, model, stats, 0.0, "cdcl", out_of_time=status is Status.UNKNOWN)
        self._model = model
        self._core = None
        if status is Status.UNSAT:
            self._core = to_dimacs_list(engine.core or [])
            if engine.proof is not None:
                result.proof = self.proof_text()
        if model is not None and self.settings["check_model"]:
            self._check(result, model, assumptions)
        result.elapsed_ms = (time.perf_counter() - started) * 1000.0
        return result

    def _check(self, result: Result, model: list[int], assumptions: list[int]) -> None:
        """Fail loudly unless the model satisfies every input clause and every assumption.

        The first check scans the flat formula in C (:func:`verify_result`);
        from the second on, an index of the formula built once makes each check
        read only the clauses a true literal could break (see :class:`_ModelChecker`).
        `model` is ``result.model``.
        """
        if self._checker is None and self._checks < 1:
            verify_result(self._formula, result, "cdcl")
        else:
            if self._checker is None:
                self._checker = _ModelChecker(self._formula)
            broken = self._checker.first_broken(model)
            if broken is not None:
                raise SolverError(f"cdcl returned a wrong model: it falsifies {broken}")
            result.model_checked = True
        self._checks += 1
        unmet = [q for q in assumptions if model[abs(q) - 1] != q]
        if unmet:
            raise SolverError(f"cdcl returned a model that breaks the assumption {unmet[0]}")

    def get_model(self) -> list[int] | None:
        """The last SAT answer's model (one signed literal per variable), else None."""
        return self._model

    def get_core(self) -> list[int] | None:
        """After UNSAT: the assumptions (signed, in the given order) that failed; else None.

        Their conjunction with the clauses is unsatisfiable. It is not always
        the smallest such set (MiniSat's final conflict analysis, no minimisation).
        """
        return self._core

    # -- proofs ----------------------------------------------------------------------

    def proof_formula(self) -> CNF:
        """What the last UNSAT proof refutes: the clauses added so far plus the core as units."""
        cnf = self._formula.copy()
        for lit in self._core or []:
            cnf.add_clause([lit])
        return cnf

    def proof_text(self) -> str:
        """The DRAT proof logged so far, ending with the empty clause (``proof=True`` only).

        A learnt clause equal to an input clause is never shown deleted:
        checkers such as dratify delete every copy, and the input clause may
        have been added after the learnt one was deleted.
        """
        engine = self._live_engine()
        if engine.proof is None:
            raise SolverError("cdcl: this solver was made without proof=True")
        inputs = None
        if any(kind is ProofStep.DELETE for kind, _ in engine.proof):
            inputs = {frozenset(to_codes(clause)) for clause in self._formula}
        return engine.proof_text(inputs)

    def stats(self) -> dict[str, float]:
        """The solver's counters since it was made (every call together)."""
        return self._live_engine().stats(time.process_time())


class _ModelChecker:
    """Checks many models against one formula, reading far less than all of it each time.

    Built from the input clauses alone (never from the solver's tables), so it
    checks the solver independently. A binary clause {a, b} can only be broken
    when ¬a or ¬b is true: ``implied[¬a]`` holds b, and a check visits the
    lists of the model's true literals only (a Sudoku model makes few cell
    variables true, and those carry the binary clauses). Longer clauses are
    checked whole, each by one set operation in C.
    """

    def __init__(self, cnf: CNF) -> None:
        self.num_vars = 0
        self.implied: dict[int, list[int]] = {}
        self.others: list[frozenset[int]] = []
        self.extend(cnf)

    def extend(self, cnf: CNF) -> None:
        """Index more clauses."""
        implied = self.implied
        for clause in cnf:
            if len(clause) == 2:
                a, b = clause
                implied.setdefault(-a, []).append(b)
                implied.setdefault(-b, []).append(a)
            else:
                self.others.append(frozenset(clause))
        self.num_vars = max(self.num_vars, cnf.num_vars)

    def first_broken(self, model: list[int]) -> str | None:
        """None when `model` (one literal per variable, in order) satisfies every clause."""
        if list(map(abs, model)) != list(range(1, len(model) + 1)) or len(model) < self.num_vars:
            return "the rule that every variable gets exactly one value"
        true = set(model)
        implied = self.implied
        superset = true.issuperset  # one C call per true literal's list
        for p in true.intersection(implied):  # the true literals that imply anything, in C
            others = implied[p]
            if not superset(others):
                q = next(q for q in others if q not in true)
                return f"clause [{-p}, {q}]"
        for clause in self.others:
            if true.isdisjoint(clause):
                return f"clause {sorted(clause, key=abs)}"
        return None


def _shared_prefix(old: list[Code], new: list[Code]) -> int:
    """How many assumptions the two lists share from the start."""
    k = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        k += 1
    return k


def solve(
    cnf: CNF,
    *,
    time_limit_ms: float | None = None,
    seed: int = 0,
    proof: bool = False,
    **tunables: float,
) -> Result:
    """Decide `cnf` with our CDCL solver (one :class:`Solver`, one call).

    Parameters
    ----------
    cnf : CNF
        Any formula; unused variables get the value false.
    time_limit_ms : float, optional
        Wall-clock bound for the call (loading included); on expiry the result is UNKNOWN.
    seed : int
        Seeds the solver's only random source (0: no jitter, fully deterministic).
    proof : bool
        For an UNSAT answer, fill ``Result.proof`` with a DRAT proof (text).
    **tunables
        Any name of :data:`TUNABLES`.

    Returns
    -------
    Result
        ``solver="cdcl"``; stats: decisions, propagations, conflicts, restarts,
        learnt, deleted, solver_cpu_s.

    Raises
    ------
    SolverError
        An unknown or out-of-range tunable, or (a bug) a model that fails the check.

    Examples
    --------
    >>> solve(CNF([[1, -2], [2]])).status
    <Status.SAT: 'SAT'>
    """
    started = time.perf_counter()
    cpu_started = time.process_time()
    # The collector stays paused until the solver is gone: re-enabled earlier, its
    # next pass would scan every clause list just loaded (tens of ms on 16x16).
    with collector_paused():
        result = _one_shot(cnf, time_limit_ms, seed, proof, tunables, cpu_started)
    result.elapsed_ms = (time.perf_counter() - started) * 1000.0
    return result


def _one_shot(
    cnf: CNF, time_limit_ms: float | None, seed: int, proof: bool, tunables: dict,
    cpu_started: float,
) -> Result:
    """The body of :func:`solve`: one Solver, loaded under the deadline, one call.

    Loading and searching are timed apart, as for PySAT: the report compares
    them separately (``load_ms``, ``search_ms``).
    """
    solver = Solver(seed=seed, proof=proof, **tunables)
    engine = solver._live_engine()
    # The solver's tables are freed before the answer returns: the engine stops early
    # enough for that to fit in T too (a formula of a million literals: 4 ms sooner).
    deadline = Deadline(time_limit_ms).sooner(_FREE_S_PER_ENTRY * len(cnf.flat))
    engine.deadline = deadline  # the loader reads it too
    began = time.perf_counter()
    try:
        solver._append(cnf, adopt=True)  # the solver lives for this call only
    except OutOfTime:
        stats = engine.stats(cpu_started)
        result = Result(Status.UNKNOWN, None, stats, 0.0, "cdcl", out_of_time=True)
        result.stats.update(load_ms=(time.perf_counter() - began) * 1000.0, search_ms=0.0)
        return result
    loaded = time.perf_counter()
    result = solver._solve((), deadline, cpu_started)  # solver_cpu_s includes loading
    result.stats.update(
        load_ms=(loaded - began) * 1000.0, search_ms=(time.perf_counter() - loaded) * 1000.0
    )
    return result


def certify(cnf: CNF, proof_text: str) -> tuple[bool, str]:
    """Check a DRAT proof of unsatisfiability with the independent ``dratify`` checker.

    Parameters
    ----------
    cnf : CNF
        The formula the proof refutes.
    proof_text : str
        DRAT text (``cdcl`` writes it with ``proof=True``).

    Returns
    -------
    (bool, str)
        ``(True, "verified")``, or False and the failing step (number and
        clause) or why the proof is unusable.

    Examples
    --------
    >>> certify(CNF([[1], [-1]]), "0\\n")
    (True, 'verified')
    """
    from dratify import check_proof, parse_dimacs

    formula = parse_dimacs(cnf.to_dimacs())
    try:
        outcome = check_proof(formula, proof_text, engine="python")
    except ValueError as exc:
        return False, f"malformed proof: {exc}"
    if outcome.ok:
        return True, "verified"
    detail = outcome.reason
    if outcome.failed_clause is not None:
        from dratify import to_dimacs

        body = " ".join([*(str(to_dimacs(q)) for q in outcome.failed_clause), "0"])
        detail = f"step {outcome.failed_step} fails: {body} ({outcome.reason})"
    return False, detail
