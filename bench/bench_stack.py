"""Training throughput against the bundle size K: model-steps per second of
``rnnschur.training.train.train_bundle`` for K models trained as one computation.

Per K (default 1, 2, 4, 8, 16, 32, 64): K flip-flop models of the paper config (N_h = 64, batch
64, 25 steps; the paper's dense orthogonal construction and settings) trained for ``--steps``
steps (no early stop, validation only at the end), timed in wall-clock seconds, the least of
``--repeat`` rounds; K = 1 is a model trained alone. Rounds go through the K values in turn, so a
slow spell of the machine reaches every K alike. Prints model-steps per second and the
throughput per model against K = 1. ``--tree DIR`` also times another source tree's ``train``
(one model, e.g. a ``git worktree`` of an older commit) in a fresh process per round, in the same
rounds. ``--device cuda`` runs the same stacked step on torch tensors on a GPU (there the bits
need not equal the CPU's); the CPU figures come from NumPy.

Usage: OMP_NUM_THREADS=1 python bench/bench_stack.py [--k 1 2 4 8] [--steps 64] [--repeat 3]
           [--task flip_flop] [--tree DIR] [--device cpu]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]

ONE_MODEL = """
import sys, time, numpy as np
sys.path.insert(0, {src!r})
from rnnschur import tasks
from rnnschur.seeds import job_rng
try:
    from rnnschur.training.train import TrainSettings, train
except ImportError:  # a tree of the flat layout (before 0.6)
    from rnnschur.train import TrainSettings, train
settings = TrainSettings(**{settings!r})
heldout = tasks.draw_heldout({task!r}, 64, 0, **{generator!r})
start = time.perf_counter()
train({task!r}, {generator!r}, "dense_orthogonal", {size}, settings, job_rng(0, "bench", 0),
      heldout)
print(time.perf_counter() - start)
"""


def paper_settings(task: str, steps: int, device: str) -> tuple[dict, dict, int]:
    """(generator, training settings, N_h) of ``task`` in config.yaml, run for ``steps`` steps."""
    config = yaml.safe_load((REPO / "config.yaml").read_text())["tasks"][task]
    training = dict(config["training"])
    training.update(max_steps=steps, eval_every=steps, target_score=None, keep_best=False)
    training["curriculum"] = tuple(training.get("curriculum", ()))
    if device != "cpu":
        training["device"] = device
    return config["generator"], training, max(config["sizes"])


def time_bundle(task, generator, training, size, K) -> float:
    from rnnschur import tasks
    from rnnschur.seeds import job_rng
    from rnnschur.training.train import TrainSettings, train_bundle

    settings = TrainSettings(**training)
    heldout = tasks.draw_heldout(task, 64, 0, **generator)
    rngs = [job_rng(0, "bench", k) for k in range(K)]
    start = time.perf_counter()
    train_bundle(task, generator, "dense_orthogonal", size, settings, rngs, heldout, ["m"] * K)
    return time.perf_counter() - start


def time_tree(tree: Path, task, generator, training, size) -> float:
    plain = {k: v for k, v in training.items() if k != "device"}
    fields = set(plain)
    code = ONE_MODEL.format(
        src=str(tree / "src"), settings=plain, task=task, generator=generator, size=size
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
    except subprocess.CalledProcessError as error:  # an older tree lacks a newer setting
        last = error.stderr.strip().splitlines()[-1]
        raise SystemExit(f"{tree}: {last} ({sorted(fields)})") from None
    return float(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32, 64])
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--task", default="flip_flop")
    parser.add_argument("--tree", type=Path)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "src"))
    generator, training, size = paper_settings(args.task, args.steps, args.device)
    best = {K: float("inf") for K in args.k}
    tree_best = float("inf")
    for _ in range(args.repeat):
        for K in args.k:
            best[K] = min(best[K], time_bundle(args.task, generator, training, size, K))
        if args.tree is not None:
            tree_best = min(tree_best, time_tree(args.tree, args.task, generator, training, size))
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    print(
        f"{args.task}, N_h = {size}, batch {training['batch_size']}, {args.steps} steps, "
        f"device {args.device}, OMP_NUM_THREADS {threads}, least of {args.repeat} rounds"
    )
    print(f"{'K':>4} {'seconds':>9} {'model-steps/s':>14} {'per model vs K=1':>17}")
    base = args.steps / best[args.k[0]]
    for K in args.k:
        rate = K * args.steps / best[K]
        print(f"{K:>4} {best[K]:9.3f} {rate:14.1f} {rate / base:16.2f}x")
    if args.tree is not None:
        rate = args.steps / tree_best
        print(
            f"{args.tree} (one model, its own train): {tree_best:.3f} s, {rate:.1f} model-steps/s"
        )


if __name__ == "__main__":
    main()
