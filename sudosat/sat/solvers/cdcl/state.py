"""The engine's state: every per-variable and per-literal table, and how it grows.

MiniSat's layout: variable ``v`` (1..V) has literal codes ``2v`` and
``2v + 1``, so negation is ``lit ^ 1`` and every per-literal table is a flat
list indexed by the code (codes 0 and 1 unused). ``val[lit]`` is 1 (true),
-1 (false) or 0 (unassigned); both codes of a variable are written on
assignment, so a lookup never negates.

The engine's methods are added by one layer per concern, each a subclass of
the one below: :mod:`.proof`, :mod:`.loader`, :mod:`.propagation`,
:mod:`.heuristic`, :mod:`.analysis`, :mod:`.database`, :mod:`.engine`.

Its compiled twin, which does the same work over C arrays, is
:mod:`sudosat.sat.solvers.cdcl.compiled.state` (see :mod:`~sudosat.sat.solvers.cdcl.cores`).
"""

from __future__ import annotations

import math
from random import Random

from sudosat.sat.result import Stop
from sudosat.sat.solvers.budget import Deadline, OutOfTime, load_reserve
from sudosat.sat.solvers.cdcl.reasons import Clause, ProofStep, Reason
from sudosat.sat.solvers.cdcl.tunables import Phase, Restarts
from sudosat.sat.solvers.codes import Code

# The deadline of an engine outside a timed call.
NO_DEADLINE = Deadline(None)
# Empty per-literal lists grow makes between two looks at the clock.
GROW_CHUNK = 16384
#: ``State.level_bit`` for levels 0..31: 1 << (level & 31).
LEVEL_BITS = [1 << lv for lv in range(32)]
#: The share of its own loading time a one-shot call keeps in reserve before T, to free
#: the tables it built (see State.in_time). Freeing visits what loading built, doing less
#: per entry, so it scales with this very run's load time on any machine. The share sits
#: above every ratio free / load in benchmarks/results/cdcl_free.csv
#: (``benchmarks/cdcl_free.py --orders 3 4 5 6 --repeat 3``) but for small formulas loaded
#: from a warm run cache, whose whole freeing takes a fraction of a millisecond.
FREE_SHARE = 0.1


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


def _first_phases(first: int, last: int, initial_phase: Phase) -> list[int]:
    """The literal each of the variables first..last is decided to at first (see ``phase``)."""
    return list(range(2 * first + 1 - (initial_phase == Phase.TRUE), 2 * last + 2, 2))


