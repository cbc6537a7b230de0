"""What a score means in a task's own terms, beside the FVU the paper reports.

An FVU is variance lost; a reader of the flip-flop wants the bits it gets wrong, of the
context task the decisions, of the sine task the frequency. Each function takes outputs with
leading model axes (..., n, time, N_y), like :mod:`rnnschur.tasks.metrics`; :func:`of` names the one
a task is read by.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np

from rnnschur.tasks.metrics import replay_accuracy


def _weights(targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The mask per entry (n, time, N_y), 0 where the target is 0 (no bit, no decision)."""
    weight = np.broadcast_to(mask[..., None] if mask.ndim == 2 else mask, targets.shape)
    return weight * (targets != 0)


def sign_accuracy(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The flip-flop's bits: the rate at which sgn(ŷ) equals the ±1 target over the masked
    entries whose target is not 0 (eq. 6 on the held bits).

    Parameters
    ----------
    outputs : (..., n, time, N_y) ndarray
        ŷ, with leading model axes (a stack of ablated networks).
    targets : (n, time, N_y) ndarray
        y.
    mask : (n, time) or (n, time, N_y) ndarray
        1 where scored.

    Returns
    -------
    ndarray
        Shape (...).
    """
    weight = _weights(targets, mask)
    return ((np.sign(outputs) == targets) * weight).sum(axis=(-3, -2, -1)) / weight.sum()


def decision_accuracy(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The context task's decisions: per trial, whether the sign of the mean output over its
    scored steps of nonzero target (the decision period) is the target's sign; the rate over
    the trials that have such steps (eq. 6 on one decision per trial).

    Parameters
    ----------
    outputs : (..., n, time, N_y) ndarray
        ŷ, with leading model axes (a stack of ablated networks).
    targets : (n, time, N_y) ndarray
        y.
    mask : (n, time) or (n, time, N_y) ndarray
        1 where scored.

    Returns
    -------
    ndarray
        Shape (...).
    """
    weight = _weights(targets, mask)
    decided = weight.sum(axis=(-2, -1)) > 0
    said = np.sign((outputs * weight).sum(axis=(-2, -1))[..., decided])
    return (said == np.sign((targets * weight).sum(axis=(-2, -1))[decided])).mean(axis=-1)


FREQUENCY_GRID = np.arange(0.005, 0.5, 0.0025)
"""The frequencies (cycles per step) :func:`dominant_frequency` searches."""


def dominant_frequency(signal: np.ndarray, grid: np.ndarray = FREQUENCY_GRID) -> np.ndarray:
    """The frequency of ``grid`` with the most power in each trial's signal, its mean removed:
    argmax_f |Σ_t (y_t − ȳ) e^{−2πi f t}|².

    Parameters
    ----------
    signal : (..., n, time, 1) ndarray
    grid : ndarray
        Cycles per step.

    Returns
    -------
    (..., n) ndarray
    """
    y = signal[..., 0] - signal[..., 0].mean(axis=-1, keepdims=True)
    basis = np.exp(-2j * np.pi * np.outer(np.arange(y.shape[-1]), grid))
    return grid[np.argmax(np.abs(y @ basis), axis=-1)]


def frequency_error(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The sine task's frequency: the mean over trials of |f̂(ŷ) − f̂(y)| / f̂(y), the relative
    error of the output's dominant frequency against the target's (the same grid for both: 0
    for a perfect output), beside its FVU (eq. 7). Every step counts (the sine task scores
    every step).

    Parameters
    ----------
    outputs : (..., n, time, N_y) ndarray
        ŷ, with leading model axes (a stack of ablated networks).
    targets : (n, time, N_y) ndarray
        y.
    mask : (n, time) or (n, time, N_y) ndarray
        1 where scored.

    Returns
    -------
    ndarray
        Shape (...).
    """
    wanted = dominant_frequency(targets)
    return (np.abs(dominant_frequency(outputs) - wanted) / wanted).mean(axis=-1)


FUNCTIONAL: dict[str, tuple[str, Callable]] = {
    "copy": ("replay accuracy", replay_accuracy),
    "flip_flop": ("bit accuracy", sign_accuracy),
    "context_integration": ("decision accuracy", decision_accuracy),
    "sine": ("frequency error", frequency_error),
}
"""The paper's tasks, by generator module: the name of their functional score and its
function (outputs, targets, mask)."""


def of(task: ModuleType) -> tuple[str, Callable] | None:
    """The functional score a task is read by, beside eq. 6 or 7.

    Parameters
    ----------
    task : module
        A task's generator module.

    Returns
    -------
    tuple of (str, callable) or None
        Its name and function (outputs, targets, mask); None where the task has none (a
        NeuroGym task's choice score is functional already; a user's own score).
    """
    return FUNCTIONAL.get(getattr(task, "__name__", "").rpartition(".")[2])
