"""Training benchmarks, one script: three measures of a training step, each reported as
ratios measured in one run (never timed tests).

    OMP_NUM_THREADS=1 python bench/bench_training.py loop     # autograd loops against the BPTT
    OMP_NUM_THREADS=1 python bench/bench_training.py bundle   # throughput against bundle size K
    OMP_NUM_THREADS=1 python bench/bench_training.py floor    # a step against its floor, per task
    OMP_NUM_THREADS=1 python bench/bench_training.py atlas    # the coupling atlas's cost, before
    OMP_NUM_THREADS=1 python bench/bench_training.py atlas-shares  # where its training time goes

``loop``. Training steps/s at N_h = 72 (copy task: T = 136, batch 64, one thread): the
straightforward per-step autograd loop against the hoisted input projection and against
rnnschur's hand-written BPTT.

``bundle``. Training throughput against the bundle size K: model-steps per second of
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

``floor``. Training step cost against its arithmetic floor, for every task of the registry.

Per task (the paper-scale N_h, generator and training settings of config.yaml and
presets/more_tasks.yaml, curriculum at its last horizon): milliseconds per step of the project's
``rnnschur.training.train.train`` (batch drawing, rollout, loss, gradients, clipping, Adam,
batch score)
against a lean NumPy float32 step of the same shapes (input projection, recurrence, readout,
backward recurrence, the three weight gradients: nothing else).

Both run on the same **frozen trained weights**: ``train`` starts from them (its initial draws
are replaced) with learning rate 0, so every step does all of its arithmetic on a network whose
state does not change. (Timing K against 2K steps of real training mixes the step's cost
with the state of training; it gave negative differences.) The weights are those of a finished run
(``--models DIR``: DIR/models/<task>/dense_orthogonal/n<N_h>/seed0/weights.npz, a paper-scale
results folder) or, where it has none, of ``--warmup`` steps of this tree's training. Fixed
costs cancel by timing K and 2K steps (the least of ``--repeat`` rounds each), in CPU time of the
one thread (run with OMP_NUM_THREADS=1). The floor and ``train`` are timed in turn, round by
round, in the same process, so that the machine's slow spells reach both alike (timed apart,
the ratios moved by ±0.3 from run to run). ``--tree DIR`` times another source tree's ``train``
(e.g. a ``git worktree`` of an older commit) in the same run, on the same weights, beside the
floor timed with it. ``--processes P`` times each tree in P fresh processes, the trees in turn,
keeps each time's least value over all of them, and prints every process's ratio: on a noisy
machine the ratio of identical code moves by ±0.3 or more from process to process (once even
below 0.6, where a slow spell fell on every round of one K), and the list shows how far.
``--tasks`` times only the tasks named.

``atlas``. The coupling atlas's cost, measured before it runs: per task, network description
and N_h, the seconds of one training step (trials drawn, the stacked BPTT step, Adam) and of one
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

``atlas-shares``. Where the coupling atlas's training time goes, per task and network
description: the share of drawing trials, the stacked BPTT step, the optimiser, validation, the
hidden noise and the job's start-up.

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

The analyses' speed (ablation, subspace control, the quick preset's parallel efficiency) is
``bench/bench_speed.py``'s; what a finished run cost, ``bench/run_costs.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from bench_startup import best_of, imports  # noqa: E402

# loop: a training step of one model, three ways


def straightforward_loss(x, W_xh, W_hh, W_hy, y):
    import torch

    h = torch.zeros(x.shape[1], W_hh.shape[0])
    outputs = []
    for t in range(x.shape[0]):
        h = torch.tanh(x[t] @ W_xh.T + h @ W_hh.T)
        outputs.append(h @ W_hy.T)
    return ((torch.stack(outputs) - y) ** 2).mean()


def hoisted_loss(x, W_xh, W_hh, W_hy, y):
    import torch

    drive = x @ W_xh.T
    h = torch.zeros(x.shape[1], W_hh.shape[0])
    states = []
    for d in drive.unbind(0):
        h = torch.tanh(d + h @ W_hh.T)
        states.append(h)
    return ((torch.stack(states) @ W_hy.T - y) ** 2).mean()


def rnnschur_steps_per_second(steps=150, n=72, repeats=3):
    """rnnschur's own training step (the hand-written BPTT of one model, float32, and a plain
    gradient step; Adam's update costs a few element-wise passes more)."""
    from rnnschur import tasks
    from rnnschur.network.dynamics import DISCRETE
    from rnnschur.training.bptt import loss_and_gradients

    rng = np.random.default_rng(0)
    batch = tasks.get("copy").generate(rng, 64)
    X = np.ascontiguousarray(batch.inputs.swapaxes(0, 1)[None], dtype=np.float32)
    Y = np.ascontiguousarray(batch.targets.swapaxes(0, 1)[None], dtype=np.float32)
    mask = np.ascontiguousarray(batch.mask.swapaxes(0, 1)[None], dtype=np.float32)
    weights = [rng.uniform(-0.3, 0.3, (1, *s)).astype(np.float32) for s in ((n, 8), (n, n), (8, n))]
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(steps):
            _, _, grads = loss_and_gradients(X, Y, mask, *weights, DISCRETE)
            for w, g in zip(weights, grads, strict=True):
                w -= 1e-3 * g
        best = max(best, steps / (time.perf_counter() - start))
    return best


