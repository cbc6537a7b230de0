"""The quick preset end to end under `snakemake -c2`, for one or more source trees.

For each tree (default: this repository), the workflow files are copied to a temporary folder
and the quick preset runs there from nothing, with the tree's own src/ on the path. Reported per
tree: wall time; CPU time of the jobs that write benchmark files (every job here; only the
per-model ones in older trees; sampled, so jobs under a second are undercounted), of the whole
process tree (snakemake itself and every job) and of the snakemake process alone;
parallel efficiency, each CPU time over wall x 2; how long 0, 1 and 2 jobs were running, from
snakemake's log (whole seconds; the start-up before the first job and the end after the last
one apart); and each rule's mean job wall time from its benchmark files.

Give two trees (e.g. a `git worktree` of an older commit and this one) to compare them in one
run; run it on an idle machine. `--keep DIR` keeps each tree's results folder as DIR/<k>
(k = 0, 1, ... in the order given), e.g. for `bench/same_tables.py DIR/0 DIR/1`.
`--snakemake "OPTIONS"` adds options to every run or, given once per tree, to that tree's run
(the same tree twice compares options).

`--paper` runs the paper-scale config.yaml alone instead (the README's first command, results
under results/; minutes, not seconds).

`--studies` adds the studies layers, presets/studies.yaml and presets/quick_studies.yaml
(the tests' run).

Usage: python bench/bench_quick.py [TREE ...] [--paper | --studies] [--keep DIR]
  [--snakemake "OPTIONS" ...]
  e.g. python bench/bench_quick.py . . --snakemake "" --snakemake "--scheduler greedy"
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
QUICK_PAIR = ("presets/quick.yaml", "presets/studies.yaml", "presets/quick_studies.yaml")
"""The quick preset with its studies layer (the tests' run)."""
FILES = ("Snakefile", "config.yaml", "workflow", "presets", "profiles", "envs", "src")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
STAMP = re.compile(r"\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]")


@dataclass
class Run:
    wall: float
    """Seconds from starting snakemake to its exit."""
    cpu: float
    """CPU seconds of the whole process tree (snakemake and every job)."""
    snakemake_cpu: float
    """CPU seconds of the snakemake process itself (its threads, not its children)."""
    jobs: pd.DataFrame
    """One row per benchmarked job: rule, s (wall), cpu."""
    occupancy: pd.Series
    """Seconds with 0, 1, 2 ... jobs running, and before the first / after the last job."""


def occupancy(log: str, wall: float) -> pd.Series:
    """Seconds spent with k jobs running, from the job start and finish times in snakemake's log
    (whole seconds); "before first job" counts from snakemake's own start (its log header)."""
    started = None
    events = []
    stamp = None
    for line in log.splitlines():
        if line.strip().startswith("Date: ") and started is None:
            started = datetime.fromisoformat(line.strip()[len("Date: ") :])
        elif match := STAMP.fullmatch(line.strip()):
            stamp = datetime.strptime(match[1], "%a %b %d %H:%M:%S %Y")
        elif re.match(r"(local)?rule \w+:$", line):
            events.append((stamp, 1))
        elif line.startswith("Finished jobid"):
            events.append((stamp, -1))
    seconds: dict[str, float] = {"before first job": (events[0][0] - started).total_seconds()}
    running = 0
    for (when, change), (after, _) in itertools.pairwise(events):
        running += change
        key = f"{running} running"
        seconds[key] = seconds.get(key, 0.0) + (after - when).total_seconds()
    seconds["after last job"] = wall - (events[-1][0] - started).total_seconds()
    return pd.Series(seconds)


def copy_workflow(tree: Path, folder: Path) -> None:
    """The workflow files and the library of source tree `tree`, copied into `folder`."""
    for name in FILES:
        source = tree / name
        if source.is_dir():
            shutil.copytree(source, folder / name)
        elif source.exists():
            shutil.copy2(source, folder / name)


def run_quick(
    tree: Path,
    keep: Path | None = None,
    options: tuple[str, ...] = (),
    presets: tuple[str, ...] = ("presets/quick.yaml",),
    results: str = "results/quick",
) -> Run:
    """The quick preset (``presets``: its config files) from nothing with `tree`'s workflow and
    library; its results folder is moved to `keep` when given."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        copy_workflow(tree, folder)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with tempfile.TemporaryFile("w+") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "snakemake", "-c2", "--configfile", *presets, *options],
                cwd=folder,
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
            )
            own = 0.0
            while process.poll() is None:
                own = _own_cpu(process.pid, own)
                time.sleep(0.1)
            wall = time.perf_counter() - start
            log.seek(0)
            text = log.read()
        if process.returncode:
            raise RuntimeError(f"snakemake failed in {tree}:\n{text[-3000:]}")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        rows = []
        bench = folder / results / "benchmarks"
        for path in bench.rglob("*.tsv"):
            frame = pd.read_csv(path, sep="\t")
            rule = path.relative_to(bench).parts[0]
            rows.append({"rule": rule, "s": frame["s"].sum(), "cpu": frame["cpu_time"].sum()})
        if keep is not None:
            shutil.rmtree(keep, ignore_errors=True)
            shutil.move(folder / results, keep)
    return Run(wall, cpu, own, pd.DataFrame(rows), occupancy(text, wall))


def _own_cpu(pid: int, last: float) -> float:
    """utime + stime of process `pid` in seconds (the last value read once it has exited)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return last
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[REPO])
    parser.add_argument("--keep", type=Path, help="keep each tree's results as KEEP/<k>")
    parser.add_argument(
        "--snakemake", action="append", default=[], help="more snakemake options, one string"
    )
    parser.add_argument(
        "--studies", action="store_true", help="with the studies layers (the tests' run)"
    )
    parser.add_argument("--paper", action="store_true", help="config.yaml alone: the paper")
    args = parser.parse_args()
    presets = QUICK_PAIR if args.studies else QUICK_PAIR[:1]
    presets, results = (("config.yaml",), "results") if args.paper else (presets, "results/quick")
    if len(args.snakemake) not in (0, 1, len(args.trees)):
        parser.error("give --snakemake once, or once per tree")
    options = args.snakemake * len(args.trees) if len(args.snakemake) == 1 else args.snakemake
    per_rule, occupancies = {}, {}
    for k, tree in enumerate(args.trees):
        keep = args.keep.resolve() / str(k) if args.keep else None
        extra = options[k] if options else ""
        run = run_quick(tree.resolve(), keep, tuple(shlex.split(extra)), presets, results)
        name = f"{k}: {tree}" + (f" {extra}" if extra else "")
        job_cpu = run.jobs["cpu"].sum()
        print(f"{name}: wall {run.wall:.1f} s")
        print(
            f"  {len(run.jobs)} jobs with benchmark files: CPU {job_cpu:.1f} s, "
            f"efficiency (/ wall x 2) "
            f"{job_cpu / (2 * run.wall):.2f}"
        )
        print(
            f"  process tree: CPU {run.cpu:.1f} s, efficiency (/ wall x 2) "
            f"{run.cpu / (2 * run.wall):.2f}; snakemake's own process {run.snakemake_cpu:.1f} s"
        )
        in_jobs = run.cpu - run.snakemake_cpu
        print(
            f"  all jobs (process tree minus snakemake): CPU {in_jobs:.1f} s, efficiency "
            f"(/ wall x 2) {in_jobs / (2 * run.wall):.2f}"
        )
        per_rule[name] = run.jobs.groupby("rule")["s"].mean()
        totals = run.jobs.groupby("rule")["s"].agg(["count", "sum"]).sort_values("sum")
        print("  jobs and their wall seconds in all, per stage:")
        print("    " + totals.round(1).to_string().replace("\n", "\n    "))
        occupancies[name] = run.occupancy
    print("Seconds with k jobs running (snakemake's log, whole seconds):")
    print(pd.DataFrame(occupancies).fillna(0).round(1).to_string())
    print("Mean job wall time per rule (s):")
    print(pd.DataFrame(per_rule).round(2).to_string())


if __name__ == "__main__":
    main()
