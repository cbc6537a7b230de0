"""The figure jobs alone, as the workflow runs them, for one or more source trees.

A finished results folder of the quick preset, with its studies layers (e.g. one kept by
``bench/bench_quick.py --studies --keep``) or alone (``--alone``; one kept by
``bench/bench_quick.py --keep``),
is copied into a temporary copy of each tree's workflow; then every figure rule is forced to
run again there (``snakemake -c1 --forcerun <figure rules>``, one job at a time, so that no two
jobs share the cores), round after round, the trees in turn. Reported per figure and tree: the
job's wall time from its benchmark file, the best of the rounds, and the mean over figures.

Usage: python bench/bench_figures.py RESULTS [TREE ...] [--rounds R] [--alone]
  e.g. python bench/bench_figures.py /tmp/keep/0 /tmp/old-tree . --rounds 3
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from bench_quick import QUICK_PAIR, REPO, copy_workflow


def figure_rules(results: Path) -> list[str]:
    """The figure rules of a results folder: one per PDF under figures/ (rule = file name)."""
    return sorted(path.stem for path in (results / "figures").glob("*.pdf"))


def run_figures(folder: Path, rules: list[str], presets: tuple[str, ...]) -> pd.Series:
    """Force every rule of ``rules`` to run again in ``folder`` (``presets``: the run's config
    files); each job's wall seconds."""
    results = folder / "results" / "quick"
    targets = [f"results/quick/figures/{rule}.pdf" for rule in rules]
    command = [sys.executable, "-m", "snakemake", "-c1", "--configfile", *presets]
    command += ["--rerun-triggers", "mtime", "--forcerun", *rules, "--", *targets]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"snakemake failed in {folder}:\n{(done.stdout + done.stderr)[-3000:]}")
    bench = results / "benchmarks" / "figures"
    return pd.Series(
        {rule: pd.read_csv(bench / f"{rule}.tsv", sep="\t")["s"].iloc[-1] for rule in rules}
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a finished results folder of the quick preset")
    parser.add_argument("trees", nargs="*", type=Path, default=[REPO])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--alone", action="store_true", help="RESULTS is the preset's alone")
    args = parser.parse_args()
    presets = QUICK_PAIR[:1] if args.alone else QUICK_PAIR
    rules = figure_rules(args.results)
    with tempfile.TemporaryDirectory() as scratch:
        folders = []
        for k, tree in enumerate(args.trees):
            folder = Path(scratch) / str(k)
            folder.mkdir()
            copy_workflow(tree.resolve(), folder)
            shutil.copytree(args.results, folder / "results" / "quick")
            folders.append(folder)
        rounds = {k: [] for k in range(len(folders))}
        for _ in range(args.rounds):
            for k, folder in enumerate(folders):
                rounds[k].append(run_figures(folder, rules, presets))
    best = pd.DataFrame(
        {
            f"{k}: {tree}": pd.concat(rounds[k], axis=1).min(axis=1)
            for k, tree in enumerate(args.trees)
        }
    )
    print(f"Figure jobs, wall s (best of {args.rounds} rounds, one job at a time):")
    print(best.round(2).to_string())
    print("mean " + "  ".join(f"{v:.2f}" for v in best.mean()))
    print("sum  " + "  ".join(f"{v:.2f}" for v in best.sum()))


if __name__ == "__main__":
    main()
