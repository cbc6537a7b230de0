"""The quick preset end to end under `snakemake -c2`, for one or more source trees.

For each tree (default: this repository), the workflow files are copied to a temporary folder
and the quick preset runs there from nothing, with the tree's own src/ on the path. Reported per
tree: wall time, parallel efficiency (the benchmarked jobs' CPU time over wall x 2) and each
rule's mean job wall time from its benchmark files. Give two trees (e.g. a `git worktree` of an
older commit and this one) to compare them in one run; run it on an idle machine.

Usage: python bench/bench_quick.py [TREE ...]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
FILES = ("Snakefile", "config.yaml", "workflow", "presets", "profiles", "envs", "src")


def run_quick(tree: Path) -> tuple[float, pd.DataFrame]:
    """(wall seconds, one row per benchmarked job: rule, s, cpu_time) of the quick preset."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for name in FILES:
            source = tree / name
            if source.is_dir():
                shutil.copytree(source, folder / name)
            elif source.exists():
                shutil.copy2(source, folder / name)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "snakemake", "-c2", "--configfile", "presets/quick.yaml"],
            cwd=folder,
            check=True,
            capture_output=True,
        )
        wall = time.perf_counter() - start
        rows = []
        bench = folder / "results" / "quick" / "benchmarks"
        for path in bench.rglob("*.tsv"):
            frame = pd.read_csv(path, sep="\t")
            rule = path.relative_to(bench).parts[0]
            rows.append({"rule": rule, "s": frame["s"].sum(), "cpu": frame["cpu_time"].sum()})
    return wall, pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[REPO])
    args = parser.parse_args()
    per_rule = {}
    for tree in args.trees:
        wall, jobs = run_quick(tree.resolve())
        efficiency = jobs["cpu"].sum() / (2 * wall)
        print(
            f"{tree}: wall {wall:.1f} s, {len(jobs)} benchmarked jobs, "
            f"CPU {jobs['cpu'].sum():.1f} s"
        )
        print(f"  parallel efficiency (job CPU / (wall x 2)) {efficiency:.2f}")
        per_rule[str(tree)] = jobs.groupby("rule")["s"].mean()
    table = pd.DataFrame(per_rule)
    print("Mean job wall time per rule (s):")
    print(table.round(2).to_string())


if __name__ == "__main__":
    main()
