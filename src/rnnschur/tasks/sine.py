"""Frequency-cued sine generation, generator defaults of Schuessler et al. (2024).

A static input x + ``input_offset``, x ~ U[0, 1], sets the frequency f = freq_min + freq_range·x
(cycles per step); the target is sin(2π f t), t = 0..length−1. Scored by FVU.
"""

from __future__ import annotations

import numpy as np

from rnnschur.tasks import Batch
from rnnschur.tasks.metrics import fvu

SCORE = "fvu"
HIGHER_IS_BETTER = False
CURRICULUM_PARAM = None
PARAMETERS = {
    "length": {"type": "integer", "minimum": 2, "description": "Steps per trial."},
    "input_offset": {"type": "number", "description": "Added to the cue x ~ U[0,1]."},
    "freq_min": {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "Frequency at x = 0 (cycles per step).",
    },
    "freq_range": {"type": "number", "minimum": 0, "description": "Frequency added at x = 1."},
    "input_noise": {
        "type": "number",
        "minimum": 0,
        "description": "Std of Gaussian noise on the cue.",
    },
}


def dims(**_) -> tuple[int, int]:
    """(N_x, N_y) = (1, 1): the cue and the sine.

    Returns
    -------
    tuple of int
        (N_x, N_y).
    """
    return 1, 1


def frequency(x: np.ndarray, freq_min: float = 0.04, freq_range: float = 0.16) -> np.ndarray:
    """f = freq_min + freq_range·x, cycles per step, for the cue value x ∈ [0, 1].

    Parameters
    ----------
    x : ndarray
    freq_min, freq_range : float

    Returns
    -------
    ndarray
    """
    return freq_min + freq_range * x


def generate(
    rng: np.random.Generator,
    n: int,
    length: int = 50,
    input_offset: float = 0.25,
    freq_min: float = 0.04,
    freq_range: float = 0.16,
    input_noise: float = 0.0,
) -> Batch:
    """``n`` trials of ``length`` steps with a constant cue input x + ``input_offset``,
    x ~ U[0, 1], and the target sin(2π f t) (:func:`frequency`); every step scored.

    Parameters
    ----------
    rng : numpy.random.Generator
        The held-out set's or a training step's stream.
    n : int
        Trials.
    length : int
        Steps per trial.
    input_offset : float
        Added to the cue.
    freq_min, freq_range : float
        :func:`frequency`'s.
    input_noise : float
        Std of Gaussian noise on the cue.

    Returns
    -------
    Batch
    """
    x = rng.uniform(0.0, 1.0, size=n)
    inputs = np.repeat((x + input_offset)[:, None, None], length, axis=1)
    t = np.arange(length)
    targets = np.sin(2 * np.pi * frequency(x, freq_min, freq_range)[:, None] * t)[..., None]
    if input_noise:
        inputs = inputs + input_noise * rng.standard_normal(inputs.shape)
    return Batch(inputs, targets, np.ones((n, length)))


def score(outputs: np.ndarray, batch: Batch) -> np.ndarray:
    """FVU over the masked steps (eq. 7), the task's ``SCORE``.

    Parameters
    ----------
    outputs : (..., n, time, N_y) ndarray
        ŷ, with leading model axes (a stack of ablated networks).
    batch : Batch
        The trials scored: their targets and mask.

    Returns
    -------
    ndarray
        Shape (...).
    """
    return fvu(outputs, batch.targets, batch.mask)
