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
``solve``
    A zChaff that really answers: solve the input file (the first argument) with
    PySAT's MiniSat, use ``$FAKE_BURN`` seconds of CPU time and then sleep
    ``$FAKE_SLEEP`` seconds (both default 0), and print the answer
    in the layout of the real transcripts ``sudoku9`` (SAT) and ``unsat_tiny``
    (UNSAT) under ``$FAKE_DIR``, their counts replaced by this formula's and their
    ``Total Run Time`` by ``$FAKE_RUN_TIME`` (default the transcript's).

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
    if mode == "solve":
        return solve(Path(sys.argv[1]), Path(os.environ["FAKE_DIR"]))
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


def solve(cnf_path: Path, transcripts: Path) -> int:
    """Answer as zChaff would (see the module docstring), from the real transcripts' layout."""
    from pysat.formula import CNF
    from pysat.solvers import Minisat22

    formula = CNF(from_file=str(cnf_path))
    with Minisat22(bootstrap_with=formula.clauses) as solver:
        sat = solver.solve()
        found = solver.get_model() if sat else None
    until = time.process_time() + float(os.environ.get("FAKE_BURN", "0"))
    while time.process_time() < until:
        pass  # CPU time that only the kernel's accounting of this process can see
    time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
    lines = (transcripts / ("sudoku9" if sat else "unsat_tiny") / "stdout").read_text()
    counts = {
        "Original Num Variables": formula.nv,
        "Original Num Clauses": len(formula.clauses),
        "Original Num Literals": sum(map(len, formula.clauses)),
        "Total Run Time": os.environ.get("FAKE_RUN_TIME"),
    }
    out = []
    for line in lines.splitlines():
        name = line.split("\t", 1)[0]
        if line.startswith("Solving "):
            line = f"Solving {cnf_path} ......"
        elif line.startswith("c ") and "Clauses are true" in line:
            line = f"c {len(formula.clauses)} Clauses are true, Verify Solution successful."
        elif "Random Seed Used" in line and found is not None:
            values = {abs(lit): lit for lit in found}
            model = " ".join(str(values.get(v, v)) for v in range(1, formula.nv + 1))
            line = f"{model} Random Seed Used" + line.split("Random Seed Used", 1)[1]
        elif counts.get(name) is not None:
            line = f"{name}\t\t\t\t{counts[name]}"
        out.append(line)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
