"""The compiled twin of cdcl against the reference: the same search, call for call.

The pure-Python engine is the specification; the twin
(:mod:`sudosat.sat.solvers.cdcl.compiled`) must do the same search decision for
decision. Each case drives two :class:`Solver` objects through the same calls,
one made with ``core="python"``, one with ``core="compiled"`` (each checked to
run the core it asked for), and compares everything either shows: each answer's
status, model, counters, stop and core, the proof text, the trail and its levels
after each call, the engine's own counters and, at the end, the proof log step
by step.

The corpus: Sudoku of orders 1-5 in every encoding and both numberings,
orders 6 and 7 under a conflict budget, random 3-SAT (satisfiable and not),
pigeonhole formulas, degenerate formulas (empty clauses, units, repeated
literals, tautologies, a huge clause), incremental sequences (assumptions,
failed assumptions and their cores, clauses added between calls, forgotten
learnt clauses, next questions), every work budget at many values, a clock
that counts its own readings, and non-default settings. The unmarked cases
take a few seconds; the rest are ``slow``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest

from sudosat.errors import SolverError
from sudosat.sat.cnf import CNF
from sudosat.sat.formulas import pigeonhole, random_kcnf
from sudosat.sat.result import Status, Stop
from sudosat.sat.solvers.budget import Deadline
from sudosat.sat.solvers.cdcl.solver import Solver
from sudosat.sat.solvers.cdcl.tunables import TUNABLES

twin = pytest.importorskip(
    "sudosat.sat.solvers.cdcl.compiled.engine",
    reason="the compiled cdcl core is not built here (no C compiler at install)",
)

COUNTERS = ("decisions", "propagations", "conflicts", "restarts", "learnt", "deleted",
            "backjumped", "levels_jumped")

#: Non-default settings the twin implements, spread over the corpus in turn ("seed" and
#: "proof" are the Solver's own arguments).
SETTINGS: list[dict] = [
    {},
    {"proof": True},
    {"restart_mode": "glucose"},
    {"restart_mode": "alternate", "mode_first": 30, "mode_growth": 1.5},
    {"rephase_first": 20},
    {"target_phase": "always", "target_first": 5},
    {"target_phase": "never"},
    {"minimize": "local"},
    {"minimize": "none"},
    {"shrink": 0},
    {"seed": 7},
    {"seed": 3, "random_var_freq": 0.05},
    {"initial_phase": "true"},
    {"initial_phase": "false"},
    {"reduce_first": 30, "reduce_inc": 10, "glue_lbd": 0},
    {"var_decay": 0.8, "restart_first": 10},
    {"restart_mode": "glucose", "restart_margin": 1.3, "restart_min": 5, "focused_decay": 0.8},
    {"rescore_conflicts": 0},
    {"check_model": 0, "proof": True, "restart_mode": "alternate", "mode_first": 10},
]

# A script is a list of steps: ("add", cnf), ("load", cnf[, deadline maker]), ("solve",
# assumptions[, keywords]), ("forget", keep_lbd), ("next", keep_lbd). A deadline is given by
# a function that makes it, called in each run: its clock may count its own readings.
Script = list[tuple]


def make_solver(core: str, options: dict) -> Solver:
    """A fresh solver on `core`, chosen as a user chooses it (``Solver(core=...)``); every
    setting of the corpus is the twin's own, so ``compiled`` runs the twin."""
    options = dict(options)
    seed, proof = options.pop("seed", 0), options.pop("proof", False)
    solver = Solver(core=core, seed=seed, proof=proof, **options)
    assert solver.core.name == core, solver.core.reason
    return solver


