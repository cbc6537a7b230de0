"""One trained solution's reading of an ablation, the unit the paper reads.

The paper reads single trained networks ("in this solution, removing T_CC keeps replay at
1.00"), so every ablation of every model gets a word of its own, decided on the harm share h
of :mod:`rnnschur.verdicts` with an interval from that model's own held-out trials: a
percentile bootstrap over trials (every ablation of one resample scored on the same trials,
so h compares networks on one draw). With θ the threshold of config ``verdicts``:

- *absent*: the block holds less Schur mass than the floor **in this model**; nothing is
  removed, so the ablation says nothing about the block;
- *stabilizer*: the interval lies within ±θ (the paper's ε-stabilizer, on the harm scale);
- *fragile*: the interval lies above θ;
- *improves*: the interval lies below −θ;
- *undecided*: the interval straddles ±θ.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np

from rnnschur.seeds import job_rng
from rnnschur.stats import percentile_interval
from rnnschur.tasks import Batch
from rnnschur.verdicts import SHARE_CAP, Verdict, harm_share

READINGS = (
    Verdict.STABILIZER,
    Verdict.FRAGILE,
    Verdict.IMPROVES,
    Verdict.UNDECIDED,
    Verdict.ABSENT,
)
"""The words of one solution's reading, in the order tables count them."""


@dataclass(frozen=True)
class Reading:
    """How one solution's ablations are read (config ``verdicts.threshold`` and ``level``,
    ``solutions.bootstrap``): θ, the interval's error level, the number of bootstrap
    resamples and the seed of their generator. The mass floor is the scoring's
    (:class:`rnnschur.ablation.Scoring`)."""

    threshold: float = 0.02
    level: float = 0.05
    n_boot: int = 200
    seed: int = 0


def model_reading(verdicts: dict, n_boot: int, base_seed: int, stream: str, seed) -> Reading:
    """How one model's ablations are read (``verdicts``: config ``verdicts``, its
    ``threshold`` and ``level``; ``n_boot``: config ``solutions.bootstrap``), its bootstrap
    drawn from a generator of the model's ``stream`` (its task's) and ``seed``."""
    draw = job_rng(base_seed, "bootstrap", stream, seed).integers(2**62)
    return Reading(verdicts["threshold"], verdicts["level"], n_boot, int(draw))


def bootstrap_scores(
    task: ModuleType, outputs: np.ndarray, batch: Batch, n_boot: int, rng: np.random.Generator
) -> np.ndarray:
    """The task's score of every network of a stack on ``n_boot`` resamples of the held-out
    trials (with replacement, the same resample for every network): (n_boot, K) for
    ``outputs`` (K, n, time, N_y)."""
    n = batch.inputs.shape[0]
    scores = []
    for _ in range(n_boot):
        pick = rng.integers(0, n, n)
        resample = Batch(batch.inputs[pick], batch.targets[pick], batch.mask[pick])
        scores.append(np.asarray(task.score(outputs[:, pick], resample), dtype=float))
    return np.stack(scores)


def harm_interval(
    metric: str, full: np.ndarray, ablated: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval (1 − ``level``) of the harm share from bootstrap scores: ``full``
    (n_boot,) of the intact network, ``ablated`` (n_boot, K); a diverged rollout (an FVU of
    inf) counts as :data:`rnnschur.verdicts.SHARE_CAP`. Returns (low, high), each (K,)."""
    shares = harm_share(metric, np.asarray(full, float)[:, None], np.asarray(ablated, float))
    shares = np.minimum(np.where(np.isnan(np.asarray(ablated, float)), np.inf, shares), SHARE_CAP)
    return percentile_interval(shares, level)


def reading(
    low: float, high: float, mass_removed: float, threshold: float, mass_floor: float
) -> Verdict:
    """The word of one solution's ablation (module docstring) from the interval [``low``,
    ``high``] of its harm share and the Schur mass it removes; *undecided* where the interval
    is undefined (a full model with no learned performance)."""
    if not mass_removed >= mass_floor:
        return Verdict.ABSENT
    if np.isnan(low) or np.isnan(high):
        return Verdict.UNDECIDED
    if low > threshold:
        return Verdict.FRAGILE
    if high < -threshold:
        return Verdict.IMPROVES
    if -threshold <= low and high <= threshold:
        return Verdict.STABILIZER
    return Verdict.UNDECIDED
