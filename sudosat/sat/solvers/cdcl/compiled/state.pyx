# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -ffp-contract=off
"""Twin of :mod:`sudosat.sat.solvers.cdcl.state`: every table as a flat C array, growth, the clock.

The layout is the reference's (MiniSat's): variable ``v`` has literal codes
``2v`` and ``2v + 1``; per-literal tables are indexed by the code, per-variable
ones by ``v``, index 0 unused. ``val[lit]`` is 1, -1 or 0, written for both
codes of a variable. Clauses, reasons and the heap are the C shapes of
:mod:`.cvec`. Every float the reference computes is a C double computed by the
same operations in the same order (hence ``-ffp-contract=off``: a fused
multiply-add would round differently).
"""

import math
from random import Random

from libc.stdint cimport intptr_t
from libc.stdlib cimport free, realloc
from libc.string cimport memset

from sudosat.sat.solvers.cdcl.compiled.cvec cimport (
    NO_REASON,
    IntVec,
    PtrVec,
    TernVec,
    clause_free,
    ivec_reserve,
    pvec_push,
)

from sudosat.sat.result import Stop
from sudosat.sat.solvers.budget import OutOfTime, load_reserve
from sudosat.sat.solvers.cdcl.state import FREE_SHARE, GROW_CHUNK, NO_DEADLINE
from sudosat.sat.solvers.cdcl.tunables import Phase, Restarts

#: ``State.stop_code`` -> the reference's ``stopped``.
STOPS = (Stop.ANSWERED, Stop.TIME, Stop.CONFLICTS, Stop.PROPAGATIONS)


cdef enum:  # which vector a CodesView shows
    TRAIL = 0
    TRAIL_LIM = 1
    ASSUMPTIONS = 2


cdef void* resized(void* block, size_t size) except NULL:
    """`block` reallocated to `size` bytes (at least one)."""
    cdef void* out = realloc(block, size if size else 1)
    if out == NULL:
        raise MemoryError()
    return out


