"""The studies the report shows: measurements over many generated boards.

:mod:`.scaling` solves a grid of order N and fill fraction alpha;
:mod:`.grid` is the report's N x alpha study built on it (its table, summary
and fits); :mod:`.heuristics` compares branching heuristics with paired
statistics; :mod:`.cache` keeps each unit of work keyed by code version and
parameters so that an unchanged rebuild recomputes nothing.
"""
