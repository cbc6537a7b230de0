"""Training step cost against its arithmetic floor, for every task of the registry.

Per task (the paper-scale N_h, generator and training settings of config.yaml and
presets/more_tasks.yaml, curriculum at its last horizon): milliseconds per step of the project's
``rnnschur.train.train`` (batch drawing, rollout, loss, gradients, clipping, Adam, batch score)
against a lean NumPy float32 step of the same shapes (input projection, recurrence, readout,
backward recurrence, the three weight gradients: nothing else).

Both run on the same **frozen trained weights**: ``train`` starts from them (its initial draws
are replaced) with learning rate 0, so every step does all of its arithmetic on a network whose
state does not change. (Timing K against 2K steps of real training mixes the step's cost
with the state of training; it gave negative differences.) The weights are those of a finished run
(``--models DIR``: DIR/models/<task>/dense_orthogonal/n<N_h>/seed0/weights.npz, a paper-scale
results folder) or, where it has none, of ``--warmup`` steps of this tree's training. Fixed
costs cancel by timing K and 2K steps (best of ``--repeat``), in CPU time of the one thread (run
with OMP_NUM_THREADS=1). ``--tree DIR`` times another source tree's ``train`` (e.g. a
``git worktree`` of an older commit) in the same run, on the same weights.

Usage: OMP_NUM_THREADS=1 python bench/bench_train_floor.py [--steps K] [--repeat 3]
           [--models RESULTS_DIR ...] [--warmup 1000] [--tree DIR ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[1]


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


def per_step(run, steps: int, repeat: int) -> float:
    """Seconds per step: best of (time(2K) − time(K)) / K, in this process's CPU time (one
    thread: its work, robust to other processes on the machine)."""
    run(1)  # first-call costs (lazy imports and initialisations) before any timing
    best = np.inf
    for _ in range(repeat):
        start = time.process_time()
        run(steps)
        middle = time.process_time()
        run(2 * steps)
        end = time.process_time()
        best = min(best, ((end - middle) - (middle - start)) / steps)
    return best


def trained_weights(models: list[Path], warmup: int) -> dict[str, dict[str, np.ndarray]]:
    """{task: {W_xh, W_hh, W_hy}} from the first results folder that has the task's model, else
    from ``warmup`` steps of this tree's training (seed 0)."""
    from rnnschur import tasks
    from rnnschur.train import TrainSettings, train

    weights = {}
    for name, (generator, size, training) in task_setups().items():
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


def project_times(weights_file: str, steps: int, repeat: int) -> dict[str, float]:
    """ms per step of the importable ``rnnschur.train.train`` per task, started from the frozen
    weights in ``weights_file`` (np.savez of <task>/<key>) with learning rate 0."""
    import rnnschur.train as training_module
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

        times[name] = 1e3 * per_step(run, steps, repeat)
    training_module.initial_recurrent, training_module._io_weights = originals
    return times


def time_tree(tree: Path, weights_file: Path, steps: int, repeat: int) -> dict[str, float]:
    """ms per training step of ``tree``'s ``train`` for each task, in a fresh process."""
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "import bench_train_floor as b; print(json.dumps(b.project_times(sys.argv[3],"
        " int(sys.argv[4]), int(sys.argv[5]))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tree / "src"), str(REPO / "bench"), str(weights_file)]
        + [str(steps), str(repeat)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def floor_times(weights: dict, steps: int, repeat: int) -> dict[str, tuple[float, int]]:
    """{task: (ms per lean step on the frozen weights, T)}, with the memory settings training
    uses (:func:`rnnschur.numerics.retain_freed_memory`): the floor is the arithmetic."""
    from rnnschur import tasks
    from rnnschur.numerics import retain_freed_memory

    retain_freed_memory()
    times = {}
    rng = np.random.default_rng(0)
    for name, (generator, _, _) in task_setups().items():
        batch = tasks.get(name).generate(rng, 64, **generator)
        f32 = lambda a: np.ascontiguousarray(a.swapaxes(0, 1), np.float32)  # noqa: E731
        X, Y = f32(batch.inputs), f32(batch.targets)
        M = f32(batch.mask if batch.mask.ndim == 2 else batch.mask[..., 0])
        W = [weights[name][k].astype(np.float32) for k in ("W_xh", "W_hh", "W_hy")]

        def run(k, X=X, Y=Y, M=M, W=W):
            for _ in range(k):
                lean_step(X, Y, M, *W)

        times[name] = (1e3 * per_step(run, steps, repeat), X.shape[0])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--models", type=Path, action="append", default=[])
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--tree", type=Path, action="append", default=[])
    args = parser.parse_args()
    if os.environ.get("OMP_NUM_THREADS") != "1":
        print("note: OMP_NUM_THREADS is not 1; the table assumes one thread", file=sys.stderr)
    sys.path.insert(0, str(REPO / "src"))
    weights = trained_weights(args.models, args.warmup)
    with tempfile.TemporaryDirectory() as tmp:
        weights_file = Path(tmp) / "frozen.npz"
        np.savez(weights_file, **{f"{t}/{k}": v for t, w in weights.items() for k, v in w.items()})
        floor = floor_times(weights, args.steps, args.repeat)
        trees = {
            str(t): time_tree(t.resolve(), weights_file, args.steps, args.repeat) for t in args.tree
        }
        trees["this tree"] = time_tree(REPO, weights_file, args.steps, args.repeat)
    header = "| task | T | lean floor ms/step | " + " | ".join(
        f"{name} ms/step (ratio)" for name in trees
    )
    print(header + " |")
    print("|---" * (3 + len(trees)) + "|")
    for task, (floor_ms, T) in floor.items():
        cells = [f"{t[task]:.2f} ({t[task] / floor_ms:.2f})" for t in trees.values()]
        print(f"| {task} | {T} | {floor_ms:.2f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
