"""Serve the rendered report and the live workbench on 127.0.0.1: ``python -m live.serve``.

``make serve`` runs it: ``reports/`` at ``/`` and ``build/live/`` (``make
live``) at ``/live/``, on this machine only, until Ctrl-C. The live page must
come over http: from ``file://`` a browser refuses its module scripts and its
WebAssembly. Any static web host serves ``build/live/`` as well; this server
only adds the types a browser needs (``application/wasm`` for ``.wasm``,
JavaScript for ``.mjs``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
LIVE_PREFIX = "/live/"
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}

__all__ = ["Handler", "make_server", "main"]


class Handler(SimpleHTTPRequestHandler):
    """Files of `reports` at ``/`` and of `live` under ``/live/``; nothing else."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def __init__(self, *args, reports: Path, live: Path, quiet: bool = False, **kwargs) -> None:
        self.reports, self.live, self.quiet = reports, live, quiet
        super().__init__(*args, directory=str(reports), **kwargs)

    def translate_path(self, path: str) -> str:
        """``/live/...`` from the live site, every other path from the report."""
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean == LIVE_PREFIX.rstrip("/"):
            clean = LIVE_PREFIX
        if clean.startswith(LIVE_PREFIX):
            self.directory = str(self.live)
            return super().translate_path("/" + path[len(LIVE_PREFIX) :])
        self.directory = str(self.reports)
        return super().translate_path(path)

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


def make_server(
    port: int = 8000, reports: Path = ROOT / "reports", live: Path = ROOT / "build" / "live",
    quiet: bool = False,
) -> ThreadingHTTPServer:
    """A server bound to 127.0.0.1:`port` (0: any free port), not yet serving."""
    handler = functools.partial(Handler, reports=reports, live=live, quiet=quiet)
    return ThreadingHTTPServer((HOST, port), handler)


def main(argv: list[str] | None = None) -> int:
    """``python -m live.serve [--port N]``: print the addresses, serve until Ctrl-C."""
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m live.serve", description=summary)
    parser.add_argument("--port", type=int, default=8000, help="the port (0: any free one)")
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
