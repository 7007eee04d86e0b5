"""DP and DPLL: systematic search with unit propagation, pure literals and backtracking.

Two solvers share one engine:

* ``dp`` (:func:`solve_dp`), the basic procedure of the course's ``SAT -S1``:
  unit propagation, the pure-literal rule, chronological backtracking, and
  branching on the first unassigned variable (lowest number first), True first.
* ``dpll`` (:func:`solve_dpll`), the same search with a branching heuristic
  chosen by name from :data:`HEURISTICS` (``SAT -S2``/``-S3``).

Both are iterative (an explicit trail, no recursion), so a search thousands of
levels deep never meets Python's recursion limit. Neither learns clauses: that
is what the ``cdcl`` solver adds.

Data structures
---------------
Literals follow MiniSat: variable ``v`` has codes ``2v`` (positive) and
``2v+1`` (negative), so the negation is ``lit ^ 1`` and every per-literal table
is a flat list indexed by the code. The engine keeps

* ``lits[c]``: clause ``c`` as a list of codes, without duplicate literals
  (tautologies are dropped when the formula is loaded: they are always true);
* ``occ[lit]``: the clauses in which ``lit`` occurs;
* ``value[lit]``: 1 true, -1 false, 0 unassigned (both codes of a variable are
  written together, so a lookup is one index);
* per clause two counters, ``nsat[c]`` (true literals) and ``nfalse[c]``
  (false literals); ``c`` is *active* while ``nsat[c] == 0`` and its current
  size is ``len(c) - nfalse[c]``;
* per literal ``active[lit]``, the number of active clauses containing it (the
  pure-literal rule fires when it reaches 0; DLIS/DLCS read it), and, when the
  heuristic is Jeroslow-Wang, ``jw[lit]``, the sum of ``2**-size`` over the
  active clauses containing it;
* the ``trail`` of assigned literals in order, ``trail_lim`` (where each
  decision level starts) and ``flipped`` (whether a level's decision already
  had its second branch). The trail doubles as the propagation queue:
  ``qhead`` separates the literals whose consequences were applied to the
  counters from those only assigned.

Costs
-----
Applying one literal ``l`` costs O(|occ(l)| + |occ(~l)|) counter updates, plus
O(|c|) for every clause ``c`` that it satisfies (the ``active`` counts of
``c``'s literals drop) or, under Jeroslow-Wang, shortens (the weights of
``c``'s literals change). A clause reduced to one unassigned literal is
scanned once, O(|c|), to find it. Backtracking replays exactly the same
updates in reverse, so undoing costs what doing cost: no copies of the formula
are ever made. A decision scans the variables once, O(V). Memory is
O(V + total literal occurrences).

The clock is read every 256 applied literals (and at every decision), so a
time limit is honoured even in the middle of a long propagation. The search
stops that much before its deadline as freeing the loaded lists will take,
priced from how long loading them took in the same call
(:func:`~sudosat.sat.solvers.budget.load_reserve`). Work budgets
(``max_conflicts``, counted as backtracks, and ``max_propagations``, literals
applied) stop the same search at the same point on every machine.

What they can do
----------------
Measured on the course encoding (729 variables, about 11,800 clauses) of the
first 100 puzzles of ``top2365.sdk.txt``, CPU time of the call on a shared
2-core machine: ``dpll`` (``moms``) median 63 ms, 90th percentile 160 ms,
worst 0.5 s; ``dp`` median 90 ms, 90th percentile 390 ms, worst 3.3 s (two
puzzles above 1 s: first-variable branching cannot avoid thousands of
decisions on them). About 25 ms of each call is loading the formula. The other
heuristics (``jw``, ``jw1``, ``dlis``, ``dlcs``) decide random 3-CNF as fast as
``moms`` but are poor on Sudoku: the at-most-one binary clauses make the
negative literals heaviest, so they branch on "this cell is not 5", which
removes one candidate per decision; on hard puzzles they run for many seconds
(they still solve the course's example). Without clause learning, DPLL is
exponential on pigeonhole formulas: 10 pigeons in 9 holes is out of reach.

Examples
--------
>>> from sudosat.sat.cnf import CNF
>>> solve_dp(CNF([[1, 2], [-1, 2], [-2, 3]])).model
[-1, 2, 3]
>>> solve_dpll(CNF([[1], [-1]])).status
<Status.UNSAT: 'UNSAT'>
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.base import Laps, make_result
from sudosat.sat.solvers.budget import (
    Deadline,
    OutOfTime,
    Tunable,
    budget_keywords,
    collector_paused,
    declare,
    load_reserve,
)
from sudosat.sat.solvers.codes import signed_model, to_codes, to_dimacs_list

#: Branching heuristics of :func:`solve_dpll`, the default first. With
#: ``J(l)``, the Jeroslow-Wang weight of literal ``l`` (the sum of ``2**-size``
#: over the active clauses holding it):
#: ``moms``: MOMS in Freeman's (POSIT) form, ``J(x)*J(~x)*1024 + J(x) + J(~x)``,
#: with JW weights standing in for counts in the shortest clauses, so it prefers
#: variables that are constrained in both polarities; the heavier polarity first.
#: ``jw``: two-sided Jeroslow-Wang (the variable with the largest
#: ``J(x) + J(~x)``, the heavier polarity first). ``jw1``: one-sided
#: Jeroslow-Wang (the literal with the largest ``J(l)``). ``dlis``: the literal
#: occurring in the most active clauses. ``dlcs``: the variable with the most
#: active occurrences of both polarities together, the more frequent first.
HEURISTICS: tuple[str, ...] = ("moms", "jw", "jw1", "dlis", "dlcs")

#: Numeric tunables (the budget module's declaration style): none. The one
#: choice, ``heuristic``, is a name from :data:`HEURISTICS`; ``seed`` only
#: breaks ties.
TUNABLES: dict[str, Tunable] = declare()

_CHECK_EVERY = 255  # read the clock when (applied literals & _CHECK_EVERY) == 0
_CHECK_CLAUSES = 4095  # and after every 4,096 clauses read while loading
_NO_LIMIT = 1 << 62  # a work budget that never runs out


def _past(began: float, deadline: Deadline) -> bool:
    """Whether loading that began at `began` must stop: freeing it would no longer fit in time."""
    now = deadline.now()
    return now + load_reserve(now - began) >= deadline.at


class _OutOfWork(Exception):  # noqa: N818 - a signal inside the engine, never raised out of it
    """A work budget ran out; the engine's ``stopped`` names which (CONFLICTS or PROPAGATIONS)."""


