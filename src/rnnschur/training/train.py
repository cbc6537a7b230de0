"""Training of RNNs on one task, one model or a bundle of seeds as one computation: Adam on the
masked mean squared error of eq. (2)'s output.

Every random draw of a model (initial weights, training batches) comes from its own
``numpy.random.Generator``; on one machine the same seed gives the same weights bit for bit,
alone or in a bundle. A model may instead train on trials drawn once for its task and seed
(:class:`rnnschur.tasks.Trials`, the workflow's ``training_trials`` rule for a NeuroGym task):
batch k is trials kB to (k + 1)B − 1, the same for every network description and N_h.
The loop reads top to bottom: draw a batch, roll out, step, adjust the learning rate and the
curriculum, evaluate now and then on a validation set drawn from the same generator, stop early
at the target score, and score the final weights on the fixed held-out set. The weights at
initialisation and at every validation evaluation are kept as checkpoints, so the ablations can
follow the run ("when training stops").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from rnnschur import tasks
from rnnschur.network import WEIGHT_KEYS
from rnnschur.network.dynamics import DISCRETE, Dynamics
from rnnschur.network.rnn import rollout
from rnnschur.settings.numerics import retain_freed_memory
from rnnschur.tasks.metrics import masked_mean
from rnnschur.training.bptt import loss_and_gradients
from rnnschur.training.constructions import initial_recurrent
from rnnschur.training.optimiser import Adam, Recurrent, clip_grad_norm

LOG_COLUMNS = ("step", "loss", "batch_score", "validation_score", "lr", "horizon")


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
    io_init : initial W_xh and W_hy (see :data:`IO_INITS`).
    hidden_noise : standard deviation of Gaussian noise added to the pre-activation of eq. (1)
        at every training step (never in evaluation); 0: none.
    train_set_batches : None draws a fresh batch every step; an integer draws a fixed training
        set of that many batches once and iterates it, reshuffled every epoch.
    target_mse : stop when the validation mean squared error over the masked entries reaches it
        (checked like ``target_score``; None: not used).
    loss_steps : ``"masked"``: the loss over the task's scored (masked) steps; ``"all"``: over
        every step of a trial (validation and held-out scores keep the task's own steps).
    W_hh_init : ``"construction"``: the construction's initial W_hh; ``"gaussian"``: W_ij ~
        N(0, 1/N_h) (Schuessler et al.'s default, their g = 1); dense constructions only.
    W_hh_gain : the initial W_hh multiplied by this (their g); dense constructions only.
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
    hidden_noise: float = 0.0
    train_set_batches: int | None = None
    target_mse: float | None = None
    loss_steps: str = "masked"
    W_hh_init: str = "construction"
    W_hh_gain: float = 1.0
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


IO_INITS = {
    # name: (distribution, scale of W_xh, scale of W_hy) for N_x inputs and N_h hidden units
    "normal": ("normal", lambda N_x, N_h: N_x**-0.5, lambda N_x, N_h: N_h**-0.5),
    "uniform": ("uniform", lambda N_x, N_h: N_x**-0.5, lambda N_x, N_h: N_h**-0.5),
    "torch_rnn": ("uniform", lambda N_x, N_h: N_h**-0.5, lambda N_x, N_h: N_h**-0.5),
    "oblique": ("normal", lambda N_x, N_h: 1.0, lambda N_x, N_h: 1.0 / N_h),
}
"""Initial W_xh and W_hy. ``normal``: N(0, 1/fan_in) each; ``uniform``: Unif[±fan_in^{-1/2}]
(torch's ``nn.Linear`` default for both); ``torch_rnn``: Unif[±N_h^{-1/2}] for both (torch's
``nn.RNN`` input weights and ``nn.Linear`` readout); ``oblique``: W_xh ~ N(0, 1), W_hy ~ N(0,
1/N_h²), the defaults of Schuessler et al. (2024), their "small output" oblique regime. The scale
is the standard deviation for ``normal`` and the half-width for ``uniform``."""


def _io_weights(
    rng: np.random.Generator, kind: str, N_x: int, N_h: int, N_y: int
) -> tuple[np.ndarray, np.ndarray]:
    """(W_xh, W_hy) drawn as ``IO_INITS[kind]`` says, W_xh first."""
    if kind not in IO_INITS:
        raise ValueError(f"io_init must be one of {sorted(IO_INITS)}, got {kind!r}")
    law, in_scale, out_scale = IO_INITS[kind]
    draw = (
        (lambda s, shape: rng.normal(0.0, s, shape))
        if law == "normal"
        else (lambda s, shape: rng.uniform(-s, s, shape))
    )
    W_xh = draw(in_scale(N_x, N_h), (N_h, N_x))
    W_hy = draw(out_scale(N_x, N_h), (N_y, N_h))
    return W_xh, W_hy


W_HH_INITS = ("construction", "gaussian")


def _initial_W_hh(construction: str, rng: np.random.Generator, n: int, settings: TrainSettings):
    """The initial recurrent parameters: the construction's
    (:func:`rnnschur.training.constructions.initial_recurrent`), or W_ij ~ N(0, 1/N_h) for
    ``W_hh_init="gaussian"``, times ``W_hh_gain``."""
    if settings.W_hh_init not in W_HH_INITS:
        raise ValueError(f"W_hh_init must be one of {W_HH_INITS}, got {settings.W_hh_init!r}")
    if settings.W_hh_init == "construction" and settings.W_hh_gain == 1.0:
        return initial_recurrent(construction, rng, n)
    if construction == "cayley":
        raise ValueError("W_hh_init and W_hh_gain apply to the dense constructions, not cayley")
    if settings.W_hh_init == "gaussian":
        W = rng.normal(0.0, n**-0.5, (n, n))
    else:
        W = initial_recurrent(construction, rng, n)
    return settings.W_hh_gain * W


def fixed_training_set(rng: np.random.Generator, module, params: dict, settings, trials=None):
    """Batches from a training set of ``settings.train_set_batches`` batches drawn once and
    iterated in epochs, its trials reshuffled every epoch from ``rng`` (the paper's "30 epochs
    of 128 batches" read as a finite set): drawn from ``rng`` at the first batch (padded to its
    longest trial), or ``trials`` (:class:`rnnschur.tasks.Trials`, drawn once for the task and
    seed; each batch padded to its own longest trial)."""
    n = settings.train_set_batches * settings.batch_size
    data = module.generate(rng, n, **params) if trials is None else trials
    while True:
        order = rng.permutation(n)
        for start in range(0, n, settings.batch_size):
            pick = order[start : start + settings.batch_size]
            if trials is not None:
                yield trials.take(pick)
            else:
                yield tasks.Batch(data.inputs[pick], data.targets[pick], data.mask[pick])


def training_trials_needed(settings: TrainSettings) -> int:
    """The trials a model trains on: its fixed training set's, or a batch for every step."""
    batches = settings.train_set_batches or settings.max_steps
    return batches * settings.batch_size


