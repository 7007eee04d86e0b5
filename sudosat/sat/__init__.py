"""Boolean satisfiability, knowing nothing of Sudoku.

The CNF container (:mod:`.cnf`) and its text formats: DIMACS read into flat
arrays (:mod:`.dimacs`), the solvers' answer files (:mod:`.solutions`), the
Dartmouth clause-per-line format (:mod:`.dartmouth`) and partial assignments
(:mod:`.assignment`); at-most-one constraints (:mod:`.amo`) and classic test
formulas (:mod:`.formulas`); the one answer every solver gives
(:mod:`.result`); and the solvers themselves (:mod:`.solvers`). Nothing below
this folder imports a Sudoku module: a formula is a formula.
"""
