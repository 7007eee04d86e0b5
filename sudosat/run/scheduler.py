"""Dask scheduler addresses: checked for shape at once, then asked whether a scheduler answers.

``--scheduler`` takes ``tcp://HOST:PORT``, ``HOST:PORT`` or ``HOST`` (port
8786, Dask's own), and ``inproc://IP/PID/N``, the address of a scheduler
running inside this same process (a test's cluster);
:func:`scheduler_address` refuses anything else in one line naming what is
wrong (a port beyond 65535, a scheme sudosat cannot connect with: ``tls://``
needs certificates it has no option for). :func:`probe_scheduler` then
connects and waits for the
greeting a Dask scheduler sends first, before Dask's client is made: an address
that refuses, stays silent or answers otherwise (an HTTP server, say Dask's
dashboard on 8787) is refused within :data:`PROBE_S` seconds, naming the
address and what answered. Dask's client would wait for its own timeout, or
read the first bytes of an unknown answer as a frame length (the first bytes of
``SSH-2.0-`` ask for 3 EiB, which came back as "out of memory").

This module knows nothing of Sudoku.
"""

from __future__ import annotations

import os
import re
import socket
import struct
import time

from sudosat.errors import SudosatError

__all__ = ["DEFAULT_PORT", "PROBE_S", "probe_scheduler", "scheduler_address"]

DEFAULT_PORT = 8786
"""The port a Dask scheduler listens on unless told otherwise."""

PROBE_S = 5.0
"""Seconds an address has to accept the connection and greet as a Dask scheduler, both
together; naming an HTTP server that answered instead takes at most one more."""

_GREETING_MAX = 1 << 20  # a scheduler's greeting (its handshake) takes a few hundred bytes
_HTTP_S = 1.0
_ADDRESS = re.compile(r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(?P<port>[0-9]*))?")
_IN_PROCESS = re.compile(r"inproc://[0-9A-Za-z.:\[\]-]+/[0-9]+/[0-9]+")
_OTHER_SCHEMES = {
    "tls": "tls:// needs TLS certificates, which sudosat has no option to give Dask",
    "inproc": "inproc:// names a scheduler inside this same process, as inproc://IP/PID/N",
    "ucx": "sudosat connects over tcp:// only (ucx:// needs UCX)",
    "ws": "sudosat connects over tcp:// only",
    "wss": "sudosat connects over tcp:// only",
}


def scheduler_address(text: str) -> str:
    """`text` as ``tcp://HOST:PORT``, once its shape is right.

    Raises
    ------
    SudosatError
        One line naming what is wrong: the scheme, the host or the port.

    Examples
    --------
    >>> scheduler_address("tcp://10.0.0.5:8786"), scheduler_address("node7")
    ('tcp://10.0.0.5:8786', 'tcp://node7:8786')
    >>> scheduler_address("127.0.0.1:99999")
    Traceback (most recent call last):
    ...
    sudosat.errors.SudosatError: not a scheduler address: '127.0.0.1:99999' (the port must be \
between 1 and 65535)
    """
    if _IN_PROCESS.fullmatch(text):
        return text
    found = _ADDRESS.fullmatch(text)
    if found is None and text.lower().startswith("inproc://"):
        raise _bad(text, _OTHER_SCHEMES["inproc"])
    if found is None:
        raise _bad(text, "expected tcp://HOST:PORT")
    scheme = (found["scheme"] or "tcp").lower()
    if scheme != "tcp":
        why = _OTHER_SCHEMES.get(scheme, f"unknown scheme {scheme}://")
        raise _bad(text, f"{why}; give tcp://HOST:PORT")
    port = found["port"]
    if port is None:
        port = str(DEFAULT_PORT)
    if not port.isdigit() or len(port) > 5 or not 1 <= int(port) <= 65535:
        raise _bad(text, "the port must be between 1 and 65535")
    return f"tcp://{found['host']}:{int(port)}"


def _bad(text: str, why: str) -> SudosatError:
    return SudosatError(f"not a scheduler address: {text!r} ({why})")


