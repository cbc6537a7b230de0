"""Tasks from NeuroGym (Molano-Mazón et al.): one adapter, the only place a NeuroGym env is
seen; nothing past it sees anything but a :class:`rnnschur.tasks.Batch`.

A config block ``tasks.<name>.neurogym: {env: <id>, kwargs: {...}}`` makes ``<name>`` a task.
The workflow checks the env and its kwargs before any job starts and passes every such task to
the jobs in the environment variable :data:`SPECS_VARIABLE` (with its N_x and N_y), like the
kernel settings, so that an analysis job knows the task without importing NeuroGym (gymnasium,
scipy and matplotlib: a second or two). Trials are drawn by :mod:`rnnschur.neurogym_trials`
(data and training jobs only), which registers itself here as :data:`TRIAL_SOURCE`.

Per trial: inputs the env's observations; targets one-hot over its actions (N_y = number of
actions); the mask marks the steps of its response periods (:data:`RESPONSE_PERIODS`, read from
each trial's periods); trials padded to the longest of the set, padding unscored and with
all-zero targets. Score ``choice``: the chance-corrected choice on the response periods
(:func:`choice_score`: Cohen's κ of the argmax of the outputs against the actions), so that a
constant output, always fixating or always one action, scores exactly 0 on every env, and a
perfect one 1. NeuroGym's own per-trial correctness (``info["performance"]``, decided when
the agent answers) is reported beside it by the training job
(:func:`rnnschur.neurogym_trials.trial_performance`), not used for verdicts: a constant answer
passes about half of it in the two-choice envs, and a perfect GoNogo network gets only the go
trials. Loss in
training: cross-entropy on the actions over every step of a trial (padding excluded), as
NeuroGym's own examples train (fixation is an action too).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

SPECS_VARIABLE = "RNNSCHUR_NEUROGYM_TASKS"
RESPONSE_PERIODS = ("decision", "production", "test1", "test2")
"""The periods in which an env expects its answer: ``decision`` in most envs, ``production`` in
ReadySetGo and MotorTiming, ``test1`` and ``test2`` in DualDelayMatchSample."""
TRIAL_SOURCE: Callable | None = None
"""draw(rng, n, env, kwargs) -> Batch, set by :mod:`rnnschur.neurogym_trials` when imported."""


def specs() -> dict[str, dict]:
    """{name: {"env", "kwargs", "dims"}} of the NeuroGym tasks of this run (none outside one)."""
    return json.loads(os.environ.get(SPECS_VARIABLE, "{}"))


def choice_score(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The chance-corrected choice on the masked steps: Cohen's κ of the argmax of the outputs
    against the actions, (p_o − p_e) / (1 − p_e), with p_o the fraction of masked steps chosen
    right and p_e = Σ_a p_target(a) p_chosen(a) the fraction a choice independent of the trial
    would get right. A constant output, always fixating or always one action, has p_o = p_e: it
    scores exactly 0; a perfect one 1. A plain hit rate would not fail: in ReadySetGo the "go"
    is one step of a 16–30-step production period, and a network that never goes hits about
    95 % of them. ``outputs`` may have leading model axes (..., n, T, N_y); NaN where the
    targets hold a single action (nothing to tell apart)."""
    chosen = np.argmax(outputs, axis=-1)
    truth = np.argmax(targets, axis=-1)
    weight = mask / mask.sum()
    if len(np.unique(truth[mask > 0])) < 2:
        return np.full(outputs.shape[:-3], np.nan)
    p_o = ((chosen == truth) * weight).sum(axis=(-2, -1))
    p_e = sum(
        ((truth == a) * weight).sum() * ((chosen == a) * weight).sum(axis=(-2, -1))
        for a in range(targets.shape[-1])
    )
    return (p_o - p_e) / (1.0 - p_e)


@dataclass(frozen=True)
class NeurogymTask:
    """A NeuroGym env as a task with the interface of a task module."""

    name: str
    env: str
    kwargs: dict
    n_inputs: int
    n_actions: int

    SCORE = "choice"
    HIGHER_IS_BETTER = True
    CURRICULUM_PARAM = None
    PARAMETERS: ClassVar[dict | None] = None  # no generator settings: the env's kwargs do
    LOSS = "cross_entropy"

    def dims(self, **_) -> tuple[int, int]:
        return self.n_inputs, self.n_actions

    def generate(self, rng: np.random.Generator, n: int, **_):
        if TRIAL_SOURCE is None:
            raise RuntimeError(
                f"task {self.name}: NeuroGym trials are drawn by the data and training jobs "
                "(import rnnschur.neurogym_trials first; it needs the neurogym package)"
            )
        return TRIAL_SOURCE(rng, n, self.env, self.kwargs)

    def score(self, outputs: np.ndarray, batch) -> np.ndarray:
        return choice_score(outputs, batch.targets, batch.mask)


def task(name: str) -> NeurogymTask | None:
    """The NeuroGym task ``name`` of this run, or None."""
    spec = specs().get(name)
    if spec is None:
        return None
    N_x, N_y = spec["dims"]
    return NeurogymTask(name, spec["env"], spec.get("kwargs", {}), N_x, N_y)
