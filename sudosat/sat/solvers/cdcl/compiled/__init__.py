"""The compiled twin of the cdcl engine: the same search over flat C arrays, in Cython.

The pure-Python engine (:mod:`sudosat.sat.solvers.cdcl.engine` and its
layers) is the specification. This package does exactly the same search,
decision for decision: the same answers, models, counters, budget stops and
DRAT proof steps, only faster (every table a flat C array, every loop typed
C). It mirrors the reference file by file, one concern per module, each
module's docstring naming the reference module it mirrors:

* ``cvec.pxd`` — growable C vectors, the clause blocks, the reason tags and
  the lazy VSIDS heap every other module is built of (the reference's lists);
* ``state`` — :mod:`~sudosat.sat.solvers.cdcl.state`: the tables, growth, the clock;
* ``proof`` — the ProofLog layer of :mod:`~sudosat.sat.solvers.cdcl.proof` (the log is
  the reference's own list of steps, so its text is the reference's too);
* ``loader`` — :mod:`~sudosat.sat.solvers.cdcl.loader` (clause by clause:
  the reference's run cache builds the same tables, faster in Python only);
* ``propagation``, ``heuristic``, ``analysis``, ``database``, ``engine`` —
  the reference modules of the same names; ``engine`` holds the public
  :class:`Engine` and :func:`unsupported`, the settings the twin leaves to
  the reference (``chrono`` other than backjump, ``vivify``, ``tier2_lbd``).

The twin is optional: it is built from Cython where a C compiler exists, and
:mod:`sudosat.sat.solvers.cdcl.cores` runs the reference wherever it is not
built or the settings are not its own.
"""
