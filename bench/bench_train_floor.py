"""Training step cost against its arithmetic floor, for every task of the registry.

Per task (the paper-scale N_h and generator settings of config.yaml; a task without a config
block uses its generator defaults and N_h = 64): milliseconds per step of the project's
``rnnschur.train.train`` (batch drawing, rollout, loss, gradients, Adam, batch score) against
a lean NumPy float32 step of the same shapes (input projection, recurrence, readout, backward
recurrence, the three weight gradients: nothing else). Fixed costs cancel by timing K and 2K
steps (best of ``--repeat``), in CPU time of the one thread (run with OMP_NUM_THREADS=1).
``--tree DIR`` times another source tree's ``train`` (e.g. a ``git worktree`` of an older
commit) in the same run.

Usage: OMP_NUM_THREADS=1 python bench/bench_train_floor.py [--steps K] [--repeat 3] [--tree DIR ...]
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
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
    """{task: (generator, N_h, training)} at paper scale."""
    from rnnschur import tasks

    config = yaml.safe_load((REPO / "config.yaml").read_text())["tasks"]
    more = yaml.safe_load((REPO / "presets" / "more_tasks.yaml").read_text()).get("tasks", {})
    setups = {}
    for name in tasks.names():
        block = {**more.get(name, {}), **config.get(name, {})}
        generator = {**tasks.defaults(name), **block.get("generator", {})}
        size = max(block.get("sizes", [64]))
        setups[name] = (generator, size, block.get("training", {}))
    return setups


def per_step(run, steps: int, repeat: int) -> float:
    """Seconds per step: best of (time(2K) − time(K)) / K, in this process's CPU time (one
    thread: its work, robust to other processes on the machine)."""
    best = np.inf
    for _ in range(repeat):
        start = time.process_time()
        run(steps)
        middle = time.process_time()
        run(2 * steps)
        end = time.process_time()
        best = min(best, ((end - middle) - (middle - start)) / steps)
    return best


def time_tree(tree: Path, steps: int, repeat: int) -> dict[str, float]:
    """ms per training step of ``tree``'s ``train`` for each task, in a fresh process."""
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "import bench_train_floor as b; print(json.dumps(b.project_times(int(sys.argv[3]),"
        " int(sys.argv[4]))))"
    )
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            str(tree / "src"),
            str(REPO / "bench"),
            str(steps),
            str(repeat),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    import json

    return json.loads(out.strip().splitlines()[-1])


def project_times(steps: int, repeat: int) -> dict[str, float]:
    """ms per step of the importable ``rnnschur.train.train``, per task."""
    from rnnschur import tasks
    from rnnschur.train import TrainSettings, train

    times = {}
    for name, (generator, size, training) in task_setups().items():
        module = tasks.get(name)
        heldout = module.generate(np.random.default_rng(0), 8, **generator)

        def run(k, name=name, generator=generator, size=size, heldout=heldout, training=training):
            settings = TrainSettings(
                lr=1e-3,
                batch_size=64,
                max_steps=k,
                eval_every=10**9,
                n_validation=8,
                io_init=training.get("io_init", "normal"),
            )
            train(
                name,
                generator,
                "dense_orthogonal",
                size,
                settings,
                np.random.default_rng(1),
                heldout,
            )

        times[name] = 1e3 * per_step(run, steps, repeat)
    return times


def floor_times(steps: int, repeat: int) -> dict[str, float]:
    from rnnschur import tasks

    times = {}
    rng = np.random.default_rng(0)
    for name, (generator, size, _) in task_setups().items():
        batch = tasks.get(name).generate(rng, 64, **generator)
        f32 = lambda a: np.ascontiguousarray(a.swapaxes(0, 1), np.float32)  # noqa: E731
        X, Y = f32(batch.inputs), f32(batch.targets)
        M = f32(batch.mask if batch.mask.ndim == 2 else batch.mask[..., 0])
        N_x, N_y = X.shape[-1], Y.shape[-1]
        # trained-like scales: an orthogonal W_hh keeps the states away from denormal floats,
        # which make small random weights (decaying states) several times slower
        W_hh = np.linalg.qr(rng.standard_normal((size, size)))[0]
        W = [
            (rng.standard_normal((size, N_x)) / np.sqrt(N_x)).astype(np.float32),
            W_hh.astype(np.float32),
            (rng.standard_normal((N_y, size)) / np.sqrt(size)).astype(np.float32),
        ]

        def run(k, X=X, Y=Y, M=M, W=W):
            for _ in range(k):
                lean_step(X, Y, M, *W)

        times[name] = (1e3 * per_step(run, steps, repeat), X.shape[0])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tree", type=Path, action="append", default=[])
    args = parser.parse_args()
    if os.environ.get("OMP_NUM_THREADS") != "1":
        print("note: OMP_NUM_THREADS is not 1; the table assumes one thread", file=sys.stderr)
    sys.path.insert(0, str(REPO / "src"))
    importlib.invalidate_caches()
    floor = floor_times(args.steps, args.repeat)
    trees = {str(t): time_tree(t.resolve(), args.steps, args.repeat) for t in args.tree}
    trees["this tree"] = project_times(args.steps, args.repeat)
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
