# cython: language_level=3
"""Declarations of :mod:`.propagation`: the twin's Propagation layer."""

from libc.stdint cimport intptr_t

from sudosat.sat.solvers.cdcl.compiled.loader cimport Loading


cdef class Propagation(Loading):
    cdef intptr_t propagate(self) except? -1
    cpdef cancel_until(self, int lvl)
