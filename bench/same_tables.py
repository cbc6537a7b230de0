"""Same artifacts bit for bit: two results folders, made by two source trees, compared exactly.

For every model both folders hold (`models/<task>/<construction>/n<N>/seed<k>`), per task:
the trained weights and checkpoints (every array), the ordered Schur form (T, Q, the block
structure) and the per-model ablation table (the columns both trees write); then every table under
`tables/` that both have (their common columns and rows). Prints, per artifact kind and task, how
many are identical and the largest difference among those that are not; exits 1 if any differ.

`--downstream OLD_TREE` first makes the old folder from the new one without training again: it
copies OLD_TREE's workflow into a scratch folder, copies the new folder's held-out data and trained
models of the chosen tasks there (modification times kept), and runs OLD_TREE's own workflow on
them, allowed to run only its `schur` and `ablate` rules. That compares a paper-scale run's
analysis side with an older version of the code at the cost of its Schur and ablation jobs.
`--retrain MODEL ...` also trains those models again with OLD_TREE (its `train` rule only) and
compares their weights and checkpoints with the new folder's.

Usage:
  python bench/same_tables.py OLD_RESULTS NEW_RESULTS [--tasks copy sine]
  python bench/same_tables.py --downstream OLD_TREE NEW_RESULTS [--tasks copy sine]
      [--configfile presets/quick.yaml] [--keep DIR] [--retrain copy/cayley/n72/seed1 ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_quick import copy_workflow  # noqa: E402


def models(results: Path, tasks: list[str] | None) -> list[str]:
    """The model paths (`<task>/<construction>/n<N>/seed<k>`) with trained weights in `results`."""
    found = sorted(
        str(path.parent.relative_to(results / "models"))
        for path in (results / "models").glob("*/*/*/*/weights.npz")
    )
    return [m for m in found if tasks is None or m.split("/")[0] in tasks]


def compare_npz(old: Path, new: Path) -> float:
    """Largest absolute difference over the arrays both files hold (0.0: identical bit for bit;
    inf: a shape or a key set differs)."""
    with np.load(old) as a, np.load(new) as b:
        # The versions that wrote them are not compared (they differ between trees by design).
        keys = sorted(set(a.files) & set(b.files) - {"format_version", "provenance"})
        if not keys:
            return float("inf")
        worst = 0.0
        for key in keys:
            x, y = a[key], b[key]
            if x.shape != y.shape or x.dtype != y.dtype:
                return float("inf")
            if x.tobytes() != y.tobytes():
                numeric = np.issubdtype(x.dtype, np.number) or x.dtype == bool
                worst = max(worst, _difference(x, y) if numeric else float("inf"))
    return worst


def compare_csv(old: Path, new: Path, tasks: list[str] | None = None) -> float:
    """Largest absolute difference over the columns both tables have, rows in file order, only
    the rows of `tasks` where the tables have a task column (0.0: identical values; inf: the row
    counts or a non-numeric column differ)."""
    a, b = pd.read_csv(old), pd.read_csv(new)
    if tasks is not None and "task" in a.columns and "task" in b.columns:
        a, b = a[a["task"].isin(tasks)], b[b["task"].isin(tasks)]
    columns = [c for c in a.columns if c in b.columns]
    if len(a) != len(b) or not columns:
        return float("inf")
    worst = 0.0
    for column in columns:
        x, y = a[column].to_numpy(), b[column].to_numpy()
        if np.issubdtype(x.dtype, np.number) and np.issubdtype(y.dtype, np.number):
            if not np.array_equal(x, y, equal_nan=True):
                worst = max(worst, _difference(x, y))
        elif not a[column].reset_index(drop=True).equals(b[column].reset_index(drop=True)):
            return float("inf")
    return worst


def _difference(x: np.ndarray, y: np.ndarray) -> float:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    both = ~(np.isnan(x) & np.isnan(y))
    if np.any(np.isnan(x[both]) | np.isnan(y[both])):
        return float("inf")
    # A difference of 0 between values that are not bit-equal (-0.0 vs 0.0) still counts.
    return max(float(np.max(np.abs(x[both] - y[both]), initial=0.0)), np.finfo(float).tiny)


def compare(
    old: Path,
    new: Path,
    tasks: list[str] | None,
    retrained: Path | None = None,
    trained: bool = True,
) -> pd.DataFrame:
    """One row per (artifact, task): n compared, n identical, largest difference otherwise.
    `retrained`: a results folder with models trained again, compared as "weights (trained
    again)" and "checkpoints (trained again)"; `trained=False`: the old folder's models are
    copies of the new ones (not compared)."""
    rows = []
    for model in models(retrained, None) if retrained else []:
        for artifact in ("weights", "checkpoints"):
            relative = f"models/{model}/{artifact}.npz"
            difference = compare_npz(retrained / relative, new / relative)
            task = model.split("/")[0]
            rows.append(
                {"artifact": f"{artifact} (trained again)", "task": task, "diff": difference}
            )
    for model in models(new, tasks):
        task = model.split("/")[0]
        pairs = {
            "weights": (f"models/{model}/weights.npz", compare_npz),
            "checkpoints": (f"models/{model}/checkpoints.npz", compare_npz),
            "schur": (f"schur/{model}.npz", compare_npz),
            "ablation": (f"ablation/{model}.csv", compare_csv),
        }
        if not trained:
            del pairs["weights"], pairs["checkpoints"]
        for artifact, (relative, function) in pairs.items():
            if (old / relative).is_file() and (new / relative).is_file():
                rows.append(
                    {
                        "artifact": artifact,
                        "task": task,
                        "diff": function(old / relative, new / relative),
                    }
                )
    for table in sorted((new / "tables").glob("*.csv")):
        if (old / "tables" / table.name).is_file():
            rows.append(
                {
                    "artifact": f"tables/{table.name}",
                    "task": " ".join(tasks) if tasks else "all",
                    "diff": compare_csv(old / "tables" / table.name, table, tasks),
                }
            )
    frame = pd.DataFrame(rows, columns=["artifact", "task", "diff"])
    return (
        frame.groupby(["artifact", "task"], sort=False)["diff"]
        .agg(
            compared="size",
            identical=lambda d: int((d == 0).sum()),
            largest_difference=lambda d: d.max(),
        )
        .reset_index()
    )


def downstream(old_tree: Path, new: Path, scratch: Path, tasks, configfile, retrain=()) -> Path:
    """OLD_TREE's schur and ablate jobs on the held-out data and weights of `new` (in
    scratch/results, returned), and its train jobs for the models in `retrain` (in
    scratch/retrained)."""
    copy_workflow(old_tree, scratch)
    results = scratch / "results"
    chosen = models(new, tasks)
    for task in sorted({m.split("/")[0] for m in chosen}):
        shutil.copytree(new / "data" / task, results / "data" / task)
    for model in chosen:
        shutil.copytree(new / "models" / model, results / "models" / model)
    for task in sorted({m.split("/")[0] for m in retrain}):
        shutil.copytree(new / "data" / task, scratch / "retrained" / "data" / task)
    environment = dict(os.environ, PYTHONPATH=str(old_tree / "src"))

    def run_old(results_dir: str, rules: tuple[str, ...], targets: list[str]) -> None:
        command = [sys.executable, "-m", "snakemake", *targets, "-c2", "--allowed-rules", *rules]
        command += ["--rerun-triggers", "mtime", "--config", f"results_dir={results_dir}"]
        command += ["--configfile", configfile] if configfile else []
        subprocess.run(command, cwd=scratch, check=True, env=environment)

    run_old("results", ("schur", "ablate"), [f"results/ablation/{m}.csv" for m in chosen])
    if retrain:
        run_old("retrained", ("train",), [f"retrained/models/{m}/weights.npz" for m in retrain])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="old results folder, or with --downstream a tree")
    parser.add_argument("new", type=Path, help="new results folder")
    parser.add_argument("--tasks", nargs="+", help="only these tasks' models (default: all)")
    parser.add_argument("--downstream", action="store_true", help="OLD is a source tree")
    parser.add_argument("--configfile", help="passed to the old workflow (e.g. a preset)")
    parser.add_argument("--keep", type=Path, help="with --downstream: scratch folder to keep")
    parser.add_argument("--retrain", nargs="+", default=[], help="with --downstream: models")
    args = parser.parse_args()
    new = args.new.resolve()
    with tempfile.TemporaryDirectory() as temporary:
        old, retrained = args.old.resolve(), None
        if args.downstream:
            scratch = args.keep.resolve() if args.keep else Path(temporary)
            scratch.mkdir(parents=True, exist_ok=True)
            old = downstream(old, new, scratch, args.tasks, args.configfile, args.retrain)
            retrained = scratch / "retrained" if args.retrain else None
        table = compare(old, new, args.tasks, retrained, trained=not args.downstream)
    with pd.option_context("display.width", 120):
        print(table.to_string(index=False))
    sys.exit(0 if (table["identical"] == table["compared"]).all() else 1)


if __name__ == "__main__":
    main()