class _Engine:
    """The DPLL state over one formula (see the module docstring for the fields)."""

    def __init__(
        self,
        cnf: CNF,
        heuristic: str | None,
        deadline: Deadline,
        seed: int,
        max_conflicts: int | None = None,
        max_propagations: int | None = None,
    ) -> None:
        began = deadline.now()
        n = cnf.num_vars
        self.num_vars = n
        self.heuristic = heuristic
        self.track_jw = heuristic in ("moms", "jw", "jw1")
        # The one time to stop by: the caller's deadline while loading, then that deadline
        # less a reserve for freeing what was loaded (see the end of __init__).
        self.deadline = deadline
        self.max_conflicts = _NO_LIMIT if max_conflicts is None else max_conflicts
        self.max_propagations = _NO_LIMIT if max_propagations is None else max_propagations
        self.stopped = Stop.ANSWERED  # why the search stopped: set where it stops
        self.value = [0] * (2 * n + 2)
        self.occ: list[list[int]] = [[] for _ in range(2 * n + 2)]
        self.lits: list[list[int]] = []
        self.units: list[int] = []  # the literal of each unit clause, in order
        self.trail: list[int] = []
        self.trail_lim: list[int] = []
        self.flipped: list[bool] = []
        self.qhead = 0
        self.decisions = self.propagations = self.conflicts = self.pure = 0
        self.order = list(range(1, n + 1))
        if seed and heuristic is not None:
            random.Random(seed).shuffle(self.order)  # ties fall differently per seed
        self._load(cnf, began)
        self.nsat = [0] * len(self.lits)
        self.nfalse = [0] * len(self.lits)
        self.num_active = len(self.lits)
        self.active = [len(o) for o in self.occ]
        # JW weights by current clause size; floats of the form 2**-k add exactly.
        longest = max((len(c) for c in self.lits), default=0)
        self.weight = [2.0**-size for size in range(longest + 2)]
        self.jw = [0.0] * (2 * n + 2)
        if self.track_jw:
            jw, weight, lits = self.jw, self.weight, self.lits
            for begin in range(0, len(lits), _CHECK_CLAUSES + 1):  # the clock between blocks
                if _past(began, deadline):
                    raise OutOfTime
                for clause in lits[begin : begin + _CHECK_CLAUSES + 1]:
                    w = weight[len(clause)]
                    for lit in clause:
                        jw[lit] += w
        # Freeing the lists loaded here is paid before a timed-out answer returns: keep a
        # reserve for it, priced from what loading them took in this very call.
        self.deadline = deadline.sooner(load_reserve(deadline.now() - began))

    def _load(self, cnf: CNF, began: float) -> None:
        """Fill ``lits``, ``occ`` and ``units``; drop tautologies and repeated literals.

        Raises :class:`OutOfTime` when freeing what is loaded (priced from the
        time loading has taken since `began`) would no longer fit before the deadline.
        """
        deadline = self.deadline
        lits, occ, units = self.lits, self.occ, self.units
        for number, clause in enumerate(cnf):
            codes = to_codes(clause)
            if len({code >> 1 for code in codes}) < len(codes):  # a variable repeats
                codes = list(dict.fromkeys(codes))
                if any(code ^ 1 in codes for code in codes):
                    continue  # a tautology is always true
            index = len(lits)
            lits.append(codes)
            for code in codes:
                occ[code].append(index)
            if len(codes) == 1:
                units.append(codes[0])
            if number & _CHECK_CLAUSES == _CHECK_CLAUSES and _past(began, deadline):
                raise OutOfTime

    # -- assignment -----------------------------------------------------------------

    def enqueue(self, lit: int) -> bool:
        """Make `lit` true (effects applied later by propagate); False if it is already false."""
        value = self.value[lit]
        if value:
            return value == 1
        self.value[lit] = 1
        self.value[lit ^ 1] = -1
        self.trail.append(lit)
        return True

    def start(self) -> bool:
        """Queue the unit clauses and the initially pure literals; False on a contradiction."""
        for lit in self.units:
            if not self.enqueue(lit):
                return False
        active = self.active
        for v in range(1, self.num_vars + 1):
            pos, neg = active[2 * v], active[2 * v + 1]
            if (pos == 0) != (neg == 0):
                self.pure += 1
                self.enqueue(2 * v if pos else 2 * v + 1)
        return True

    def propagate(self) -> bool:
        """Apply every queued literal; return False on a conflict.

        Post-condition without a conflict: ``qhead == len(trail)``, the counters
        describe the whole trail, no active clause is unit or empty, and every
        unassigned variable occurring in an active clause occurs there in both
        polarities. After a conflict the literal being applied is applied
        completely (so backtracking can undo it) and ``qhead`` stands after it.
        """
        trail, value, occ, lits = self.trail, self.value, self.occ, self.lits
        nsat, nfalse, active, jw, weight = self.nsat, self.nfalse, self.active, self.jw, self.weight
        track_jw = self.track_jw
        at, max_propagations = self.deadline.at, self.max_propagations
        now = self.deadline.now
        ok = True
        while ok and self.qhead < len(trail):
            if self.propagations >= max_propagations:
                self.stopped = Stop.PROPAGATIONS
                raise _OutOfWork
            lit = trail[self.qhead]
            self.qhead += 1
            self.propagations += 1
            if self.propagations & _CHECK_EVERY == 0 and now() >= at:
                self.stopped = Stop.TIME
                raise OutOfTime
            # Clauses containing lit become satisfied: leave the active set.
            for c in occ[lit]:
                s = nsat[c]
                nsat[c] = s + 1
                if s:
                    continue
                self.num_active -= 1
                clause = lits[c]
                w = weight[len(clause) - nfalse[c]] if track_jw else 0.0
                for m in clause:
                    if track_jw:
                        jw[m] -= w
                    a = active[m] - 1
                    active[m] = a
                    if a == 0 and value[m] == 0 and active[m ^ 1]:
                        # m vanished from the active clauses: its negation is pure.
                        self.pure += 1
                        value[m ^ 1] = 1
                        value[m] = -1
                        trail.append(m ^ 1)
            # Clauses containing ~lit shrink; a unit one forces its last literal.
            for c in occ[lit ^ 1]:
                f = nfalse[c] + 1
                nfalse[c] = f
                if nsat[c]:
                    continue
                clause = lits[c]
                size = len(clause) - f
                if track_jw:
                    delta = weight[size] - weight[size + 1]
                    for m in clause:
                        jw[m] += delta
                if size > 1:
                    continue
                # Counters lag the assignment, so at most one literal is not false.
                for m in clause:
                    v = value[m]
                    if v == 1:
                        break
                    if v == 0:
                        value[m] = 1
                        value[m ^ 1] = -1
                        trail.append(m)
                        break
                else:
                    ok = False
        return ok

    def undo(self, start: int) -> None:
        """Unassign the trail from index `start` on, replaying applied literals in reverse."""
        trail, value, occ, lits = self.trail, self.value, self.occ, self.lits
        nsat, nfalse, active, jw, weight = self.nsat, self.nfalse, self.active, self.jw, self.weight
        track_jw = self.track_jw
        for index in range(len(trail) - 1, start - 1, -1):
            lit = trail[index]
            if index < self.qhead:
                for c in occ[lit ^ 1]:
                    f = nfalse[c]
                    nfalse[c] = f - 1
                    if track_jw and not nsat[c]:
                        size = len(lits[c]) - f
                        delta = weight[size + 1] - weight[size]
                        for m in lits[c]:
                            jw[m] += delta
                for c in occ[lit]:
                    s = nsat[c] - 1
                    nsat[c] = s
                    if s:
                        continue
                    self.num_active += 1
                    clause = lits[c]
                    if track_jw:
                        w = weight[len(clause) - nfalse[c]]
                        for m in clause:
                            active[m] += 1
                            jw[m] += w
                    else:
                        for m in clause:
                            active[m] += 1
            value[lit] = 0
            value[lit ^ 1] = 0
        del trail[start:]
        self.qhead = min(self.qhead, start)

    # -- search ---------------------------------------------------------------------

    def backtrack(self) -> bool:
        """After a conflict, take the second branch of the deepest open decision.

        Returns False when every decision has had both branches (UNSAT).
        """
        while self.flipped and self.flipped[-1]:
            self.undo(self.trail_lim.pop())
            self.flipped.pop()
        if not self.trail_lim:
            return False
        start = self.trail_lim[-1]
        decision = self.trail[start]
        self.undo(start)
        self.flipped[-1] = True
        self.enqueue(decision ^ 1)
        return True

    def decide(self, lit: int) -> None:
        """Open a new decision level with `lit` true."""
        self.decisions += 1
        self.trail_lim.append(len(self.trail))
        self.flipped.append(False)
        self.enqueue(lit)

    def search(self) -> Status:
        """Run to SAT or UNSAT.

        Raises :class:`OutOfTime` at ``deadline`` (before the caller's, by the
        freeing reserve) and :class:`_OutOfWork` when a work budget runs out:
        conflicts (each one a backtrack) or propagations (literals applied).
        """
        if not self.start():
            return Status.UNSAT
        pick = _PICKERS[self.heuristic]
        while True:
            while not self.propagate():
                self.conflicts += 1
                if not self.backtrack():
                    return Status.UNSAT
                if self.conflicts >= self.max_conflicts:
                    self.stopped = Stop.CONFLICTS
                    raise _OutOfWork
            if self.num_active == 0:
                return Status.SAT
            if self.deadline.expired():
                self.stopped = Stop.TIME
                raise OutOfTime
            self.decide(pick(self))

    def model(self) -> list[int]:
        """The assignment as signed literals; unassigned (irrelevant) variables are False."""
        return signed_model(self.value, self.num_vars)

    def stats(self) -> dict[str, float]:
        return {
            "decisions": self.decisions,
            "propagations": self.propagations,
            "conflicts": self.conflicts,
            "pure_literals": self.pure,
        }


