"""Put the report and the live page under one root: ``python -m live.site`` (``make site``).

The folder (``build/site/`` by default, replaced whole once complete) holds the
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
from live.build import ROOT, check, site_bytes

SITE = ROOT / "build" / "site"
REPORTS = ROOT / "reports"
LIVE_FOLDER = "live"  # where the report's index links the live page

__all__ = ["SiteError", "assemble", "main"]


class SiteError(RuntimeError):
    """The report or the live page is missing, or the live page departs from its lock."""


def assemble(out: Path = SITE, reports: Path = REPORTS, live: Path = LIVE) -> int:
    """Copy `reports` into `out` and `live` into ``out/live`` (replaced once complete).

    Returns
    -------
    int
        How many files the folder holds.

    Raises
    ------
    SiteError
        `reports` has no ``index.html`` or already holds a ``live`` entry,
        `live` has no page, or `live` departs from its lock.
    """
    if not (reports / "index.html").is_file():
        raise SiteError(f"{reports} has no index.html: run `make report` first")
    if (reports / LIVE_FOLDER).exists():
        raise SiteError(f"{reports / LIVE_FOLDER} exists: the live page goes there")
    if not (live / "index.html").is_file():
        raise SiteError(f"{live} has no live page: run `make live` first")
    problems = check(live)
    if problems:
        raise SiteError(f"{live} departs from its lock: {'; '.join(problems)}")
    staging = out.with_name(out.name + ".part")
    shutil.rmtree(staging, ignore_errors=True)
    staging.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(reports, staging)
    shutil.copytree(live, staging / LIVE_FOLDER)
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
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
