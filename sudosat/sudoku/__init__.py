"""Sudoku of order N and its reduction to SAT.

Boards and their formats (:mod:`.board`), the variable numberings of the
course and of the ``rcv`` convention (:mod:`.numbering`), the encodings and
decoding (:mod:`.encoding`), and solving many puzzles of one order with the
rules loaded once and the givens as assumptions (:mod:`.incremental`). The
encoder owns the numbering; the decoder and the checker use its inverse.
"""
