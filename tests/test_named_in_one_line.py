"""Three failures that each printed something other than one line naming the right thing.

- A Dask service that greets as a scheduler does, then answers what Dask cannot
  read or nothing at all: Dask's own CRITICAL log and a traceback came before our
  line (and the line ended in ``FormatError:`` or ``TimeoutError:``, no words).
- ``make report INSTANCES='dollar$HOME.txt'``: make expanded ``$H`` and the message
  named ``dollarOME.txt``, a file nobody gave.
- papermill on an empty or UTF-16 instance file: a pandas KeyError (or a
  ValueError) deep in a later cell, naming no file.
"""

from __future__ import annotations

import shlex
import shutil
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudosat.errors import InstanceError
from sudosat.run.batch import check_instance_file
from tests.conftest import COURSE_EXAMPLE

ROOT = Path(__file__).resolve().parent.parent

# -- a Dask peer that greets, then says nothing Dask can read --------------------------------


def dask_message(frame: bytes) -> bytes:
    """One message in Dask's framing: its length, the number of frames, their lengths, them."""
    body = struct.pack("<Q", 1) + struct.pack("<Q", len(frame)) + frame
    return struct.pack("<Q", len(body)) + body


# A scheduler's greeting as distributed writes it (msgpack: compression, python, pickle-protocol).
GREETING = dask_message(b"\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07"
                        b"\xafpickle-protocol\x05")
# The same framing around bytes msgpack cannot read (0xc1 is never used), which still name
# the pickle protocol, so the probe lets them pass and Dask's client meets them.
UNREADABLE = dask_message(b"\xc1 pickle-protocol 5 and nothing more")


