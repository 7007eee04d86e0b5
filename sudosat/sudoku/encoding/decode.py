"""Other numberings of a full encoding, and the checked decoder of models read from files."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from itertools import chain

from sudosat.errors import DecodeError, EncodingError
from sudosat.sat.cnf import CNF
from sudosat.sudoku.board import Board, check_solution
from sudosat.sudoku.encoding.build import encode
from sudosat.sudoku.encoding.core import Encoded, Lit, get_encoding
from sudosat.sudoku.encoding.sizes import estimate
from sudosat.sudoku.numbering import get_numbering


def encode_numbered(board: Board, encoding: str = "course", numbering: str = "course") -> CNF:
    """The CNF of ``encode(board, encoding)`` with its cell variables in another numbering.

    Cell variables take their number in `numbering` (see :mod:`sudosat.sudoku.numbering`);
    auxiliary variables of the ``-seq``/``-product`` encodings follow its highest
    cell variable. The ``rcv`` numbering of the ``extended`` encoding's rules is
    the "SAT -Sn" assignment's ``sudoku-rules-9x9.txt`` (as a set of clauses).

    Raises
    ------
    EncodingError
        An unknown encoding or numbering, or a reduced encoding (it numbers its
        own variables) with a numbering other than ``course``.

    Examples
    --------
    >>> encode_numbered(Board.parse("1 0"), "course", "rcv").clauses
    ((111,),)
    """
    encoded = encode(board, encoding)
    number = get_numbering(numbering, board.order)
    if number.name == "course":
        return encoded.cnf
    if get_encoding(encoding).reduced:
        raise EncodingError(
            f"the {encoded.encoding} encoding numbers the open candidates itself; "
            f"it has no {numbering} numbering (use course, minimal or extended)"
        )
    cells = encoded.num_cell_vars
    shift = number.top - cells
    table = array("i", chain((0,), map(number.from_course, range(1, cells + 1))))
    table.extend(range(cells + 1 + shift, encoded.num_vars + 1 + shift))
    flat = array("i", (table[lit] if lit > 0 else -table[-lit] for lit in encoded.cnf.flat))
    cnf = CNF.from_flat(flat, encoded.num_vars + shift)
    cnf.comments = [f"sudosat {encoded.encoding} encoding, order {board.order}, "
                    + number.describe()]
    return cnf


def _values(model: Iterable[Lit] | dict[int, bool]) -> dict[int, bool]:
    """A model as {variable: value}; a variable given both values is an error."""
    if isinstance(model, dict):
        return model
    values: dict[int, bool] = {}
    for lit in model:
        if values.setdefault(abs(lit), lit > 0) != (lit > 0):
            raise DecodeError(f"the model gives variable {abs(lit)} both values")
    return values


def decode_model(
    model: Iterable[Lit] | dict[int, bool],
    order: int,
    *,
    encoding: str = "course",
    numbering: str = "course",
    instance: Board | None = None,
    num_vars: int | None = None,
) -> Board:
    """The board a model describes, or an error: never a board the model does not mean.

    Unlike :meth:`Encoded.decode` (lenient, for models our own solvers just
    checked against the formula), this reads models from files and refuses
    what does not fit the order, encoding and numbering it is told:

    * a model over fewer variables than the encoding's (`num_vars`, the
      model's declared count, when known), or one that gives no value to a
      variable of the encoding;
    * for a full encoding, a true variable beyond the encoding's, or a
      count of a larger board (:func:`check_model_count`); false extra
      variables say nothing and are accepted (the VU 16×16 rules declare
      5832 variables and use 4912);
    * a cell that holds no symbol or two;
    * a board that breaks a rule, or a given of `instance`.

    Parameters
    ----------
    model : iterable of int or dict
        Signed literals, or ``{variable: value}`` (a partial assignment such
        as a ``SAT -Sn`` ``.out``: every variable of the encoding must appear).
    order : int
    encoding : str
        A registered name. The reduced (``optimised``) encodings number the
        candidates the givens leave open, so they need `instance`.
    numbering : str
        ``course`` or ``rcv`` (full encodings only).
    instance : Board, optional
        The puzzle the formula encodes; its givens are checked.
    num_vars : int, optional
        The variable count the solution file declares.

    Raises
    ------
    DecodeError
        With the reason. EncodingError for an unknown encoding or numbering.

    Examples
    --------
    >>> decode_model([1], 1).to_line()
    '1 1'
    >>> decode_model([1, 2], 1)
    Traceback (most recent call last):
    ...
    sudosat.errors.DecodeError: the model is over 2 variables; an order-1 course encoding \
