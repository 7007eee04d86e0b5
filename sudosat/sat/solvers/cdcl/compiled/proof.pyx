# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Twin of :mod:`sudosat.sat.solvers.cdcl.proof`'s ProofLog: the same DRAT steps, as Python.

The log is the reference's own shape, a Python list of ``(ProofStep, codes)``,
so the text is written by the reference's :func:`~sudosat.sat.solvers.cdcl.proof.drat_text`.
"""

from sudosat.errors import SolverError
from sudosat.sat.solvers.cdcl.proof import drat_text
from sudosat.sat.solvers.cdcl.reasons import ProofStep

ADD = ProofStep.ADD
DELETE = ProofStep.DELETE


cdef tuple codes_of(const int* lits, int size):
    """The literals as a tuple of ints: the reference's snapshot ``tuple(clause)``."""
    cdef int i
    return tuple([lits[i] for i in range(size)])


cdef class ProofLog(State):
    """The engine's DRAT log (the reference's ProofLog); ``proof`` is None without one."""

    cdef int log_add(self, const int* lits, int size) except -1:
        """Record one DRAT addition (a snapshot). Pre: ``proof`` is not None."""
        self.proof.append((ADD, codes_of(lits, size)))
        return 0

    cdef int log_delete(self, const int* lits, int size) except -1:
        """Record one DRAT deletion (a copy). Pre: ``proof`` is not None."""
        self.proof.append((DELETE, codes_of(lits, size)))
        return 0

    cdef int log_level0_units(self) except -1:
        """Record every level-0 literal not recorded yet as a unit; nothing without a log."""
        if self.proof is None:
            return 0
        cdef int limit = self.ctrail_lim.data[0] if self.ctrail_lim.size else self.ctrail.size
        cdef int i
        for i in range(self.units_logged, limit):
            self.proof.append((ADD, (self.ctrail.data[i],)))
        self.units_logged = max(self.units_logged, limit)
        return 0

    def proof_text(self, inputs=None):
        """The DRAT proof so far as text, ending with the empty clause (see drat_text).

        Raises :class:`SolverError` when the engine logs no proof.
        """
        if self.proof is None:
            raise SolverError("cdcl: this solver was made without proof=True")
        lit_str = ["0", "0"]
        for v in range(1, self.num_vars + 1):
            lit_str += [str(v), str(-v)]
        return drat_text(self.proof, lit_str, inputs)
