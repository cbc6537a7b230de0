"""The coupling atlas's cost, measured before it runs: per task, network description and N_h,
the seconds of one training step (trials drawn, the stacked BPTT step, Adam) and of one
validation, times the model's budget, on one core.

Each pair of presets/atlas.yaml (its config, expanded as the workflow expands it) trains one
model for ``--steps`` steps with one validation at the end, timed in wall-clock seconds on one
thread; a model's cost is that time times max_steps / steps (the neuroscience tasks train their
whole budget: no target score). A NeuroGym task's models train on trials drawn once per task and
seed (rule training_trials): its pairs are timed on such a set, and the drawing of the set is
timed apart and charged once per task and seed (row ``<task> (training trials)``), not per
description and size (in the first size's total). The copy task trains without its curriculum at
its longest horizon (an upper bound per step) and is charged the steps the paper-scale models
took where the results hold them (results/models/copy/<construction>/n<N_h>/seed*/meta.json),
else its budget. The analysis jobs of a model (Schur, ablation) are charged ``--analysis``
seconds each (measured in the NeuroGym battery: 1.4 s). Prints the table, the totals per N_h and
the wall time on ``--cores`` cores (the jobs in parallel, one thread each), the longest job on a
cluster that runs every bundle of ``--bundle`` seeds at once, and writes the table to ``--out``
(CSV) if given.

Usage: OMP_NUM_THREADS=1 python bench/atlas_cost.py [--steps 128] [--sizes 64 128] [--seeds 10]
           [--cores 2] [--out atlas_cost.csv]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))


def atlas_config() -> dict:
    """config.yaml with presets/atlas.yaml layered on it, checked and expanded as the workflow
    does (its NeuroGym envs checked)."""
    from snakemake.utils import update_config

    from rnnschur import config as config_lib
    from rnnschur import instances
    from rnnschur.tasks import _neurogym

    config = yaml.safe_load((REPO / "config.yaml").read_text())
    update_config(config, yaml.safe_load((REPO / "presets" / "atlas.yaml").read_text()))
    schema = config_lib.read_schema(REPO / "workflow" / "schemas" / "config.schema.yaml")
    config_lib.with_defaults(config, schema)
    instances.expand_atlas(config)
    config_lib.with_defaults(config, schema)
    specs = config_lib.check_neurogym(config, _neurogym.check, {})
    config_lib.check(config, schema, list(specs))
    return config


def copy_steps(construction: str, size: int) -> float | None:
    """The mean steps the paper-scale copy models of ``construction`` and N_h took, or None."""
    steps = [
        json.loads(p.read_text())["summary"]["steps"]
        for p in (REPO / "results" / "models" / "copy" / construction / f"n{size}").glob(
            "seed*/meta.json"
        )
    ]
    return float(np.mean(steps)) if steps else None


def time_steps(config: dict, task: str, construction: str, size: int, steps: int):
    """(seconds of ``steps`` training steps and one validation of one model of ``task``,
    seconds of drawing its ``steps`` batches of training trials once: 0 for a generator
    task, which draws each batch in its step)."""
    from rnnschur import tasks
    from rnnschur.dynamics import Dynamics
    from rnnschur.seeds import job_rng
    from rnnschur.training.train import TrainSettings, train_bundle

    block = config["tasks"][task]
    # a NeuroGym task's trials come from its env (the training job's params say which)
    generator = {"neurogym": block["neurogym"]} if "neurogym" in block else dict(block["generator"])
    training = dict(block["training"], **block["training_overrides"].get(construction, {}))
    if training.get("curriculum"):  # the longest horizon throughout: an upper bound per step
        generator[tasks.get(task).CURRICULUM_PARAM] = max(training["curriculum"])
    training.update(
        max_steps=steps, eval_every=steps, target_score=None, target_mse=None, curriculum=()
    )
    settings = TrainSettings(**training)
    heldout = tasks.draw_heldout(task, 64, 0, **generator)
    dynamics = Dynamics.from_config(block["model"])
    start, trials = time.perf_counter(), None
    if "neurogym" in block:
        n = (settings.train_set_batches or steps) * settings.batch_size
        trials = [tasks.draw_training_trials(task, block["neurogym"], n, 0, 0)]
    drawn = time.perf_counter()
    train_bundle(
        task,
        generator,
        construction,
        size,
        settings,
        [job_rng(0, "cost", 0)],
        heldout,
        [task],
        dynamics,
        trials,
    )
    return time.perf_counter() - drawn, drawn - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=128)
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--analysis", type=float, default=1.4)
    parser.add_argument("--bundle", type=int, default=5, help="the preset's training_bundle")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from rnnschur.tasks import task_of

    config = atlas_config()
    rows, drawn = [], set()
    for task in config["run_tasks"]:
        block = config["tasks"][task]
        for construction in block["constructions"]:
            for size in args.sizes:
                seconds, draw = time_steps(config, task, construction, size, args.steps)
                budget = block["training"]["max_steps"]
                if draw and task_of(task) not in drawn:  # once per task and seed
                    drawn.add(task_of(task))
                    batches = block["training"].get("train_set_batches") or budget
                    rows.append(
                        {
                            "task": f"{task_of(task)} (training trials)",
                            "construction": "",
                            "n_hidden": size,
                            "s_per_step": draw / args.steps,
                            "steps": batches,
                            "s_per_model": draw * batches / args.steps,
                            "models": 0,
                            "cpu_s": draw * batches / args.steps * args.seeds,
                        }
                    )
                if task_of(task) == "copy":
                    budget = copy_steps(construction, size) or budget
                per_model = seconds * budget / args.steps + 2 * args.analysis
                rows.append(
                    {
                        "task": task,
                        "construction": construction,
                        "n_hidden": size,
                        "s_per_step": seconds / args.steps,
                        "steps": budget,
                        "s_per_model": per_model,
                        "models": args.seeds,
                        "cpu_s": per_model * args.seeds,
                    }
                )
                print(
                    f"{task:42s} {construction:16s} {size:4d} {seconds / args.steps * 1e3:7.2f} "
                    f"ms/step  {per_model:7.1f} s/model",
                    flush=True,
                )
    table = pd.DataFrame(rows)
    if args.out:
        table.to_csv(args.out, index=False)
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    print(f"\n{args.steps} steps timed per pair, OMP_NUM_THREADS {threads}")
    for size, part in table.groupby("n_hidden"):
        total = part["cpu_s"].sum()
        print(
            f"N_h = {size}: {int(part['models'].sum())} models, {total / 3600:.2f} CPU-hours, "
            f"{total / args.cores / 60:.0f} min on {args.cores} cores"
        )
    total = table["cpu_s"].sum()
    print(
        f"all: {int(table['models'].sum())} models, {total / 3600:.2f} CPU-hours, "
        f"{total / args.cores / 3600:.1f} h on {args.cores} cores"
    )
    longest = table.loc[table["s_per_model"].idxmax()]
    bundle = min(args.bundle, args.seeds)
    print(
        f"on a cluster, one job per bundle of {bundle} seeds all at once: the longest job, "
        f"{longest['task']} {longest['construction']} N_h = {longest['n_hidden']}, "
        f"{longest['s_per_model'] * bundle / 60:.0f} min"
    )


if __name__ == "__main__":
    main()
