"""Build the live workbench's static site: ``python -m live.build`` (``make live``).

The site, written into ``build/live/`` (replaced whole, only once complete):

``index.html``, ``app.js``, ``worker.js``, ``style.css``
    the page (``live/page/``): the controls and the editable grid; the worker
    runs Python and answers each change;
``sudosat.zip``
    the package's light core, its ``.py`` files without the parts no page
    uses (the report, the studies, the command line);
``config.json``
    the puzzles offered beside the samples (the first lines of
    ``data/instances.txt``) and the versions the page names;
``pyodide/``
    Pyodide's core from the npm registry at the version ``pyproject.toml``
    pins (``[tool.sudosat.live.npm.pyodide]``), its tarball checked against
    the pinned integrity: the runtime, its WebAssembly and the standard
    library, and a ``pyodide-lock.json`` rewritten to list no package, since
    the site ships none;
``lock.json``
    every other file of the site with its size, SHA-256 and origin
    (:func:`check` holds the site to it).

Downloads happen here only, into the cache (``build/live-cache/``, reused by
the next build); the built page requests nothing beyond its own host.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(__file__).resolve().parent / "page"
PAGE_FILES = ("index.html", "app.js", "worker.js", "style.css")
OUT = ROOT / "build" / "live"
CACHE = ROOT / "build" / "live-cache"
LOCK = "lock.json"
# The package's folders the page never imports: they need pandas, matplotlib or a terminal.
LEFT_OUT = ("report", "studies", "cli")
INSTANCES = "data/instances.txt"
OFFERED = 6  # lines of INSTANCES offered in the page's puzzle list, as in explore.ipynb
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every archive member's date: the same bytes on every build

__all__ = ["FetchError", "build", "check", "main", "pins"]


class FetchError(RuntimeError):
    """A pinned package could not be fetched from its registry (or failed its integrity)."""


def pins(root: Path = ROOT) -> dict[str, dict[str, Any]]:
    """The npm packages the site ships, by name: ``version``, ``integrity``, ``files``."""
    with (root / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["tool"]["sudosat"]["live"]["npm"]


def fetch_npm(name: str, pin: dict[str, Any], cache: Path) -> Path:
    """The tarball of ``name@version`` from the npm registry, in `cache` (fetched when absent).

    Raises
    ------
    FetchError
        npm is missing, the registry cannot be reached, or the tarball's
        SHA-512 is not the pinned integrity.
    """
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"{name}-{pin['version']}.tgz"
    if not tarball.is_file() or _integrity(tarball) != pin["integrity"]:
        npm = shutil.which("npm")
        if npm is None:
            raise FetchError("npm is needed to fetch Pyodide (Debian: apt-get install npm)")
        # into a folder of its own, then moved: a build running beside this one (a test)
        # never reads a tarball half written
        with tempfile.TemporaryDirectory(dir=cache) as folder:
            command = [npm, "pack", f"{name}@{pin['version']}", "--pack-destination", folder]
            command += ["--silent", "--fetch-retries=1", "--fetch-timeout=60000"]
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=600)
            except subprocess.TimeoutExpired:
                raise FetchError(f"npm pack {name}@{pin['version']} took over 10 minutes") from None
            packed = Path(folder) / tarball.name
            if done.returncode != 0 or not packed.is_file():
                said = (done.stderr or done.stdout).strip().splitlines()
                raise FetchError(
                    f"could not fetch {name}@{pin['version']} from the npm registry: "
                    + (said[-1] if said else f"npm exited with {done.returncode}")
                )
            os.replace(packed, tarball)
    if _integrity(tarball) != pin["integrity"]:
        raise FetchError(f"{tarball.name} does not match the integrity pinned in pyproject.toml")
    return tarball


def _integrity(path: Path) -> str:
    """npm's integrity string of a file: ``sha512-`` and the base64 digest."""
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def package_archive(root: Path = ROOT) -> bytes:
    """The light core as a zip of ``sudosat/**/*.py`` (same bytes for the same sources)."""
    package = root / "sudosat"
    sources = sorted(
        path
        for path in package.rglob("*.py")
        if path.relative_to(package).parts[0] not in LEFT_OUT
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in sources:
            member = zipfile.ZipInfo(path.relative_to(root).as_posix(), ZIP_TIME)
            member.external_attr = 0o644 << 16
            member.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(member, path.read_bytes())
    return buffer.getvalue()


def config(root: Path = ROOT) -> dict[str, Any]:
    """What the page reads at start: the offered puzzles and the versions it names."""
    from sudosat import __version__
    from sudosat.report.io import read_instances

    instances = root / INSTANCES
    boards = list(read_instances(instances).items())[:OFFERED] if instances.is_file() else []
    return {
        "puzzles": {f"line {number} of {INSTANCES}": board.to_line() for number, board in boards},
        "sudosat": __version__,
        "pyodide": pins(root)["pyodide"]["version"],
    }


def build(out: Path = OUT, cache: Path = CACHE, root: Path = ROOT) -> dict[str, Any]:
    """Write the site into `out` (replaced once complete); return its lock.

    Raises
    ------
    FetchError
        A pinned package could not be fetched (see :func:`fetch_npm`).
    """
    staging = out.with_name(out.name + ".part")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    files: dict[str, dict[str, Any]] = {}

    def put(name: str, data: bytes, origin: str) -> None:
        path = staging / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        files[name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                       "from": origin}

    for name in PAGE_FILES:
        put(name, (PAGE / name).read_bytes(), "live/page")
    put("sudosat.zip", package_archive(root), "sudosat")
    put("config.json", json.dumps(config(root), indent=1).encode(), "sudosat")
    for name, pin in pins(root).items():
        origin = f"npm:{name}@{pin['version']}"
        with tarfile.open(fetch_npm(name, pin, cache)) as tar:
            for member in pin["files"]:
                extracted = tar.extractfile(f"package/{member}")
                if extracted is None:
                    raise FetchError(f"{origin} has no file {member}")
                put(f"{name}/{member}", extracted.read(), origin)
            put(f"{name}/pyodide-lock.json", _no_packages(tar, origin), origin + " (no package)")
    lock = {"pins": pins(root), "files": dict(sorted(files.items()))}
    (staging / LOCK).write_text(json.dumps(lock, indent=1) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return lock


def _no_packages(tar: tarfile.TarFile, origin: str) -> bytes:
    """Pyodide's lock file with its package list emptied: the site ships no package."""
    extracted = tar.extractfile("package/pyodide-lock.json")
    if extracted is None:
        raise FetchError(f"{origin} has no pyodide-lock.json")
    lock = json.load(extracted)
    lock["packages"] = {}
    return json.dumps(lock, indent=1).encode()


def check(site: Path = OUT) -> list[str]:
    """What in `site` departs from its lock: files it does not list, missing or changed ones."""
    lock_path = site / LOCK
    if not lock_path.is_file():
        return [f"{lock_path} is missing"]
    listed = json.loads(lock_path.read_text())["files"]
    found = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()} - {LOCK}
    problems = [f"{name}: shipped but not in the lock" for name in sorted(found - set(listed))]
    for name, entry in listed.items():
        path = site / name
        if not path.is_file():
            problems.append(f"{name}: in the lock but missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            problems.append(f"{name}: differs from the lock")
    return problems


def site_bytes(site: Path = OUT) -> int:
    """The site's size on disk: every file's bytes."""
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    """``python -m live.build [--out DIR] [--cache DIR]``: build, check, print the size."""
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m live.build", description=summary)
    parser.add_argument("--out", type=Path, default=OUT, help="the site's folder (build/live)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="downloads (build/live-cache)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        lock = build(args.out, args.cache)
    except FetchError as exc:
        print(f"live: {exc}", file=sys.stderr)
        return 1
    problems = check(args.out)
    if problems:
        print("live: the site departs from its lock: " + "; ".join(problems), file=sys.stderr)
        return 1
    size = site_bytes(args.out)
    print(
        f"live: {args.out} ({len(lock['files']) + 1} files, {size / 1e6:.1f} MB) built in "
        f"{time.perf_counter() - started:.1f} s; `make serve` serves it on 127.0.0.1"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