def probe_scheduler(address: str, wait_s: float | None = None) -> None:
    """Refuse `address` unless a Dask scheduler answers there within `wait_s` seconds.

    Parameters
    ----------
    address : str
        ``tcp://HOST:PORT`` or ``inproc://IP/PID/N`` (see :func:`scheduler_address`).
    wait_s : float, optional
        For the connection and the greeting together (default :data:`PROBE_S`).

    Raises
    ------
    SudosatError
        ``cannot reach the Dask scheduler at ADDRESS: ...`` (refused, no answer,
        no such host) or ``ADDRESS is not a Dask scheduler: ...`` (what answered).
    """
    if address.startswith("inproc://"):
        _probe_in_process(address)
        return
    wait_s = PROBE_S if wait_s is None else wait_s
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    ends = time.monotonic() + wait_s
    try:
        connection = socket.create_connection((host.strip("[]"), int(port)), timeout=wait_s)
    except socket.gaierror as exc:
        raise SudosatError(f"cannot reach the Dask scheduler at {address}: no such host "
                           f"({exc.strerror})") from None
    except TimeoutError:
        raise SudosatError(f"cannot reach the Dask scheduler at {address}: no answer within "
                           f"{wait_s:g} s") from None
    except OSError as exc:
        raise SudosatError(f"cannot reach the Dask scheduler at {address}: "
                           f"{exc.strerror or exc}") from None
    with connection:
        problem = _not_a_greeting(connection, ends, wait_s)
    if problem is not None:
        raise SudosatError(f"{address} is not a Dask scheduler: {problem}")


def _probe_in_process(address: str) -> None:
    """Refuse an ``inproc://`` address unless a scheduler of this process listens there."""
    from distributed.comm.inproc import global_manager

    pid = int(address.rsplit("/", 2)[1])
    if pid != os.getpid():
        raise SudosatError(f"cannot reach the Dask scheduler at {address}: it names process "
                           f"{pid}, and inproc:// reaches a scheduler inside this one only")
    if address.removeprefix("inproc://") not in global_manager.listeners:
        raise SudosatError(f"cannot reach the Dask scheduler at {address}: no scheduler "
                           "listens there in this process")


def _not_a_greeting(connection: socket.socket, ends: float, wait_s: float) -> str | None:
    """What answered instead of a scheduler's greeting, or None when it was one.

    A scheduler writes its greeting first: one message of Dask's framing, an
    8-byte length then that many bytes, naming its pickle protocol.
    """
    head = _receive(connection, 8, ends)
    if len(head) < 8:
        if head:
            return f"it sent {_shown(head)} and nothing more"
        if time.monotonic() < ends:
            return "it closed the connection without a word"
        return f"it sent nothing within {wait_s:g} s" + _http_answer(connection)
    (size,) = struct.unpack("<Q", head)
    if size > _GREETING_MAX:
        return f"it sent {_shown(head + _receive(connection, 72, ends))}"
    body = _receive(connection, size, ends)
    if len(body) < size or b"pickle-protocol" not in body:
        return f"its first {len(head) + len(body)} bytes are not a scheduler's greeting"
    return None


def _receive(connection: socket.socket, count: int, ends: float) -> bytes:
    """Up to `count` bytes, as many as arrive before the end of the connection or `ends`."""
    data = b""
    while len(data) < count:
        left = ends - time.monotonic()
        if left <= 0:
            break
        connection.settimeout(left)
        try:
            more = connection.recv(count - len(data))
        except (TimeoutError, OSError):
            break
        if not more:
            break
        data += more
    return data


def _http_answer(connection: socket.socket) -> str:
    """``; an HTTP server answered ...`` when a request draws an HTTP answer, else ""."""
    try:
        connection.sendall(b"HEAD / HTTP/1.0\r\n\r\n")
    except OSError:
        return ""
    answer = _receive(connection, 200, time.monotonic() + _HTTP_S)
    if not answer.startswith(b"HTTP/"):
        return ""
    status = answer.split(b"\r\n", 1)[0].decode("latin-1")
    return (f"; an HTTP server answered ({status}): a scheduler listens on its own port "
            f"({DEFAULT_PORT} unless told otherwise; 8787 is its dashboard)")


def _shown(data: bytes) -> str:
    """The first bytes of an answer as people read them (its first line, printable)."""
    return repr(data.split(b"\n", 1)[0][:60].decode("latin-1"))
