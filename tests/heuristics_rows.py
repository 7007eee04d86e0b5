"""Rows of the heuristics experiment as a test makes them: counts per solver, some stopped."""

from __future__ import annotations

import pandas as pd


def experiment_rows(counts: dict[str, list[int]], grades: list[str],
                    unfinished: dict[str, set[int]], capped: dict[str, set[int]] | None = None,
                    wall: float = 1.1, cached: str = "", cpu_ms: float = 10.0) -> pd.DataFrame:
    """The runs `unfinished` names were stopped by the budget, those `capped` names by the CPU
    cap; each took `cpu_ms` of CPU and `wall` times that on the wall clock."""
    rows = []
    for solver, values in counts.items():
        for index, value in enumerate(values):
            out = index in unfinished.get(solver, set())
            cap = index in (capped or {}).get(solver, set())
            status, stop = (("TIMEOUT", "time") if cap else ("UNKNOWN", "propagations") if out
                            else ("SAT", "answered"))
            rows.append({"puzzle": f"p{index}", "grade": grades[index], "givens": 24,
                         "solver": solver, "status": status, "stop": stop,
                         "valid": status == "SAT", "decisions": value, "conflicts": 0,
                         "solve_cpu_ms": cpu_ms, "solve_wall_ms": cpu_ms * wall,
                         "computed_at": cached})
    return pd.DataFrame(rows)
