"""``live.build``, ``live.site`` and ``live.serve`` fail in one line, leave nothing half made,
stay in their roots.

``live.build`` (``make live``) printed a traceback for a cache that is a file or
read-only, an ``--out`` that is a file or a symlink, a read-only parent and a
full disk, left its ``*.part`` staging folder after every failed build, and said
only "npm exited with 1" offline. ``live.serve`` (``make serve``) followed
symlinks out of its roots (``/live/etc/passwd`` served through a link to
``/etc``), listed folders, answered a NUL in the path with nothing and a
traceback, printed a traceback for a client's reset, took ``--port 65536`` to an
OverflowError traceback and ``abc`` to three lines of usage, and did not say
that ``reports/`` was missing. ``live.site`` (``make site``) deleted whatever
``--out`` named (``--out ~/thesis``) and the old site before the new one was in place.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import io
import json
import os
import socket
import stat
import struct
import subprocess
import sys
import tarfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from live import build as livebuild
from live import serve as liveserve
from live import site as livesite

# -- live.build ------------------------------------------------------------------------------


def build_main(capsys, *argv: str) -> tuple[int, list[str]]:
    try:
        code = livebuild.main([str(arg) for arg in argv])
    except SystemExit as stop:
        code = int(stop.code or 0)
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    return code, err


def leftovers(folder: Path) -> list[str]:
    """Staging or swap folders a build left in `folder`."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".part", ".old")))


@pytest.fixture
def read_only(tmp_path) -> Iterator[Path]:
    """A folder nothing can be written in, root included (a read-only mount for root)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs",
                                  str(folder)], capture_output=True)
        if mounted.returncode != 0:
            pytest.skip("root, and no read-only tmpfs can be mounted here")
        yield folder
        subprocess.run(["umount", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)


def test_an_out_that_is_a_file_is_refused_and_kept(tmp_path, capsys):
    out = tmp_path / "afile"
    out.write_text("mine\n")
    code, err = build_main(capsys, "--out", out, "--cache", tmp_path / "cache")
    assert code == 1 and err == [f"live: {out}: --out is a file, not the site's folder"]
    assert out.read_text() == "mine\n" and leftovers(tmp_path) == []


def test_an_out_that_is_a_symlink_is_refused(tmp_path, capsys):
    target = tmp_path / "real"
    target.mkdir()
    (target / "keep.txt").write_text("mine\n")
    link = tmp_path / "link"
    link.symlink_to(target)
    code, err = build_main(capsys, "--out", link, "--cache", tmp_path / "cache")
    assert code == 1 and err == [f"live: {link}: --out is a symlink; give the folder itself"]
    assert (target / "keep.txt").read_text() == "mine\n" and leftovers(tmp_path) == []


def test_an_out_that_holds_other_files_is_not_replaced(tmp_path, capsys):
    out = tmp_path / "documents"
    out.mkdir()
    (out / "thesis.tex").write_text("mine\n")
    code, err = build_main(capsys, "--out", out, "--cache", tmp_path / "cache")
    assert code == 1 and len(err) == 1 and err[0].startswith(f"live: {out}: --out holds files")
    assert (out / "thesis.tex").read_text() == "mine\n" and leftovers(tmp_path) == []


def test_a_read_only_parent_is_one_line_and_leaves_no_staging(tmp_path, capsys, read_only):
    code, err = build_main(capsys, "--out", read_only / "site", "--cache", tmp_path / "cache")
    assert code == 1 and len(err) == 1, err
    assert err[0].startswith(f"live: {read_only}/site.part: ")
    assert os.listdir(read_only) == []


def test_a_cache_that_is_a_file_is_one_line(tmp_path, capsys):
    cache = tmp_path / "cache"
    cache.write_text("not a folder\n")
    code, err = build_main(capsys, "--out", tmp_path / "site", "--cache", cache)
    assert code == 1
    assert err == [f"live: {cache}: the download cache must be a folder; this is a file"]
    assert leftovers(tmp_path) == [] and not (tmp_path / "site").exists()


def test_a_read_only_cache_is_one_line(tmp_path, capsys, read_only):
    code, err = build_main(capsys, "--out", tmp_path / "site", "--cache", read_only / "cache")
    assert code == 1 and len(err) == 1, err
    assert err[0].startswith(f"live: {read_only}/cache: cannot keep pyodide@")
    assert leftovers(tmp_path) == [] and not (tmp_path / "site").exists()


NPM_OFFLINE = """\
npm error code ENOTFOUND
npm error syscall getaddrinfo
npm error errno ENOTFOUND
npm error network request to https://registry.npmjs.org/pyodide failed, reason: getaddrinfo \
ENOTFOUND registry.npmjs.org
npm error network This is a problem related to network connectivity.
"""


def test_offline_the_message_names_the_package_and_the_network(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "bin"
    folder.mkdir()
    npm = folder / "npm"  # npm as it answers without a network
    npm.write_text(f"#!/bin/sh\ncat >&2 <<'EOF'\n{NPM_OFFLINE}EOF\nexit 1\n")
    npm.chmod(npm.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    cache = tmp_path / "cache"
    code, err = build_main(capsys, "--out", tmp_path / "site", "--cache", cache)
    version = livebuild.pins()["pyodide"]["version"]
    assert code == 1 and err == [
        f"live: could not fetch pyodide@{version} from the npm registry (getaddrinfo ENOTFOUND "
        "registry.npmjs.org): the first build needs the network to reach the registry; later "
        f"ones read it from {cache}"]
    assert leftovers(tmp_path) == [] and not (tmp_path / "site").exists()


@pytest.fixture
def offline_pins(tmp_path, monkeypatch) -> Path:
    """A pinned package whose tarball is already at hand: a build that needs no network."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in (("package/pyodide.mjs", b"export {};\n" * 50),
                           ("package/pyodide-lock.json", b'{"packages": {"a": {}}}')):
            member = tarfile.TarInfo(name)
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    tarball = tmp_path / "pyodide-0.0.1.tgz"
    tarball.write_bytes(buffer.getvalue())
    digest = base64.b64encode(hashlib.sha512(buffer.getvalue()).digest()).decode()
    pins = {"pyodide": {"version": "0.0.1", "integrity": f"sha512-{digest}",
                        "files": ["pyodide.mjs"]}}
    monkeypatch.setattr(livebuild, "pins", lambda root=livebuild.ROOT: pins)
    monkeypatch.setattr(livebuild, "fetch_npm", lambda name, pin, cache: tarball)
    return tarball