def train(
    task: str,
    task_params: dict,
    construction: str,
    n_hidden: int,
    settings: TrainSettings,
    rng: np.random.Generator,
    heldout: tasks.Batch,
    name: str = "model",
    dynamics: Dynamics = DISCRETE,
) -> TrainedModel:
    """Train one RNN of ``n_hidden`` units of the family ``dynamics`` on ``task``: a bundle of
    one (:func:`train_bundle`).

    Nine parameters, not a value object: the training rule's params one for one (task, trial
    settings, construction, N_h, settings, the random stream, held-out set, name, family),
    as :func:`train_bundle` takes them.
    """
    return train_bundle(
        task, task_params, construction, n_hidden, settings, [rng], heldout, [name], dynamics
    )[0]


class _Run:
    """One model of a bundle: its random stream, parameters, optimizer and where its run is
    (curriculum stage, log, checkpoints, the best validation, whether it stopped)."""

    def __init__(self, rng, name, construction, shared: _Shared, trials=None):
        """Draw, in the order a model alone draws them: W_hh, W_xh and W_hy, the validation set;
        the fixed training set (if any) is drawn at its first batch. ``trials``: the training
        trials drawn once (:class:`rnnschur.tasks.Trials`), or None to draw each batch."""
        module, task_params, settings = shared.module, shared.task_params, shared.settings
        n_hidden, as_array = shared.n_hidden, shared.as_array
        self.rng, self.name, self.settings, self.trials = rng, name, settings, trials
        N_x, N_y = module.dims(**task_params)
        self.recurrent = Recurrent(_initial_W_hh(construction, rng, n_hidden, settings), as_array)
        self.W_xh, self.W_hy = map(as_array, _io_weights(rng, settings.io_init, N_x, n_hidden, N_y))
        self.optimizer = Adam([self.W_xh, self.W_hy, *self.recurrent.params])
        self.validation = module.generate(rng, settings.n_validation, **task_params)
        self.fixed_set = (
            fixed_training_set(rng, module, task_params, settings, trials)
            if settings.train_set_batches is not None
            else None
        )
        self.stage, self.log, self.checkpoints = 0, [], []
        self.reached, self.best, self.step, self.done, self.was_final = False, None, 0, False, False

    def weights(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """float64 copies of W_xh, W_hh, W_hy."""
        return tuple(
            _to_numpy(w).astype(np.float64) for w in (self.W_xh, self.recurrent.weight(), self.W_hy)
        )

    def horizon(self):
        curriculum = self.settings.curriculum
        return curriculum[self.stage] if curriculum else None

    def final_stage(self) -> bool:
        return self.stage == len(self.settings.curriculum) - 1 or not self.settings.curriculum


def train_bundle(
    task: str,
    task_params: dict,
    construction: str,
    n_hidden: int,
    settings: TrainSettings,
    rngs: list[np.random.Generator],
    heldout: tasks.Batch,
    names: list[str],
    dynamics: Dynamics = DISCRETE,
    trials: list[tasks.Trials] | None = None,
) -> list[TrainedModel]:
    """Train K RNNs that share the task, construction, size, settings and family and differ
    in their random stream (``rngs``: one per model, e.g. one per seed) as one computation.

    Each model draws from its own stream exactly what it would draw alone (initial weights,
    validation set, training batches, noise), keeps its own Adam state, clipping, curriculum
    stage, early stopping, log and checkpoints; each step runs the models that have not stopped
    as one stacked BPTT (:func:`rnnschur.training.bptt.loss_and_gradients`; models at different
    curriculum horizons as one stack per horizon), whose products and sums are each model's
    own, so every model's weights are the bits it gets trained alone. ``trials`` (one per
    model, or None): the training trials drawn once for its task and seed, in place of batches
    drawn from its stream: batch k at step k + 1, or with ``train_set_batches`` the fixed
    training set (:func:`training_trials_needed` trials at least; no curriculum with them).

    W_xh and W_hy scaled by their fan-in (``settings.io_init``; the paper does not say); W_hh
    from :func:`rnnschur.training.constructions.initial_recurrent`. Loss: mean squared error over
    the masked steps (cross-entropy on the actions for a NeuroGym task, the task's ``LOSS``), in
    float32. Raises :class:`TrainingDiverged`, naming the model, the step and the loss, when a
    loss is not finite or exceeds ``settings.max_loss``.

    Ten parameters, not a value object: the training rule's params one for one (task, trial
    settings, construction, N_h, settings, the random streams, held-out set, names, family,
    training trials); the settings already are one (:class:`TrainSettings`).
    """
    retain_freed_memory()  # each step's arrays reused, not faulted in again (speed only)
    module = tasks.get(task, task_params.get("neurogym"))
    as_array = _array_maker(settings.device)
    if settings.train_set_batches is not None and settings.curriculum:
        raise ValueError(f"{names[0]}: a fixed training set cannot follow a curriculum")
    trials = [None] * len(rngs) if trials is None else trials
    needed = training_trials_needed(settings)
    for name, drawn in zip(names, trials, strict=True):
        if drawn is not None and settings.curriculum:
            raise ValueError(f"{name}: trials drawn once cannot follow a curriculum")
        if drawn is not None and len(drawn.lengths) < needed:
            raise ValueError(f"{name}: {len(drawn.lengths)} training trials, {needed} needed")
    if settings.loss_steps not in ("masked", "all"):
        raise ValueError(f"loss_steps must be 'masked' or 'all', got {settings.loss_steps!r}")
    sign = 1.0 if module.HIGHER_IS_BETTER else -1.0
    shared = _Shared(
        module,
        task_params,
        settings,
        dynamics,
        as_array,
        dynamics.drive_noise(settings.hidden_noise),
        getattr(module, "LOSS", "mse"),  # cross-entropy for a NeuroGym task
        n_hidden,
    )

    def evaluate(batch: tasks.Batch, weights: tuple[np.ndarray, ...]) -> tuple[float, float]:
        """(score, masked mean squared error) of one rollout."""
        outputs = rollout(*weights, batch.inputs, dynamics=dynamics)
        mse = masked_mean((outputs - batch.targets) ** 2, batch.mask)
        return float(module.score(outputs, batch)), float(mse)

    runs, start = [], time.perf_counter()
    for rng, name, drawn in zip(rngs, names, trials, strict=True):
        run = _Run(rng, name, construction, shared, drawn)
        initial = run.weights()
        run.checkpoints.append((0, evaluate(run.validation, initial)[0], initial))
        runs.append(run)

    for step in range(1, settings.max_steps + 1):
        active = [run for run in runs if not run.done]
        if not active:
            break
        lr = settings.lr
        if settings.lr_halve_every:
            lr = max(settings.lr * 0.5 ** ((step - 1) // settings.lr_halve_every), settings.lr_min)
        by_horizon: dict = {}
        for run in active:
            by_horizon.setdefault(run.horizon(), []).append(run)
        for horizon, group in by_horizon.items():
            _step_group(group, horizon, lr, step, shared)
        for run in active:
            score = math.nan
            if step % settings.eval_every == 0 or step == settings.max_steps:
                current = run.weights()
                score, mse = evaluate(run.validation, current)
                run.checkpoints.append((step, score, current))
                if run.best is None or sign * score > sign * run.best[1]:
                    run.best = (step, score, current)
                run.reached = run.was_final and (
                    (
                        settings.target_score is not None
                        and sign * score >= sign * settings.target_score
                    )
                    or (settings.target_mse is not None and mse <= settings.target_mse)
                )
            run.log[-1] = (*run.log[-1][:3], score, *run.log[-1][4:])
            if run.reached:
                run.done = True

    wall = time.perf_counter() - start
    trained = []
    for run in runs:
        weights = _kept(run, settings)
        score = evaluate(heldout, weights)[0]
        bundle = {"wall_seconds": wall, "bundle_size": len(runs)}
        trained.append(_trained(run, weights, score, shared, bundle))
    return trained


@dataclass(frozen=True)
class _Shared:
    """What every model of a bundle shares: the task's module and parameters, the settings,
    the family, how arrays are made, the drive noise's scale, the loss and N_h."""

    module: object
    task_params: dict
    settings: TrainSettings
    dynamics: Dynamics
    as_array: object
    noise_scale: float
    loss: str
    n_hidden: int


def _step_group(group: list[_Run], horizon, lr: float, step: int, shared: _Shared) -> None:
    """One optimisation step of the models of ``group`` (one curriculum horizon): each draws
    its batch (and noise); the models whose batches have the same length are one stack (a
    NeuroGym env's trials are padded to the longest of each batch, so its batches differ in
    length from model to model), whose stacked BPTT gives each its loss and gradients; each
    clips and steps its own Adam, advances its curriculum and logs the step."""
    module, settings, as_array = shared.module, shared.settings, shared.as_array
    batch_params = dict(shared.task_params)
    if horizon is not None:
        batch_params[module.CURRICULUM_PARAM] = horizon
    by_length: dict = {}
    for run in group:
        run.step = step
        if run.fixed_set is not None:
            batch = next(run.fixed_set)
        elif run.trials is not None:
            batch = run.trials.batch((step - 1) * settings.batch_size, step * settings.batch_size)
        else:
            batch = module.generate(run.rng, settings.batch_size, **batch_params)
        loss_mask = batch.mask if settings.loss_steps == "masked" else np.ones_like(batch.mask)
        x, y, mask = (as_array(a.swapaxes(0, 1)) for a in (batch.inputs, batch.targets, loss_mask))
        noise = None
        if settings.hidden_noise:
            shape = (*x.shape[:2], shared.n_hidden)
            noise = as_array(shared.noise_scale * run.rng.standard_normal(shape))
        by_length.setdefault(tuple(x.shape), []).append((run, batch, x, y, mask, noise))
    for drawn in by_length.values():
        _step_stack(drawn, horizon, lr, step, shared)


def _step_stack(drawn: list, horizon, lr: float, step: int, shared: _Shared) -> None:
    """The stacked BPTT step of models whose batches are drawn (``(run, batch, x, y, mask,
    noise)`` each, batches of one length), then each model's own update and log."""
    module, settings = shared.module, shared.settings
    sign = 1.0 if module.HIGHER_IS_BETTER else -1.0
    group = [d[0] for d in drawn]
    stack = _stacker(drawn[0][2])
    noises = [d[5] for d in drawn if d[5] is not None]
    values, y_hat, grads = loss_and_gradients(
        stack([d[2] for d in drawn]),
        stack([d[3] for d in drawn]),
        stack([d[4] for d in drawn]),
        stack([run.W_xh for run in group]),
        stack([run.recurrent.weight() for run in group]),
        stack([run.W_hy for run in group]),
        shared.dynamics,
        stack(noises) if noises else None,
        shared.loss,
    )
    for k, (run, batch, *_) in enumerate(drawn):
        if not values[k] <= settings.max_loss:  # also catches NaN
            raise TrainingDiverged(
                f"training of {run.name} diverged: loss {values[k]} at step {step} (lr {lr:g})"
            )
        g_xh, g_hh, g_hy = (g[k] for g in grads)
        model_grads = [g_xh, g_hy, *run.recurrent.gradients(g_hh)]
        if settings.clip_grad_norm is not None:
            clip_grad_norm(model_grads, settings.clip_grad_norm)
        run.optimizer.step(model_grads, lr)
        own = _to_numpy(y_hat[k])
        batch_score = float(module.score(np.ascontiguousarray(own).swapaxes(0, 1), batch))
        run.was_final = run.final_stage()  # the stage this step trained in decides its stop
        if not run.was_final and sign * batch_score >= sign * settings.curriculum_threshold:
            run.stage += 1
        run.log.append((step, values[k], batch_score, math.nan, lr, horizon if horizon else -1))


def _kept(run: _Run, settings: TrainSettings) -> tuple[np.ndarray, ...]:
    """The weights a finished run returns (the best validated with ``keep_best``), finite."""
    weights = run.best[2] if settings.keep_best else run.weights()
    if not all(np.all(np.isfinite(w)) for w in weights):
        raise TrainingDiverged(
            f"training of {run.name} ended with non-finite weights at step {run.step}"
        )
    return weights


def _trained(run: _Run, weights, heldout_score, shared: _Shared, bundle: dict) -> TrainedModel:
    """The :class:`TrainedModel` of one finished run: its kept ``weights`` and their held-out
    score, its log, summary (with the ``bundle``'s wall time and size) and checkpoints."""
    module, settings = shared.module, shared.settings
    summary = {
        "steps": run.step,
        "reached_target": bool(run.reached),
        "final_loss": run.log[-1][1],
        f"heldout_{module.SCORE}": heldout_score,
        "best_step": run.best[0],
        f"best_validation_{module.SCORE}": run.best[1],
        "kept_best": settings.keep_best,
        **bundle,
    }
    checkpoints = run.checkpoints
    stacked = {
        "step": np.array([c[0] for c in checkpoints]),
        "validation_score": np.array([c[1] for c in checkpoints]),
        **{key: np.stack([c[2][i] for c in checkpoints]) for i, key in enumerate(WEIGHT_KEYS)},
    }
    return TrainedModel(*weights, run.log, summary, stacked)


def _stacker(example):
    """``stack(arrays)`` (a new leading axis) for NumPy arrays or torch tensors, like
    ``example``."""
    if isinstance(example, np.ndarray):
        return np.stack
    import torch

    return torch.stack


def _array_maker(device: str):
    """float32 arrays of the training computation: NumPy on the CPU, torch tensors elsewhere."""
    if device == "cpu":
        return lambda a: np.ascontiguousarray(a, dtype=np.float32)
    import torch

    return lambda a: torch.tensor(np.ascontiguousarray(a), dtype=torch.float32, device=device)


def _to_numpy(array) -> np.ndarray:
    return array if isinstance(array, np.ndarray) else array.detach().cpu().numpy()