def steps_per_second(loss_fn, steps=150, n=72, repeats=3):
    import torch

    from rnnschur import tasks

    rng = np.random.default_rng(0)
    batch = tasks.get("copy").generate(rng, 64)
    x = torch.tensor(batch.inputs.swapaxes(0, 1), dtype=torch.float32)
    y = torch.tensor(batch.targets.swapaxes(0, 1), dtype=torch.float32)
    params = [
        torch.nn.Parameter(torch.tensor(rng.uniform(-0.3, 0.3, s), dtype=torch.float32))
        for s in ((n, 8), (n, n), (8, n))
    ]
    optimizer = torch.optim.Adam(params, lr=1e-3)
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(steps):
            loss = loss_fn(x, params[0], params[1], params[2], y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        best = max(best, steps / (time.perf_counter() - start))
    return best


def loop(args) -> None:
    """Training steps/s at N_h = 72 (copy task: T = 136, batch 64, one thread): the
    straightforward per-step autograd loop against the hoisted input projection and against
    rnnschur's hand-written BPTT."""
    import torch

    torch.set_num_threads(1)
    base = steps_per_second(straightforward_loss)
    hoisted = steps_per_second(hoisted_loss)
    ours = rnnschur_steps_per_second()
    print("Training, N_h = 72, T = 136, batch 64, one thread (steps/s):")
    print(f"  straightforward loop  {base:7.1f}   1.00x")
    print(f"  hoisted + unbind      {hoisted:7.1f}   {hoisted / base:.2f}x")
    print(f"  rnnschur BPTT         {ours:7.1f}   {ours / base:.2f}x")


# bundle: K models as one computation

ONE_MODEL = """
import sys, time, numpy as np
sys.path.insert(0, {src!r})
from rnnschur import tasks
from rnnschur.settings.seeds import job_rng
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
    from rnnschur.settings.seeds import job_rng
    from rnnschur.training.train import TrainSettings, train_bundle

    settings = TrainSettings(**training)
    heldout = tasks.draw_heldout(task, 64, 0, **generator)
    rngs = [job_rng(0, "bench", k) for k in range(K)]
    start = time.perf_counter()
    train_bundle(task, generator, "dense_orthogonal", size, settings, rngs, heldout, ["m"] * K)
    return time.perf_counter() - start


def bundle_time_tree(tree: Path, task, generator, training, size) -> float:
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


# floor: a training step against a lean NumPy step of the same shapes


def lean_step(X, Y, M, W_xh, W_hh, W_hy):
    """The floor: a discrete tanh step and its gradients, float32, nothing else."""
    T, B, N_x = X.shape
    N_h = W_hh.shape[0]
    H = (X.reshape(T * B, N_x) @ W_xh.T).reshape(T, B, N_h)
    for t in range(T):
        if t:
            H[t] += H[t - 1] @ W_hh.T
        np.tanh(H[t], out=H[t])
    out = (H.reshape(T * B, N_h) @ W_hy.T).reshape(T, B, -1)
    d_out = (out - Y) * M[..., None]
    g_hy = d_out.reshape(T * B, -1).T @ H.reshape(T * B, N_h)
    dH = (d_out.reshape(T * B, -1) @ W_hy).reshape(T, B, N_h)
    slope = 1 - H * H
    carry = np.zeros((B, N_h), np.float32)
    for t in range(T - 1, -1, -1):
        dH[t] += carry
        dH[t] *= slope[t]
        carry = dH[t] @ W_hh
    g_hh = dH[1:].reshape(-1, N_h).T @ H[:-1].reshape(-1, N_h)
    g_xh = dH.reshape(T * B, N_h).T @ X.reshape(T * B, N_x)
    return g_xh, g_hh, g_hy


def task_setups() -> dict[str, tuple[dict, int, dict]]:
    """{task: (generator, N_h, training)} at paper scale, the curriculum at its last horizon."""
    from rnnschur import tasks

    config = yaml.safe_load((REPO / "config.yaml").read_text())["tasks"]
    more = yaml.safe_load((REPO / "presets" / "more_tasks.yaml").read_text()).get("tasks", {})
    setups = {}
    for name in tasks.names():
        block = {**more.get(name, {}), **config.get(name, {})}
        generator = {**tasks.defaults(name), **block.get("generator", {})}
        training = dict(block.get("training", {}))
        if training.pop("curriculum", None):
            training.pop("curriculum_threshold", None)
        size = max(block.get("sizes", [64]))
        setups[name] = (generator, size, training)
    return setups


def task_lengths() -> dict[str, int]:
    """{task: T}, the trial length in steps at the settings of :func:`task_setups`."""
    from rnnschur import tasks

    rng = np.random.default_rng(0)
    return {
        name: tasks.get(name).generate(rng, 1, **generator).inputs.shape[1]
        for name, (generator, _, _) in task_setups().items()
    }


def per_step(runs: dict, steps: int, repeat: int) -> dict[str, float]:
    """Seconds per step of each ``runs[name](k)``: (min time(2K) − min time(K)) / K, the minima
    over ``repeat`` rounds, in this process's CPU time (one thread: its work). The runs are
    interleaved round by round, so that a slow spell of the machine reaches all of them alike,
    and each minimum drops the rounds it slowed (noise only adds time)."""
    for run in runs.values():
        run(1)  # first-call costs (lazy imports and initialisations) before any timing
    best = {name: [np.inf, np.inf] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            for i, k in enumerate((steps, 2 * steps)):
                start = time.process_time()
                run(k)
                best[name][i] = min(best[name][i], time.process_time() - start)
    return {name: (twice - once) / steps for name, (once, twice) in best.items()}


def trained_weights(
    models: list[Path], warmup: int, names: list[str]
) -> dict[str, dict[str, np.ndarray]]:
    """{task: {W_xh, W_hh, W_hy}} of the tasks ``names``, from the first results folder that has
    the task's model, else from ``warmup`` steps of this tree's training (seed 0)."""
    from rnnschur import tasks
    from rnnschur.training.train import TrainSettings, train

    weights = {}
    for name, (generator, size, training) in task_setups().items():
        if name not in names:
            continue
        for folder in models:
            path = (
                folder / "models" / name / "dense_orthogonal" / f"n{size}" / "seed0" / "weights.npz"
            )
            if path.exists():
                with np.load(path) as saved:
                    weights[name] = {k: saved[k] for k in ("W_xh", "W_hh", "W_hy")}
                break
        else:
            module = tasks.get(name)
            heldout = module.generate(np.random.default_rng(0), 8, **generator)
            fields = {f.name for f in dataclasses.fields(TrainSettings)}
            settings = TrainSettings(
                **{
                    **{k: v for k, v in training.items() if k in fields},
                    "max_steps": warmup,
                    "eval_every": 10**9,
                    "n_validation": 8,
                    "target_score": None,
                    "target_mse": None,
                }
            )
            model = train(
                name,
                generator,
                "dense_orthogonal",
                size,
                settings,
                np.random.default_rng(0),
                heldout,
            )
            weights[name] = {"W_xh": model.W_xh, "W_hh": model.W_hh, "W_hy": model.W_hy}
    return weights


def project_times(
    weights_file: str, steps: int, repeat: int, names: list[str]
) -> dict[str, dict[str, float]]:
    """{task: {"floor": ms, "train": ms}} per step of the lean step and of the importable
    ``rnnschur.training.train.train`` for the tasks ``names``, started from the frozen weights in
    ``weights_file`` (np.savez of <task>/<key>) with learning rate 0, timed in turn
    (:func:`per_step`)."""
    import rnnschur.training.train as training_module
    from rnnschur import tasks

    with np.load(weights_file) as saved:
        frozen = {key: saved[key] for key in saved.files}
    originals = (training_module.initial_recurrent, training_module._io_weights)

    def like(template, value):
        """``value`` in the type (NumPy array or torch tensor) and dtype of ``template``."""
        if isinstance(template, np.ndarray):
            return value.astype(template.dtype)
        import torch

        return torch.as_tensor(value, dtype=template.dtype, device=template.device)

    fields = {f.name for f in dataclasses.fields(training_module.TrainSettings)}
    times = {}
    for name, (generator, size, training) in task_setups().items():
        if name not in names:
            continue
        module = tasks.get(name)
        heldout = module.generate(np.random.default_rng(0), 8, **generator)
        W = {key: frozen[f"{name}/{key}"] for key in ("W_xh", "W_hh", "W_hy")}

        def recurrent(construction, rng, n, W=W):
            return like(originals[0](construction, rng, n), W["W_hh"])

        def io(*args, W=W, **kwargs):
            W_xh, W_hy = originals[1](*args, **kwargs)
            return like(W_xh, W["W_xh"]), like(W_hy, W["W_hy"])

        training_module.initial_recurrent, training_module._io_weights = recurrent, io

        def run(k, name=name, generator=generator, size=size, heldout=heldout, training=training):
            settings = training_module.TrainSettings(
                **{
                    **{key: v for key, v in training.items() if key in fields},
                    "lr": 0.0,
                    "max_steps": k,
                    "eval_every": 10**9,
                    "n_validation": 8,
                    "target_score": None,
                    **({"target_mse": None} if "target_mse" in fields else {}),
                }
            )
            training_module.train(
                name,
                generator,
                "dense_orthogonal",
                size,
                settings,
                np.random.default_rng(1),
                heldout,
            )

        ms = per_step({"floor": floor_run(name, generator, W), "train": run}, steps, repeat)
        times[name] = {key: 1e3 * value for key, value in ms.items()}
    training_module.initial_recurrent, training_module._io_weights = originals
    return times


def floor_time_tree(
    tree: Path, weights_file: Path, steps: int, repeat: int, names: list[str]
) -> dict[str, dict[str, float]]:
    """{task: {"floor": ms, "train": ms}} per step, ``tree``'s ``train`` and the lean step timed
    in turn in one fresh process (with the memory settings of that tree's training: it sets them
    in the process, or an older tree does not)."""
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "import bench_training as b; print(json.dumps(b.project_times(sys.argv[3],"
        " int(sys.argv[4]), int(sys.argv[5]), sys.argv[6].split(','))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tree / "src"), str(REPO / "bench"), str(weights_file)]
        + [str(steps), str(repeat), ",".join(names)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def floor_run(name: str, generator: dict, weights: dict):
    """run(k): k lean steps (:func:`lean_step`) on a batch of 64 trials of task ``name``."""
    from rnnschur import tasks

    batch = tasks.get(name).generate(np.random.default_rng(0), 64, **generator)
    f32 = lambda a: np.ascontiguousarray(a.swapaxes(0, 1), np.float32)  # noqa: E731
    X, Y = f32(batch.inputs), f32(batch.targets)
    M = f32(batch.mask if batch.mask.ndim == 2 else batch.mask[..., 0])
    W = [weights[k].astype(np.float32) for k in ("W_xh", "W_hh", "W_hy")]

    def run(k):
        for _ in range(k):
            lean_step(X, Y, M, *W)

    return run


def add_bundle(sub) -> None:
    parser = sub.add_parser("bundle", help="throughput against the bundle size K")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32, 64])
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--task", default="flip_flop")
    parser.add_argument("--tree", type=Path)
    parser.add_argument("--device", default="cpu")


def bundle(args) -> None:
    sys.path.insert(0, str(REPO / "src"))
    generator, training, size = paper_settings(args.task, args.steps, args.device)
    best = {K: float("inf") for K in args.k}
    tree_best = float("inf")
    for _ in range(args.repeat):
        for K in args.k:
            best[K] = min(best[K], time_bundle(args.task, generator, training, size, K))
        if args.tree is not None:
            tree_best = min(
                tree_best, bundle_time_tree(args.tree, args.task, generator, training, size)
            )
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


def add_floor(sub) -> None:
    parser = sub.add_parser(
        "floor",
        help="a training step against its arithmetic floor, per task",
    )
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--models", type=Path, action="append", default=[])
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--tree", type=Path, action="append", default=[])
    parser.add_argument("--tasks", nargs="*", help="only these tasks (default: every task)")
    parser.add_argument(
        "--processes", type=int, default=1, help="fresh processes per tree, trees in turn"
    )


def floor(args) -> None:
    if os.environ.get("OMP_NUM_THREADS") != "1":
        print("note: OMP_NUM_THREADS is not 1; the table assumes one thread", file=sys.stderr)
    sys.path.insert(0, str(REPO / "src"))
    lengths = task_lengths()
    if unknown := set(args.tasks or ()) - set(lengths):
        raise SystemExit(f"unknown tasks {sorted(unknown)}; known: {list(lengths)}")
    if args.tasks:
        lengths = {task: T for task, T in lengths.items() if task in args.tasks}
    weights = trained_weights(args.models, args.warmup, list(lengths))
    sources = {str(t): t.resolve() for t in args.tree} | {"this tree": REPO}
    runs = {name: [] for name in sources}
    with tempfile.TemporaryDirectory() as tmp:
        weights_file = Path(tmp) / "frozen.npz"
        np.savez(weights_file, **{f"{t}/{k}": v for t, w in weights.items() for k, v in w.items()})
        for _ in range(args.processes):
            for name, tree in sources.items():
                times = floor_time_tree(tree, weights_file, args.steps, args.repeat, list(lengths))
                runs[name].append(times)
    trees = {
        name: {t: {k: min(r[t][k] for r in rs) for k in ("floor", "train")} for t in lengths}
        for name, rs in runs.items()
    }
    header = "| task | T | " + " | ".join(
        f"{name}: floor ms/step | {name}: train ms/step (ratio)" for name in trees
    )
    print(header + " |")
    print("|---" * (2 + 2 * len(trees)) + "|")
    for task, T in lengths.items():
        cells = [
            f"{t[task]['floor']:.2f} | {t[task]['train']:.2f} "
            f"({t[task]['train'] / t[task]['floor']:.2f})"
            for t in trees.values()
        ]
        print(f"| {task} | {T} | " + " | ".join(cells) + " |")
    if args.processes > 1:
        print("Ratio train / floor in each process, in the order run:")
        for task in lengths:
            spread = "; ".join(
                f"{name} " + " ".join(f"{r[task]['train'] / r[task]['floor']:.2f}" for r in rs)
                for name, rs in runs.items()
            )
            print(f"  {task}: {spread}")


# atlas: the coupling atlas's training cost, measured before it runs


def atlas_config() -> dict:
    """config.yaml with presets/atlas.yaml layered on it, checked and expanded as the workflow
    does (its NeuroGym envs checked)."""
    from snakemake.utils import update_config

    sys.path.insert(0, str(REPO / "workflow" / "lib"))  # the workflow's config engine
    import config_checks as config_lib
    import instances

    from rnnschur.settings.schema import read_schema
    from rnnschur.tasks import _neurogym

    config = yaml.safe_load((REPO / "config.yaml").read_text())
    update_config(config, yaml.safe_load((REPO / "presets" / "atlas.yaml").read_text()))
    schema = read_schema()
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
    from rnnschur.network.dynamics import Dynamics
    from rnnschur.settings.seeds import job_rng
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


def add_atlas(sub) -> None:
    parser = sub.add_parser("atlas", help="the coupling atlas's cost, measured before it runs")
    parser.add_argument("--steps", type=int, default=128)
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--analysis", type=float, default=1.4)
    parser.add_argument("--bundle", type=int, default=5, help="the preset's training_bundle")
    parser.add_argument("--out", type=Path)


def atlas(args) -> None:
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


# atlas-shares: where the atlas's training time goes

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
    from rnnschur.network.dynamics import Dynamics
    from rnnschur.settings.seeds import job_rng
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


def add_atlas_shares(sub) -> None:
    parser = sub.add_parser("atlas-shares", help="where the atlas's training time goes")
    parser.add_argument("--steps", type=int, default=128)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--bundle", type=int, default=5)
    parser.add_argument("--out", type=Path)


def atlas_shares(args) -> None:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="measure", required=True)
    sub.add_parser("loop", help="autograd loops against rnnschur's hand-written BPTT")
    add_bundle(sub)
    add_floor(sub)
    add_atlas(sub)
    add_atlas_shares(sub)
    args = parser.parse_args()
    run = {"loop": loop, "bundle": bundle, "floor": floor, "atlas": atlas}
    run["atlas-shares"] = atlas_shares
    run[args.measure](args)


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "src"))
    main()
