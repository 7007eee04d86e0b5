"""GSAT and WalkSAT: incomplete local search over complete assignments.

Both start from a random assignment and flip one variable at a time, trying to
reach zero falsified clauses within ``max_flips`` flips; after that they
restart from a fresh random assignment, at most ``max_tries`` times. By
default (``max_tries=None``) a call with a time limit restarts until the
limit runs out rather than giving up after a fixed number of tries (so
``sudosat sat --solver gsat -T 30000`` searches for the whole 30 s);
without a time limit the default is 10 tries, so a call always ends. They
answer SAT (with a model) or UNKNOWN; they can never prove a formula
unsatisfiable by searching.

One honest exception, decided here: before searching, the formula goes through
unit propagation and the pure-literal rule once (:func:`sudosat.sat.solvers.dpll.
simplify`). When that derives the empty clause (or the formula holds one), the
answer is UNSAT, because that *is* a refutation. Simplifying also means local
search never flips a variable the formula forces: on a Sudoku with givens it
searches only the open candidates. ``simplify=False`` turns this off (then a
formula with an empty clause is still answered UNSAT, everything else SAT or
UNKNOWN).

Algorithms
----------
* WalkSAT (Selman, Kautz and Cohen's SKC rule): pick a falsified clause at
  random; if flipping one of its variables breaks no clause ("freebie"), flip
  it; otherwise, with probability ``noise`` flip a random variable of the
  clause, else one whose flip breaks the fewest clauses (ties at random).
* GSAT with random walk: with probability ``noise`` flip a random variable of
  a random falsified clause; otherwise flip a variable with the best score
  ``make - break`` over all variables, even if that score is negative (ties at
  random). ``noise=0`` is Selman, Levesque and Mitchell's original GSAT.

Data structures
---------------
Variables left after simplification are renumbered 0..n-1 and literals
coded MiniSat's way (``2i`` true, ``2i+1`` false; negation ``^ 1``).

* ``clauses[c]``: literal codes; ``occ[lit]``: the clauses holding ``lit``;
* ``truth[lit]``: 1 when ``lit`` is true under the current assignment;
* ``numtrue[c]``: how many literals of ``c`` are true;
* ``crit[c]``: the XOR of the codes of the true literals of ``c``; when
  ``numtrue[c] == 1`` it *is* the one true literal, the variable a flip would
  break ``c`` through, found in O(1) without scanning the clause;
* ``breaks[i]``: how many clauses have variable ``i`` as their only true
  literal (flipping ``i`` falsifies exactly these);
* for GSAT, ``score[i] = make[i] - breaks[i]``, where ``make[i]`` counts the
  falsified clauses holding ``i`` (flipping ``i`` satisfies exactly these);
* ``unsat``: the falsified clauses in a list, with ``where[c]`` its position
  (or -1), so adding, removing and drawing one at random are O(1).

Costs
-----
Flipping variable ``i`` touches the clauses of its two literals only:
O(|occ(i)|) counter updates for WalkSAT; GSAT adds O(|c|) for each clause the
flip satisfies or falsifies (their variables' ``make`` change). Choosing a
WalkSAT flip costs O(|c|) for the chosen clause; choosing a GSAT flip costs
O(n) (``max`` and ``count`` over the score list, run in C). A restart
recomputes every counter: O(total literal occurrences). Memory is
O(n + total literal occurrences).

The clock is read every 256 flips and during restarts, so a time limit is
honoured within a few milliseconds.

What they can do
----------------
On random 3-CNF with 20..60 variables below the threshold both find a model
of almost every satisfiable formula within a few thousand flips. On Sudoku
(course encoding, first 20 puzzles of ``top2365.sdk.txt``; simplification
leaves about 150..250 open candidates): WalkSAT with its defaults solved 20
of 20, median 1.5 s CPU, worst 4 s (10^4..10^6 flips; about 150,000 flips a
CPU second); GSAT with its defaults solved 14 of 20 (many restarts of 20,000
flips worked better than a few long tries; noise 0.3 solved none). The
complete solvers (``cdcl``, ``dpll``) are one to two orders of magnitude
faster on Sudoku; local search is here for the course's GSAT/WalkSAT
assignment and for comparison. On the 35 hard puzzles of ``damnhard.sdk.txt``,
``sudosat sat --solver walksat -T 30000`` (defaults, restarting until T)
solved 16, median 11.5 s wall / 4.4 s CPU for those, on a machine so shared
that 30 s of wall time gave the solver 6-15 s of CPU (benchmarks/local_search.py).
On an unsatisfiable formula local search
spends its whole budget (``max_flips * max_tries`` flips, or the time limit)
and answers UNKNOWN.

Examples
--------
>>> from sudosat.sat.cnf import CNF
>>> solve_walksat(CNF([[1, 2], [-1, 2], [1, -2]])).model
[1, 2]
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import NamedTuple, cast

from sudosat.sat.cnf import CNF
from sudosat.sat.result import Result, Status, Stop
from sudosat.sat.solvers.base import Laps, make_result
from sudosat.sat.solvers.budget import (
    Deadline,
    OutOfTime,
    Tunable,
    collector_paused,
    declare,
    load_reserve,
    settings_from,
)
from sudosat.sat.solvers.dpll import simplify

NO_LIMIT = Deadline(None)  # a deadline that never passes

_MANY = 1e15  # the upper end of the count ranges: no practical bound

#: WalkSAT's tunables, declared once; :func:`solve_walksat` accepts these names.
WALKSAT_TUNABLES: dict[str, Tunable] = declare(
    Tunable("noise", 0.5, 0.0, 1.0, "probability of a random flip when no freebie exists"),
    Tunable("max_flips", 100_000, 0, _MANY, "flips per try before a restart"),
    Tunable("max_tries", None, 1, _MANY,
            "tries before UNKNOWN; None: until the time limit (10 without one)", allow_none=True),
)
#: GSAT's tunables: the same names, other defaults (many short tries work better).
GSAT_TUNABLES: dict[str, Tunable] = declare(
    Tunable("noise", 0.5, 0.0, 1.0, "probability of a random-walk flip instead of a greedy one"),
    Tunable("max_flips", 20_000, 0, _MANY, "flips per try before a restart"),
    Tunable("max_tries", None, 1, _MANY,
            "tries before UNKNOWN; None: until the time limit (10 without one)", allow_none=True),
)
TRIES_WITHOUT_LIMIT = 10  # what max_tries=None means when the call has no time limit

_CHECK_EVERY = 255  # read the clock when (flips & _CHECK_EVERY) == 0
_CHECK_CLAUSES = 4095  # and after every 4,096 clauses while building lists


@dataclass(frozen=True)
class LocalSearchSettings:
    """Everything one local-search call is told, checked once (see :meth:`of`).

    Attributes
    ----------
    algorithm : str
        ``"walksat"`` or ``"gsat"``.
    noise : float
        See :data:`WALKSAT_TUNABLES` and :data:`GSAT_TUNABLES`.
    max_flips : int
        Flips per try.
    max_tries : int or None
        Tries; None: until the time limit (:data:`TRIES_WITHOUT_LIMIT` without one).
    simplify : bool
        Unit propagation and pure literals first (see the module docstring).
    """

    algorithm: str
    noise: float
    max_flips: int
    max_tries: int | None
    simplify: bool = True

    @classmethod
    def of(
        cls, algorithm: str, simplify: bool = True, **tunables: float | None
    ) -> LocalSearchSettings:
        """The algorithm's declared defaults overridden by `tunables`, each checked.

        Raises
        ------
        SolverError
            An unknown name or a value outside its range.

        Examples
        --------
        >>> LocalSearchSettings.of("gsat", noise=0.0).max_flips
        20000
        """
        declared = GSAT_TUNABLES if algorithm == "gsat" else WALKSAT_TUNABLES
        values = settings_from(algorithm, declared, tunables)
        # Only max_tries is declared with allow_none: the other two are never None.
        noise, flips = cast(float, values["noise"]), cast(float, values["max_flips"])
        tries = values["max_tries"]
        return cls(algorithm, float(noise), int(flips), None if tries is None else int(tries),
                   simplify)

    def tries(self, timed: bool) -> float:
        """How many tries to allow: `max_tries`, or until the deadline (``inf``) when timed."""
        if self.max_tries is not None:
            return self.max_tries
        return math.inf if timed else TRIES_WITHOUT_LIMIT


class _State:
    """One assignment of the compact variables and its counters (see the module docstring)."""

    def __init__(
        self, clauses: list[list[int]], num_vars: int, gsat: bool, deadline: Deadline = NO_LIMIT
    ) -> None:
        self.clauses = clauses
        self.num_vars = num_vars
        self.gsat = gsat
        self.occ: list[list[int]] = [[] for _ in range(2 * num_vars)]
        occ = self.occ
        for c, clause in enumerate(clauses):
            for lit in clause:
                occ[lit].append(c)
            if c & _CHECK_CLAUSES == _CHECK_CLAUSES and deadline.expired():
                raise OutOfTime
        self.truth = [0] * (2 * num_vars)
        self.numtrue = [0] * len(clauses)
        self.crit = [0] * len(clauses)
        self.breaks = [0] * num_vars
        self.score = [0] * num_vars
        self.unsat: list[int] = []
        self.where = [-1] * len(clauses)

    def reset(self, rng: random.Random, deadline: Deadline) -> None:
        """Draw a random assignment and recompute every counter from scratch.

        Raises OutOfTime when `deadline` passes meanwhile.
        """
        truth = self.truth
        for i in range(self.num_vars):
            bit = rng.getrandbits(1)
            truth[2 * i], truth[2 * i + 1] = bit, 1 - bit
        self.breaks = [0] * self.num_vars
        self.score = [0] * self.num_vars
        self.unsat = []
        self.where = [-1] * len(self.clauses)
        for c, clause in enumerate(self.clauses):
            if c & _CHECK_CLAUSES == _CHECK_CLAUSES and deadline.expired():
                raise OutOfTime
            true_lits = [lit for lit in clause if truth[lit]]
            self.numtrue[c] = len(true_lits)
            crit = 0
            for lit in true_lits:
                crit ^= lit
            self.crit[c] = crit
            if len(true_lits) == 1:
                self.breaks[crit >> 1] += 1
                self.score[crit >> 1] -= 1
            elif not true_lits:
                self.where[c] = len(self.unsat)
                self.unsat.append(c)
                for lit in clause:
                    self.score[lit >> 1] += 1

    def flip(self, i: int) -> None:
        """Flip variable `i`, keeping numtrue, crit, breaks, score and unsat exact.

        Pre- and post-condition: every counter describes the current assignment
        (``score`` only when the state was built for GSAT).
        """
        truth, occ, numtrue, crit = self.truth, self.occ, self.numtrue, self.crit
        breaks, score, unsat, where = self.breaks, self.score, self.unsat, self.where
        gsat = self.gsat
        now_true = 2 * i if truth[2 * i + 1] else 2 * i + 1
        now_false = now_true ^ 1
        truth[now_true], truth[now_false] = 1, 0
        for c in occ[now_true]:
            n = numtrue[c]
            numtrue[c] = n + 1
            if n == 0:
                # c becomes satisfied, with i its only true literal.
                last = unsat.pop()
                if last != c:
                    unsat[where[c]] = last
                    where[last] = where[c]
                where[c] = -1
                crit[c] = now_true
                breaks[i] += 1
                if gsat:
                    score[i] -= 1
                    for lit in self.clauses[c]:
                        score[lit >> 1] -= 1
            else:
                if n == 1:
                    # Its former only true literal is no longer critical.
                    other = crit[c] >> 1
                    breaks[other] -= 1
                    if gsat:
                        score[other] += 1
                crit[c] ^= now_true
        for c in occ[now_false]:
            n = numtrue[c] - 1
            numtrue[c] = n
            crit[c] ^= now_false
            if n == 0:
                # c becomes falsified: flipping any of its variables would repair it.
                where[c] = len(unsat)
                unsat.append(c)
                breaks[i] -= 1
                if gsat:
                    score[i] += 1
                    for lit in self.clauses[c]:
                        score[lit >> 1] += 1
            elif n == 1:
                other = crit[c] >> 1
                breaks[other] += 1
                if gsat:
                    score[other] -= 1


def _walksat_try(
    state: _State, rng: random.Random, noise: float, max_flips: int, deadline: Deadline
) -> tuple[int, bool]:
    """Flip by the WalkSAT rule until no clause is falsified; return (flips made, out of time).

    Post-condition: ``state.unsat`` is empty, `max_flips` flips were made, or
    `deadline` passed (its clock is read every 256 flips).
    """
    clauses, breaks, unsat = state.clauses, state.breaks, state.unsat
    randrange, uniform = rng.randrange, rng.random
    for flips in range(max_flips):
        if not unsat:
            return flips, False
        if flips & _CHECK_EVERY == 0 and deadline.expired():
            return flips, True
        clause = clauses[unsat[randrange(len(unsat))]]
        best, ties = len(clauses) + 1, []
        for lit in clause:
            b = breaks[lit >> 1]
            if b < best:
                best, ties = b, [lit >> 1]
            elif b == best:
                ties.append(lit >> 1)
        if best and uniform() < noise:
            state.flip(clause[randrange(len(clause))] >> 1)
        else:
            state.flip(ties[randrange(len(ties))])
    return max_flips, False


def _gsat_try(
    state: _State, rng: random.Random, noise: float, max_flips: int, deadline: Deadline
) -> tuple[int, bool]:
    """Flip by the GSAT rule (with random walk) until no clause is falsified.

    Returns (flips made, out of time), as :func:`_walksat_try`.
    """
    clauses, score, unsat = state.clauses, state.score, state.unsat
    randrange, uniform = rng.randrange, rng.random
    for flips in range(max_flips):
        if not unsat:
            return flips, False
        if flips & _CHECK_EVERY == 0 and deadline.expired():
            return flips, True
        if noise and uniform() < noise:
            clause = clauses[unsat[randrange(len(unsat))]]
            state.flip(clause[randrange(len(clause))] >> 1)
            continue
        best = max(score)
        position = score.index(best)
        for _ in range(randrange(score.count(best))):
            position = score.index(best, position + 1)
        state.flip(position)
    return max_flips, False


def _compact(
    clauses: list[list[int]], deadline: Deadline = NO_LIMIT
) -> tuple[list[list[int]], list[int]]:
    """Renumber the variables of signed clauses 0..n-1 as literal codes; return (codes, names).

    ``names[i]`` is the original DIMACS variable of compact variable ``i``. Raises
    :class:`OutOfTime` when `deadline` passes meanwhile.
    """
    index: dict[int, int] = {}
    names: list[int] = []
    coded = []
    for number, clause in enumerate(clauses):
        if number & _CHECK_CLAUSES == _CHECK_CLAUSES and deadline.expired():
            raise OutOfTime
        codes = []
        for lit in clause:
            var = abs(lit)
            if var not in index:
                index[var] = len(names)
                names.append(var)
            # Compact variables count from 0, so this is not codes.to_code (whose
            # variables count from 1): 2i and 2i + 1 keep the per-variable lists dense.
            codes.append(2 * index[var] + (lit < 0))
        coded.append(codes)
    return coded, names


def _plain(cnf: CNF) -> tuple[bool, list[int], list[list[int]]]:
    """The formula without simplification: (refuted, fixed, clauses), tautologies dropped."""
    clauses = []
    for clause in cnf:
        unique = list(dict.fromkeys(clause))
        if not any(-lit in unique for lit in unique):
            clauses.append(unique)
    return cnf.has_empty_clause, [], clauses


def _local_search(cnf: CNF, settings: LocalSearchSettings, deadline: Deadline | None,
                  seed: int) -> Result:
    """Shared driver of both algorithms, the collector paused as in cdcl and dpll."""
    with collector_paused():
        return _local_search_unpaused(cnf, settings, deadline or NO_LIMIT, seed)


def _local_search_unpaused(cnf: CNF, settings: LocalSearchSettings, deadline: Deadline,
                           seed: int) -> Result:
    """Simplify and build the lists (the load), restart (the search), wrap the outcome.

    The stats time the two parts apart on both clocks (``load_cpu_ms`` ...
    ``search_wall_ms``); a call that runs out of time while loading searched
    for 0 ms.
    """
    started, laps = time.perf_counter(), Laps()
    began = deadline.now()
    stats: dict[str, float] = {"flips": 0, "tries": 0}
    model, stop = None, Stop.ANSWERED
    loaded = _loaded(cnf, settings, deadline, began, stats)
    stats.update(laps.lap("load"))
    if isinstance(loaded, Stop):
        status = Status.UNSAT if loaded is Stop.ANSWERED else Status.UNKNOWN
        stop = loaded
        stats.update(search_cpu_ms=0.0, search_wall_ms=0.0)
    else:
        truth, stop = _search(loaded, settings, random.Random(seed),
                              settings.tries(deadline.limited), stats)
        status = Status.UNKNOWN if truth is None else Status.SAT
        if truth is not None:
            model = _model(cnf.num_vars, loaded.fixed, loaded.names, truth)
        stats.update(laps.lap("search"))
    return make_result(status, model, stats, started, settings.algorithm, stop)


class _Loaded(NamedTuple):
    """What the search works on: its lists, and how they map back to the formula."""

    state: _State
    fixed: list[int]  # literals simplifying fixed
    names: list[int]  # the original variable of each compact one
    deadline: Deadline  # the caller's, less the reserve for freeing the lists


def _loaded(cnf: CNF, settings: LocalSearchSettings, deadline: Deadline, began: float,
            stats: dict) -> _Loaded | Stop:
    """The search's lists over the simplified formula; else why there is no search.

    ``Stop.ANSWERED`` when simplifying refuted the formula (UNSAT), ``Stop.TIME``
    when the deadline passed first (simplifying stops only for time).
    """
    if settings.simplify:
        reduced = simplify(cnf, deadline)
        if reduced is None:
            return Stop.TIME
        refuted, fixed, clauses = reduced.refuted, reduced.fixed, reduced.clauses
    else:
        refuted, fixed, clauses = _plain(cnf)
    if refuted:
        return Stop.ANSWERED
    # The kept clauses, signed and coded, and the per-literal lists are freed before
    # the answer returns. Stop early enough for that to fit in T: the reserve is
    # priced from what simplifying the formula (building those lists) took here.
    deadline = deadline.sooner(load_reserve(deadline.now() - began))
    try:
        coded, names = _compact(clauses, deadline)
        state = _State(coded, len(names), settings.algorithm == "gsat", deadline)
    except OutOfTime:
        return Stop.TIME
    stats["fixed_by_propagation"] = len(fixed)
    stats["search_variables"] = len(names)
    return _Loaded(state, fixed, names, deadline)


def _search(
    loaded: _Loaded,
    settings: LocalSearchSettings,
    rng: random.Random,
    max_tries: float,
    stats: dict,
) -> tuple[list[int] | None, Stop]:
    """Run up to `max_tries` tries (``inf``: until the deadline).

    Returns the model's ``truth`` (None without one) and why the search
    stopped: ANSWERED with a model, TIME when the deadline passed, GAVE_UP
    after `max_tries` tries without one.
    """
    state, deadline = loaded.state, loaded.deadline
    if not state.clauses:
        return [], Stop.ANSWERED
    run_try = _gsat_try if settings.algorithm == "gsat" else _walksat_try
    noise, max_flips = settings.noise, settings.max_flips
    best = len(state.clauses)
    try:
        while stats["tries"] < max_tries:
            if deadline.expired():
                return None, Stop.TIME
            stats["tries"] += 1
            state.reset(rng, deadline)
            flips, ran_out = run_try(state, rng, noise, max_flips, deadline)
            stats["flips"] += flips
            if ran_out:
                return None, Stop.TIME
            if not state.unsat:
                return state.truth, Stop.ANSWERED
            best = min(best, len(state.unsat))
    except OutOfTime:  # while drawing a fresh assignment
        return None, Stop.TIME
    finally:
        stats["unsat_at_end"] = len(state.unsat)
        stats["best_unsat_at_restart"] = best
    return None, Stop.GAVE_UP


def _model(num_vars: int, fixed: list[int], names: list[int], truth: list[int]) -> list[int]:
    """Signed model over 1..num_vars: fixed literals, searched values, False elsewhere."""
    value = [False] * (num_vars + 1)
    for lit in fixed:
        value[abs(lit)] = lit > 0
    for i, var in enumerate(names):
        value[var] = bool(truth[2 * i])
    return [v if value[v] else -v for v in range(1, num_vars + 1)]


def solve_walksat(
    cnf: CNF,
    *,
    deadline: Deadline | None = None,
    seed: int = 0,
    simplify: bool = True,
    **tunables: float | None,
) -> Result:
    """Look for a model of `cnf` with WalkSAT (SKC rule); SAT or UNKNOWN.

    Parameters
    ----------
    cnf : CNF
        Any formula.
    deadline : Deadline, optional
        When the call stops, on the deadline's own clock (wall or CPU); past
        it the result is UNKNOWN, ``stop`` TIME.
    seed : int
        Seeds the ``random.Random`` that draws assignments and flips.
    simplify : bool
        Apply unit propagation and pure literals first (see the module docstring).
    **tunables
        Any name of :data:`WALKSAT_TUNABLES`: ``noise`` (probability of a
        random flip when no freebie exists; 0.5), ``max_flips`` (flips per
        try before a restart; 100,000), ``max_tries`` (tries before giving up
        with UNKNOWN, ``stop`` GAVE_UP; None, the default: restart until
        `deadline` passes, or 10 tries without a limit).

    Returns
    -------
    Result
        SAT with a model; UNSAT only when the formula has an empty clause or
        unit propagation refutes it; otherwise UNKNOWN (``stop`` TIME or
        GAVE_UP). Stats: flips, tries, fixed_by_propagation, search_variables,
        unsat_at_end, best_unsat_at_restart, and in milliseconds
        ``load_cpu_ms``, ``load_wall_ms`` (simplifying, building the lists)
        and ``search_cpu_ms``, ``search_wall_ms`` (the tries).

    Raises
    ------
    SolverError
        An unknown option, or one outside its range.
    """
    settings = LocalSearchSettings.of("walksat", simplify, **tunables)
    return _local_search(cnf, settings, deadline, seed)


def solve_gsat(
    cnf: CNF,
    *,
    deadline: Deadline | None = None,
    seed: int = 0,
    simplify: bool = True,
    **tunables: float | None,
) -> Result:
    """Look for a model of `cnf` with GSAT plus random walk; SAT or UNKNOWN.

    Parameters
    ----------
    cnf : CNF
        Any formula.
    deadline : Deadline, optional
        When the call stops, on the deadline's own clock (wall or CPU); past
        it the result is UNKNOWN, ``stop`` TIME.
    seed : int
        Seeds the ``random.Random`` that draws assignments and flips.
    simplify : bool
        Apply unit propagation and pure literals first (see the module docstring).
    **tunables
        Any name of :data:`GSAT_TUNABLES`: ``noise`` (probability of a
        random-walk flip instead of a greedy one; 0.5; 0 is plain GSAT),
        ``max_flips`` (20,000), ``max_tries`` (as for :func:`solve_walksat`).

    Returns
    -------
    Result
        As :func:`solve_walksat`.

    Raises
    ------
    SolverError
        An unknown option, or one outside its range.
    """
    settings = LocalSearchSettings.of("gsat", simplify, **tunables)
    return _local_search(cnf, settings, deadline, seed)
