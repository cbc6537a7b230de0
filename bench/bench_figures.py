"""The figure jobs alone, as the workflow runs them, for one or more source trees.

A finished results folder of the quick preset, with its studies layers (e.g. one kept by
``bench/bench_quick.py --studies --keep``) or alone (``--alone``; one kept by
``bench/bench_quick.py --keep``),
is copied into a temporary copy of each tree's workflow; then every figure rule is forced to
run again there (``snakemake -c1 --forcerun <figure rules>``, one job at a time, so that no two
jobs share the cores), round after round, the trees in turn. Reported per figure and tree: the
job's wall time from its benchmark file, the best of the rounds, and the mean over figures.

`--phases` tells where a figure job's time goes instead: each figure drawn in a fresh
interpreter of each tree as the job draws it, the CPU seconds of each phase (the interpreter's
start-up, snakemake's `script:` preamble, importing matplotlib and pandas, the figure's own
module, reading its tables, drawing with its layout, the layout left to the save, the PDF, the
PNG), the best of the rounds, the mean over the figures per tree.

Usage: python bench/bench_figures.py RESULTS [TREE ...] [--rounds R] [--alone] [--phases]
  e.g. python bench/bench_figures.py /tmp/keep/0 /tmp/old-tree . --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
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


PHASES = """
import json, sys, time
marks = [("start-up", time.process_time())]
def mark(name):
    marks.append((name, time.process_time()))
import pickle, snakemake.iocontainers, snakemake.io, snakemake.logging
mark("snakemake preamble")
import matplotlib.style
import pandas as pd
mark("matplotlib, pandas")
from rnnschur.report import figures
draw = getattr(figures, NAME)
mark("the figure's module")
matplotlib.style.use(STYLE)
tables = {argument: pd.read_csv(path) for argument, path in TABLES.items()}
mark("read tables")
fig = draw(**tables, **ALPHA)
mark("draw, its layout")
engine = fig.get_layout_engine()  # figures.save's steps, one by one
if engine is not None:
    engine.execute(fig)
    fig.set_layout_engine(None)
mark("layout in the save")
fig.savefig(OUT + ".pdf", format="pdf", metadata={"CreationDate": None})
mark("PDF")
fig.savefig(OUT + ".png", format="png")
mark("PNG")
print(json.dumps(marks))
"""
"""One figure drawn as its job draws it, each phase's CPU seconds marked (``NAME``, ``STYLE``,
``TABLES``, ``ALPHA`` and ``OUT`` set before it)."""
ALPHA = 0.9
"""The α of the figures that take it (the config's; the paper's and the quick preset's)."""


def figure_tables(results: Path, tree: Path) -> dict[str, tuple[dict, bool]]:
    """{figure: ({argument: table file}, whether it takes α)} of the figures of ``tree``'s
    registries (the paper's and the analyses beyond it) that ``results`` drew."""
    code = (
        "import json; from rnnschur.report.registry import FIGURES; "
        "from rnnschur.studies.beyond.registry import ANALYSES; "
        "out = {n: (dict(f.tables), f.alpha) for n, f in FIGURES.items()}; "
        "out.update({f'fig_{n}': ({'table': f'{n}_{a.figure_reads}' if a.figure_reads else n}, "
        "False) for n, a in ANALYSES.items()}); print(json.dumps(out))"
    )
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    listed = json.loads(done.stdout)
    return {
        name: ({a: results / "tables" / f"{t}.csv" for a, t in tables.items()}, alpha)
        for name, (tables, alpha) in listed.items()
        if name in set(figure_rules(results))
    }


def phases(results: Path, trees: list[Path], rounds: int) -> pd.DataFrame:
    """CPU seconds of each phase of each figure (:data:`PHASES`), best of ``rounds``, the trees
    in turn; rows (tree, figure), one column per phase."""
    rows = {}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(rounds):
            for k, tree in enumerate(trees):
                env = {**os.environ, "PYTHONPATH": str(tree.resolve() / "src")}
                for name, (tables, takes_alpha) in figure_tables(results, tree.resolve()).items():
                    alpha = {"alpha": ALPHA} if takes_alpha else {}
                    setup = (
                        f"NAME = {name!r}; STYLE = {str(tree / 'workflow/style.mplstyle')!r}; "
                        f"TABLES = { ({a: str(p) for a, p in tables.items()})!r}; "
                        f"ALPHA = {alpha!r}; OUT = {str(Path(scratch) / name)!r}"
                    )
                    done = subprocess.run([sys.executable, "-c", setup + PHASES], env=env,
                                          capture_output=True, text=True)  # fmt: skip
                    if done.returncode:
                        raise RuntimeError(f"{name} in {tree}:\n{done.stderr[-3000:]}")
                    marks = json.loads(done.stdout.splitlines()[-1])
                    cpu = {marks[0][0]: marks[0][1]}
                    cpu.update({b[0]: b[1] - a[1] for a, b in zip(marks, marks[1:], strict=False)})
                    key = (f"{k}: {tree}", name)
                    rows[key] = {p: min(v, rows.get(key, {}).get(p, v)) for p, v in cpu.items()}
    return pd.DataFrame(rows).T


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a finished results folder of the quick preset")
    parser.add_argument("trees", nargs="*", type=Path, default=[REPO])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--alone", action="store_true", help="RESULTS is the preset's alone")
    parser.add_argument("--phases", action="store_true", help="where a figure job's time goes")
    args = parser.parse_args()
    if args.phases:
        table = phases(args.results, args.trees, args.rounds)
        table["total"] = table.sum(axis=1)
        print(f"Figure jobs' phases, CPU s (best of {args.rounds} rounds), mean over figures:")
        print(table.groupby(level=0, sort=False).mean().T.round(3).to_string())
        print("\nper figure, total CPU s:")
        print(table["total"].unstack(level=0).round(2).to_string())
        return
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
