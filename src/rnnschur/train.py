"""Training of one RNN on one task: Adam on the masked mean squared error of eq. (2)'s output.

Every random draw (initial weights, training batches) comes from one ``numpy.random.Generator``;
on one machine the same seed gives the same weights bit for bit. The loop reads top to bottom:
draw a batch, roll out, step, adjust the learning rate and the curriculum, evaluate now and then
on a validation set drawn from the same generator, stop early at the target score, and score
the final weights on the fixed held-out set. The weights at initialisation and at every validation
evaluation are kept as checkpoints, so the ablations can follow the run ("when training stops").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch

from rnnschur import tasks
from rnnschur.constructions import CayleyParams, cayley_weight, initial_recurrent
from rnnschur.rnn import hidden_states, rollout

LOG_COLUMNS = ("step", "loss", "batch_score", "validation_score", "lr", "horizon")
WEIGHT_KEYS = ("W_xh", "W_hh", "W_hy")


class TrainingDiverged(RuntimeError):
    """The loss or the weights became NaN or infinite."""


@dataclass(frozen=True)
class TrainSettings:
    """Optimisation settings (config key ``tasks.<task>.training``).

    lr : Adam learning rate; halved every ``lr_halve_every`` steps (None: constant), not below
        ``lr_min``.
    batch_size, max_steps : batch size and step budget.
    clip_grad_norm : clip the global gradient norm to this value (None: no clipping).
    eval_every : steps between evaluations on the validation set.
    n_validation : trials in the validation set, drawn from the model's own generator: it
        decides early stopping and ``keep_best``; the held-out set only reports.
    target_score : stop when the validation score reaches it (None: run the whole budget).
    curriculum : training horizons (the task's ``CURRICULUM_PARAM``), advanced when the batch
        score reaches ``curriculum_threshold``; empty: always the task's own setting.
    keep_best : return the weights of the best validation evaluation instead of the last ones
        (a guard against a late loss spike; off in the paper's setting).
    max_loss : a loss above it (or a non-finite one) counts as divergence.
    io_init : initial W_xh and W_hy: ``"normal"``, N(0, 1/fan_in), or ``"uniform"``,
        Unif[−fan_in^{-1/2}, fan_in^{-1/2}] (torch's ``nn.Linear`` default).
    device : torch device of the training computation.
    """

    lr: float
    batch_size: int
    max_steps: int
    clip_grad_norm: float | None = None
    lr_halve_every: int | None = None
    lr_min: float = 0.0
    eval_every: int = 200
    n_validation: int = 512
    target_score: float | None = None
    curriculum: tuple[int, ...] = ()
    curriculum_threshold: float = 0.99
    keep_best: bool = False
    max_loss: float = 1e4
    io_init: str = "normal"
    device: str = "cpu"


@dataclass(frozen=True)
class TrainedModel:
    """Trained weights (float64 copies of the float32 parameters), the training log (rows of
    ``LOG_COLUMNS``), a summary of the run and the checkpoints: ``step`` (0 for the initial
    weights, then every validation step), ``validation_score`` and the stacks ``W_xh``, ``W_hh``,
    ``W_hy`` with one matrix per checkpoint."""

    W_xh: np.ndarray
    W_hh: np.ndarray
    W_hy: np.ndarray
    log: list[tuple]
    summary: dict
    checkpoints: dict[str, np.ndarray]


class _Recurrent(torch.nn.Module):
    """W_hh as a trained matrix (dense constructions) or as O(A) D O(A)ᵀ (Cayley)."""

    def __init__(self, init: np.ndarray | CayleyParams):
        super().__init__()
        as_param = lambda a: torch.nn.Parameter(torch.tensor(a, dtype=torch.float32))  # noqa: E731
        self.cayley = isinstance(init, CayleyParams)
        if self.cayley:
            self.A, self.d_real, self.d_pair = (
                as_param(init.A),
                as_param(init.d_real),
                as_param(init.d_pair),
            )
        else:
            self.W = as_param(init)

    def forward(self) -> torch.Tensor:
        return cayley_weight(self.A, self.d_real, self.d_pair) if self.cayley else self.W


def _io_weight(rng: np.random.Generator, kind: str, shape: tuple[int, int], device) -> torch.Tensor:
    """An input or readout matrix scaled by its fan-in (``shape[1]``)."""
    scale = shape[1] ** -0.5
    if kind == "normal":
        values = rng.normal(0.0, scale, shape)
    elif kind == "uniform":
        values = rng.uniform(-scale, scale, shape)
    else:
        raise ValueError(f"io_init must be 'normal' or 'uniform', got {kind!r}")
    return torch.tensor(values, dtype=torch.float32, device=device)


def train(
    task: str,
    task_params: dict,
    construction: str,
    n_hidden: int,
    settings: TrainSettings,
    rng: np.random.Generator,
    heldout: tasks.Batch,
    name: str = "model",
) -> TrainedModel:
    """Train one RNN of ``n_hidden`` units on ``task``.

    W_xh and W_hy scaled by their fan-in (``settings.io_init``; the paper does not say); W_hh from
    :func:`rnnschur.constructions.initial_recurrent`. Loss: mean squared error over the masked
    steps. Raises :class:`TrainingDiverged`, naming ``name``, the step and the loss, when the
    loss is not finite or exceeds ``settings.max_loss``.
    """
    module = tasks.get(task)
    N_x, N_y = module.dims(**task_params)
    device = torch.device(settings.device)
    recurrent = _Recurrent(initial_recurrent(construction, rng, n_hidden)).to(device)
    W_xh = torch.nn.Parameter(_io_weight(rng, settings.io_init, (n_hidden, N_x), device))
    W_hy = torch.nn.Parameter(_io_weight(rng, settings.io_init, (N_y, n_hidden), device))
    params = [W_xh, W_hy, *recurrent.parameters()]
    optimizer = torch.optim.Adam(params, lr=settings.lr)
    sign = 1.0 if module.HIGHER_IS_BETTER else -1.0

    def as_numpy() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        with torch.no_grad():
            return tuple(t.detach().cpu().double().numpy() for t in (W_xh, recurrent(), W_hy))

    def score_on(batch: tasks.Batch, weights: tuple[np.ndarray, ...]) -> float:
        return float(module.score(rollout(*weights, batch.inputs), batch))

    validation = module.generate(rng, settings.n_validation, **task_params)
    initial = as_numpy()
    checkpoints = [(0, score_on(validation, initial), initial)]

    stage, log, reached, best, start = 0, [], False, None, time.perf_counter()
    for step in range(1, settings.max_steps + 1):
        lr = settings.lr
        if settings.lr_halve_every:
            lr = max(settings.lr * 0.5 ** ((step - 1) // settings.lr_halve_every), settings.lr_min)
        for group in optimizer.param_groups:
            group["lr"] = lr
        horizon = settings.curriculum[stage] if settings.curriculum else None
        batch_params = dict(task_params)
        if horizon is not None:
            batch_params[module.CURRICULUM_PARAM] = horizon
        batch = module.generate(rng, settings.batch_size, **batch_params)
        to_torch = lambda a: torch.tensor(a.swapaxes(0, 1), dtype=torch.float32, device=device)  # noqa: E731
        x, y, mask = to_torch(batch.inputs), to_torch(batch.targets), to_torch(batch.mask)

        H = hidden_states(x, W_xh, recurrent())
        y_hat = H @ W_hy.T
        loss = (((y_hat - y) ** 2).sum(-1) * mask).sum() / (mask.sum() * N_y)
        loss_value = loss.item()
        if not loss_value <= settings.max_loss:  # also catches NaN
            raise TrainingDiverged(
                f"training of {name} diverged: loss {loss_value} at step {step} (lr {lr:g})"
            )
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if settings.clip_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(params, settings.clip_grad_norm)
        optimizer.step()

        batch_score = float(
            module.score(y_hat.detach().cpu().double().numpy().swapaxes(0, 1), batch)
        )
        final_stage = stage == len(settings.curriculum) - 1 or not settings.curriculum
        if not final_stage and sign * batch_score >= sign * settings.curriculum_threshold:
            stage += 1
        score = math.nan
        if step % settings.eval_every == 0 or step == settings.max_steps:
            current = as_numpy()
            score = score_on(validation, current)
            checkpoints.append((step, score, current))
            if best is None or sign * score > sign * best[1]:
                best = (step, score, current)
            reached = (
                settings.target_score is not None
                and final_stage
                and sign * score >= sign * settings.target_score
            )
        log.append((step, loss_value, batch_score, score, lr, horizon if horizon else -1))
        if reached:
            break

    weights = best[2] if settings.keep_best else as_numpy()
    if not all(np.all(np.isfinite(w)) for w in weights):
        raise TrainingDiverged(f"training of {name} ended with non-finite weights at step {step}")
    final = score_on(heldout, weights)
    summary = {
        "steps": step,
        "reached_target": bool(reached),
        "final_loss": loss_value,
        f"heldout_{module.SCORE}": final,
        "best_step": best[0],
        f"best_validation_{module.SCORE}": best[1],
        "kept_best": settings.keep_best,
        "wall_seconds": time.perf_counter() - start,
    }
    stacked = {
        "step": np.array([c[0] for c in checkpoints]),
        "validation_score": np.array([c[1] for c in checkpoints]),
        **{key: np.stack([c[2][i] for c in checkpoints]) for i, key in enumerate(WEIGHT_KEYS)},
    }
    return TrainedModel(*weights, log, summary, stacked)