class State:
    """The CDCL search state, in literal codes; the engine's layers add the methods.

    Parameters
    ----------
    num_vars : int
        Variables are 1..num_vars.
    settings : dict
        Every name of :data:`~sudosat.sat.solvers.cdcl.tunables.TUNABLES` with its value.
    seed : int
        Seeds the only random source (random decisions, initial activity jitter).
    proof : bool
        Log a DRAT proof (learnt clauses added, deleted clauses as ``d`` lines).

    Attributes
    ----------
    deadline : Deadline
        The time limit of the current call, on its own clock (none between
        calls). The loader and the level-0 passes look at it every chunk of
        their work (:meth:`in_time`); the search every few hundred propagations
        (:meth:`~sudosat.sat.solvers.cdcl.engine.Engine.within_budget`).
    load_began : float or None
        The deadline's clock when a one-shot load began, while it runs: the
        loader then stops early enough to free what it built (see :meth:`in_time`).
    conflict_limit, propagation_limit : float
        The conflict and propagation counts at which the current call stops
        (``math.inf``: no budget); see :meth:`~sudosat.sat.solvers.cdcl.engine.Engine.set_budget`.
    stopped : Stop
        Why the last call stopped: ``ANSWERED``, or ``TIME``, ``CONFLICTS`` or
        ``PROPAGATIONS`` for the budget that ran out, set where the loop stops.
    """

    def __init__(self, num_vars: int, settings: dict, seed: int = 0, proof: bool = False) -> None:
        n = num_vars
        self.num_vars = n
        self.settings = settings
        self.rng = Random(seed)
        self.seed = seed
        self.deadline = NO_DEADLINE
        self.load_began: float | None = None
        self.conflict_limit = self.propagation_limit = math.inf
        self.next_look: float = 0  # the propagation count of the search's next within_budget
        self.stopped = Stop.ANSWERED
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
        self.level_bit = list(LEVEL_BITS)
        self.activity = [0.0] * (n + 1)
        self.heap_key = [-1.0] * (n + 1)  # activity of the live heap entry, -1 when none
        self.heap: list[tuple[float, int]] = []
        # phase[v]: the literal v is decided to, its last value (phase saving); index 0 unused.
        # A literal code rather than a sign bit: backjumping stores the undone literal as
        # it is, and a decision returns it as it is.
        self.phase = _first_phases(0, n, settings["initial_phase"])
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
        self.ok = True  # False once the formula is known UNSAT
        self.used = [False] * (n + 1)
        self.simp_trail = -1  # trail size at the last level-0 simplification
        self.bins_trail = 0  # trail size when bins were last cleaned (see simplify)
        self.decisions = self.propagations = self.conflicts = 0
        self.restarts = self.learnt_count = self.deleted = 0
        # Literals unassigned and decision levels undone by conflicts' backjumps.
        self.backjumped = self.levels_jumped = 0
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
        # The clauses conflict analysis resolved since the last reduction (see reduce_db).
        self.touched: list[object] = []
        self.next_reduce = settings["reduce_first"]
        self.reduce_interval = settings["reduce_first"]
        # Vivification (see vivify.py): the conflict count of the next round, the
        # propagation count when the last one ended, the ids of the learnt clauses tried.
        self.next_vivify = settings["vivify_interval"]
        self.vivify_mark = 0
        self.vivified: set[int] = set()
        self.vivified_rounds = self.vivified_literals = 0
        self._init_search_modes(settings)

    def _init_search_modes(self, settings: dict) -> None:
        """The state of restarts, modes, phases beyond phase saving (see Engine.solve) and
        backtracking."""
        # Search modes (see Engine.solve): stable (Luby restarts, VSIDS decay var_decay,
        # target phases) and focused (restarts by LBD averages, focused_decay).
        self.stable = settings["restart_mode"] != Restarts.GLUCOSE
        self.var_decay = settings["var_decay"] if self.stable else settings["focused_decay"]
        self.mode_length = float(settings["mode_first"])
        alternate = settings["restart_mode"] == Restarts.ALTERNATE
        self.next_switch = self.mode_length if alternate else math.inf
        self.lbd_fast = self.lbd_slow = 0.0  # moving averages of learnt LBDs
        self.lbd_seen = 0  # learnt LBDs averaged so far (the averages' warm-up)
        # Phases: first_phase[v] is v's literal before any search (rephasing "original");
        # target[v] and best[v] are the saved phases with the trail's literals over them
        # when the longest conflict-free trail since the last reset was seen (its length
        # target_len, best_len). None: none recorded since then.
        self.use_target = False  # decide by target phases now (see Engine.target_wanted)
        self.call_conflicts = 0  # the conflict count when the current call began
        self.first_phase: list[Code] = []
        self.target: list[Code] | None = None
        self.best: list[Code] | None = None
        self.target_len = self.best_len = 0
        self.rephases = 0
        self.next_rephase = settings["rephase_first"] or math.inf
        # Some literal on the trail sits above the start of a level higher than its own:
        # only backtracking that keeps the trail puts it there (see chrono.py).
        self.out_of_order = False

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
        # The per-literal lists take most of the time: they are built first, in chunks
        # with a look at the clock between two, before any table changes.
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
        self.phase += _first_phases(old + 1, num_vars, self.settings["initial_phase"])
        if self.first_phase:
            self.first_phase += self.phase[old + 1 :]
        # target and best may be one list (see Heuristic.note_consistent): extended once.
        for copy in {id(c): c for c in (self.target, self.best) if c is not None}.values():
            copy += self.phase[old + 1 :]
        self.bins += bins
        self.terns += terns
        self.watches += watches
        if self.proof is not None:
            self.lit_str += [s for v in range(old + 1, num_vars + 1) for s in (str(v), str(-v))]

    def _empty_lists(self, count: int) -> list[list]:
        """`count` new empty lists, made in chunks; raises :class:`OutOfTime` between them."""
        made: list[list] = []
        in_time = self.in_time
        for start in range(0, count, GROW_CHUNK):
            made += [[] for _ in range(min(GROW_CHUNK, count - start))]
            if not in_time():
                raise OutOfTime
        return made

    def in_time(self) -> bool:
        """False once the deadline has passed: the loader's and level-0 passes' look at the clock.

        They call it between chunks of their work, so the clock is read at a
        rate set by work done, not by a machine's speed. While a one-shot load
        runs (``load_began`` set), the answer is False that much sooner than
        the deadline as the load has taken so far, times :data:`FREE_SHARE`:
        what was built must still be freed before the answer returns.
        """
        now = self.deadline.now()
        began = self.load_began
        reserve = 0.0 if began is None else load_reserve(now - began, FREE_SHARE)
        return now + reserve < self.deadline.at

    def assign(self, lit: Code, why) -> None:
        """Make `lit` true at the current level. Pre: `lit` is unassigned."""
        val = self.val
        val[lit] = 1
        val[lit ^ 1] = -1
        var = lit >> 1
        self.level[var] = len(self.trail_lim)
        self.reason[var] = why
        self.trail.append(lit)

    def watch_all(self, clauses: list[Clause]) -> None:
        """Watch positions 0 and 1 of every clause (watch lists must not hold them yet)."""
        watches = self.watches
        for clause in clauses:
            watches[clause[0]].append(clause)
            watches[clause[1]].append(clause)