def peer(first: bytes) -> Iterator[str]:
    """A service on a free loopback port that sends `first`, then holds the line silently."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connection.sendall(first)
            held.append(connection)

    threading.Thread(target=serve, daemon=True).start()
    yield f"127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for connection in held:
        connection.close()


@pytest.fixture
def unreadable_peer() -> Iterator[str]:
    yield from peer(UNREADABLE)


@pytest.fixture
def silent_peer() -> Iterator[str]:
    yield from peer(GREETING)


def solve_on_dask(address: str, tmp_path: Path, connect_s: int = 20):
    """``sudosat solve`` with that scheduler, as its own process: all of its stderr is seen."""
    pytest.importorskip("distributed", reason="the optional extra sudosat[cluster]")
    instances = tmp_path / "in.txt"
    instances.write_text(COURSE_EXAMPLE + "\n")
    program = (
        "import sys\n"
        "import sudosat.run.executors as executors\n"
        f"executors.DASK_CONNECT_TIMEOUT_S = {connect_s}\n"
        "from sudosat.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", program, "solve", str(instances), "-o", str(tmp_path / "o.txt"),
         "--executor", "dask", "--scheduler", address, "--no-progress"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )


def test_a_peer_that_greets_then_sends_what_dask_cannot_read_is_one_line(tmp_path,
                                                                        unreadable_peer):
    done = solve_on_dask(unreadable_peer, tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        f"sudosat: cannot reach the Dask scheduler at tcp://{unreadable_peer}: its answer is "
        "not one a Dask scheduler gives (FormatError)\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt"]


def test_a_peer_that_greets_then_stays_silent_is_one_line(tmp_path, silent_peer):
    done = solve_on_dask(silent_peer, tmp_path, connect_s=1)
    assert done.returncode == 1
    assert done.stderr == (
        f"sudosat: cannot reach the Dask scheduler at tcp://{silent_peer}: no answer to the "
        "handshake within 1 s (TimeoutError)\n")


# -- make report with a '$' in a value -------------------------------------------------------


def test_make_report_passes_a_dollar_in_instances_as_text():
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make program here")
    listing = subprocess.run(
        [make, "-n", "--no-print-directory", "-C", str(ROOT), "-o", ".venv/.installed",
         "report", "INSTANCES=dollar$HOME.txt", "T=1$PATH", "ENCODING=$E", "SOLVERS=a$b"],
        capture_output=True, text=True, check=True,
    ).stdout
    recipe = next(line for line in listing.splitlines() if "sudosat report" in line)
    words = shlex.split(recipe)
    for option, value in (("--instances", "dollar$HOME.txt"), ("--time-limit-ms", "1$PATH"),
                          ("--encoding", "$E"), ("--solvers", "a$b")):
        assert words[words.index(option) + 1] == value, recipe


@pytest.mark.parametrize(("target", "setting", "program", "option", "value"), [
    ("site", "SITE", "live.site", "--out", "a$b c"),
    ("serve", "PORT", "live.serve", "--port", "8$x"),
    ("solve-own", "INSTANCES", "scripts/solve-own", None, "d$HOME.txt"),
])
def test_every_make_value_keeps_its_dollar(target, setting, program, option, value):
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make program here")
    listing = subprocess.run(
        [make, "-n", "--no-print-directory", "-C", str(ROOT), "-o", ".venv/.installed",
         "-o", "live", target, f"{setting}={value}"],
        capture_output=True, text=True, check=True,
    ).stdout
    recipe = next(line for line in listing.splitlines() if program in line)
    words = shlex.split(recipe)
    assert words[words.index(option) + 1 if option else 1] == value, recipe


def test_make_report_names_the_instance_file_with_its_dollar():
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make program here")
    done = subprocess.run(
        [make, "--no-print-directory", "-C", str(ROOT), "-o", ".venv/.installed", "report",
         f"PY={sys.executable}", "INSTANCES=no-such-dollar$HOME.txt"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert lines == [f"sudosat report: {ROOT}/no-such-dollar$HOME.txt: no such file"]


# -- an instance file that holds no board ----------------------------------------------------


@pytest.mark.parametrize(("text", "cause"), [
    (b"", "holds no instance line"),
    (b"\n\n  \n", "holds no instance line"),
    ((COURSE_EXAMPLE + "\n").encode("utf-16"),
     "is UTF-16 text; instance files are UTF-8 (or ASCII): save it as UTF-8"),
    ((COURSE_EXAMPLE + "\n").encode("utf-16-le"), "no line reads as a board (line 1: "),
    (b"hello\nworld\n", "no line reads as a board (line 1: "),
])
def test_an_instance_file_of_no_board_is_named_in_one_line(tmp_path, text, cause):
    path = tmp_path / "instances.txt"
    path.write_bytes(text)
    with pytest.raises(InstanceError) as refused:
        check_instance_file(path)
    assert str(refused.value).startswith(f"{path}: {cause}")


def test_an_instance_file_with_some_boards_passes_and_an_order_is_asked_for(tmp_path):
    path = tmp_path / "instances.txt"
    path.write_text("2 1000002000300004\nnot a board\n" + COURSE_EXAMPLE + "\n")
    assert check_instance_file(path) == 2
    assert check_instance_file(path, order=3) == 1
    with pytest.raises(InstanceError, match="holds no board of order 4"):
        check_instance_file(path, order=4)
    with pytest.raises(InstanceError, match="no such file"):
        check_instance_file(tmp_path / "missing.txt")


@pytest.mark.parametrize(("notebook", "parameters"), [
    ("experiment", ["-p", "solvers", "cdcl", "-p", "time_limit_ms", "5000"]),
    ("reduction", []),
])
@pytest.mark.parametrize(("content", "cause"), [
    (b"", "holds no instance line"),
    ((COURSE_EXAMPLE + "\n").encode("utf-16"), "is UTF-16 text"),
])
def test_papermill_on_an_instance_file_of_no_board_names_the_file(tmp_path, notebook,
                                                                  parameters, content, cause):
    from sudosat.process import run_program
    from sudosat.sat.solvers.budget import Deadline

    papermill = shutil.which("papermill", path=str(Path(sys.executable).parent))
    if papermill is None:
        pytest.skip("papermill is not installed beside this Python")
    mine = tmp_path / "mine.txt"
    mine.write_bytes(content)
    command = [papermill, str(ROOT / "notebooks" / f"{notebook}.ipynb"),
               str(tmp_path / "out.ipynb"), "-p", "instances", str(mine), *parameters,
               "-p", "output_dir" if notebook == "experiment" else "figures_dir",
               str(tmp_path / "results"), "--cwd", str(ROOT)]
    done = run_program(command, tmp_path, Deadline(300_000), "papermill")
    assert done.exit_code == 1
    assert f"InstanceError: {mine}: {cause}" in done.stderr, done.stderr[-2000:]
    assert "KeyError" not in done.stderr
    if notebook == "experiment":  # refused before the run: no results folder made
        assert not (tmp_path / "results").exists()
