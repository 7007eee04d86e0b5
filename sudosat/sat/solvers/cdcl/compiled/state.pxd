# cython: language_level=3
"""Declarations of :mod:`.state`: the twin's tables (the reference's State) and ProofLog."""

from libc.stdint cimport intptr_t

from sudosat.sat.solvers.cdcl.compiled.cvec cimport FrameVec, Heap, IntVec, PtrVec, TernVec


cdef class State:
    # -- what the reference's State.__init__ sets, by the same names ---------------------
    cdef readonly int num_vars
    cdef readonly object settings
    cdef readonly object rng
    cdef readonly object seed
    cdef public object deadline
    cdef public object load_began
    cdef public object runs  # accepted and ignored: the loader builds the same tables without
    cdef double conflict_limit, propagation_limit, next_look
    cdef int stop_code  # index into STOPS
    cdef signed char* val  # per literal
    cdef int* level  # per variable
    cdef intptr_t* reason  # per variable (see cvec)
    cdef signed char* seen  # per variable
    cdef double* activity  # per variable
    cdef double* heap_key  # per variable
    cdef Heap heap
    cdef int* phase  # per variable
    cdef IntVec* bins  # per literal
    cdef TernVec* terns  # per literal
    cdef PtrVec* watches  # per literal
    cdef PtrVec clauses
    cdef PtrVec learnts  # each one's LBD in its block (clause_lbd): the reference's lbd list
    cdef PtrVec ternaries  # every ternary clause's block, freed with the engine
    cdef IntVec ctrail  # the reference's trail (the property trail lists it)
    cdef IntVec ctrail_lim  # the reference's trail_lim (the property trail_lim lists it)
    cdef int qhead
    cdef double var_inc
    cdef public bint ok
    cdef char* used  # per variable
    cdef long long simp_trail, bins_trail
    cdef long long decisions, propagations, conflicts, restarts, learnt_count, deleted
    cdef long long backjumped, levels_jumped
    cdef readonly object proof
    cdef int units_logged
    cdef IntVec assumed  # the reference's assumptions
    cdef object core_codes  # the reference's core
    cdef bint started, heap_stale, heap_after_assumptions, rescore_next, rescore_now
    cdef double conflicts_per_call
    cdef double next_reduce, reduce_interval
    # -- _init_search_modes --------------------------------------------------------------
    cdef bint stable
    cdef double var_decay, mode_length, next_switch, lbd_fast, lbd_slow
    cdef long long lbd_seen
    cdef bint use_target
    cdef long long call_conflicts
    cdef int* first_phase  # per variable
    cdef int* target  # per variable; target_len > 0: the reference's target is not None
    cdef int* best  # per variable; best_len > 0: the reference's best is not None
    cdef long long target_len, best_len, rephases
    cdef double next_rephase
    # -- the settings, read once -----------------------------------------------------------
    cdef double set_var_decay, set_focused_decay, set_restart_first, set_reduce_inc
    cdef double set_glue_lbd, set_random_var_freq, set_mode_growth, set_restart_margin
    cdef double set_restart_min, set_target_first, set_rephase_first, set_rescore_conflicts
    cdef int set_minimize, set_shrink, set_initial_phase, set_restart_mode, set_target_phase
    cdef bint seeded
    cdef object rng_random  # self.rng.random, bound once
    # -- scratch, kept between calls to spare allocations ----------------------------------
    cdef int bin_conflict[2]
    cdef IntVec learnt, found, kept, settled, marked, units, buffer
    cdef FrameVec frames
    cdef int* lvl_stamp  # per level (see ensure_levels)
    cdef int* lvl_count
    cdef int* lvl_fill
    cdef int lvl_cap
    cdef int stamp
    cdef char* lit_mark  # per literal, all zero between uses
    cdef int learnt_back, learnt_lbd

    cdef int read_settings(self, dict settings) except -1
    cdef int init_search_modes(self, dict settings) except -1
    cdef int resize(self, int num_vars) except -1
    cdef int ensure_levels(self, int top) except -1
    cdef void assign(self, int lit, intptr_t why) noexcept
    cdef int watch_from(self, PtrVec* clauses, int first) except -1
    cdef int drop_clause(self, int* c) noexcept
    cpdef bint in_time(self) except -1

