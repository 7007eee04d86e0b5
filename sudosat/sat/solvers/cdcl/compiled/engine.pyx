# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -ffp-contract=off
"""Twin of :mod:`sudosat.sat.solvers.cdcl.engine`: restarts, modes, search, assumptions, budgets.

:class:`Engine` offers what :class:`~sudosat.sat.solvers.cdcl.solver.Solver`
uses of the reference's Engine, and does the same search: the same
decisions, counters, ``stopped`` reasons at the same points, proof steps.
The clock is read where the reference reads it: every ``LOOK_EVERY``
propagations in the search, between chunks of loading and simplifying.
:func:`unsupported` names the settings the twin leaves to the reference.
"""

from libc.math cimport INFINITY, ldexp
from libc.string cimport memcpy

from sudosat.sat.solvers.cdcl.compiled.cvec cimport NO_REASON, ivec_push, ivec_reserve

from sudosat.sat.result import Status
from sudosat.sat.solvers.budget import OutOfTime
from sudosat.sat.solvers.cdcl.engine import FAILED, LBD_FAST, LBD_SLOW, LOOK_EVERY
from sudosat.sat.solvers.cdcl.tunables import Backtrack, Restarts, Target

cdef enum:  # what search returns (the reference's Status, or None: restart)
    RESTART = 0
    SAT = 1
    UNSAT = 2

cdef enum:  # State.stop_code, an index of state.STOPS
    ANSWERED = 0
    TIME = 1
    CONFLICTS = 2
    PROPAGATIONS = 3

cdef int NO_ASSUMPTION = FAILED
cdef double look_every = LOOK_EVERY
cdef double lbd_fast_weight = LBD_FAST
cdef double lbd_slow_weight = LBD_SLOW
cdef int LUBY = Restarts.LUBY
cdef int NEVER = Target.NEVER
cdef int STABLE = Target.STABLE
cdef int ALWAYS = Target.ALWAYS


def unsupported(settings):
    """Why the twin cannot run these settings (a short phrase), or None when it can.

    The twin implements the default search and every cheap tunable; these run
    in the reference core only (an observer, too, which is not a setting).
    """
    chrono = settings.get("chrono", Backtrack.BACKJUMP)
    if chrono != Backtrack.BACKJUMP:
        return f"chrono={Backtrack(chrono).name.lower()} runs in the reference core"
    if settings.get("vivify"):
        return "vivify=1 runs in the reference core"
    if settings.get("tier2_lbd"):
        return f"tier2_lbd={settings['tier2_lbd']} runs in the reference core"
    return None


cdef double luby(long long x) noexcept:
    """The x-th term (from 0) of the Luby sequence, powers of 2 (the reference's luby(2, x)):
    ``ldexp(1.0, seq)`` is ``2.0 ** seq`` exactly."""
    cdef long long size = 1
    cdef int seq = 0
    while size < x + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != x:
        size = (size - 1) >> 1
        seq -= 1
        x = x % size
    return ldexp(1.0, seq)


