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
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

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
T = TypeVar("T")

__all__ = ["BuildError", "FetchError", "build", "check", "check_out", "main", "pins", "write_whole"]


class BuildError(RuntimeError):
    """The site cannot be built: one line naming the path (or the package) and the cause."""


class FetchError(BuildError):
    """A pinned package could not be fetched from its registry (or failed its integrity)."""


def _os_reason(exc: OSError, where: Path | None = None) -> str:
    """An OSError as one line: the path it names (else `where`), then the cause."""
    cause = exc.strerror or " ".join(str(exc).split())
    path = exc.filename if exc.filename is not None else where
    return f"{path}: {cause}" if path is not None else cause


def pins(root: Path = ROOT) -> dict[str, dict[str, Any]]:
    """The npm packages the site ships, by name: ``version``, ``integrity``, ``files``."""
    with (root / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["tool"]["sudosat"]["live"]["npm"]


def fetch_npm(name: str, pin: dict[str, Any], cache: Path) -> Path:
    """The tarball of ``name@version`` from the npm registry, in `cache` (fetched when absent).

    Raises
    ------
    FetchError
        npm is missing, the registry cannot be reached (the message names the
        package and says that the first build needs the network), the cache
        cannot hold the tarball, or the tarball's SHA-512 is not the pinned
        integrity.
    """
    package = f"{name}@{pin['version']}"
    if cache.exists() and not cache.is_dir():
        raise FetchError(f"{cache}: the download cache must be a folder; this is a file")
    tarball = cache / f"{name}-{pin['version']}.tgz"
    if not tarball.is_file() or _integrity(tarball) != pin["integrity"]:
        npm = shutil.which("npm")
        if npm is None:
            raise FetchError(f"npm is needed to fetch {package} the first time (Debian: apt-get "
                             f"install npm); later builds read it from {cache}")
        try:
            _pack(npm, package, tarball, cache)
        except OSError as exc:
            raise FetchError(f"{cache}: cannot keep {package} in the download cache: "
                             f"{exc.strerror or exc}") from None
    if _integrity(tarball) != pin["integrity"]:
        raise FetchError(f"{tarball}: does not match the integrity pinned in pyproject.toml")
    return tarball


def _pack(npm: str, package: str, tarball: Path, cache: Path) -> None:
    """``npm pack`` `package` into `tarball` (through a folder of its own in `cache`)."""
    cache.mkdir(parents=True, exist_ok=True)
    # into a folder of its own, then moved: a build running beside this one (a test)
    # never reads a tarball half written
    with tempfile.TemporaryDirectory(dir=cache) as folder:
        command = [npm, "pack", package, "--pack-destination", folder]
        command += ["--loglevel=error", "--fetch-retries=1", "--fetch-timeout=60000"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            raise FetchError(f"npm pack {package} took over 10 minutes") from None
        packed = Path(folder) / tarball.name
        if done.returncode != 0 or not packed.is_file():
            raise FetchError(
                f"could not fetch {package} from the npm registry "
                f"({_npm_reason(done.stderr or done.stdout, done.returncode)}): the first build "
                f"needs the network to reach the registry; later ones read it from {cache}"
            )
        os.replace(packed, tarball)


def _npm_reason(said: str, code: int) -> str:
    """What npm's error output says went wrong, in a few words.

    Examples
    --------
    >>> _npm_reason("npm error code ENOTFOUND\\nnpm error FetchError: request to "
    ...             "https://registry.npmjs.org/pyodide failed, reason: getaddrinfo "
    ...             "ENOTFOUND registry.npmjs.org\\n", 1)
    'getaddrinfo ENOTFOUND registry.npmjs.org'
    >>> _npm_reason("", 1)
    'npm exited with 1'
    """
    lines = [line.strip() for line in said.splitlines() if line.strip()]
    for line in lines:
        if "reason:" in line:
            return line.split("reason:", 1)[1].strip()
    for line in lines:
        if line.startswith("npm error code ") or line.startswith("npm ERR! code "):
            return "npm error " + line.rsplit(" ", 1)[1]
    return lines[-1] if lines else f"npm exited with {code}"


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

    The site is made in a staging folder beside `out` (``NAME.part``) and
    takes `out`'s place only once complete; a build that fails leaves `out`
    as it was and no staging folder.

    Raises
    ------
    BuildError
        One line naming the path (or the package) and the cause: `out` is a
        file, a symlink or a folder that holds no site of ours, its folder
        cannot be written, the disk is full, the cache is not a folder or
        cannot be written; a :class:`FetchError` when a pinned package
        could not be fetched (see :func:`fetch_npm`).
    """
    return write_whole(out, lambda staging: _fill(staging, cache, root), LOCK, "this build")


def write_whole(out: Path, fill: Callable[[Path], T], marker: str, maker: str) -> T:
    """Let `fill` write a site into a staging folder that then takes `out`'s place.

    `out` is refused (see :func:`check_out`) unless it is absent, empty or a
    site its maker made, known by the file `marker` that `fill` writes. The
    site is made in ``NAME.part`` beside `out` and replaces `out` only once
    complete (the old site is removed only once the new one is in place); a
    failure leaves `out` as it was and no staging folder. Returns what `fill`
    returns.

    Raises
    ------
    BuildError
        One line naming the path and the cause: `out` refused, or a write failed.
    """
    check_out(out, marker, maker)
    staging = out.with_name(out.name + ".part")
    try:
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        made = fill(staging)
        _swap(staging, out)
    except BaseException as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):  # a write names no file: the folder being written
            raise BuildError(_os_reason(exc, staging)) from None
        raise
    return made


def check_out(out: Path, marker: str, maker: str) -> None:
    """Refuse an `out` a build would destroy or could never replace (see :func:`write_whole`).

    Refused: a path without a name of its own (``.``, ``..``, ``/``), a
    symlink, a file, and a folder that holds files but not `marker` (not a
    site `maker` made).
    """
    if out.name in ("", ".", ".."):
        raise BuildError(f"{out}: --out names no folder of its own; give the site's folder "
                         "by its name")
    if out.is_symlink():
        raise BuildError(f"{out}: --out is a symlink; give the folder itself")
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out}: --out is a file, not the site's folder")
    if out.is_dir() and any(out.iterdir()) and not (out / marker).is_file():
        raise BuildError(f"{out}: --out holds files but no {marker}: not a site {maker} "
                         "made, so it is not replaced")


def _fill(staging: Path, cache: Path, root: Path) -> dict[str, Any]:
    """Write every file of the site into `staging`; return its lock."""
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
    return lock


def _swap(staging: Path, out: Path) -> None:
    """Put the complete `staging` in `out`'s place; the old site goes only once it has."""
    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    try:
        staging.rename(out)
    except OSError:
        if old.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


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
    """``python -m live.build [--out DIR] [--cache DIR]``: build, check, print the size.

    Every failure is one line on standard error (exit 1; 2 for bad usage), never a
    traceback; a build that fails leaves no staging folder.
    """
    from sudosat.errors import SudosatError
    from sudosat.run.options import OneLineParser

    summary = (__doc__ or "").split("\n")[0]
    parser = OneLineParser(prog="python -m live.build", description=summary)
    parser.add_argument("--out", type=Path, default=OUT, help="the site's folder (build/live)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="downloads (build/live-cache)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        lock = build(args.out, args.cache)
        problems = check(args.out)
        size = site_bytes(args.out)
    except (BuildError, SudosatError) as exc:
        print(f"live: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"live: {_os_reason(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("live: interrupted (a site half built is removed)", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: still one line
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
        print(f"live: internal error: {text}", file=sys.stderr)
        return 3
    if problems:
        print("live: the site departs from its lock: " + "; ".join(problems), file=sys.stderr)
        return 1
    print(
        f"live: {args.out} ({len(lock['files']) + 1} files, {size / 1e6:.1f} MB) built in "
        f"{time.perf_counter() - started:.1f} s; `make serve` serves it on 127.0.0.1"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
