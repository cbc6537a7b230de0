"""Speed benchmarks, reported as ratios measured in one run (not timed tests).

(Training: ``bench/bench_training.py``.)

1. The ablation evaluation of one model (8 subsets x 3 alphas, 1024 held-out trials): one
   batched rollout (rnnschur.ablation.evaluate_ablations) against a loop over the 24 matrices.
2. The subspace control of one model (7 ablations, 3 subspaces x 2 sides x 3 control kinds x
   2 draws, 256 trials): the stack of perturbed matrices rolled out in chunks of 64 and of 256
   against one matrix at a time.
3. The per-solution bootstrap (200 resamples) of that evaluation: the evaluation alone, with
   the bootstrap from per-trial sums (rnnschur.studies.solutions.bootstrap_scores) and with every
   resample's rollouts scored again (the former way, kept here as the reference).
4. Parallel efficiency of the quick preset under `snakemake -c2`: the sum of the jobs' CPU
   time over (wall time x 2), from the rules' benchmark files.

Usage: OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python bench/bench_speed.py [--skip-workflow]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from rnnschur import tasks
from rnnschur.ablation import SUBSETS, Analysed, ablated_recurrent, delta_T, evaluate_ablations
from rnnschur.network import Network
from rnnschur.network.rnn import rollout
from rnnschur.schur import coupling_masks, ordered_real_schur
from rnnschur.studies.beyond import subspace
from rnnschur.studies.solutions import Reading

REPO = Path(__file__).resolve().parents[1]


def synthetic_copy_model(rng):
    """A model like a solved copy-task controller at N_h = 72, and a copy-task held-out set."""
    n = 72
    # Like a solved copy model: 64 eigenvalues on the unit circle, 8 at 0.5, non-normal couplings.
    angles = 2 * np.pi * rng.integers(0, 8, size=32) / 8 + 0.01
    T = np.triu(0.05 * rng.standard_normal((n, n)), 1)
    for k, a in enumerate(angles):
        T[2 * k : 2 * k + 2, 2 * k : 2 * k + 2] = [[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]
    T[64:, 64:] += np.diag(np.full(8, 0.5))
    Q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    W_hh = Q @ T @ Q.T
    W_xh, W_hy = rng.uniform(-0.3, 0.3, (n, 8)), rng.uniform(-0.1, 0.1, (8, n))
    return W_xh, W_hh, W_hy, ordered_real_schur(W_hh), tasks.get("copy").generate(rng, 1024)


def ablation_timing(repeats=3):
    W_xh, W_hh, W_hy, schur, heldout = synthetic_copy_model(np.random.default_rng(1))
    alphas = [0.85, 0.9, 0.95]

    def batched():
        evaluate_ablations(
            Analysed(Network(W_xh, W_hh, W_hy), schur, heldout, tasks.get("copy")), alphas
        )

    def looped():
        for alpha in alphas:
            masks = coupling_masks(schur, alpha)
            for subset in SUBSETS:
                W = ablated_recurrent(W_hh, schur, delta_T(schur.T, masks, subset))
                tasks.get("copy").score(rollout(W_xh, W, W_hy, heldout.inputs), heldout)

    times = {}
    for name, fn in (("batched", batched), ("looped", looped)):
        times[name] = min(_timed(fn) for _ in range(repeats))
    return times


def rescored(task, outputs, batch, n_boot, rng):
    """The bootstrap as it was: each resample's rollouts copied and scored again."""
    n = batch.inputs.shape[0]
    scores = []
    for _ in range(n_boot):
        pick = rng.integers(0, n, n)
        resample = tasks.Batch(batch.inputs[pick], batch.targets[pick], batch.mask[pick])
        scores.append(np.asarray(task.score(outputs[:, pick], resample), dtype=float))
    return np.stack(scores)


