"""What each rule's job spends before its first line of science.

For every rule script: a fresh interpreter that does what the job does before its science —
snakemake's `script:` preamble (import snakemake's io containers, which unpickling the
`snakemake` object needs) and the script's module-level imports — timed as the best of 3
runs, with the bare interpreter's start-up beside it. One thread, as the jobs run.

Then what every snakemake start pays for the rules' code fingerprints
(workflow/lib/code_fingerprint.py: every rule script's, and each figure's own): a fresh
interpreter computing them all, best of 3.

Give several source trees (e.g. a `git worktree` of an older commit and this one) to compare
them in one run. Usage: python bench/bench_startup.py [TREE ...]
"""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PREAMBLE = "import pickle, snakemake.iocontainers, snakemake.io\n"


def rule_scripts(tree: Path) -> dict[str, Path]:
    """{script name: path} of every rule script of the source tree ``tree``."""
    return {path.stem: path for path in sorted((tree / "workflow" / "scripts").glob("*.py"))}


def imports(script: Path) -> str:
    tree = ast.parse(script.read_text())
    return "\n".join(
        ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)
    )


def best_of(source: str, tree: Path = REPO, repeat: int = 3) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "MPLBACKEND": "Agg"}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", source], check=True, env=env)
        best = min(best, time.perf_counter() - start)
    return best


HEAVY = ("torch", "pandas", "matplotlib", "seaborn", "scipy.linalg", "scipy.stats")


def loaded_heavy(source: str, tree: Path = REPO) -> str:
    """The heavy modules that ``source`` ends up importing."""
    probe = source + f"\nimport sys; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    return out.stdout.strip() or "-"


FINGERPRINTS = """
import sys, time
from pathlib import Path
root = Path(sys.argv[1]); sys.path[:0] = [str(root / "src"), str(root / "workflow" / "lib")]
from code_fingerprint import fingerprint
from rnnschur.report.figures import WHERE
start = time.perf_counter()
for script in sorted((root / "workflow" / "scripts").glob("*.py")):
    fingerprint(script, root / "src")
for figure, module in sorted(WHERE.items()):
    fingerprint(root / "workflow/scripts/figure.py", root / "src", (module,), ((module, figure),))
print(time.perf_counter() - start)
"""


def fingerprint_seconds(tree: Path, repeat: int = 3) -> float:
    """Seconds a fresh interpreter takes to compute every rule script's and every figure's code
    fingerprint in ``tree`` (its imports not counted), the best of ``repeat``."""
    env = {**os.environ, "MPLBACKEND": "Agg"}
    runs = [
        subprocess.run(
            [sys.executable, "-c", FINGERPRINTS, str(tree)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        ).stdout
        for _ in range(repeat)
    ]
    return min(float(out) for out in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[REPO])
    args = parser.parse_args()
    bare = best_of("pass")
    preamble = best_of(PREAMBLE)
    print(f"bare interpreter {bare:.2f} s; + snakemake script preamble {preamble:.2f} s")
    scripts = {tree: rule_scripts(tree.resolve()) for tree in args.trees}
    names = sorted(set().union(*scripts.values()))
    print(f"{'rule script':24s}" + "".join(f"{str(t)[-18:]:>20s}" for t in args.trees))
    for name in names:
        cells = []
        for tree in args.trees:
            script = scripts[tree].get(name)
            if script is None:
                cells.append(f"{'-':>20s}")
                continue
            source = PREAMBLE + imports(script)
            heavy = loaded_heavy(source, tree.resolve()).replace("matplotlib", "mpl")
            cells.append(f"{best_of(source, tree.resolve()):6.2f} {heavy[:13]:>13s}")
        print(f"{name:24s}" + "".join(cells))
    times = {tree: fingerprint_seconds(tree.resolve()) for tree in args.trees}
    first = times[args.trees[0]]
    print(
        "code fingerprints per snakemake start: "
        + "; ".join(f"{tree} {t:.3f} s ({t / first:.2f}x)" for tree, t in times.items())
    )


if __name__ == "__main__":
    main()