def test_a_full_disk_is_one_line_and_leaves_no_staging(tmp_path, capsys, offline_pins,
                                                       monkeypatch):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(disk)], capture_output=True,
    ).returncode == 0
    if not mounted:  # no tmpfs here: the disk fills at the third file written
        real_write = Path.write_bytes
        written = []

        def filling(path: Path, data: bytes) -> int:
            written.append(path)
            if len(written) >= 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real_write(path, data)

        monkeypatch.setattr(Path, "write_bytes", filling)
    try:
        code, err = build_main(capsys, "--out", disk / "site", "--cache", tmp_path / "cache")
        assert code == 1 and len(err) == 1, err
        assert err[0].startswith(f"live: {disk}/site.part") and "No space left" in err[0]
        assert "Traceback" not in err[0]
        assert os.listdir(disk) == []
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], check=True)


def test_a_rebuild_replaces_the_site_whole(tmp_path, capsys, offline_pins):
    out = tmp_path / "site"
    assert build_main(capsys, "--out", out, "--cache", tmp_path / "cache")[0] == 0
    (out / "stale.txt").write_text("from an older build\n")
    assert build_main(capsys, "--out", out, "--cache", tmp_path / "cache")[0] == 0
    assert not (out / "stale.txt").exists() and livebuild.check(out) == []
    assert leftovers(tmp_path) == []


# -- live.site -------------------------------------------------------------------------------


def site_main(capsys, *argv: object) -> tuple[int, list[str]]:
    code = livesite.main([str(arg) for arg in argv])
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    return code, err


@pytest.fixture
def site_sources(tmp_path) -> tuple[Path, Path]:
    """A report and a live page that matches its lock: what ``live.site`` puts together."""
    reports, live = tmp_path / "reports", tmp_path / "built-live"
    reports.mkdir()
    (reports / "index.html").write_text("<p>report</p>")
    live.mkdir()
    page = b"<p>workbench</p>"
    (live / "index.html").write_bytes(page)
    lock = {"files": {"index.html": {"bytes": len(page),
                                     "sha256": hashlib.sha256(page).hexdigest()}}}
    (live / livebuild.LOCK).write_text(json.dumps(lock))
    return reports, live