in the course numbering has 1, and variable 2, beyond the 1 variables, is true \
(wrong --order, --numbering or --encoding?)
    """
    spec = get_encoding(encoding)
    values = _values(model)
    if num_vars is not None and num_vars < model_size(order, encoding, numbering, instance):
        check_model_count(num_vars, order, encoding, numbering, instance)
    if instance is not None and instance.order != order:
        raise DecodeError(f"the instance has order {instance.order}, not {order}")
    what = _model_name(order, spec.name, numbering, instance)
    if spec.reduced:
        if num_vars is not None:
            check_model_count(num_vars, order, encoding, numbering, instance)
        encoded = encode(_check_reduced(spec.name, numbering, instance), spec.name)
        _check_variables(values, range(1, encoded.num_vars + 1), encoded.num_vars, what)
        cells = _reduced_cells(encoded, values)
    else:
        _check_full_model(values, order, spec.name, numbering, num_vars)
        cells = _full_cells(get_numbering(numbering, order), values)
    board = _board_of(order, cells)
    problem = check_solution(instance or Board.empty(order), board)
    if problem:
        against = "a solution of the instance" if instance is not None else "a solved board"
        raise DecodeError(f"the decoded board is not {against}: {problem}")
    return board


_NEEDS_INSTANCE = (
    "the {} encoding numbers only the candidates the givens leave open, so its model "
    "can be decoded only with the instance (pass --instance FILE --line K)"
)
_HINT = "(wrong --order, --numbering or --encoding?)"


def model_size(order: int, encoding: str = "course", numbering: str = "course",
               instance: Board | None = None) -> int:
    """The variable count V of a model of this encoding (its highest variable).

    For the ``rcv`` numbering that is the highest cell name plus any auxiliary
    variables (999 for a 9×9 course encoding), not the number of cells.

    Raises
    ------
    DecodeError
        A reduced encoding without `instance`, or with a numbering other than course.

    Examples
    --------
    >>> model_size(3), model_size(3, "course", "rcv"), model_size(3, "course-seq", "rcv")
    (729, 999, 3591)
    """
    spec = get_encoding(encoding)
    if spec.reduced:
        return estimate(_check_reduced(spec.name, numbering, instance), spec.name)["variables"]
    number = get_numbering(numbering, order)
    return estimate(Board.empty(order), spec.name)["variables"] - number.count + number.top


def check_model_count(count: int, order: int, encoding: str = "course",
                      numbering: str = "course", instance: Board | None = None,
                      noun: str = "model") -> None:
    """Refuse a variable count that no model of this order, encoding and numbering has.

    A reduced encoding numbers exactly its variables: the count must be its
    :func:`model_size`. A full encoding's model is over V(N) =
    ``model_size(N, ...)`` variables, and a file may declare more, up to but
    not including V(N+1): the VU assignment's 16×16 rules file declares
    5832 = 18³ variables for the 4912 rcv names it uses, while a count of
    V(N+1) or more is a larger board's (or another numbering's). So every
    count belongs to at most one order (:func:`model_order`).

    Raises
    ------
    DecodeError
        Naming the count, what the encoding has, and the likely mistake.

    Examples
    --------
    >>> check_model_count(5832, 4, numbering="rcv")
    >>> check_model_count(999, 2, numbering="rcv")
    Traceback (most recent call last):
    ...
    sudosat.errors.DecodeError: the model is over 999 variables; an order-2 course encoding \
in the rcv numbering has 444, and 999 or more are an order-3 model's \
(wrong --order, --numbering or --encoding?)
    """
    total = model_size(order, encoding, numbering, instance)
    what = _model_name(order, encoding, numbering, instance)
    if count < total or (count > total and get_encoding(encoding).reduced):
        raise DecodeError(f"the {noun} is over {count} variables; {what} has {total} {_HINT}")
    if get_encoding(encoding).reduced:
        return
    larger = model_size(order + 1, encoding, numbering)
    if count >= larger:
        raise DecodeError(f"the {noun} is over {count} variables; {what} has {total}, and "
                          f"{larger} or more are an order-{order + 1} model's {_HINT}")


def model_order(count: int, encoding: str = "course", numbering: str = "course") -> int | None:
    """The one order whose models of a full encoding may be over `count` variables, or None.

    That is the N with V(N) <= `count` < V(N+1) (see :func:`check_model_count`):
    999 in the rcv numbering is order 3, and so is the course numbering's 729
    = 3⁶. None when `count` is below an order-1 model's size.

    Examples
    --------
    >>> model_order(999, numbering="rcv"), model_order(5832, numbering="rcv"), model_order(729)
    (3, 4, 3)
    >>> model_order(100, numbering="rcv") is None
    True
    """
    if count < model_size(1, encoding, numbering):
        return None
    order = 1
    while model_size(order + 1, encoding, numbering) <= count:
        order += 1
    return order


def _check_reduced(encoding: str, numbering: str, instance: Board | None) -> Board:
    """The instance a reduced encoding's model needs (it is read in the course numbering)."""
    if instance is None:
        raise DecodeError(_NEEDS_INSTANCE.format(encoding))
    if numbering != "course":
        raise DecodeError(f"the {encoding} encoding has no {numbering} numbering")
    return instance


