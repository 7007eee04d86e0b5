# cython: language_level=3
"""Declarations of :mod:`.loader`: the twin's Loading layer."""

from sudosat.sat.solvers.cdcl.compiled.proof cimport ProofLog


cdef class Loading(ProofLog):
    cdef int code_of(self, int lit) except -1
    cdef int uniform_run(self, const int* flat, int start, int end_all) except -1
    cdef int add_clause_at(self, const int* flat, int start, int length) except -1
    cdef int add_binary(self, int a, int b) except -1
    cdef int add_long(self, int* lits, int size) except -1
    cdef int add_ternary(self, int a, int b, int c) except -1
