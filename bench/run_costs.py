"""What a finished run cost: per rule, from its benchmark files, and over time, from its log.

Reads every benchmark file under RESULTS/benchmarks (one per job) and prints per rule (the first
folder; `beyond/<analysis>` apart) the number of jobs and their total and largest wall and CPU
time. With `--per-model ANALYSIS` it sets a beyond-the-paper analysis's CPU time per model beside
the training's (a training job trains a bundle of seeds: its CPU time is shared by the models
the analysis ran on), per task, construction and N_h. With `--log` (snakemake's log of the run,
e.g. `.snakemake/log/<date>.snakemake.log`) it adds the wall time from the first to the last
logged event and how long 0, 1, 2 ... jobs were running (whole seconds). With `--total-cpu`
(the CPU seconds of the whole process tree, e.g. user + sys from `/usr/bin/time -v snakemake
...`) it adds the CPU time spent outside the jobs (snakemake itself).

Usage: python bench/run_costs.py RESULTS [--log LOG] [--total-cpu SECONDS] [--cores 2]
                                  [--per-model fixed_points]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_quick import occupancy  # noqa: E402

from rnnschur.report.costs import job_costs  # noqa: E402


def per_model(results: Path, analysis: str) -> pd.DataFrame:
    """Per task, construction and N_h: the models ``analysis`` ran on, its CPU seconds per
    model (median and largest) and the training's CPU seconds per model (its bundles' total
    over those models), the ratio of the two means, and the same ratio of wall times (the
    benchmark samples CPU time, which short jobs can undercount)."""
    bench = results / "benchmarks"
    rows = []
    for path in sorted((bench / "beyond" / analysis).rglob("seed*.tsv")):
        task, construction, size = path.relative_to(bench / "beyond" / analysis).parts[:3]
        frame = pd.read_csv(path, sep="\t")
        rows.append(
            {
                "task": task,
                "construction": construction,
                "size": size,
                "cpu": frame["cpu_time"].sum(),
                "s": frame["s"].sum(),
            }
        )
    out = []
    for (task, construction, size), group in pd.DataFrame(rows).groupby(
        ["task", "construction", "size"], sort=False
    ):
        bundles = [
            pd.read_csv(p, sep="\t")
            for p in (bench / "train" / task / construction / size).glob("b*.tsv")
        ]
        train = sum(frame["cpu_time"].sum() for frame in bundles)
        train_s = sum(frame["s"].sum() for frame in bundles)
        out.append(
            {
                "task": task,
                "construction": construction,
                "N_h": int(size.lstrip("n")),
                "models": len(group),
                f"{analysis}_cpu_s_median": group["cpu"].median(),
                f"{analysis}_cpu_s_max": group["cpu"].max(),
                "train_cpu_s_per_model": train / len(group),
                "ratio": group["cpu"].mean() / (train / len(group)),
                "wall_ratio": group["s"].mean() / (train_s / len(group)),
            }
        )
    return pd.DataFrame(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--log", type=Path, help="snakemake's log of the run")
    parser.add_argument("--total-cpu", type=float, help="CPU seconds of the process tree")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--per-model", metavar="ANALYSIS", help="an analysis beside training")
    args = parser.parse_args()
    if args.per_model:
        table = per_model(args.results, args.per_model)
        print(table.round(2).to_string(index=False))
        analysis = (table["ratio"] * table["train_cpu_s_per_model"] * table["models"]).sum()
        total = (table["train_cpu_s_per_model"] * table["models"]).sum()
        print(f"all: {args.per_model} / training CPU = {analysis / total:.2f}")
        return
    jobs = job_costs(args.results)
    table = jobs.groupby("rule").agg(
        jobs=("s", "size"),
        wall_s=("s", "sum"),
        cpu_s=("cpu", "sum"),
        largest_wall_s=("s", "max"),
    )
    table.loc["all"] = [len(jobs), jobs["s"].sum(), jobs["cpu"].sum(), jobs["s"].max()]
    print(table.round(1).to_string())
    if args.log:
        text = args.log.read_text()
        seconds = occupancy(text, 0.0).drop("after last job")
        wall = seconds.sum()
        print(f"\nwall (snakemake's start to its last logged event): {wall:.0f} s")
        print("seconds with k jobs running:")
        print(seconds.round(0).to_string())
        if args.total_cpu:
            outside = args.total_cpu - jobs["cpu"].sum()
            print(
                f"CPU: process tree {args.total_cpu:.0f} s, jobs {jobs['cpu'].sum():.0f} s, "
                f"outside the jobs {outside:.0f} s; process tree / (wall x {args.cores}) "
                f"{args.total_cpu / (wall * args.cores):.2f}"
            )


if __name__ == "__main__":
    main()
