# cython: language_level=3
"""Declarations of :mod:`.database`: the twin's ClauseDatabase layer."""

from sudosat.sat.solvers.cdcl.compiled.analysis cimport Analysis
from sudosat.sat.solvers.cdcl.compiled.cvec cimport PtrVec


cdef class ClauseDatabase(Analysis):
    cdef bint locked(self, int* clause) noexcept
    cdef int reduce_db(self) except -1
    cdef int delete_clause(self, int* clause) except -1
    cdef int unwatch(self, PtrVec* dead) except -1
    cdef int simplify(self) except -1
    cdef int drop_satisfied_binaries(self) except -1
    cdef int simplify_list(self, PtrVec* clauses, bint learnt) except -1