def test_site_refuses_a_folder_that_is_not_a_site_and_leaves_it(tmp_path, capsys, site_sources):
    reports, live = site_sources
    out = tmp_path / "thesis"
    out.mkdir()
    (out / "thesis.tex").write_text("mine\n")
    code, err = site_main(capsys, "--out", out, "--reports", reports, "--live", live)
    assert code == 1 and err == [f"site: {out}: --out holds files but no {livesite.MARK}: not "
                                 "a site live.site made, so it is not replaced"]
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]
    assert (out / "thesis.tex").read_text() == "mine\n" and leftovers(tmp_path) == []


@pytest.mark.parametrize("where", ["unrelated", "site"])
def test_site_refuses_the_current_folder(tmp_path, capsys, site_sources, monkeypatch, where):
    reports, live = site_sources
    here = tmp_path / where
    if where == "site":  # even a site it made: `.` has no name to stage beside
        assert site_main(capsys, "--out", here, "--reports", reports, "--live", live)[0] == 0
    else:
        here.mkdir()
        (here / "keep.txt").write_text("mine\n")
    before = sorted(p.name for p in here.iterdir())
    monkeypatch.chdir(here)
    code, err = site_main(capsys, "--out", ".", "--reports", reports, "--live", live)
    assert code == 1 and err == ["site: .: --out names no folder of its own; give the site's "
                                 "folder by its name"]
    assert sorted(p.name for p in here.iterdir()) == before and leftovers(tmp_path) == []


def test_site_refuses_a_file(tmp_path, capsys, site_sources):
    reports, live = site_sources
    out = tmp_path / "afile"
    out.write_text("mine\n")
    code, err = site_main(capsys, "--out", out, "--reports", reports, "--live", live)
    assert code == 1 and err == [f"site: {out}: --out is a file, not the site's folder"]
    assert out.read_text() == "mine\n" and leftovers(tmp_path) == []


def test_site_replaces_an_earlier_site_whole(tmp_path, capsys, site_sources):
    reports, live = site_sources
    out = tmp_path / "site"
    assert site_main(capsys, "--out", out, "--reports", reports, "--live", live)[0] == 0
    assert (out / livesite.MARK).is_file() and livebuild.check(out / "live") == []
    (out / "stale.txt").write_text("from an older site\n")
    (reports / "index.html").write_text("<p>report, again</p>")
    code, err = site_main(capsys, "--out", out, "--reports", reports, "--live", live)
    assert code == 0 and err == []
    assert not (out / "stale.txt").exists()
    assert (out / "index.html").read_text() == "<p>report, again</p>"
    assert livebuild.check(out / "live") == [] and leftovers(tmp_path) == []


def test_site_keeps_the_old_site_when_the_new_one_fails(tmp_path, capsys, site_sources,
                                                       monkeypatch):
    reports, live = site_sources
    out = tmp_path / "site"
    assert site_main(capsys, "--out", out, "--reports", reports, "--live", live)[0] == 0
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(livesite.shutil, "copytree", full)
    code, err = site_main(capsys, "--out", out, "--reports", reports, "--live", live)
    assert code == 1 and err == [f"site: {out}.part: {os.strerror(errno.ENOSPC)}"]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before
    assert leftovers(tmp_path) == []


# -- live.serve ------------------------------------------------------------------------------


@pytest.fixture
def roots(tmp_path) -> tuple[Path, Path]:
    """A report and a site; the site holds links out of its root and a folder without index."""
    reports, live = tmp_path / "reports", tmp_path / "live"
    reports.mkdir()
    (reports / "index.html").write_text("<p>report</p>")
    live.mkdir()
    (live / "index.html").write_text("<p>workbench</p>")
    (live / "etc").symlink_to("/etc")
    (live / "hostname").symlink_to("/etc/hostname")
    (live / "inside.html").symlink_to(live / "index.html")  # a link inside the root is fine
    (live / "folder").mkdir()
    (live / "folder" / "a.txt").write_text("a\n")
    os.mkfifo(live / "fifo")
    return reports, live


