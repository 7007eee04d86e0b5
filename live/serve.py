"""Serve the rendered report and the live workbench on 127.0.0.1: ``python -m live.serve``.

``make serve`` runs it: ``reports/`` at ``/`` and ``build/live/`` (``make
live``) at ``/live/``, on this machine only, until Ctrl-C. The live page must
come over http: from ``file://`` a browser refuses its module scripts and its
WebAssembly. Any static web host serves ``build/live/`` as well; this server
only adds the types a browser needs (``application/wasm`` for ``.wasm``,
JavaScript for ``.mjs``).

It serves regular files only, and only those whose path, symlinks resolved,
lies inside its two roots: a link out of a root (to ``/etc``, say) is 404, as
is a folder without ``index.html`` (no folder is ever listed), a device or a
missing file. A path that is not one (a NUL or another control character, a
``..`` segment, bytes that are not UTF-8 once decoded, no leading ``/``) is 400.
A client that goes away mid-request is no error; nothing prints a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import stat
import sys
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
LIVE_PREFIX = "/live/"
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}
MAX_PORT = 65535

__all__ = ["Handler", "Server", "locate", "main", "make_server", "port_number"]


class Malformed(ValueError):
    """A request path that names no file on any server (answered 400)."""


def locate(request_path: str, reports: Path, live: Path) -> tuple[Path, Path, str]:
    """Where a request path points: (its root, the path under it, the path as asked).

    ``/live/...`` is under `live`, every other path under `reports`; the query
    and fragment are left out and the path is percent-decoded.

    Raises
    ------
    Malformed
        Not a path: no leading ``/``, bytes that are not UTF-8, a control
        character (NUL included), a backslash or a ``..`` segment.

    Examples
    --------
    >>> locate("/live/app.js?v=1", Path("r"), Path("l"))
    (PosixPath('l'), PosixPath('l/app.js'), '/live/app.js')
    >>> locate("/a/%00", Path("r"), Path("l"))
    Traceback (most recent call last):
    ...
    live.serve.Malformed: a control character in the path
    """
    raw = request_path.split("?", 1)[0].split("#", 1)[0]
    try:
        path = urllib.parse.unquote(raw, errors="strict")
    except UnicodeDecodeError:
        raise Malformed("the path is not UTF-8") from None
    if not path.startswith("/"):
        raise Malformed("the path does not start with /")
    if any(ord(char) < 32 or ord(char) == 127 for char in path):
        raise Malformed("a control character in the path")
    if "\\" in path:
        raise Malformed("a backslash in the path")
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise Malformed("a '..' segment in the path")
    root = reports
    if path == LIVE_PREFIX.rstrip("/") or path.startswith(LIVE_PREFIX):
        root, parts = live, parts[1:]
    return root, root.joinpath(*parts), path


def _inside(path: Path, root: Path) -> bool:
    """Whether `path` (resolved) is `root` (resolved) or lies under it."""
    return path == root or root in path.parents


class Handler(SimpleHTTPRequestHandler):
    """Regular files of `reports` at ``/`` and of `live` under ``/live/``; nothing else."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def __init__(self, *args, reports: Path, live: Path, quiet: bool = False, **kwargs) -> None:
        self.reports, self.live, self.quiet = reports, live, quiet
        self._found: str | None = None
        super().__init__(*args, directory=str(reports), **kwargs)

    def send_head(self):
        """Answer 400, 404, a redirect to the folder's ``/``, or open the regular file."""
        found = self._regular_file()
        if found is None:
            return None
        self._found = found
        return super().send_head()

    def _regular_file(self) -> str | None:
        """The resolved path of the regular file asked for, or None once the answer is sent."""
        try:
            root, path, asked = locate(self.path, self.reports, self.live)
        except Malformed as exc:
            self.send_error(HTTPStatus.BAD_REQUEST, str(exc))
            return None
        try:
            top = root.resolve()
            target = path.resolve()
            if _inside(target, top) and target.is_dir():
                if not asked.endswith("/"):
                    self._redirect(asked + "/")
                    return None
                target = (target / "index.html").resolve()
            if _inside(target, top) and stat.S_ISREG(target.stat().st_mode):
                return str(target)
        except (OSError, RuntimeError):  # missing, unreadable, a loop of symlinks
            pass
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", urllib.parse.quote(location))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def translate_path(self, path: str) -> str:
        """The file :meth:`send_head` found (never a path of the request's own making)."""
        if self._found is None:
            raise Malformed("no file was located for this request")
        return self._found

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """Never list a folder."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")

    def copyfile(self, source, outputfile) -> None:
        # the browser may stop reading (a page closed while it loaded): not an error
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            super().copyfile(source, outputfile)

    def end_headers(self) -> None:
        # a page rebuilt by make live is read afresh, never from a stale cache
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        if not self.quiet:
            super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    """The threading server, whose failed requests are one line each, never a traceback.

    A client that resets or closes its connection mid-request is no error at all.
    """

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        text = " ".join(f"{type(error).__name__}: {error}".split())
        print(f"serve: a request from {client_address[0]} failed: {text}", file=sys.stderr)


def make_server(
    port: int = 8000, reports: Path = ROOT / "reports", live: Path = ROOT / "build" / "live",
    quiet: bool = False,
) -> ThreadingHTTPServer:
    """A server bound to 127.0.0.1:`port` (0: any free port), not yet serving."""
    handler = functools.partial(Handler, reports=reports, live=live, quiet=quiet)
    return Server((HOST, port), handler)


def port_number(text: str) -> int:
    """A TCP port for ``--port``: a whole number from 0 (any free port) to 65535.

    Examples
    --------
    >>> port_number("8080")
    8080
    >>> port_number("65536")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: not a port: '65536' (a whole number from 0 to 65535)
    """
    if not (text.isascii() and text.isdigit() and len(text) <= 5 and int(text) <= MAX_PORT):
        raise argparse.ArgumentTypeError(
            f"not a port: {text!r} (a whole number from 0 to {MAX_PORT})"
        )
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """``python -m live.serve [--port N]``: print the addresses, serve until Ctrl-C."""
    from sudosat.run.options import OneLineParser

    summary = (__doc__ or "").split("\n")[0]
    parser = OneLineParser(prog="python -m live.serve", description=summary)
    parser.add_argument("--port", type=port_number, default=8000,
                        help="the port (0: any free one)")
    parser.add_argument("--reports", type=Path, default=ROOT / "reports")
    parser.add_argument("--live", type=Path, default=ROOT / "build" / "live")
    args = parser.parse_args(argv)
    try:
        server = make_server(args.port, args.reports, args.live)
    except OSError as exc:
        print(f"serve: cannot listen on {HOST}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 1
    address = f"http://{HOST}:{server.server_address[1]}"
    print(f"serving the report at {address}/ and the live workbench at {address}{LIVE_PREFIX}")
    if not (args.reports / "index.html").is_file():
        print(f"  ({args.reports} has no report yet: run `make report` first)")
    if not (args.live / "index.html").is_file():
        print(f"  ({args.live} has no site yet: run `make live` first)")
    print("  (this machine only; Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
