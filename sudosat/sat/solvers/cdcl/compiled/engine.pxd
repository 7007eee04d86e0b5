# cython: language_level=3
"""Declarations of :mod:`.engine`: the twin's public Engine."""

from sudosat.sat.solvers.cdcl.compiled.database cimport ClauseDatabase


cdef class Engine(ClauseDatabase):
    cdef bint within_budget(self) except -1
    cdef int search(self, double budget) except -1
    cdef bint note_lbd(self, int lbd) except -1
    cdef int switch_mode(self) except -1
    cdef bint target_wanted(self) noexcept
    cdef int next_assumption(self) except -3
    cdef bint prepare_first_call(self) except -1
    cdef int restart_loop(self) except -1
