# cython: language_level=3
"""Declarations of :mod:`.heuristic`: the twin's Heuristic layer."""

from sudosat.sat.solvers.cdcl.compiled.propagation cimport Propagation


cdef class Heuristic(Propagation):
    cdef int init_heap(self) except -1
    cdef int init_activity(self) except -1
    cdef int occurrence_activity(self) except -1
    cdef int jw_products(self, double* scores) except -1
    cdef int jw_activity(self, double most) except -1
    cdef int rebuild_heap(self) except -1
    cdef int pick_branch_lit(self) except -2
    cdef int random_pick(self) except -2
    cdef int note_consistent(self, int size) except -1
    cdef int rephase(self) except -1
    cdef int rescale(self) except -1
    cdef int rescore(self) except -1
    cdef int trim_heap(self) except -1