# -- branching: each picker returns a literal of a free variable that occurs in an
#    active clause (one exists whenever the search calls it: num_active > 0).


def _free_variables(engine: _Engine) -> Iterator[int]:
    """The free variables still occurring in an active clause, in the engine's order.

    The one scan every picker makes; each ranks what it yields in its own way.
    """
    value, active = engine.value, engine.active
    return (v for v in engine.order if value[2 * v] == 0 and (active[2 * v] or active[2 * v + 1]))


def _found(best: int) -> int:
    if not best:
        raise AssertionError("no free variable in an active clause")
    return best


def _heavier(v: int, score: list) -> int:
    """The literal of `v` with the larger score (the positive one on a tie)."""
    return 2 * v if score[2 * v] >= score[2 * v + 1] else 2 * v + 1


def _pick_first(engine: _Engine) -> int:
    """The first free variable still occurring in an active clause, True first.

    ``dp`` never shuffles the engine's order: that is the lowest-numbered one.
    """
    return 2 * _found(next(_free_variables(engine), 0))


def _pick_by_variable(engine: _Engine, score: list) -> int:
    """The free variable maximising score[2v] + score[2v+1], heavier polarity first."""
    best = max(_free_variables(engine), key=lambda v: score[2 * v] + score[2 * v + 1], default=0)
    return _heavier(_found(best), score)


