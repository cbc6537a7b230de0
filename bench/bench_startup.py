"""What each rule's job spends before its first line of science.

For every rule script: a fresh interpreter that does what the job does before its science —
snakemake's `script:` preamble (import snakemake's io containers, which unpickling the
`snakemake` object needs) and the script's module-level imports — timed as the best of 3
runs, with the bare interpreter's start-up beside it. One thread, as the jobs run.

Usage: python bench/bench_startup.py
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PREAMBLE = "import pickle, snakemake.iocontainers, snakemake.io\n"


def rule_scripts() -> dict[str, Path]:
    rules = {}
    for smk in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"^rule ", smk.read_text(), flags=re.M)[1:]:
            script = re.search(r"script:\s*\n\s*\"\.\./([^\"]+)\"", block)
            if script:
                rules[block.split(":", 1)[0]] = REPO / "workflow" / script.group(1)
    return rules


def imports(script: Path) -> str:
    tree = ast.parse(script.read_text())
    return "\n".join(
        ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)
    )


def best_of(source: str, repeat: int = 3) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "MPLBACKEND": "Agg"}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", source], check=True, env=env)
        best = min(best, time.perf_counter() - start)
    return best


HEAVY = ("torch", "pandas", "matplotlib", "seaborn", "scipy.linalg", "scipy.stats")


def loaded_heavy(source: str) -> str:
    """The heavy modules that ``source`` ends up importing."""
    probe = source + f"\nimport sys; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    return out.stdout.strip() or "-"


def main() -> None:
    bare = best_of("pass")
    preamble = best_of(PREAMBLE)
    print(f"bare interpreter {bare:.2f} s; + snakemake script preamble {preamble:.2f} s")
    print(f"{'rule':24s} {'start-up (s)':>12s}   heavy modules loaded")
    for rule, script in rule_scripts().items():
        source = PREAMBLE + imports(script)
        print(f"{rule:24s} {best_of(source):12.2f}   {loaded_heavy(source)}")


if __name__ == "__main__":
    main()