def play(core: str, script: Script, options: dict) -> list:
    """What a solver shows through `script`, step by step, then its proof log."""
    solver = make_solver(core, options)
    shown: list = []
    for step in script:
        kind, engine = step[0], solver._engine
        if kind == "add":
            solver.append_formula(step[1])
            shown.append((list(engine.trail), engine.ok, solver.num_vars))
        elif kind == "load":
            shown.append(solver.load(step[1], step[2]() if len(step) > 2 else Deadline(None)))
            if not shown[-1]:
                break  # out of time: the solver holds part of the formula, to be deleted
        elif kind == "solve":
            keywords = {key: value() if callable(value) else value  # a fresh deadline each
                        for key, value in (step[2] if len(step) > 2 else {}).items()}
            result = solver.solve(list(step[1]), **keywords)
            shown.append((result.status, result.model, {k: result.stats[k] for k in COUNTERS},
                          result.stop, solver.get_core(), result.proof, list(engine.trail),
                          list(engine.trail_lim), list(engine.assumptions), engine.counters()))
        elif kind == "forget":
            shown.append(solver.forget_learnts(step[1]))
        elif kind == "next":
            shown.append(solver.next_question(step[1]))
    engine = solver._engine
    shown.append(None if engine.proof is None else list(engine.proof))
    return shown


