"""A table of bad inputs across every command: each one line, its reason, its exit code.

Each row names a command line (files written first; ``@name`` stands for a file's
path), the exit code it must give (1 bad input, 2 bad usage) and a fragment of the
one line it must print. No row may exit 0 or print an answer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sudosat.cli import main, sat_sn_main
from tests.conftest import COURSE_EXAMPLE, COURSE_SOLUTION

ZEROS_15 = " ".join(["0"] * 15)
ORDER_2_EMPTY = "2 " + " ".join(["0"] * 16)
SAT = "SAT"  # rows that run `SAT -Sn` instead of `sudosat`

# (row id, program, argv, files, exit code, fragment of the message)
ROWS = [
    # -- sudosat sat: DIMACS --------------------------------------------------------------
    ("sat-empty", "sudosat", ["sat", "@f"], {"f": ""}, 1, "@f: empty file: no 'p cnf' header"),
    ("sat-comments-only", "sudosat", ["sat", "@f"], {"f": "c hi\n"}, 1, "no 'p cnf' header"),
    ("sat-clause-first", "sudosat", ["sat", "@f"], {"f": "1 2 0\np cnf 2 1\n"}, 1,
     "@f:1: clause before the 'p cnf' header"),
    ("sat-short-header", "sudosat", ["sat", "@f"], {"f": "p cnf 2\n1 0\n"}, 1,
     "@f:1: malformed header"),
    ("sat-word-header", "sudosat", ["sat", "@f"], {"f": "p cnf x 2\n1 0\n"}, 1,
     "@f:1: malformed header 'p cnf x 2'"),
    ("sat-negative-header", "sudosat", ["sat", "@f"], {"f": "p cnf -2 1\n1 0\n"}, 1,
     "@f:1: negative count in header"),
    ("sat-dnf", "sudosat", ["sat", "@f"], {"f": "p dnf 2 1\n1 0\n"}, 1, "malformed header"),
    ("sat-second-header", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\np cnf 2 1\n1 0\n"}, 1,
     "@f:2: a second 'p' header"),
    ("sat-beyond", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n1 3 0\n"}, 1,
     "@f:2: literal 3 is beyond the 2 declared variables"),
    ("sat-minus-zero", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n1 2 -0\n"}, 1,
     "@f:2: literal '-0': zero has no sign"),
    ("sat-arabic-indic", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n١ ٢ ٠\n"}, 1,
     "@f:2: not an integer: '١' (character '١', U+0661"),
    ("sat-underscore", "sudosat", ["sat", "@f"], {"f": "p cnf 20 1\n1_0 0\n"}, 1,
     "not an integer: '1_0' (character '_'"),
    ("sat-decimal", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n1.5 0\n"}, 1,
     "not an integer: '1.5' (character '.'"),
    ("sat-hex", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n0x1 0\n"}, 1,
     "not an integer: '0x1'"),
    ("sat-double-minus", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n--1 0\n"}, 1,
     "'--1' (a sign inside it"),
    ("sat-dash-joined", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n1-2 0\n"}, 1,
     "'1-2' (a sign inside it"),
    ("sat-plus-minus", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n+-1 0\n"}, 1,
     "'+-1' (a sign inside it"),
    ("sat-lone-sign", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n1 - 0\n"}, 1,
     "'-' (a sign without digits"),
    ("sat-nul", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n1 \x00 0\n"}, 1, "U+0000"),
    ("sat-u2028", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n1\u20282 0\n"}, 1, "U+2028"),
    ("sat-fullwidth", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n１ 0\n"}, 1, "U+FF11"),
    ("sat-huge-literal", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n" + "9" * 25 + " 0\n"},
     1, "too large (25 digits)"),
    ("sat-5000-digits", "sudosat", ["sat", "@f"], {"f": "p cnf 2 1\n" + "9" * 5000 + " 0\n"},
     1, "too large (5000 digits)"),
    ("sat-2-to-31", "sudosat", ["sat", "@f"], {"f": "p cnf 2147483648 1\n1 0\n"}, 1,
     "@f:1: the header declares 2,147,483,648 variables"),
    ("sat-10-to-12", "sudosat", ["sat", "@f"], {"f": "p cnf 1000000000000 1\n1 0\n"}, 1,
     "the header declares 1,000,000,000,000 variables"),
    ("sat-unicode-header", "sudosat", ["sat", "@f"], {"f": "p cnf ٢ 1\n1 0\n"}, 1,
     "malformed header"),
    ("sat-percent-first", "sudosat", ["sat", "@f"], {"f": "%\n0\n"}, 1, "no 'p cnf' header"),
    ("sat-missing", "sudosat", ["sat", "@nosuch"], {}, 1, "@nosuch: no such file"),
    ("sat-directory", "sudosat", ["sat", "@dir"], {"dir": None}, 1, "is a directory"),
    ("sat-max-memory", "sudosat", ["sat", "@f", "--max-memory", "1K"],
     {"f": "p cnf 100 1\n1 0\n"}, 1, "the header declares 100 variables"),
    ("sat-unknown-solver", "sudosat", ["sat", "@f", "--solver", "minisatt"],
     {"f": "p cnf 1 1\n1 0\n"}, 2, "unknown solver 'minisatt'"),
    ("sat-T-nan", "sudosat", ["sat", "@f", "-T", "nan"], {"f": "p cnf 1 1\n1 0\n"}, 2,
     "not a number of milliseconds"),
    ("sat-T-negative", "sudosat", ["sat", "@f", "-T", "-5"], {"f": "p cnf 1 1\n1 0\n"}, 2,
     "must be positive"),
    ("sat-format", "sudosat", ["sat", "@f", "--format", "xml"], {"f": "p cnf 1 1\n1 0\n"}, 2,
     "invalid choice: 'xml'"),
    # -- SAT -Sn -------------------------------------------------------------------------------
    ("sn1-arabic", SAT, ["-S1", "@f"], {"f": "p cnf 2 1\n١ ٢ ٠\n"}, 1, "U+0661"),
    ("sn2-beyond", SAT, ["-S2", "@f"], {"f": "p cnf 2 1\n1 5 0\n"}, 1,
     "@f:2: literal 5 is beyond"),
    ("sn3-billions", SAT, ["-S3", "@f"], {"f": "p cnf 2000000000 1\n1 2 0\n"}, 1,
     "@f:1: the header declares 2,000,000,000 variables"),
    ("sn1-minus-zero", SAT, ["-S1", "@f"], {"f": "p cnf 2 1\n-0 1 0\n"}, 1,
     "zero has no sign"),
    ("sn-strategy", SAT, ["-S4", "@f"], {"f": "p cnf 1 1\n1 0\n"}, 2, "invalid choice: 4"),
    ("sn-missing", SAT, ["-S1", "@nosuch"], {}, 1, "no such file"),
    ("sn-T-zero", SAT, ["-S1", "@f", "-T", "0"], {"f": "p cnf 1 1\n1 0\n"}, 2,
     "must be positive"),
    ("sn-max-memory-inf", SAT, ["-S1", "@f", "--max-memory", "inf"], {"f": "p cnf 1 1\n1 0\n"},
     2, "not a size: 'inf'"),
    # -- sudosat decode: solutions ---------------------------------------------------------
    ("decode-trillion", "sudosat", ["decode", "@s", "--order", "3"],
     {"s": "s cnf 1 1000000000000\nv 1\n"}, 1,
     "@s:1: the solution declares 1,000,000,000,000 variables"),
    ("decode-arabic", "sudosat", ["decode", "@s", "--order", "1"], {"s": "s cnf 1 1\nv ١\n"}, 1,
     "@s:2: not an integer: '١'"),
    ("decode-minus-zero", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s cnf 1 1\nv -0\n"}, 1, "@s:2: literal '-0': zero has no sign"),
    ("decode-status", "sudosat", ["decode", "@s", "--order", "1"], {"s": "s cnf 2 1\n"}, 1,
     "@s:1: malformed status line"),
    ("decode-outside", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s cnf 1 1\nv 2\n"}, 1, "@s:2: literal 2 is outside 1..1"),
    ("decode-both", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s cnf 1 1\nv 1\nv -1\n"}, 1, "variable 1 is given both values"),
    ("decode-missing-var", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s cnf 1 2\nv 1\n"}, 1, "gives no value to variable 2"),
    ("decode-competition-word", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s SATISFIABLE\nv 1 x 0\n"}, 1, "@s:2: not an integer: 'x'"),
    ("decode-unknown-status", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s MAYBE\n"}, 1, "unknown status 'MAYBE'"),
    ("decode-not-solution", "sudosat", ["decode", "@s", "--order", "1"], {"s": "hello\n"}, 1,
     "@s:1: not a solution line"),
    ("decode-empty", "sudosat", ["decode", "@s", "--order", "1"], {"s": ""}, 1,
     "empty solution"),
    ("decode-order-300", "sudosat", ["decode", "@s", "--order", "300"],
     {"s": "s cnf 1 1\nv 1\n"}, 1, "order 300 has 8,100,000,000 cells"),
    ("decode-order-zero", "sudosat", ["decode", "@s", "--order", "0"], {"s": "s cnf 0 1\n"}, 2,
     "must be at least 1"),
    ("decode-unicode-count", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s cnf 1 ٣\n"}, 1, "U+0663"),
    ("decode-units-line", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "c units\np cnf 2 2\n1 0\n-0 0\n"}, 1, "@s:4: literal '-0': zero has no sign"),
    ("decode-v-glued", "sudosat", ["decode", "@s", "--order", "1"],
     {"s": "s SATISFIABLE\nv1 0\n"}, 1, "@s:2: expected a 'v' line"),
    # -- sudosat encode: board lines ------------------------------------------------------
    ("encode-leading-dash", "sudosat", ["encode", "@b"], {"b": "2 -1 " + ZEROS_15 + "\n"}, 1,
     "@b:1: ' -' before position 1"),
    ("encode-double-dash", "sudosat", ["encode", "@b"],
     {"b": "2 1--" + "-".join(["0"] * 15) + "\n"}, 1, "@b:1: '--' before position 2"),
    ("encode-double-comma", "sudosat", ["encode", "@b"],
     {"b": "2 1,,0" + ",0" * 14 + "\n"}, 1, "',,' before position 2: a doubled separator"),
    ("encode-short", "sudosat", ["encode", "@b"], {"b": "3 " + "0" * 80 + "\n"}, 1,
     "@b:1: order 3 needs 81 symbols, got 80"),
    ("encode-symbol", "sudosat", ["encode", "@b"], {"b": "3 #" + "0" * 80 + "\n"}, 1,
     "'#' at position 1 is not a symbol"),
    ("encode-order-10", "sudosat", ["encode", "@b"],
     {"b": "10 " + " ".join(["0"] * 10**4) + "\n"}, 1,
     "@b:1: order 10 with the course encoding needs"),
    ("encode-no-line", "sudosat", ["encode", "@b", "--line", "5"], {"b": COURSE_EXAMPLE + "\n"},
     1, "there is no line 5: the file has 1 lines"),
    ("encode-empty-line", "sudosat", ["encode", "@b"], {"b": "\n"}, 1, "@b:1: empty line"),
    ("encode-unicode-order", "sudosat", ["encode", "@b"], {"b": "٣ " + "0" * 81 + "\n"}, 1,
     "'٣' is not an order"),
    ("encode-5000-digits", "sudosat", ["encode", "@b"],
     {"b": "2 " + "9" * 5000 + " " + ZEROS_15 + "\n"}, 1, "at position 1 is too big"),
    ("encode-grid-80", "sudosat", ["encode", "@b"], {"b": "." * 80 + "\n"}, 1,
     "a grid string needs N⁴ symbols"),
    ("encode-form-feed", "sudosat", ["encode", "@b"], {"b": "2 1 0\x0c0 " + "0 " * 13 + "0\n"},
     1, "'0\\x0c0' at position 2 is not a number"),
    ("encode-value", "sudosat", ["encode", "@b"], {"b": "2 5 " + ZEROS_15 + "\n"}, 1,
     "value 5 at position 1 is too big for order 2"),
    ("encode-course-7", "sudosat", ["encode", "@b"], {"b": "7 000\n"}, 1,
     "beyond the course format"),
    ("encode-bad-encoding", "sudosat", ["encode", "@b", "--encoding", "fancy"],
     {"b": COURSE_EXAMPLE + "\n"}, 2, "unknown encoding 'fancy'"),
    ("encode-line-zero", "sudosat", ["encode", "@b", "--line", "0"],
     {"b": COURSE_EXAMPLE + "\n"}, 2, "must be at least 1"),
    # -- sudosat check -------------------------------------------------------------------------
    ("check-bad-puzzle", "sudosat", ["check", "@p", "@a"],
     {"p": "3 12\n", "a": COURSE_SOLUTION + "\n"}, 1, "@p:1: order 3 needs 81 symbols"),
    ("check-bad-answer", "sudosat", ["check", "@p", "@a"],
     {"p": ORDER_2_EMPTY + "\n", "a": "2 -1 " + ZEROS_15 + "\n"}, 1, "@a:1: ' -' before"),
    ("check-line-count", "sudosat", ["check", "@p", "@a"],
     {"p": COURSE_EXAMPLE + "\n", "a": COURSE_SOLUTION + "\n" + COURSE_SOLUTION + "\n"}, 1,
     "@a: has 2 lines, @p has 1"),
    ("check-changes-given", "sudosat", ["check", "@p", "@a"],
     {"p": "2 1000000000000000\n", "a": "2 2143341212344321\n"}, 1,
     "@a:1: cell (1, 1) changes the given 1 to 2"),
    ("check-missing", "sudosat", ["check", "@p", "@nosuch"], {"p": COURSE_EXAMPLE + "\n"}, 1,
     "@nosuch: no such file"),
    # -- sudosat solve ---------------------------------------------------------------------------
    ("solve-bad-line", "sudosat", ["solve", "@b", "-o", "@out", "--no-progress"],
     {"b": "2 -1 " + ZEROS_15 + "\n"}, 1, "@b:1: cdcl: "),
    ("solve-missing", "sudosat", ["solve", "@nosuch", "--no-progress"], {}, 1, "no such file"),
    ("solve-encoding", "sudosat", ["solve", "@b", "--encoding", "fancy"],
     {"b": COURSE_EXAMPLE + "\n"}, 2, "unknown encoding 'fancy'"),
    ("solve-T-zero", "sudosat", ["solve", "@b", "-T", "0"], {"b": COURSE_EXAMPLE + "\n"}, 2,
     "must be positive"),
    ("solve-scheduler", "sudosat", ["solve", "@b", "--scheduler", "not a url"],
     {"b": COURSE_EXAMPLE + "\n"}, 2, "not a scheduler address"),
    ("solve-memory", "sudosat", ["solve", "@b", "--max-memory", "inf"],
     {"b": COURSE_EXAMPLE + "\n"}, 2, "not a size: 'inf'"),
    # -- sudosat generate ------------------------------------------------------------------------
    ("generate-order-zero", "sudosat", ["generate", "--order", "0", "--alpha", "0.5"], {}, 2,
     "must be at least 1"),
    ("generate-alpha", "sudosat", ["generate", "--order", "2", "--alpha", "1.5"], {}, 2,
     "0 <= alpha <= 1"),
    ("generate-alpha-word", "sudosat", ["generate", "--order", "2", "--alpha", "half"], {}, 2,
     "not a number: 'half'"),
    ("generate-billion", "sudosat", ["generate", "--order", "1000000000", "--alpha", "0.5"], {},
     1, "order 1000000000 has 1,000,000,000,000,000,000,000,000,000,000,000,000 cells"),
    ("generate-memory", "sudosat", ["generate", "--order", "100", "--alpha", "0.5",
                                    "--max-memory", "10M"], {}, 1, "order 100 has 100,000,000"),
    ("generate-count", "sudosat", ["generate", "--order", "2", "--alpha", "0", "--count", "0"],
     {}, 2, "must be at least 1"),
]


def _materialise(tmp_path: Path, argv: list[str], files: dict, fragment: str):
    for name, text in files.items():
        if text is None:
            (tmp_path / name).mkdir()
        else:
            (tmp_path / name).write_text(text, encoding="utf-8")

    def path(match: re.Match) -> str:
        return str(tmp_path / match.group(1))

    args = [re.sub(r"^@(\w+)$", path, arg) for arg in argv]
    return args, re.sub(r"@(\w+)", path, fragment)


def test_the_table_has_sixty_rows_over_every_command():
    assert len(ROWS) >= 60
    commands = {row[2][0] if row[1] == "sudosat" else "SAT -Sn" for row in ROWS}
    assert commands >= {"encode", "sat", "decode", "check", "solve", "generate", "SAT -Sn"}
    assert len({row[0] for row in ROWS}) == len(ROWS)


@pytest.mark.parametrize(
    ("program", "argv", "files", "code", "fragment"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_bad_input(tmp_path, capsys, program, argv, files, code, fragment):
    args, expected = _materialise(tmp_path, argv, files, fragment)
    entry = sat_sn_main if program == SAT else main
    try:
        got = entry(args)
    except SystemExit as stop:
        got = stop.code
    captured = capsys.readouterr()
    assert got == code, captured.err
    messages = [line for line in captured.err.splitlines() if line.strip()]
    assert messages, "no message"
    assert any(expected in line for line in messages), captured.err
    # Exactly one line names the fault (solve and check may add their summary on stdout).
    assert len(messages) == 1, captured.err
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    # No answer: neither a solution nor a formula nor a board on standard output.
    assert not re.search(r"^(s |v |p cnf|\d+ [0-9A-Z.]{4,})", captured.out, re.M), captured.out
    if program == SAT:
        assert not list(tmp_path.glob("*.out"))
