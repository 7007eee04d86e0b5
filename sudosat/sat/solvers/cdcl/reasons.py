"""Clauses, reasons and proof steps as the engine stores them, and how to read a reason.

Literal codes (:mod:`sudosat.sat.solvers.codes`): variable ``v`` has codes
``2v`` (positive) and ``2v + 1`` (negative); ``lit ^ 1`` negates.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeAlias

from sudosat.sat.solvers.codes import Code

Clause = list[Code]  # a stored clause: literal codes, the two watched ones at positions 0 and 1
#: A clause as a reason or a conflict: a stored clause, or an input ternary clause's tuple.
Implication: TypeAlias = tuple[Code, ...] | Clause
#: What ``Engine.reason[v]`` holds, by kind (see :class:`ReasonKind`): None, a
#: binary clause's other literal, or an implication (the implied literal and false ones).
Reason: TypeAlias = Code | Implication | None


class ReasonKind(Enum):
    """Why a variable has its value; ``Engine.reason[v]`` holds one of these shapes.

    The shapes are told apart by their type, which costs nothing to store:
    an explicit tag per assignment would be one more store per implied literal
    in :meth:`Engine.propagate` (the hot loop). :func:`reason_kind` names the
    kind; :func:`reason_literals` gives the false literals of a reason.
    """

    DECISION = "decision"  # None: a decision, an assumption or a level-0 fact
    BINARY = "binary"  # an int: the other (false) literal of a binary clause
    CLAUSE = "clause"  # a sequence of the implied literal and false ones: a stored
    # clause (a list, watched, implied literal first) or an input ternary clause (the
    # tuple its occurrence entries share, implied literal at any position)


def reason_kind(reason: object) -> ReasonKind:
    """The kind of a reason (see :class:`ReasonKind`)."""
    if reason is None:
        return ReasonKind.DECISION
    return ReasonKind.BINARY if reason.__class__ is int else ReasonKind.CLAUSE


def reason_literals(reason: Code | Implication, implied: Code) -> Implication:
    """The false literals of a BINARY or CLAUSE reason of `implied` (all but that one).

    The hot loops (:meth:`Engine.analyze`, :meth:`Engine.minimize`,
    :meth:`Engine.redundant`) read a CLAUSE reason whole instead: its implied
    literal's variable is marked there, and skipped as such, wherever it sits.
    """
    if isinstance(reason, int):
        return (reason,)
    return tuple(q for q in reason if q != implied)


class ProofStep(Enum):
    """The kind of one DRAT step; the proof log holds ``(kind, codes)`` pairs."""

    ADD = ""
    DELETE = "d "

