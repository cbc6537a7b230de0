"""Where the coupling atlas's training time goes, per task and network description: the share of
drawing trials, the stacked BPTT step, the optimiser, validation, the hidden noise and the job's
start-up.

Each pair of presets/atlas.yaml (expanded as the workflow expands it) trains one model of N_h =
``--size`` for ``--steps`` steps (validating every ``eval_every`` steps as its preset does; the
copy task at its longest curriculum horizon) under :mod:`cProfile`, and its time is split by the
functions that spend it: ``generate`` of the task (a NeuroGym draw included) and
``fixed_training_set``; ``loss_and_gradients``; ``Adam.step``; ``rollout`` (validation and the
held-out score); the training step's own array work (``step_own``: the hidden noise drawn,
scaled and cast, for Schuessler et al.'s network, which trains with it; the batch stacked); the
rest (clipping, logging). cProfile adds its own overhead per call, most to the many small
calls of a NeuroGym draw. Start-up: a fresh
interpreter importing what the training script imports (NeuroGym too for a NeuroGym task),
measured once per kind and charged once per bundle of ``--bundle`` models. A share is of one
model's whole cost (its budget of steps at the measured rate, plus its part of the start-up).
Prints the table and the shares summed over the atlas, and writes the table to ``--out`` (CSV)
if given.

Usage: OMP_NUM_THREADS=1 python bench/atlas_cost_shares.py [--steps 128] [--size 64]
           [--bundle 5] [--out shares.csv]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

from atlas_cost import atlas_config, copy_steps  # noqa: E402
from bench_startup import best_of, imports  # noqa: E402

PARTS = {
    "draw": ("generate", "fixed_training_set", "draw"),
    "bptt": ("loss_and_gradients",),
    "adam": ("step",),
    "validation": ("rollout",),
}
"""The functions whose cumulative time each part is (by name, outermost first)."""


def startup_seconds(neurogym: bool) -> float:
    """Seconds for a fresh interpreter to import what the training script imports
    (:func:`bench_startup.best_of`), NeuroGym too for a NeuroGym task."""
    source = imports(REPO / "workflow" / "scripts" / "train.py")
    if neurogym:
        source += "\nfrom rnnschur.tasks import _neurogym\n_neurogym._import_neurogym()"
    return best_of(source)


def profiled(config: dict, task: str, construction: str, size: int, steps: int) -> dict:
    """{part: seconds} of ``steps`` training steps of one model, and ``total``."""
    from rnnschur import tasks
    from rnnschur.dynamics import Dynamics
    from rnnschur.seeds import job_rng
    from rnnschur.training.train import TrainSettings, train_bundle

    block = config["tasks"][task]
    generator = {"neurogym": block["neurogym"]} if "neurogym" in block else dict(block["generator"])
    training = dict(block["training"], **block["training_overrides"].get(construction, {}))
    if training.get("curriculum"):
        generator[tasks.get(task).CURRICULUM_PARAM] = max(training["curriculum"])
    eval_every = min(training["eval_every"], steps)
    training.update(
        max_steps=steps, eval_every=eval_every, target_score=None, target_mse=None, curriculum=()
    )
    heldout = tasks.draw_heldout(task, 64, 0, **generator)
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    train_bundle(
        task,
        generator,
        construction,
        size,
        TrainSettings(**training),
        [job_rng(0, "cost", 0)],
        heldout,
        [task],
        Dynamics.from_config(block["model"]),
    )
    profile.disable()
    total = time.perf_counter() - start
    stats = pstats.Stats(profile).stats
    cumulative: dict[str, float] = {}
    for (path, _, name), (_, _, _, cum, _) in stats.items():
        if "rnnschur" in path or "neurogym" in path:
            cumulative[name] = max(cumulative.get(name, 0.0), cum)
    out = {
        part: max((cumulative.get(n, 0.0) for n in names), default=0.0)
        for part, names in PARTS.items()
    }
    # the training step's own array work (not a call cProfile sees): the hidden noise drawn,
    # scaled and cast (Schuessler et al.'s network trains with it), the batch stacked
    out["step_own"] = sum(
        tottime for (_, _, name), (_, _, tottime, _, _) in stats.items() if name == "_step_group"
    )
    out["other"] = max(total - sum(out.values()), 0.0)
    out["total"] = total
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=128)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--bundle", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from rnnschur.tasks import task_of

    config = atlas_config()
    startup = {kind: startup_seconds(kind) for kind in (False, True)}
    print(f"start-up: {startup[False]:.2f} s, with NeuroGym {startup[True]:.2f} s", flush=True)
    rows = []
    for task in config["run_tasks"]:
        block = config["tasks"][task]
        construction = block["constructions"][0]
        parts = profiled(config, task, construction, args.size, args.steps)
        budget = block["training"]["max_steps"]
        if task_of(task) == "copy":
            budget = copy_steps(construction, args.size) or budget
        scale = budget / args.steps
        model = {k: v * scale for k, v in parts.items() if k != "total"}
        model["startup"] = startup["neurogym" in block] / args.bundle
        whole = sum(model.values())
        row = {"task": task, "construction": construction, "n_hidden": args.size, "steps": budget}
        row |= {f"{k}_s": v for k, v in model.items()}
        row |= {f"{k}_share": v / whole for k, v in model.items()}
        row["model_s"] = whole
        rows.append(row)
        shares = "  ".join(f"{k} {v / whole:5.1%}" for k, v in model.items())
        print(f"{task:42s} {whole:7.1f} s/model  {shares}", flush=True)
    table = pd.DataFrame(rows)
    if args.out:
        table.to_csv(args.out, index=False)
    seconds = {k[:-2]: table[k].sum() for k in table if k.endswith("_s") and k != "model_s"}
    whole = sum(seconds.values())
    print(f"\nthe atlas at N_h = {args.size}, one seed per pair ({whole / 60:.1f} CPU-min):")
    print("  " + "  ".join(f"{k} {v / whole:.1%}" for k, v in seconds.items()))
    kinds = table.assign(
        kind=table["task"].map(
            lambda t: "neurogym" if "neurogym" in config["tasks"][t] else "generator"
        )
    )
    for kind, part in kinds.groupby("kind"):
        sub = {k: part[f"{k}_s"].sum() for k in seconds}
        total = sum(sub.values())
        print(f"  {kind}: " + "  ".join(f"{k} {v / total:.1%}" for k, v in sub.items()))


if __name__ == "__main__":
    main()
