"""A stand-in for a solver binary (zChaff, minisat, ...), driven by environment variables.

The tests put a tiny launcher named like the solver (``zchaff``, ``minisat``) in a
temporary folder; it runs this script with the real command line. What the script
does depends on ``FAKE_MODE``:

``replay``
    Print ``$FAKE_DIR/stdout`` and ``$FAKE_DIR/stderr`` and exit with the code in
    ``$FAKE_DIR/exit_code`` (a zChaff transcript folder has exactly these). When
    ``$FAKE_DIR/result`` exists it is copied to the last argument (MiniSat's result file).
``sleep``
    Ignore SIGTERM and sleep for a long time.
``spawn``
    Start a grandchild that sleeps for a long time, then sleep too.
``spawn-exit``
    Start a grandchild that sleeps for a long time, then replay and exit at once.
``abort``
    Die of SIGABRT.
``garbage``
    Print random bytes and exit 0.

When ``FAKE_LOG`` names a folder, the script first records its arguments
(``argv.json``), a copy of its input file (``input.cnf``: the first argument that
names an existing file), its own pid (``pid``) and its grandchild's pid
(``child_pid``) there.
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

LONG = 600.0


def main() -> int:
    log = os.environ.get("FAKE_LOG")
    if log:
        record(Path(log))
    mode = os.environ.get("FAKE_MODE", "replay")
    if mode == "sleep":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(LONG)
        return 0
    if mode in ("spawn", "spawn-exit"):
        child = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({LONG})"])
        if log:
            (Path(log) / "child_pid").write_text(str(child.pid))
        if mode == "spawn":
            time.sleep(LONG)
            return 0
        return replay(Path(os.environ["FAKE_DIR"]))
    if mode == "abort":
        sys.stdout.flush()
        os.abort()
    if mode == "garbage":
        noise = random.Random(7)
        sys.stdout.buffer.write(bytes(noise.randrange(256) for _ in range(4000)))
        return 0
    return replay(Path(os.environ["FAKE_DIR"]))


def record(log: Path) -> None:
    log.mkdir(parents=True, exist_ok=True)
    (log / "argv.json").write_text(json.dumps(sys.argv[1:]))
    (log / "pid").write_text(str(os.getpid()))
    for argument in sys.argv[1:]:
        if os.path.isfile(argument):
            shutil.copyfile(argument, log / "input.cnf")
            break


def replay(folder: Path) -> int:
    # bytes, not text: zChaff's progress reports end in '\r', which text mode would turn to '\n'
    sys.stdout.buffer.write((folder / "stdout").read_bytes())
    sys.stdout.flush()
    if (folder / "stderr").exists():
        sys.stderr.buffer.write((folder / "stderr").read_bytes())
        sys.stderr.flush()
    if (folder / "result").exists():
        shutil.copyfile(folder / "result", sys.argv[-1])
    code = int((folder / "exit_code").read_text().strip() or "0")
    if code > 128:  # a shell's report of death by signal: die of that signal, as the binary did
        os.kill(os.getpid(), code - 128)
    return code


if __name__ == "__main__":
    sys.exit(main())
