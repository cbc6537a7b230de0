"""3-bit flip-flop (Sussillo & Barak 2013), generator defaults of Schuessler et al. (2024).

Each of ``n_bits`` input lines carries ±``pulse_amplitude`` pulses separated by gaps of
U{gap_min..gap_max} + gap_offset steps; output line i holds the sign of the last pulse on input
line i (0 before the first pulse). Scored by FVU over the masked steps (all of them).
"""

from __future__ import annotations

import numpy as np

from rnnschur.metrics import fvu
from rnnschur.tasks import Batch

SCORE = "fvu"
HIGHER_IS_BETTER = False
CURRICULUM_PARAM = None


def dims(n_bits: int = 3, **_) -> tuple[int, int]:
    """(N_x, N_y) = (n_bits, n_bits)."""
    return n_bits, n_bits


def generate(
    rng: np.random.Generator,
    n: int,
    n_bits: int = 3,
    length: int = 25,
    gap_min: int = 3,
    gap_max: int = 10,
    gap_offset: int = 2,
    pulse_amplitude: float = 1.0,
    input_noise: float = 0.0,
) -> Batch:
    """``n`` trials of ``length`` steps; first pulse on a line at U{0..gap_max−gap_min}."""
    max_pulses = length // (gap_min + gap_offset) + 1
    gaps = rng.integers(gap_min, gap_max + 1, size=(n, n_bits, max_pulses)) + gap_offset
    signs = rng.choice(np.array([-1.0, 1.0]), size=(n, n_bits, max_pulses))
    times = np.cumsum(gaps, axis=-1) - gap_min - gap_offset
    trial, line, pulse = np.nonzero(times < length)
    pulses = np.zeros((n, length, n_bits))
    pulses[trial, times[trial, line, pulse], line] = signs[trial, line, pulse]
    targets = np.zeros((n, length, n_bits))
    state = np.zeros((n, n_bits))
    for t in range(length):
        state = np.where(pulses[:, t] != 0, pulses[:, t], state)
        targets[:, t] = state
    inputs = pulse_amplitude * pulses
    if input_noise:
        inputs = inputs + input_noise * rng.standard_normal(inputs.shape)
    return Batch(inputs, targets, np.ones((n, length)))


def score(outputs: np.ndarray, batch: Batch) -> np.ndarray:
    """FVU over the masked steps (eq. 7)."""
    return fvu(outputs, batch.targets, batch.mask)