def _pick_balanced(engine: _Engine) -> int:
    """The free variable maximising J(x)*J(~x)*1024 + J(x) + J(~x), heavier polarity first."""
    jw = engine.jw

    def balance(v: int) -> float:
        j_pos, j_neg = jw[2 * v], jw[2 * v + 1]
        return j_pos * j_neg * 1024.0 + j_pos + j_neg

    return _heavier(_found(max(_free_variables(engine), key=balance, default=0)), jw)


def _pick_by_literal(engine: _Engine, score: list) -> int:
    """The literal of a free variable with the largest score (the positive one on a tie)."""
    literals = (lit for v in _free_variables(engine) for lit in (2 * v, 2 * v + 1))
    return _found(max(literals, key=score.__getitem__, default=0))


_PICKERS = {
    None: _pick_first,
    "moms": _pick_balanced,
    "jw": lambda engine: _pick_by_variable(engine, engine.jw),
    "jw1": lambda engine: _pick_by_literal(engine, engine.jw),
    "dlis": lambda engine: _pick_by_literal(engine, engine.active),
    "dlcs": lambda engine: _pick_by_variable(engine, engine.active),
}


@dataclass
class Simplified:
    """A formula after unit propagation and the pure-literal rule at level 0.

    Attributes
    ----------
    refuted : bool
        Unit propagation derived the empty clause: the formula is UNSAT.
    fixed : list of int
        Signed literals the rules made true (units, their consequences, pure literals).
    clauses : list of list of int
        The clauses not yet satisfied, their false literals removed (each keeps
        at least two literals); only unassigned variables occur in them.
    """

    refuted: bool
    fixed: list[int]
    clauses: list[list[int]]