cdef class State:
    """The CDCL search state in literal codes (the reference's State); layers add methods."""

    def __init__(self, int num_vars, dict settings, seed=0, proof=False):
        self.settings = settings
        self.rng = Random(seed)
        self.rng_random = self.rng.random
        self.seed = seed
        self.seeded = bool(seed)
        self.deadline = NO_DEADLINE
        self.load_began = None
        self.conflict_limit = self.propagation_limit = math.inf
        self.next_look = 0
        self.stop_code = 0
        self.read_settings(settings)
        self.num_vars = -1  # nothing allocated: resize initialises from index 0
        self.resize(num_vars)
        self.qhead = 0
        self.var_inc = 1.0
        self.ok = True
        self.simp_trail = -1
        self.bins_trail = 0
        self.proof = [] if proof else None
        self.units_logged = 0
        self.core_codes = None
        self.conflicts_per_call = 0.0
        self.next_reduce = settings["reduce_first"]
        self.reduce_interval = settings["reduce_first"]
        self.init_search_modes(settings)

    cdef int read_settings(self, dict settings) except -1:
        """The tunables the search reads, once (the reference reads the dict each time)."""
        self.set_var_decay = settings["var_decay"]
        self.set_focused_decay = settings["focused_decay"]
        self.set_restart_first = settings["restart_first"]
        self.set_reduce_inc = settings["reduce_inc"]
        self.set_glue_lbd = settings["glue_lbd"]
        self.set_random_var_freq = settings["random_var_freq"]
        self.set_mode_growth = settings["mode_growth"]
        self.set_restart_margin = settings["restart_margin"]
        self.set_restart_min = settings["restart_min"]
        self.set_target_first = settings["target_first"]
        self.set_rephase_first = settings["rephase_first"]
        self.set_rescore_conflicts = settings["rescore_conflicts"]
        self.set_minimize = int(settings["minimize"])
        self.set_shrink = 1 if settings["shrink"] else 0
        self.set_initial_phase = int(settings["initial_phase"])
        self.set_restart_mode = int(settings["restart_mode"])
        self.set_target_phase = int(settings["target_phase"])
        return 0

    cdef int init_search_modes(self, dict settings) except -1:
        """The state of restarts, modes and phases (the reference's _init_search_modes)."""
        self.stable = self.set_restart_mode != Restarts.GLUCOSE
        self.var_decay = self.set_var_decay if self.stable else self.set_focused_decay
        self.mode_length = float(settings["mode_first"])
        alternate = self.set_restart_mode == Restarts.ALTERNATE
        self.next_switch = self.mode_length if alternate else math.inf
        self.lbd_fast = self.lbd_slow = 0.0
        self.lbd_seen = 0
        self.use_target = False
        self.call_conflicts = 0
        self.target_len = self.best_len = 0
        self.rephases = 0
        self.next_rephase = settings["rephase_first"] or math.inf
        return 0

    def __dealloc__(self):
        cdef int i, k
        cdef PtrVec* lists[3]
        lists[0] = &self.clauses
        lists[1] = &self.learnts
        lists[2] = &self.ternaries
        for k in range(3):
            for i in range(lists[k].size):
                clause_free(lists[k].data[i])
            free(lists[k].data)
        if self.bins != NULL:
            for i in range(2 * self.num_vars + 2):
                free(self.bins[i].data)
                free(self.terns[i].data)
                free(self.watches[i].data)
        free(self.bins)
        free(self.terns)
        free(self.watches)
        free(self.val)
        free(self.lit_mark)
        free(self.level)
        free(self.reason)
        free(self.seen)
        free(self.used)
        free(self.activity)
        free(self.heap_key)
        free(self.phase)
        free(self.first_phase)
        free(self.target)
        free(self.best)
        free(self.lvl_stamp)
        free(self.lvl_count)
        free(self.lvl_fill)
        free(self.heap.data)
        free(self.frames.data)
        free(self.ctrail.data)
        free(self.ctrail_lim.data)
        free(self.assumed.data)
        free(self.learnt.data)
        free(self.found.data)
        free(self.kept.data)
        free(self.settled.data)
        free(self.marked.data)
        free(self.units.data)
        free(self.buffer.data)

    cdef int resize(self, int num_vars) except -1:
        """Every table sized for variables 1..num_vars, the new entries as the reference's."""
        cdef int first = self.num_vars + 1  # the first new variable (0 when nothing is)
        cdef int v
        cdef size_t nv = num_vars + 1
        cdef size_t nl = 2 * nv
        cdef int toward = 1 if self.set_initial_phase == Phase.TRUE else 0
        self.val = <signed char*>resized(self.val, nl)
        self.lit_mark = <char*>resized(self.lit_mark, nl)
        self.level = <int*>resized(self.level, nv * sizeof(int))
        self.reason = <intptr_t*>resized(self.reason, nv * sizeof(intptr_t))
        self.seen = <signed char*>resized(self.seen, nv)
        self.used = <char*>resized(self.used, nv)
        self.activity = <double*>resized(self.activity, nv * sizeof(double))
        self.heap_key = <double*>resized(self.heap_key, nv * sizeof(double))
        self.phase = <int*>resized(self.phase, nv * sizeof(int))
        self.first_phase = <int*>resized(self.first_phase, nv * sizeof(int))
        self.target = <int*>resized(self.target, nv * sizeof(int))
        self.best = <int*>resized(self.best, nv * sizeof(int))
        self.bins = <IntVec*>resized(self.bins, nl * sizeof(IntVec))
        self.terns = <TernVec*>resized(self.terns, nl * sizeof(TernVec))
        self.watches = <PtrVec*>resized(self.watches, nl * sizeof(PtrVec))
        memset(self.val + 2 * first, 0, nl - 2 * first)
        memset(self.lit_mark + 2 * first, 0, nl - 2 * first)
        memset(self.bins + 2 * first, 0, (nl - 2 * first) * sizeof(IntVec))
        memset(self.terns + 2 * first, 0, (nl - 2 * first) * sizeof(TernVec))
        memset(self.watches + 2 * first, 0, (nl - 2 * first) * sizeof(PtrVec))
        for v in range(first, num_vars + 1):
            self.level[v] = 0
            self.reason[v] = NO_REASON
            self.seen[v] = 0
            self.used[v] = 0
            self.activity[v] = 0.0
            self.heap_key[v] = -1.0
            self.phase[v] = 2 * v + 1 - toward
            # first_phase, target and best grow by the new phases (unread until set)
            self.first_phase[v] = self.target[v] = self.best[v] = self.phase[v]
        ivec_reserve(&self.ctrail, num_vars + 1)
        self.num_vars = num_vars
        return 0

    def grow(self, int num_vars):
        """Make room for variables up to `num_vars` (the reference's grow).

        Raises :class:`OutOfTime` past the deadline with every table as it
        was, after as many looks at the clock as the reference's chunks take.
        """
        cdef int extra = num_vars - self.num_vars
        if extra <= 0:
            return
        for _ in range(3):  # bins, terns, watches: the reference's _empty_lists each
            for _ in range(0, 2 * extra, GROW_CHUNK):
                if not self.in_time():
                    raise OutOfTime
        self.resize(num_vars)

    cpdef bint in_time(self) except -1:
        """False once the deadline has passed (the reference's in_time, load reserve included)."""
        now = self.deadline.now()
        began = self.load_began
        reserve = 0.0 if began is None else load_reserve(now - began, FREE_SHARE)
        return now + reserve < self.deadline.at

    cdef int ensure_levels(self, int top) except -1:
        """The per-level scratch tables cover levels 0..top (the reference's more_levels)."""
        cdef int old = self.lvl_cap
        if top < old:
            return 0
        cdef int cap = 2 * top + 64
        self.lvl_stamp = <int*>resized(self.lvl_stamp, cap * sizeof(int))
        self.lvl_count = <int*>resized(self.lvl_count, cap * sizeof(int))
        self.lvl_fill = <int*>resized(self.lvl_fill, cap * sizeof(int))
        memset(self.lvl_stamp + old, 0, (cap - old) * sizeof(int))
        self.lvl_cap = cap
        return 0

    cdef void assign(self, int lit, intptr_t why) noexcept:
        """Make `lit` true at the current level. Pre: unassigned (the trail has room)."""
        self.val[lit] = 1
        self.val[lit ^ 1] = -1
        cdef int v = lit >> 1
        self.level[v] = self.ctrail_lim.size
        self.reason[v] = why
        self.ctrail.data[self.ctrail.size] = lit
        self.ctrail.size += 1

    cdef int watch_from(self, PtrVec* clauses, int first) except -1:
        """Watch positions 0 and 1 of clauses[first:] (the reference's watch_all)."""
        cdef int i
        cdef int* c
        for i in range(first, clauses.size):
            c = clauses.data[i]
            pvec_push(&self.watches[c[0]], c)
            pvec_push(&self.watches[c[1]], c)
        return 0

    cdef int drop_clause(self, int* c) noexcept:
        """Free a clause that left every list. A level-0 fact it implied keeps no reason:
        the reference's fact keeps the clause alive, but only `locked` reads such a reason,
        by identity, and a freed address may be reused."""
        cdef int v = c[0] >> 1
        if self.reason[v] == <intptr_t>c:
            self.reason[v] = NO_REASON
        clause_free(c)
        return 0

    # -- what the Solver reads ----------------------------------------------------------

    @property
    def trail(self):
        """The assigned literals in order (a live view, as the reference's list)."""
        return CodesView(self, TRAIL)

    @property
    def trail_lim(self):
        """Where each decision level starts on the trail (a live view)."""
        return CodesView(self, TRAIL_LIM)

    @property
    def assumptions(self):
        """The current call's assumptions, literal codes (a live view)."""
        return CodesView(self, ASSUMPTIONS)

    @property
    def core(self):
        """The failed assumptions of the last UNSAT answer, or None."""
        return self.core_codes

    @property
    def stopped(self):
        """Why the last call stopped (a :class:`~sudosat.sat.result.Stop`)."""
        return STOPS[self.stop_code]


cdef class CodesView:
    """A live, read-only view of the engine's trail, trail_lim or assumptions.

    The reference hands out its lists themselves, which the Solver tests for
    emptiness and measures at every call: here that costs nothing either,
    and reading the elements makes a list.
    """

    cdef State owner
    cdef int which

    def __cinit__(self, State owner, int which):
        self.owner = owner
        self.which = which

    cdef IntVec* shown(self) noexcept:
        if self.which == TRAIL:
            return &self.owner.ctrail
        return &self.owner.ctrail_lim if self.which == TRAIL_LIM else &self.owner.assumed

    def __len__(self):
        return self.shown().size

    def codes(self):
        """The elements now, as a new list."""
        cdef IntVec* vector = self.shown()
        return [vector.data[i] for i in range(vector.size)]

    def __iter__(self):
        return iter(self.codes())

    def __getitem__(self, index):
        return self.codes()[index]

    def __eq__(self, other):
        return self.codes() == (other.codes() if isinstance(other, CodesView) else other)

    __hash__ = None

    def __repr__(self):
        return repr(self.codes())
