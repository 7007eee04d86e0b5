"""Running instances: one board end to end, a file of them, and where the work runs.

:mod:`.runner` solves one board (guard, encode, solve, decode, check) and
returns its results row; :mod:`.pipeline` solves one instance or one line and
names a batch's files; :mod:`.batch` turns a file of instance lines into an
output file per solver and a results table, on one of the executors of
:mod:`.executors` (this process, worker processes, Dask); :mod:`.results` the verdicts, rows and
tables; :mod:`.generate` makes puzzles and, solving them, proves uniqueness.
"""