def simplify(cnf: CNF, deadline: Deadline | None = None) -> Simplified | None:
    """Apply unit propagation and the pure-literal rule once, without deciding anything.

    Local search uses it so that it never flips a variable the formula forces.
    Costs what the engine's loading and one propagation cost: linear in the
    size of the formula. Returns None when `deadline` passes first.

    Examples
    --------
    >>> simplify(CNF([[1], [-1, 2, 3], [-2, -3, 4], [-4, 3]])).clauses
    [[2, 3], [-2, -3, 4], [-4, 3]]
    """
    if cnf.has_empty_clause:
        return Simplified(True, [], [])
    try:
        engine = _Engine(cnf, None, deadline or Deadline(None), 0)
        refuted = not (engine.start() and engine.propagate())
    except OutOfTime:
        return None
    if refuted:
        return Simplified(True, [], [])
    value, nsat, stop_at, now = engine.value, engine.nsat, engine.deadline.at, engine.deadline.now
    fixed = to_dimacs_list(engine.trail)
    clauses = []
    for c, clause in enumerate(engine.lits):
        if not nsat[c]:
            clauses.append(to_dimacs_list([m for m in clause if value[m] == 0]))
        if c & _CHECK_CLAUSES == _CHECK_CLAUSES and now() >= stop_at:
            return None
    return Simplified(False, fixed, clauses)


def _search(
    cnf: CNF, heuristic: str | None, deadline: Deadline, seed: int, budgets: dict[str, int],
    stats: dict[str, float],
) -> tuple[Status, list[int] | None, Stop]:
    """(status, model, why it stopped); the engine is freed on return.

    `stats` receives the engine's counters and the times of its two parts:
    building it (``load_*``: reading the formula, the occurrence lists) and the
    search (``search_*``), each on CPU and wall time, in milliseconds.
    """
    if cnf.has_empty_clause:
        return Status.UNSAT, None, Stop.ANSWERED
    clocks = Laps()
    try:
        engine = _Engine(cnf, heuristic, deadline, seed, **budgets)
    except OutOfTime:  # loading is the only place that raises it before the engine exists
        stats.update(clocks.lap("load"), search_cpu_ms=0.0, search_wall_ms=0.0)
        return Status.UNKNOWN, None, Stop.TIME
    stats.update(clocks.lap("load"))
    try:
        status = engine.search()
    except (OutOfTime, _OutOfWork):  # the engine's `stopped` says which, set where it stopped
        status = Status.UNKNOWN
    model = engine.model() if status is Status.SAT else None
    stats.update(engine.stats(), **clocks.lap("search"))
    return status, model, engine.stopped