def first_difference(reference: list, compiled: list, script: Script) -> str:
    """Where the two traces part, for the failure message."""
    for at, (a, b) in enumerate(zip(reference, compiled, strict=True)):
        if a != b:
            step = script[at][0] if at < len(script) else "the proof log"
            if isinstance(a, tuple) and isinstance(b, tuple):
                fields = [f"field {k}: {x!r:.200} != {y!r:.200}"
                          for k, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
                return f"step {at} ({step}): " + "; ".join(fields)
            return f"step {at} ({step}): {a!r:.300} != {b!r:.300}"
    return "no difference"


def assert_same(script: Script, options: dict | None = None) -> list:
    """Run `script` on both cores; they must show exactly the same. Returns the trace."""
    options = options or {}
    reference = play("python", script, options)
    compiled = play("compiled", script, options)
    assert reference == compiled, first_difference(reference, compiled, script)
    return reference


def one_call(cnf: CNF, **keywords) -> Script:
    return [("add", cnf), ("solve", [], keywords)]


# -- the corpus ---------------------------------------------------------------------------


@cache
def board(order: int, alpha: float, seed: int):
    from sudosat.run.generate import generate

    return generate(order, alpha, seed=seed)


def sudoku(order: int, alpha: float, seed: int, encoding: str, numbering: str = "course") -> CNF:
    from sudosat.sudoku.encoding.decode import encode_numbered

    return encode_numbered(board(order, alpha, seed), encoding, numbering)


def sudoku_cases() -> list[tuple]:
    """(order, alpha, seed, encoding, numbering, max_conflicts) for orders 1-5, every
    encoding, both numberings where the encoding has them."""
    from sudosat.sudoku.encoding.core import ENCODINGS, get_encoding

    cases = []
    for order, seeds, alphas, budget in ((1, (1,), (0.0, 1.0), None), (2, (1, 2), (0.0, 0.3), None),
                                         (3, (1, 2), (0.2, 0.4), None), (4, (1,), (0.3,), 3000),
                                         (5, (1,), (0.4,), 1500)):
        for encoding in ENCODINGS:
            for numbering in ("course", "rcv"):
                if numbering == "rcv" and get_encoding(encoding).reduced:
                    continue
                cases += [(order, alpha, seed, encoding, numbering, budget)
                          for seed in seeds for alpha in alphas]
    return cases


SUDOKU = sudoku_cases()
FAST_SUDOKU = [c for c in SUDOKU if c[0] <= 3 and c[2] == 1 and c[3] in ("course", "optimised")]


def settings_for(index: int) -> dict:
    return SETTINGS[index % len(SETTINGS)]


@pytest.mark.parametrize("case", FAST_SUDOKU, ids=str)
def test_small_sudoku(case):
    order, alpha, seed, encoding, numbering, budget = case
    cnf = sudoku(order, alpha, seed, encoding, numbering)
    assert_same(one_call(cnf, max_conflicts=budget), settings_for(SUDOKU.index(case)))


@pytest.mark.slow
@pytest.mark.parametrize("case", SUDOKU, ids=str)
def test_sudoku_every_encoding_and_numbering(case):
    order, alpha, seed, encoding, numbering, budget = case
    cnf = sudoku(order, alpha, seed, encoding, numbering)
    index = SUDOKU.index(case)
    assert_same(one_call(cnf, max_conflicts=budget), settings_for(index))
    if order <= 3:  # a second setting on the small ones
        assert_same(one_call(cnf), settings_for(index + 7))


@pytest.mark.slow
@pytest.mark.parametrize(("order", "seed", "budget"),
                         [(6, seed, 3000) for seed in range(1, 10)] + [(7, 1, 800), (7, 2, 800)])
def test_big_boards_under_a_conflict_budget(order, seed, budget):
    cnf = sudoku(order, 0.4, seed, "optimised")
    trace = assert_same(one_call(cnf, max_conflicts=budget), {"proof": seed % 3 == 0})
    assert trace[1][0] in (Status.SAT, Status.UNKNOWN)


def random_formulas(count: int, seed: int) -> list[CNF]:
    rng = random.Random(seed)
    formulas = []
    for _ in range(count):
        num_vars = rng.choice((10, 20, 40, 60, 80, 100))
        ratio = rng.choice((3.0, 4.0, 4.26, 4.5, 5.5))
        formulas.append(random_kcnf(rng, num_vars, int(num_vars * ratio)))
    return formulas


RANDOM = random_formulas(160, seed=2026)


@pytest.mark.parametrize("index", range(12))
def test_random_3sat(index):
    assert_same(one_call(RANDOM[index]), settings_for(index))


@pytest.mark.slow
@pytest.mark.parametrize("index", range(12, len(RANDOM)))
def test_random_3sat_more(index):
    assert_same(one_call(RANDOM[index]), settings_for(index))


def test_the_random_corpus_holds_both_answers():
    answers = {play("compiled", one_call(cnf), {})[1][0] for cnf in RANDOM[:40]}
    assert answers == {Status.SAT, Status.UNSAT}


@pytest.mark.parametrize("pigeons", range(2, 7))
def test_pigeonhole_with_proofs(pigeons):
    trace = assert_same(one_call(pigeonhole(pigeons)), {"proof": True})
    assert trace[1][0] is Status.UNSAT
    assert trace[1][5].splitlines()[-1] == "0"  # the proof ends with the empty clause


@pytest.mark.slow
@pytest.mark.parametrize("pigeons", range(2, 9))
@pytest.mark.parametrize("settings", range(0, len(SETTINGS), 3))
def test_pigeonhole_in_settings(pigeons, settings):
    assert_same(one_call(pigeonhole(pigeons), max_conflicts=4000), settings_for(settings))


# -- degenerate formulas --------------------------------------------------------------------


def degenerate(rng: random.Random) -> CNF:
    """A small formula with whatever the loader must take: empty clauses, units, repeated
    literals, tautologies, ternary and long clauses, unused variables."""
    num_vars = rng.randint(1, 12)
    clauses = []
    for _ in range(rng.randint(0, 40)):
        width = rng.choice((0, 1, 2, 2, 2, 3, 3, 3, 4, 5, 7))
        if width == 0 and rng.random() < 0.9:
            continue
        clause = [rng.choice((-1, 1)) * rng.randint(1, num_vars) for _ in range(width)]
        if clause and rng.random() < 0.2:
            clause.append(clause[0])
        if clause and rng.random() < 0.05:
            clause.append(-clause[0])
        clauses.append(clause)
    return CNF(clauses, num_vars=num_vars + rng.randint(0, 3))


def degenerate_script(seed: int) -> tuple[Script, dict]:
    rng = random.Random(seed)
    cnf = degenerate(rng)
    script: Script = [("add", cnf), ("solve", [])]
    if rng.random() < 0.5:
        top = cnf.num_vars + 1
        script += [("solve", [rng.choice((-1, 1)) * rng.randint(1, top) for _ in range(3)]),
                   ("add", degenerate(rng)), ("solve", [])]
    return script, rng.choice(({}, {"proof": True}, {"seed": 2}, {"minimize": "local"}))


@pytest.mark.parametrize("seed", range(30))
def test_degenerate_formulas(seed):
    assert_same(*degenerate_script(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30, 230))
def test_degenerate_formulas_more(seed):
    assert_same(*degenerate_script(seed))


@pytest.mark.parametrize("size", [0x3FFF, 0x4000, 20000])
def test_a_huge_clause_and_the_loader_shapes(size):
    clauses = [list(range(1, size + 1)), [-1, -2], [-3, 4, 5], [1, 1, 2, 2], [6, -6, 7], [8, 8, 8],
               [2, 3], [-2, 3], [3, 4]] + [[-v, v + 1] for v in range(5, 60)]
    cnf = CNF(clauses, num_vars=size)
    assert_same([("load", cnf), ("solve", []), ("solve", [-3, 9])])


def test_empty_and_contradictory_formulas():
    for clauses in ([], [[]], [[1], [-1]], [[1, -1]], [[2, 2], [-2]], [[1, 2, 3], []]):
        assert_same(one_call(CNF(clauses, num_vars=3)), {"proof": True})


# -- incremental use ------------------------------------------------------------------------


def givens_of(order: int, seed: int) -> list[int]:
    from sudosat.sudoku.encoding import encode

    return [c[0] for c in encode(board(order, 0.35, seed), "course").cnf.clauses if len(c) == 1]


def sudoku_session(order: int, puzzles: int) -> Script:
    """The rules once, then puzzle after puzzle by assumptions, with failures, budgets,
    next questions, forgotten learnt clauses and clauses added between calls."""
    from sudosat.sudoku.encoding import encode

    script: Script = [("add", encode(board(order, 0.0, 1), "course").cnf)]
    for seed in range(1, puzzles + 1):
        givens = givens_of(order, seed)
        script += [("solve", givens), ("solve", givens[: len(givens) // 2]),
                   ("solve", [*givens, -givens[0]]), ("solve", givens, {"max_conflicts": 2}),
                   ("next", seed % 3)]
        if seed == 2:
            script += [("forget", 0), ("add", CNF([[givens[1], givens[2]]])),
                       ("add", CNF([[-givens[3]]]))]
    return script


@pytest.mark.parametrize("settings", [{}, {"proof": True}])
def test_incremental_sudoku(settings):
    assert_same(sudoku_session(2, 3), settings)


@pytest.mark.slow
@pytest.mark.parametrize("settings", [{}, {"proof": True}, {"rescore_conflicts": 0}, {"seed": 9},
                                      {"restart_mode": "alternate", "mode_first": 10}])
def test_incremental_sudoku_order_3(settings):
    assert_same(sudoku_session(3, 5), settings)


def random_session(seed: int) -> tuple[Script, dict]:
    """Random 3-SAT, then calls with random assumptions (some beyond its variables) and
    budgets, clauses added, learnt clauses forgotten, next questions."""
    rng = random.Random(seed)
    num_vars = rng.choice((20, 40, 60))
    script: Script = [("add", random_kcnf(rng, num_vars, int(num_vars * 3.8)))]
    for _ in range(6):
        assumptions = [rng.choice((-1, 1)) * rng.randint(1, num_vars + 3)
                       for _ in range(rng.randint(0, 6))]
        budget = rng.choice(({}, {"max_conflicts": rng.randint(0, 30)},
                             {"max_propagations": rng.randint(0, 3000)}))
        script.append(("solve", assumptions, budget))
        if rng.random() < 0.5:
            added = [[rng.choice((-1, 1)) * rng.randint(1, num_vars + 5)
                      for _ in range(rng.randint(1, 5))] for _ in range(rng.randint(1, 5))]
            script.append(("add", CNF(added)))
        if rng.random() < 0.3:
            script.append(("forget", rng.randint(0, 4)))
        if rng.random() < 0.3:
            script.append(("next", rng.randint(0, 4)))
    return script, rng.choice(({}, {"proof": True}, {"seed": 4}, {"rescore_conflicts": 0},
                               {"restart_mode": "glucose"}))


@pytest.mark.parametrize("seed", range(4))
def test_incremental_random(seed):
    assert_same(*random_session(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4, 60))
def test_incremental_random_more(seed):
    assert_same(*random_session(seed))


# -- budgets and the clock ------------------------------------------------------------------

CONFLICT_BUDGETS = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 377]
PROPAGATION_BUDGETS = [0, 1, 2, 5, 10, 50, 100, 255, 256, 257, 500, 1000, 5000, 20000]


def budget_formulas() -> list[CNF]:
    return [RANDOM[3], pigeonhole(6), sudoku(3, 0.2, 1, "course")]


@pytest.mark.parametrize("budget", [{"max_conflicts": 3}, {"max_propagations": 100}])
def test_a_budget_stops_both_at_the_same_point(budget):
    trace = assert_same([("add", pigeonhole(6)), ("solve", [], budget), ("solve", [])])
    assert trace[1][3] in (Stop.CONFLICTS, Stop.PROPAGATIONS)


@pytest.mark.slow
@pytest.mark.parametrize("formula", range(3))
@pytest.mark.parametrize("budget", [("max_conflicts", n) for n in CONFLICT_BUDGETS]
                         + [("max_propagations", n) for n in PROPAGATION_BUDGETS], ids=str)
def test_every_budget(formula, budget):
    cnf = budget_formulas()[formula]
    assert_same([("add", cnf), ("solve", [], dict([budget])), ("solve", [], dict([budget])),
                 ("solve", [])], {"proof": formula == 1})


def counting_deadline(at: int) -> Callable[[], Deadline]:
    """A deadline whose clock is its own readings (1, 2, 3, ...): passed at the at-th."""

    def make() -> Deadline:
        deadline = Deadline(None)
        readings = iter(range(1, 10**9))
        deadline.now = lambda: float(next(readings))
        deadline.at = float(at)
        return deadline

    return make


@pytest.mark.parametrize(("at", "loaded"), [(1, False), (2, False), (3, False), (8, True),
                                            (40, True)])
def test_the_clock_is_read_where_the_reference_reads_it(at, loaded):
    cnf = sudoku(3, 0.2, 1, "course")
    deadline = counting_deadline(at)
    trace = assert_same([("load", cnf, deadline), ("solve", [], {"deadline": deadline})])
    # The first few readings end the load; from the 8th on, the search has time to answer.
    assert trace[0] is loaded
    if loaded:
        assert trace[1][0] is Status.SAT and trace[1][3] is Stop.ANSWERED


@pytest.mark.slow
@pytest.mark.parametrize("at", [1, 2, 3, 4, 5, 6, 8, 11, 15, 20, 30, 50])
@pytest.mark.parametrize("formula", range(4))
def test_the_clock_everywhere(at, formula):
    cnf = [sudoku(4, 0.2, 2, "course"), random_kcnf(random.Random(3), 150, 640), pigeonhole(8),
           sudoku(5, 0.4, 1, "optimised")][formula]
    deadline = counting_deadline(at)
    assert_same([("load", cnf, deadline), ("solve", [], {"deadline": deadline})])
    assert_same([("add", cnf), ("solve", [], {"deadline": deadline}),
                 ("solve", [], {"deadline": deadline})], {"proof": formula == 2})


# -- the interface ----------------------------------------------------------------------------


def test_unsupported_settings_are_named():
    defaults = {name: tunable.default for name, tunable in TUNABLES.items()}
    assert twin.unsupported(defaults) is None
    for name, value, phrase in (("chrono", 1, "chrono=reuse"), ("chrono", 2, "chrono=chrono"),
                                ("vivify", 1, "vivify=1"), ("tier2_lbd", 6, "tier2_lbd=6")):
        settings = make_solver("python", {name: value}).settings
        assert phrase in twin.unsupported(settings)
        with pytest.raises(ValueError, match=phrase):
            twin.Engine(0, settings)


def test_the_twin_engine_alone():
    settings = make_solver("python", {}).settings
    engine = twin.Engine(3, settings)
    engine.load([1, 2, 0, -1, 3, 0, -3, 0])
    assert engine.trail == [7] and engine.trail_lim == [] and engine.ok
    engine.set_budget(Deadline(None), None, None)
    assert engine.solve([]) is Status.SAT and engine.stopped is Stop.ANSWERED
    assert engine.model() == [-1, 2, -3] and engine.core is None
    assert set(engine.counters()) == set(COUNTERS)
    assert engine.solve([2, 4]) is Status.UNSAT and engine.core == [2]
    assert engine.forget_learnts(0) == 0
    with pytest.raises(SolverError, match="proof=True"):
        engine.proof_text()
