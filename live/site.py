"""Put the report and the live page under one root: ``python -m live.site`` (``make site``).

The folder (``build/site/`` by default, replaced whole once complete; a folder
that is not a site this made is refused, never replaced) holds the
rendered report (``reports/``, as ``make report`` wrote it or as committed) at
its root and the live workbench (``build/live/``, which ``make site`` builds
first) in ``live/``, where the report's index links it. Every link is relative
and no page asks another host, so any static web server serves the folder as it
is, at a host's root or under a sub-path (``python -m http.server`` run in its
parent serves it at ``/site/``), online or not. The GitHub Pages workflow
(``.github/workflows/pages.yml``) publishes this folder.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from live.build import OUT as LIVE
from live.build import ROOT, BuildError, check, site_bytes, write_whole

SITE = ROOT / "build" / "site"
REPORTS = ROOT / "reports"
LIVE_FOLDER = "live"  # where the report's index links the live page
MARK = "site.txt"  # in every site this makes: only a folder holding it is ever replaced
MARK_TEXT = "Made by `python -m live.site`; the next run replaces this folder whole.\n"

__all__ = ["SiteError", "assemble", "main"]


class SiteError(RuntimeError):
    """The report or the live page is missing, or the live page departs from its lock."""


def assemble(out: Path = SITE, reports: Path = REPORTS, live: Path = LIVE) -> int:
    """Copy `reports` into `out` and `live` into ``out/live`` (replaced once complete).

    `out` must be absent, empty or a site this made (it holds ``site.txt``):
    anything else is refused and left as it is. The old site is removed only
    once the new one is complete; a failure leaves it and no staging folder.

    Returns
    -------
    int
        How many files the folder holds.

    Raises
    ------
    SiteError
        One line naming the path and the cause: `reports` has no
        ``index.html`` or already holds a ``live`` or ``site.txt`` entry,
        `live` has no page or departs from its lock, `out` is refused (a
        symlink, a file, ``.``, a folder holding files but no ``site.txt``),
        or a write failed.
    """
    if not (reports / "index.html").is_file():
        raise SiteError(f"{reports} has no index.html: run `make report` first")
    if (reports / LIVE_FOLDER).exists():
        raise SiteError(f"{reports / LIVE_FOLDER} exists: the live page goes there")
    if not (live / "index.html").is_file():
        raise SiteError(f"{live} has no live page: run `make live` first")
    if (reports / MARK).exists():
        raise SiteError(f"{reports / MARK} exists: the site's mark goes there")
    problems = check(live)
    if problems:
        raise SiteError(f"{live} departs from its lock: {'; '.join(problems)}")

    def fill(staging: Path) -> None:
        shutil.copytree(reports, staging, dirs_exist_ok=True)
        shutil.copytree(live, staging / LIVE_FOLDER)
        (staging / MARK).write_text(MARK_TEXT)

    try:
        write_whole(out, fill, MARK, "live.site")
    except BuildError as exc:
        raise SiteError(str(exc)) from None
    return sum(1 for path in out.rglob("*") if path.is_file())


def main(argv: list[str] | None = None) -> int:
    """``python -m live.site [--out DIR] [--reports DIR] [--live DIR]``: assemble, say the size."""
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m live.site", description=summary)
    parser.add_argument("--out", type=Path, default=SITE, help="the site's folder (build/site)")
    parser.add_argument("--reports", type=Path, default=REPORTS, help="the report (reports)")
    parser.add_argument("--live", type=Path, default=LIVE, help="the live page (build/live)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        files = assemble(args.out, args.reports, args.live)
    except (SiteError, OSError) as exc:
        print(f"site: {exc}", file=sys.stderr)
        return 1
    print(
        f"site: {args.out} ({files} files, {site_bytes(args.out) / 1e6:.1f} MB: the report, and "
        f"the live page in {LIVE_FOLDER}/) in {time.perf_counter() - started:.1f} s; any static "
        "web server serves it as it is, e.g. `python -m http.server` in its parent folder"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