def _run(
    cnf: CNF,
    heuristic: str | None,
    deadline: Deadline | None,
    seed: int,
    name: str,
    budgets: dict[str, int],
) -> Result:
    """Build the engine, search, and wrap the outcome as a Result."""
    started = time.perf_counter()
    stats: dict[str, float] = {}
    # As cdcl: a collection due meanwhile would scan the engine's lists (and the caller's
    # whole heap) inside the timed call; nothing here makes cycles. The engine is dropped
    # inside the pause, so the first pass after it never scans what is being freed.
    with collector_paused():
        status, model, stop = _search(cnf, heuristic, deadline or Deadline(None), seed, budgets,
                                      stats)
    return make_result(status, model, stats, started, name, stop)


def solve_dp(
    cnf: CNF,
    *,
    deadline: Deadline | None = None,
    seed: int = 0,
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
) -> Result:
    """Decide `cnf` with basic DPLL (the course's ``SAT -S1``).

    Unit propagation, the pure-literal rule, chronological backtracking, and
    branching on the lowest-numbered unassigned variable that still occurs in
    an unsatisfied clause, True first.

    Parameters
    ----------
    cnf : CNF
        Any formula.
    deadline : Deadline, optional
        When the call stops, on the deadline's own clock (wall or CPU); past
        it the result is UNKNOWN, ``stop`` TIME.
    seed : int
        Accepted for the common solver contract; ``dp`` is deterministic.
    max_conflicts : int, optional
        Stop (UNKNOWN) after this many conflicts, each one a backtrack.
    max_propagations : int, optional
        Stop (UNKNOWN) after this many literals applied by propagation.

    Returns
    -------
    Result
        SAT with a model (every variable 1..V; irrelevant ones False), UNSAT,
        or UNKNOWN on time-out or when a budget runs out, ``stop`` saying
        which (TIME, CONFLICTS, PROPAGATIONS). Stats: decisions, propagations
        (literals applied), conflicts, pure_literals, and in milliseconds
        ``load_cpu_ms``, ``load_wall_ms`` (building the engine: the formula's
        lists) and ``search_cpu_ms``, ``search_wall_ms`` (the search).
    """
    del seed  # the branching order is fixed by definition
    budgets = budget_keywords(max_conflicts, max_propagations)
    return _run(cnf, None, deadline, 0, "dp", budgets)


def solve_dpll(
    cnf: CNF,
    *,
    deadline: Deadline | None = None,
    seed: int = 0,
    heuristic: str = "moms",
    max_conflicts: int | None = None,
    max_propagations: int | None = None,
) -> Result:
    """Decide `cnf` with DPLL and a branching heuristic (``SAT -S2``/``-S3``).

    Parameters
    ----------
    cnf : CNF
        Any formula.
    deadline : Deadline, optional
        When the call stops, on the deadline's own clock (wall or CPU); past
        it the result is UNKNOWN, ``stop`` TIME.
    seed : int
        0 scans variables in numeric order (ties go to the lowest variable);
        another seed scans them in a seeded random order, so ties fall
        differently.
    heuristic : str
        One of :data:`HEURISTICS`; ``moms`` by default (the fastest on Sudoku
        encodings, where the others branch on "not this digit" literals).
    max_conflicts, max_propagations : int, optional
        Work budgets, as for :func:`solve_dp`.

    Returns
    -------
    Result
        As :func:`solve_dp`.

    Raises
    ------
    SolverError
        `heuristic` is not one of :data:`HEURISTICS`.

    Examples
    --------
    >>> from sudosat.sat.cnf import CNF
    >>> solve_dpll(CNF([[1, 2], [-1, -2], [1, -2]]), heuristic="dlis").model
    [1, -2]
    """
    if heuristic not in HEURISTICS:
        raise SolverError(
            f"unknown DPLL heuristic {heuristic!r}; choose one of {', '.join(HEURISTICS)}"
        )
    budgets = budget_keywords(max_conflicts, max_propagations)
    return _run(cnf, heuristic, deadline, seed, "dpll", budgets)
