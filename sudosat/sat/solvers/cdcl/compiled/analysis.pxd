# cython: language_level=3
"""Declarations of :mod:`.analysis`: the twin's Analysis layer."""

from libc.stdint cimport intptr_t

from sudosat.sat.solvers.cdcl.compiled.heuristic cimport Heuristic


cdef class Analysis(Heuristic):
    cdef int analyze(self, intptr_t confl) except -1
    cdef int finish_learnt(self, int asserting, unsigned int abstract) except -1
    cdef int next_stamp(self) except -1
    cdef int count_levels(self, int* best, int* top) except -1
    cdef int shrink(self, int top) except -1
    cdef int block_uip(self, int lv, int count) except -2
    cdef int minimize(self, unsigned int abstract) except -1
    cdef bint locally_redundant(self, int q) noexcept
    cdef bint redundant(self, int p, unsigned int abstract) except -1
    cdef int record(self) except -1
    cdef list analyze_final(self, int p)
