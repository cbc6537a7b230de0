"""Fixed-delay copy task (paper §3).

A sequence of ``n_symbols`` symbols, each in {−1, +1}^``symbol_dim``, is presented one symbol a
step; then the input is zero and the network replays the sequence on its own. The target over
the ``n_lags`` replay steps is the sequence repeated cyclically (lag ℓ shows symbol
(ℓ − 1) mod n_symbols); the score is the replay accuracy

    Acc_rc = mean over trials, ℓ in L, j of 1{sgn(ŷ_ℓj) = y_ℓj},   L = {1..n_lags}.
"""

from __future__ import annotations

import numpy as np

from rnnschur.tasks import Batch, random_signs
from rnnschur.tasks.metrics import replay_accuracy

SCORE = "accuracy"
HIGHER_IS_BETTER = True
CURRICULUM_PARAM = "n_lags"
"""The training curriculum lengthens the replay horizon (only the copy task has one)."""
PARAMETERS = {
    "n_symbols": {"type": "integer", "minimum": 1, "description": "Symbols per sequence (s)."},
    "symbol_dim": {"type": "integer", "minimum": 1, "description": "Coordinates per symbol (d)."},
    "n_lags": {"type": "integer", "minimum": 1, "description": "Replay lags scored (|L|)."},
}


def dims(symbol_dim: int = 8, **_) -> tuple[int, int]:
    """(N_x, N_y): one input and one output line per symbol coordinate.

    Parameters
    ----------
    symbol_dim : int
        d.

    Returns
    -------
    tuple of int
    """
    return symbol_dim, symbol_dim


def generate(
    rng: np.random.Generator, n: int, n_symbols: int = 8, symbol_dim: int = 8, n_lags: int = 128
) -> Batch:
    """``n`` copy trials of length ``n_symbols + n_lags`` (module docstring): the symbols as
    input, then their cyclic replay as target; the mask covers the replay lags L of eq. 6.

    Parameters
    ----------
    rng : numpy.random.Generator
        The held-out set's or a training step's stream.
    n : int
        Trials.
    n_symbols : int
        s, symbols per sequence.
    symbol_dim : int
        d, coordinates per symbol.
    n_lags : int
        |L|, replay lags scored.

    Returns
    -------
    Batch
    """
    symbols = random_signs(rng, (n, n_symbols, symbol_dim))
    time = n_symbols + n_lags
    inputs = np.zeros((n, time, symbol_dim))
    inputs[:, :n_symbols] = symbols
    replay = np.arange(n_lags) % n_symbols
    targets = np.zeros((n, time, symbol_dim))
    targets[:, n_symbols:] = symbols[:, replay]
    mask = np.zeros((n, time))
    mask[:, n_symbols:] = 1.0
    return Batch(inputs, targets, mask)


def score(outputs: np.ndarray, batch: Batch) -> np.ndarray:
    """The replay accuracy Acc_rc over the masked lags (eq. 6), the task's ``SCORE``.

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
    return replay_accuracy(outputs, batch.targets, batch.mask)