def bootstrap_timing(repeats=3):
    """One paper-scale copy model's ablation evaluation without and with the bootstrap."""
    from rnnschur import ablation

    W_xh, W_hh, W_hy, schur, heldout = synthetic_copy_model(np.random.default_rng(1))
    analysed = Analysed(Network(W_xh, W_hh, W_hy), schur, heldout, tasks.get("copy"))
    alphas, reading = [0.85, 0.9, 0.95], Reading(n_boot=200, seed=5)
    sums = ablation.bootstrap_scores  # the name the evaluation calls

    def run(solution, bootstrap=sums):
        def timed():
            ablation.bootstrap_scores = bootstrap
            try:
                evaluate_ablations(analysed, alphas, solution=solution)
            finally:
                ablation.bootstrap_scores = sums

        return timed

    cases = {"none": run(None), "sums": run(reading), "rescored": run(reading, rescored)}
    return {name: min(_timed(fn) for _ in range(repeats)) for name, fn in cases.items()}


def control_timing(repeats=2):
    W_xh, W_hh, W_hy, schur, heldout = synthetic_copy_model(np.random.default_rng(1))
    batch = tasks.Batch(heldout.inputs[:256], heldout.targets[:256], heldout.mask[:256])
    _, hidden = rollout(W_xh, W_hh, W_hy, batch.inputs, return_hidden=True)
    subspaces = {
        "top_pcs": subspace.principal_axes(hidden)[0][:, :8],
        "variance_pcs": subspace.principal_axes(hidden)[0][:, :40],
        "readout": subspace.readout_subspace(W_hy),
    }

    def run(chunk):
        rng = np.random.default_rng(0)
        copy = tasks.get("copy")
        subspace.CHUNK = chunk  # the stack rolled out `chunk` matrices at a time
        return lambda: subspace.evaluate_controls(
            Analysed(Network(W_xh, W_hh, W_hy), schur, batch, copy), 0.9, subspaces, 2, rng
        )

    return {chunk: min(_timed(run(chunk)) for _ in range(repeats)) for chunk in (1, 64, 256)}


def _timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def parallel_efficiency():
    """Run the quick preset from nothing in a scratch results folder of the repository."""
    scratch = REPO / "results" / "bench-quick"
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "snakemake",
                "-c2",
                "--config",
                "preset=quick",
                f"results_dir={scratch.relative_to(REPO)}",
            ],
            cwd=REPO,
            check=True,
            capture_output=True,
        )
        wall = time.perf_counter() - start
        files = list((scratch / "benchmarks").rglob("*.tsv"))
        cpu = sum(pd.read_csv(f, sep="\t")["cpu_time"].sum() for f in files)
        job_wall = sum(pd.read_csv(f, sep="\t")["s"].sum() for f in files)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "wall_s": wall,
        "benchmarked_jobs": len(files),
        "job_cpu_s": cpu,
        "job_wall_s": job_wall,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-workflow", action="store_true")
    args = parser.parse_args()
    t = ablation_timing()
    print("Ablation evaluation, 8 subsets x 3 alphas x 1024 trials, N_h = 72:")
    print(
        f"  batched (deduplicated) {t['batched']:.3f} s, looped {t['looped']:.3f} s, "
        f"ratio {t['looped'] / t['batched']:.2f}x"
    )
    b = bootstrap_timing()
    print("The same evaluation with each solution's bootstrap (200 resamples):")
    print(
        f"  none {b['none']:.3f} s, from per-trial sums {b['sums']:.3f} s "
        f"({b['sums'] / b['none']:.2f}x), rescored {b['rescored']:.3f} s "
        f"({b['rescored'] / b['none']:.2f}x)"
    )
    c = control_timing()
    print("Subspace control, one model, N_h = 72, 256 trials (s):")
    print(
        f"  one matrix at a time {c[1]:.2f}, chunks of 64 {c[64]:.2f} ({c[1] / c[64]:.2f}x), "
        f"chunks of 256 {c[256]:.2f} ({c[1] / c[256]:.2f}x)"
    )
    if not args.skip_workflow:
        p = parallel_efficiency()
        print(
            f"Quick preset under -c2: wall {p['wall_s']:.1f} s, {p['benchmarked_jobs']} "
            f"benchmarked jobs, CPU {p['job_cpu_s']:.1f} s, job wall {p['job_wall_s']:.1f} s"
        )
        print(
            f"  parallel efficiency (job CPU / (wall x 2)) {p['job_cpu_s'] / (2 * p['wall_s']):.2f}"
        )
        occupancy = p["job_wall_s"] / (2 * p["wall_s"])
        print(f"  job occupancy (job wall / (wall x 2))      {occupancy:.2f}")


if __name__ == "__main__":
    main()
