"""The scaling study's default grid, apart from the study so that the command line can
offer it without importing pandas (``sudosat study --help``)."""

DEFAULT_ORDERS = (3, 4, 5, 6)
"""Orders N of the boards."""
DEFAULT_ALPHAS = (0.0, 0.2, 0.4, 0.6)
"""Fractions of the cells given."""
DEFAULT_SOLVERS = ("cdcl", "pysat:cadical195")
"""Our solver and the reference it is compared with."""
DEFAULT_ENCODINGS = ("optimised",)
"""The encodings every board is solved in."""