@pytest.fixture
def server(roots, capfd) -> Iterator[str]:
    httpd = liveserve.make_server(0, reports=roots[0], live=roots[1], quiet=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def status_of(address: str, path: str) -> int:
    """The status the server answers `path` with (sent as is, no client normalisation)."""
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(f"GET {path} HTTP/1.0\r\nHost: {address}\r\n\r\n".encode("latin-1"))
        answer = b""
        while b"\r\n" not in answer:  # the status line is all this needs
            more = connection.recv(4096)
            if not more:
                break
            answer += more
    return int(answer.split(b" ", 2)[1])


@pytest.mark.parametrize(("path", "expected"), [
    ("/live/", 200),
    ("/live/inside.html", 200),
    ("/", 200),
    ("/live", 301),
    ("/live/folder", 301),
    ("/live/etc/passwd", 404),
    ("/live/etc/", 404),
    ("/live/hostname", 404),
    ("/live/folder/", 404),  # a folder without index.html is never listed
    ("/live/fifo", 404),
    ("/live/missing.js", 404),
    ("/live/%00", 400),
    ("/live/a%00b.js", 400),
    ("/live/\x00", 400),
    ("/live/../../etc/passwd", 400),
    ("/live/%2e%2e/%2e%2e/etc/passwd", 400),
    ("/live/%ff", 400),
    ("http://elsewhere/etc/passwd", 400),
])
def test_the_server_serves_only_regular_files_inside_its_roots(server, capfd, path, expected):
    assert status_of(server, path) == expected
    assert "Traceback" not in capfd.readouterr().err


def test_a_clients_reset_prints_no_traceback(server, capfd):
    host, port = server.split(":")
    for partial in (b"GET /li", b""):
        connection = socket.create_connection((host, int(port)))
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        if partial:
            connection.sendall(partial)
        connection.close()  # a reset, not a polite close
    time.sleep(0.5)
    assert status_of(server, "/live/") == 200  # still serving
    assert capfd.readouterr().err == ""


def test_a_served_file_is_the_files_bytes(server):
    with urllib.request.urlopen(f"http://{server}/live/folder/a.txt") as response:
        assert response.read() == b"a\n"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"http://{server}/live/etc/passwd")
    assert refused.value.code == 404


@pytest.mark.parametrize("port", ["65536", "-1", "abc", "", "99999999999999999999", "1.5"])
def test_a_bad_port_is_one_line(capsys, port):
    with pytest.raises(SystemExit) as stop:
        liveserve.main(["--port", port])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1, err
    assert f"not a port: {port!r} (a whole number from 0 to 65535)" in err


def test_the_server_says_which_root_is_missing(tmp_path, capsys, monkeypatch):
    class Stopped:
        server_address = ("127.0.0.1", 8000)

        def serve_forever(self) -> None:
            raise KeyboardInterrupt

        def server_close(self) -> None:
            pass

    monkeypatch.setattr(liveserve, "make_server", lambda *args, **kwargs: Stopped())
    code = liveserve.main(["--port", "0", "--reports", str(tmp_path / "reports"),
                           "--live", str(tmp_path / "live")])
    out = capsys.readouterr().out
    assert code == 0
    assert f"({tmp_path / 'reports'} has no report yet: run `make report` first)" in out
    assert f"({tmp_path / 'live'} has no site yet: run `make live` first)" in out


def test_the_server_run_as_a_program_prints_no_traceback(roots, tmp_path):
    """``python -m live.serve`` itself, its stderr read whole after a NUL path and a reset."""
    with socket.socket() as probe:  # a free port: bind, then close
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(livebuild.__file__).resolve().parent.parent
    process = subprocess.Popen(
        [sys.executable, "-m", "live.serve", "--port", str(port), "--reports", str(roots[0]),
         "--live", str(roots[1])], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    try:
        address = f"127.0.0.1:{port}"
        for _ in range(300):
            try:
                status_of(address, "/")
                break
            except OSError:
                time.sleep(0.1)
        assert status_of(address, "/live/etc/passwd") == 404
        assert status_of(address, "/live/%00") == 400
        connection = socket.create_connection(("127.0.0.1", port))
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.sendall(b"GET /li")
        connection.close()
        time.sleep(0.5)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=60)
    assert "Traceback" not in err, err


def test_a_fetch_reason_is_read_from_npms_words():
    assert livebuild._npm_reason(NPM_OFFLINE, 1) == "getaddrinfo ENOTFOUND registry.npmjs.org"
    assert livebuild._npm_reason("npm error code E404\nnpm error 404 Not Found\n", 1) == (
        "npm error E404")
    assert livebuild._npm_reason("", 7) == "npm exited with 7"
    assert "BuildError" in livebuild.__all__  # the error main and live.site catch is public
