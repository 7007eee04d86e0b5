"""Dask scheduler addresses: checked for shape at once, then asked whether a scheduler answers.

``--scheduler inproc://x`` and ``tls://127.0.0.1:1`` were internal errors (exit
3), ``127.0.0.1:99999`` passed the check and failed after a 20 s timeout, an HTTP
server kept the command waiting for over 420 s, and a service that greets first
(SSH) was reported as "out of memory" (Dask read its banner as a 3 EiB frame).
Every one is now one line naming the address and what answered, within
:data:`~sudosat.run.scheduler.PROBE_S` seconds plus one to name an HTTP server.
Waiting for a silent peer uses no CPU, so that bound is held on the wall clock
with tests/clock.py's margin for a busy machine.
"""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from sudosat.cli import main
from sudosat.errors import SudosatError
from sudosat.run import scheduler as scheduler_module
from sudosat.run.scheduler import probe_scheduler, scheduler_address
from tests.clock import WAIT_MARGIN_S
from tests.test_pipeline import puzzle_lines, write_lines

pytest.importorskip("distributed", reason="the optional extra sudosat[cluster]")

PROBE_S = 1.0  # the tests' own wait: the default (5 s) would only make them slower


@pytest.fixture
def quick_probe(monkeypatch) -> float:
    monkeypatch.setattr(scheduler_module, "PROBE_S", PROBE_S)
    return PROBE_S


def solve_on(address: str, tmp_path, capsys) -> tuple[int, str, float]:
    instances = write_lines(tmp_path / "in.txt", puzzle_lines(1))
    began = time.monotonic()
    try:
        code = main(["solve", str(instances), "-o", str(tmp_path / "out.txt"),
                     "--executor", "dask", "--scheduler", address, "--no-progress"])
    except SystemExit as stop:  # a usage error, from the option's type
        code = int(stop.code or 0)
    return code, capsys.readouterr().err, time.monotonic() - began


@pytest.mark.parametrize(("address", "why"), [
    ("inproc://x", "inproc:// names a scheduler inside this same process"),
    ("tls://127.0.0.1:1", "tls:// needs TLS certificates"),
    ("127.0.0.1:99999", "the port must be between 1 and 65535"),
    ("tcp://127.0.0.1:0", "the port must be between 1 and 65535"),
    ("tcp://host:8786/path", "expected tcp://HOST:PORT"),
    ("udp://host:8786", "unknown scheme udp://"),
])
def test_an_address_of_the_wrong_shape_is_one_usage_line(tmp_path, capsys, address, why):
    code, err, _ = solve_on(address, tmp_path, capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"not a scheduler address: {address!r} ({why}" in err


def test_an_in_process_address_of_another_process_is_one_line(tmp_path, capsys):
    code, err, _ = solve_on("inproc://192.0.2.2/1/1", tmp_path, capsys)
    assert code == 1 and err == (
        "sudosat: cannot reach the Dask scheduler at inproc://192.0.2.2/1/1: it names process "
        "1, and inproc:// reaches a scheduler inside this one only\n")


def test_addresses_are_written_as_tcp_host_port():
    assert scheduler_address("node7") == "tcp://node7:8786"
    assert scheduler_address("TCP://[::1]:9000") == "tcp://[::1]:9000"
    with pytest.raises(SudosatError, match="unknown scheme"):
        scheduler_address("http://node7:8787")


@pytest.fixture
def http_server() -> Iterator[str]:
    """A local HTTP server on an ephemeral port (Dask's dashboard speaks HTTP too)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_http_server_is_named_within_the_stated_bound(tmp_path, capsys, http_server,
                                                         quick_probe):
    code, err, took = solve_on(http_server, tmp_path, capsys)
    err = "".join(line for line in err.splitlines(True) if "HEAD / HTTP" not in line)  # its log
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"sudosat: tcp://{http_server} is not a Dask scheduler: it sent "
                          f"nothing within {quick_probe:g} s; an HTTP server answered (HTTP/")
    assert took < quick_probe + 1.0 + WAIT_MARGIN_S
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt"]


@pytest.fixture
def greeter() -> Iterator[str]:
    """A service that speaks first, as SSH does: its banner is not Dask's framing."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                connection.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
                connection.recv(100)

    threading.Thread(target=serve, daemon=True).start()
    yield f"127.0.0.1:{listener.getsockname()[1]}"
    listener.close()


def test_a_service_that_greets_otherwise_is_named_never_out_of_memory(tmp_path, capsys,
                                                                     greeter, quick_probe):
    code, err, _ = solve_on(greeter, tmp_path, capsys)
    assert code == 1 and err.count("\n") == 1
    assert "memory" not in err
    assert err == (f"sudosat: tcp://{greeter} is not a Dask scheduler: it sent "
                   "'SSH-2.0-OpenSSH_9.2p1 Debian-2\\r'\n")


def test_a_closed_port_is_refused_at_once(tmp_path, capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:  # a free port: bind, then close
        port = taken.getsockname()[1]
    code, err, _ = solve_on(f"tcp://127.0.0.1:{port}", tmp_path, capsys)
    assert code == 1
    assert err.startswith(f"sudosat: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}")


def test_a_real_scheduler_passes_the_probe():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        probe_scheduler(scheduler_address(cluster.scheduler_address))
