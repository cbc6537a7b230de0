"""How each stage's cost grows with N_h, and what a grid of 1,000 models would cost.

For the copy task (s = d = 8, 128 lags: T = 136, 1024 held-out trials) at N_h in {64, 128, 256,
512}, one thread, on a random recurrent matrix with a trained model's kind of spectrum (an
orthogonal matrix scaled by 1.05 plus a Gaussian part: many moduli tied near ρ, like the trained
dense models): one training step (batch 64, the training's BPTT, clipping and Adam; for the
dense constructions and for Cayley, whose step adds the map and its autograd), the ordered real
Schur form, one full
ablation evaluation (8 subsets x 3 alphas) and each beyond-the-paper analysis with the paper
config's settings. Each cost is fitted as c · N_h^p over the sizes measured; the projection for
1,000 models uses the measured per-model costs at N_h = 72 (interpolated by the fit) and the
paper config's step counts, on 2 cores and on a 100-node cluster through profiles/slurm (whose
groups bundle each model's short jobs: the wall time there is the longest chain, training then
its analyses, once the 1,000 models are spread over the nodes). Last, the projected cost of
presets/scale.yaml (its sizes, constructions and seeds; each model at ``--steps`` training
steps, the copy task's typical count at N_h = 72, and at its step budget as the bound).

Usage: OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python bench/bench_scaling.py [--sizes 64 128 ...]
           [--steps 6000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import yaml

from rnnschur import tasks
from rnnschur.ablation import Analysed, Scoring, evaluate_ablations
from rnnschur.network import Network
from rnnschur.network.dynamics import DISCRETE
from rnnschur.network.rnn import rollout
from rnnschur.schur import ordered_real_schur
from rnnschur.settings.numerics import retain_freed_memory
from rnnschur.studies.beyond import basis, refit, subspace
from rnnschur.studies.beyond.along_training import evaluate_checkpoints
from rnnschur.training.bptt import loss_and_gradients
from rnnschur.training.constructions import initial_recurrent
from rnnschur.training.optimiser import Adam, Recurrent, clip_grad_norm

REPO = Path(__file__).resolve().parents[1]

COPY = tasks.get("copy")
ALPHAS = [0.85, 0.9, 0.95]
TRAINING_STEPS = 6000  # a typical copy run at N_h = 72 (MEASURED: 4.4k-7k steps)
CHECKPOINTS = 9  # milestones reached + first/best/last checkpoints of a copy run


def timed(fn, repeat: int = 1) -> float:
    """Best wall time of ``repeat`` calls (seconds)."""
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def model(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    W_hh = 1.05 * Q + 0.3 * rng.standard_normal((n, n)) / np.sqrt(n)
    W_xh = rng.uniform(-1, 1, (n, 8)) / np.sqrt(8)
    W_hy = rng.uniform(-1, 1, (8, n)) / np.sqrt(n)
    return W_xh, W_hh, W_hy


def training_step(rng: np.random.Generator, n: int, construction: str) -> float:
    """Seconds of one training step as :func:`rnnschur.training.train.train` takes it (no batch
    drawing)."""
    batch = COPY.generate(rng, 64)
    x, y, mask = (
        np.ascontiguousarray(a.swapaxes(0, 1), np.float32)
        for a in (batch.inputs, batch.targets, batch.mask)
    )
    as_array = lambda a: np.ascontiguousarray(a, np.float32)  # noqa: E731
    W_xh, _, W_hy = map(as_array, model(rng, n))
    init = model(rng, n)[1] if construction != "cayley" else initial_recurrent("cayley", rng, n)
    recurrent = Recurrent(init, as_array)
    optimizer = Adam([W_xh, W_hy, *recurrent.params])

    def step():
        _, _, (g_xh, g_hh, g_hy) = loss_and_gradients(
            x[None],
            y[None],
            mask[None],
            W_xh[None],
            recurrent.weight()[None],
            W_hy[None],
            DISCRETE,
        )  # a stack of one model
        grads = [g_xh[0], g_hy[0], *recurrent.gradients(g_hh[0])]
        clip_grad_norm(grads, 1.0)
        optimizer.step(grads, 1e-3)

    step()
    return timed(step, repeat=5)


def costs(n: int) -> dict[str, float]:
    rng = np.random.default_rng(n)
    W_xh, W_hh, W_hy = model(rng, n)
    heldout = COPY.generate(rng, 1024)
    schur = ordered_real_schur(W_hh)
    network = Network(W_xh, W_hh, W_hy)
    out = {
        "train_step": training_step(rng, n, "dense_orthogonal"),
        "train_step_cayley": training_step(rng, n, "cayley"),
    }
    out["schur"] = timed(lambda: ordered_real_schur(W_hh), repeat=3)
    out["ablate"] = timed(
        lambda: evaluate_ablations(Analysed(network, schur, heldout, COPY), ALPHAS)
    )
    controls = tasks.Batch(heldout.inputs[:256], heldout.targets[:256], heldout.mask[:256])

    def subspace_control():
        _, hidden = rollout(W_xh, W_hh, W_hy, controls.inputs, return_hidden=True)
        axes, ratio = subspace.principal_axes(hidden)
        k = subspace.components_for_variance(ratio, 0.9)
        spaces = {
            "top_pcs": axes[:, :8],
            "variance_pcs": axes[:, :k],
            "readout": subspace.readout_subspace(W_hy),
        }
        subspace.evaluate_controls(
            Analysed(network, schur, controls, COPY), 0.9, spaces, 2, np.random.default_rng(0)
        )

    out["subspace_control"] = timed(subspace_control)
    fitting = COPY.generate(rng, 512)
    out["readout_refit"] = timed(
        lambda: refit.evaluate_refits(
            Analysed(network, schur, heldout, COPY), 0.9, fitting, 0.25, [1e-6, 1e-4, 1e-2]
        )
    )
    E = basis.perturbations(np.random.default_rng(1), W_hh, 1e-8, 5)
    out["basis_sensitivity"] = timed(lambda: basis.sensitivity_rows(W_hh, schur, 0.9, E))
    stack = {
        "step": np.arange(CHECKPOINTS),
        "validation_score": np.linspace(0.6, 0.99, CHECKPOINTS),
        "W_xh": np.stack([W_xh] * CHECKPOINTS),
        "W_hh": np.stack([W_hh + 1e-3 * k * np.eye(n) for k in range(CHECKPOINTS)]),
        "W_hy": np.stack([W_hy] * CHECKPOINTS),
    }
    selected = [(k, [("step", k)]) for k in range(CHECKPOINTS)]
    out["checkpoint_ablation"] = timed(
        lambda: evaluate_checkpoints(stack, selected, 0.9, heldout, COPY, Scoring())
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128, 256, 512])
    parser.add_argument("--steps", type=int, default=TRAINING_STEPS)
    args = parser.parse_args()
    torch.set_num_threads(1)
    retain_freed_memory()  # as training does
    table = {n: costs(n) for n in args.sizes}
    stages = list(table[args.sizes[0]])
    print("Cost per model, one thread (s):")
    print("stage".ljust(20) + "".join(f"{n:>10d}" for n in args.sizes) + "   exponent p")
    fits = {}
    for stage in stages:
        values = np.array([table[n][stage] for n in args.sizes])
        p, log_c = np.polyfit(np.log(args.sizes), np.log(values), 1)
        fits[stage] = (np.exp(log_c), p)
        row = "".join(f"{v:10.4f}" for v in values)
        print(f"{stage:20s}{row}   {p:6.2f}")
    at72 = {stage: c * 72**p for stage, (c, p) in fits.items()}
    per_model = {
        "train": at72["train_step"] * TRAINING_STEPS,
        "post": sum(v for k, v in at72.items() if not k.startswith("train_step")),
    }
    total = per_model["train"] + per_model["post"]
    print(
        f"Per copy model at N_h = 72 (fit): training {per_model['train']:.0f} s "
        f"({TRAINING_STEPS} steps), Schur + ablation + beyond {per_model['post']:.1f} s"
    )
    print("1,000 such models (job CPU; add ~1-4 s of start-up per job):")
    print(f"  2 cores:                {1000 * total / 2 / 3600:.1f} h")
    print(
        f"  100 nodes (SLURM profile, one model's chain per node at a time): "
        f"{10 * total / 3600:.2f} h"
    )
    scale_projection(fits, args.steps)


def scale_projection(fits: dict, steps: int) -> None:
    """Projected CPU time of presets/scale.yaml from the fitted costs: every model at ``steps``
    training steps and at the preset's step budget, then the stages the preset runs (Schur and
    ablation; the beyond-the-paper analyses too unless ``beyond_models: none``)."""
    preset = yaml.safe_load((REPO / "presets" / "scale.yaml").read_text())
    config = yaml.safe_load((REPO / "config.yaml").read_text())["tasks"]["copy"]
    copy = preset["tasks"]["copy"]
    budget = {**config["training"], **copy.get("training", {})}["max_steps"]
    n_seeds = len(copy.get("seeds", config["seeds"]))
    after = ["schur", "ablate"]
    if preset.get("beyond_models") != "none":
        after += [k for k in fits if k not in after and not k.startswith("train_step")]
    cost = lambda stage, n: fits[stage][0] * n ** fits[stage][1]  # noqa: E731
    print(f"presets/scale.yaml ({n_seeds} seeds per size and construction; {', '.join(after)}):")
    print("N_h".ljust(6) + "construction".ljust(18) + f"{steps:>8d} steps{budget:>8d} steps (h)")
    totals = np.zeros(2)
    for n in copy["sizes"]:
        post = sum(cost(k, n) for k in after)
        for construction in copy["constructions"]:
            stage = "train_step_cayley" if construction == "cayley" else "train_step"
            hours = n_seeds * (np.array([steps, budget]) * cost(stage, n) + post) / 3600
            totals += hours
            print(f"{n:<6d}{construction:18s}{hours[0]:14.2f}{hours[1]:14.2f}")
    halves = totals / 2
    print(f"total on 2 cores: {halves[0]:.1f} h ({steps} steps), {halves[1]:.1f} h (budget)")


if __name__ == "__main__":
    main()
