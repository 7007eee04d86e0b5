# cython: language_level=3
"""Declarations of :mod:`.proof`: the twin's ProofLog layer."""

from sudosat.sat.solvers.cdcl.compiled.state cimport State


cdef class ProofLog(State):
    cdef int log_add(self, const int* lits, int size) except -1
    cdef int log_delete(self, const int* lits, int size) except -1
    cdef int log_level0_units(self) except -1