cdef class Engine(ClauseDatabase):
    """The CDCL search state (create, :meth:`load`, then :meth:`solve`, again and again).

    Raises ValueError for settings the twin does not implement (see :func:`unsupported`).
    """

    def __init__(self, int num_vars, dict settings, seed=0, proof=False):
        why = unsupported(settings)
        if why:
            raise ValueError(f"cdcl compiled core: {why}")
        super().__init__(num_vars, settings, seed, proof)

    def set_budget(self, deadline, max_conflicts, max_propagations):
        """Budget the next call (the reference's set_budget)."""
        self.deadline = deadline
        self.conflict_limit = (INFINITY if max_conflicts is None
                               else <double>(self.conflicts + max_conflicts))
        self.propagation_limit = (INFINITY if max_propagations is None
                                  else <double>(self.propagations + max_propagations))
        self.next_look = <double>self.propagations
        self.stop_code = ANSWERED

    def stop_for_time(self):
        """Record a stop by OutOfTime that no work budget claimed: the deadline's."""
        if self.stop_code == ANSWERED:
            self.stop_code = TIME

    cdef bint within_budget(self) except -1:
        """False (``stopped`` says why) once a budget is spent (the reference's)."""
        if self.conflicts >= self.conflict_limit:
            self.stop_code = CONFLICTS
            return False
        if self.propagations >= self.propagation_limit:
            self.stop_code = PROPAGATIONS
            return False
        if self.deadline.expired():
            self.stop_code = TIME
            return False
        self.next_look = min(self.propagations + look_every, self.propagation_limit)
        return True

    cdef int search(self, double budget) except -1:
        """CDCL until SAT, UNSAT, or `budget` conflicts or a focused restart (RESTART);
        raises OutOfTime when the call's budget is spent (the reference's search)."""
        cdef long long conflicts_here = 0
        cdef bint restart = False
        cdef bint track = self.set_target_phase != NEVER or self.set_rephase_first != 0
        cdef double focused_after = INFINITY if self.stable else self.set_restart_min
        cdef bint averaging = self.set_restart_mode != LUBY  # Luby alone never reads them
        cdef int to, lit
        while True:
            conflict = self.propagate()
            if conflict:
                self.conflicts += 1
                conflicts_here += 1
                if not self.ctrail_lim.size:
                    self.ok = False
                    return UNSAT
                if track:
                    self.note_consistent(self.ctrail_lim.data[self.ctrail_lim.size - 1])
                self.analyze(conflict)
                to = self.learnt_back
                self.levels_jumped += self.ctrail_lim.size - to
                self.backjumped += self.ctrail.size - self.ctrail_lim.data[to]
                self.cancel_until(to)
                self.record()
                self.var_inc /= self.var_decay
                if (averaging and self.note_lbd(self.learnt_lbd)
                        and conflicts_here >= focused_after):
                    restart = True
                if self.conflicts >= self.conflict_limit:
                    self.stop_code = CONFLICTS
                    raise OutOfTime
                continue
            if restart or conflicts_here >= budget:
                self.cancel_until(0)
                return RESTART
            if self.propagations >= self.next_look and not self.within_budget():
                raise OutOfTime
            if not self.ctrail_lim.size and self.ctrail.size != self.simp_trail:
                self.simplify()
            if self.conflicts >= self.next_reduce:
                self.next_reduce += self.reduce_interval
                self.reduce_interval += self.set_reduce_inc
                self.reduce_db()
            lit = self.next_assumption() if self.ctrail_lim.size < self.assumed.size else -1
            if lit == NO_ASSUMPTION:
                return UNSAT
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
                    return SAT
                self.decisions += 1
            ivec_push(&self.ctrail_lim, self.ctrail.size)
            self.assign(lit, NO_REASON)

    cdef bint note_lbd(self, int lbd) except -1:
        """Average a learnt clause's LBD in; True when focused mode would restart now."""
        self.lbd_seen += 1
        cdef double seen = <double>self.lbd_seen
        self.lbd_fast += (lbd - self.lbd_fast) * max(lbd_fast_weight, 1.0 / seen)
        self.lbd_slow += (lbd - self.lbd_slow) * max(lbd_slow_weight, 1.0 / seen)
        return self.lbd_fast > self.set_restart_margin * self.lbd_slow

    cdef int switch_mode(self) except -1:
        """Turn stable mode into focused mode or back, at a restart (the reference's)."""
        self.stable = not self.stable
        if self.stable:
            self.mode_length *= self.set_mode_growth
        self.var_decay = self.set_var_decay if self.stable else self.set_focused_decay
        self.use_target = self.target_wanted()
        self.next_switch = self.conflicts + self.mode_length
        return 0

    cdef bint target_wanted(self) noexcept:
        """Whether decisions follow the target phase now (see ``target_phase``)."""
        cdef int mode = self.set_target_phase
        return ((mode == ALWAYS or (mode == STABLE and self.stable))
                and self.conflicts - self.call_conflicts >= self.set_target_first)

    cdef int next_assumption(self) except -3:
        """The next assumption to decide, -1 when all hold, or FAILED (``core`` set)."""
        cdef int p
        while self.ctrail_lim.size < self.assumed.size:
            p = self.assumed.data[self.ctrail_lim.size]
            if self.val[p] == 1:
                ivec_push(&self.ctrail_lim, self.ctrail.size)
            elif self.val[p]:
                self.core_codes = self.analyze_final(p)
                return NO_ASSUMPTION
            else:
                return p
        return -1

    cdef bint prepare_first_call(self) except -1:
        """Propagate the level-0 facts, simplify, score the variables (the reference's);
        raises OutOfTime between the steps. False: UNSAT."""
        self.cancel_until(0)
        if self.propagate():
            self.conflicts += 1
            self.ok = False
            return False
        if not self.in_time():
            raise OutOfTime
        self.simplify()
        if not self.in_time():
            raise OutOfTime
        self.init_heap()
        memcpy(self.first_phase, self.phase, (self.num_vars + 1) * sizeof(int))
        return True

    def solve(self, assumptions=()):
        """Restart loop under `assumptions` (literal codes, decided first): SAT, UNSAT or
        UNKNOWN with ``stopped`` set (the reference's solve)."""
        self.core_codes = None
        if not self.ok:
            self.core_codes = []
            return Status.UNSAT
        if not self.started:
            try:
                if not self.prepare_first_call():
                    self.core_codes = []
                    return Status.UNSAT
            except OutOfTime:
                self.stop_for_time()
                return Status.UNKNOWN
            self.started = True
        elif self.heap_stale:
            self.rebuild_heap()
        self.heap_stale = False
        codes = list(assumptions)
        for lit in codes:
            if not 2 <= lit <= 2 * self.num_vars + 1:
                raise IndexError(f"assumption code {lit} beyond the {self.num_vars} variables")
        ivec_reserve(&self.assumed, len(codes))
        self.assumed.size = 0
        for lit in codes:
            ivec_push(&self.assumed, lit)
        # Only the call right after expect_new_question ranks anew.
        self.rescore_now, self.rescore_next = self.rescore_next, False
        self.heap_after_assumptions = bool(codes) or self.rescore_now
        self.call_conflicts = self.conflicts
        # The target and best phases are each question's own: none is carried over.
        self.target_len = self.best_len = 0
        self.use_target = self.target_wanted()
        try:
            status = self.restart_loop()
        except OutOfTime:
            self.stop_for_time()
            return Status.UNKNOWN
        if status == UNSAT and not self.ok:
            self.core_codes = []
        spent = self.conflicts - self.call_conflicts
        self.conflicts_per_call = 0.75 * self.conflicts_per_call + 0.25 * <double>spent
        return Status.SAT if status == SAT else Status.UNSAT

    cdef int restart_loop(self) except -1:
        """Search after search until an answer: Luby restarts in stable mode (this call's
        stable restarts index it), mode switches and rephasing when due."""
        cdef long long restarts = 0  # this call's stable restarts: its Luby index
        cdef int status
        while True:
            status = self.search(luby(restarts) * self.set_restart_first
                                 if self.stable else INFINITY)
            if status != RESTART:
                return status
            self.restarts += 1
            restarts += self.stable
            if self.conflicts >= self.next_switch:
                self.switch_mode()
            if self.conflicts >= self.next_rephase:
                self.rephase()
            if not self.use_target:
                self.use_target = self.target_wanted()
            if self.heap.size > 3 * self.num_vars + 100:
                self.rebuild_heap()  # drop the stale entries lazy re-insertion leaves behind

    # -- answers --------------------------------------------------------------------------

    def model(self):
        """One signed literal per variable; unassigned (unused) variables read as false."""
        cdef int v
        return [v if self.val[2 * v] == 1 else -v for v in range(1, self.num_vars + 1)]

    def counters(self):
        """The counters since the engine was made."""
        return {
            "decisions": self.decisions,
            "propagations": self.propagations,
            "conflicts": self.conflicts,
            "restarts": self.restarts,
            "learnt": self.learnt_count,
            "deleted": self.deleted,
            "backjumped": self.backjumped,
            "levels_jumped": self.levels_jumped,
        }