def _model_name(order: int, encoding: str, numbering: str, instance: Board | None) -> str:
    if get_encoding(encoding).reduced:
        return f"the {encoding} encoding of this instance"
    return f"an order-{order} {encoding} encoding in the {numbering} numbering"


def _check_full_model(values: dict[int, bool], order: int, encoding: str, numbering: str,
                      num_vars: int | None) -> None:
    """Refuse a model of a full encoding that says more or less than the encoding's variables.

    Its count is the declared one, or its largest variable when it declares
    none (a competition or Dartmouth model).
    """
    number = get_numbering(numbering, order)
    total = model_size(order, encoding, numbering)
    extent = max(num_vars or 0, max(values, default=0))
    what = _model_name(order, encoding, numbering, None)
    _check_no_true_beyond(values, total, extent, what)
    _check_variables(values, chain(number.variables(), range(number.top + 1, total + 1)),
                     extent, what)
    check_model_count(extent, order, encoding, numbering)


def _check_no_true_beyond(values: dict[int, bool], total: int, extent: int, what: str) -> None:
    """Refuse a model that sets a variable beyond the encoding's `total` true.

    A true variable there says something (a cell of a larger board, an
    auxiliary variable of another encoding) that this reading would drop.
    """
    beyond = [var for var, value in values.items() if value and var > total]
    if beyond:
        raise DecodeError(
            f"the model is over {extent} variables; {what} has {total}, and variable "
            f"{min(beyond)}, beyond the {total} variables, is true {_HINT}"
        )


def _check_variables(values: dict[int, bool], needed: Iterable[int], total: int,
                     what: str) -> None:
    """Refuse a model whose variables are not those of the encoding (`total`: its count)."""
    beyond = max(values, default=0)
    if beyond > total:
        raise DecodeError(
            f"the model assigns variable {beyond}, beyond the {total} variables of {what} {_HINT}"
        )
    for var in needed:
        if var not in values:
            raise DecodeError(f"the model gives no value to variable {var} of {what} {_HINT}")


def _full_cells(number, values: dict[int, bool]) -> list[list[int]]:
    """The true symbols of every cell, cell variables in `number`'s numbering."""
    size = number.size
    cells: list[list[int]] = [[] for _ in range(size * size)]
    for var, value in values.items():
        if value:
            meaning = number.cell_of(var)
            if meaning is not None:
                i, j, d = meaning
                cells[i * size + j].append(d)
    return cells


def _reduced_cells(encoded: Encoded, values: dict[int, bool]) -> list[list[int]]:
    """True symbols per cell of a reduced encoding; a given counts as its cell's one symbol."""
    size = encoded.board.size
    cells: list[list[int]] = [[value] if value else [] for value in encoded.board.cells]
    for var in range(1, encoded.num_cell_vars + 1):
        meaning = encoded.meaning(var)
        if values[var] and meaning is not None:
            i, j, d = meaning
            cells[i * size + j].append(d)
    return cells


def _board_of(order: int, cells: list[list[int]]) -> Board:
    """The board whose cells each hold exactly one symbol; DecodeError naming a cell otherwise."""
    size = order * order
    for index, symbols in enumerate(cells):
        where = f"cell ({index // size + 1}, {index % size + 1})"
        if not symbols:
            raise DecodeError(f"in the model, {where} holds no symbol")
        if len(symbols) > 1:
            shown = " and ".join(map(str, sorted(symbols)[:2]))
            raise DecodeError(f"in the model, {where} holds two symbols, {shown}")
    return Board(order, [symbols[0] for symbols in cells])
