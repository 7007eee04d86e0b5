"""sudosat: Sudoku of any order reduced to SAT, solved by our own solvers and by zChaff."""

__version__ = "0.1.0"
