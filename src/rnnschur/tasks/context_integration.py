"""Context-dependent integration (Mante et al. 2013), defaults of Schuessler et al. (2024).

Inputs: two noisy evidence streams (coherence c_k + input_noise·ξ during the stimulus) and two
context cues (one-hot, on for the whole trial). Epochs: fixation, stimulus, delay, decision. The
target is 0 during fixation and sgn(c_cued) during the decision; the mask covers fixation and
decision. Scored by FVU over the masked steps.
"""

from __future__ import annotations

import numpy as np

from rnnschur.metrics import fvu
from rnnschur.tasks import Batch

SCORE = "fvu"
HIGHER_IS_BETTER = False
CURRICULUM_PARAM = None


def dims(**_) -> tuple[int, int]:
    """(N_x, N_y) = (4, 1): evidence 1, evidence 2, cue 1, cue 2 → one decision line."""
    return 4, 1


def generate(
    rng: np.random.Generator,
    n: int,
    fixation: int = 3,
    stimulus: int = 20,
    delay: int = 5,
    decision: int = 20,
    coherences: tuple[float, ...] = (1 / 8, 2 / 8, 4 / 8, 8 / 8),
    input_noise: float = 0.05,
) -> Batch:
    """``n`` trials of fixation + stimulus + delay + decision steps; coherences are drawn from
    ±``coherences`` for each stream independently."""
    length = fixation + stimulus + delay + decision
    levels = np.concatenate([-np.asarray(coherences), np.asarray(coherences)])
    coherence = rng.choice(levels, size=(n, 2))
    context = rng.integers(0, 2, size=n)
    inputs = np.zeros((n, length, 4))
    on = slice(fixation, fixation + stimulus)
    noise = input_noise * rng.standard_normal((n, stimulus, 2))
    inputs[:, on, :2] = coherence[:, None, :] + noise
    inputs[np.arange(n), :, 2 + context] = 1.0
    targets = np.zeros((n, length, 1))
    decision_start = length - decision
    targets[:, decision_start:, 0] = np.sign(coherence[np.arange(n), context])[:, None]
    mask = np.zeros((n, length))
    mask[:, :fixation] = 1.0
    mask[:, decision_start:] = 1.0
    return Batch(inputs, targets, mask)


def score(outputs: np.ndarray, batch: Batch) -> np.ndarray:
    """FVU over the masked steps (eq. 7)."""
    return fvu(outputs, batch.targets, batch.mask)
