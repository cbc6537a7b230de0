"""One trained solution's reading of an ablation, the unit the paper reads.

The paper reads single trained networks ("in this solution, removing T_CC keeps replay at
1.00"), so every ablation of every model gets a word of its own, decided on the harm share h
of :mod:`rnnschur.studies.verdicts` with an interval from that model's own held-out trials: a
percentile bootstrap over trials (every ablation of one resample scored on the same trials,
so h compares networks on one draw). With θ the threshold of config ``verdicts``:

- *stabilizer*: the interval lies within ±θ (harmless on the harm scale; the paper's
  ε-stabilizer, d_D ≤ ε, is the ablation table's ``eps_stabilizer``);
- *fragile*: the interval lies above θ;
- *improves*: the interval lies below −θ;
- *undecided*: the interval straddles ±θ.

Before any interval, the status *absent* (:data:`NOT_READ`): the block holds less Schur mass
than the floor **in this model**; nothing is removed, so the ablation says nothing about the
block and no word is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from rnnschur.settings.schema import field as schema_field
from rnnschur.settings.seeds import job_rng
from rnnschur.studies.stats import percentile_interval
from rnnschur.studies.verdicts import SHARE_CAP, Verdict, harm_share
from rnnschur.tasks import Batch

if TYPE_CHECKING:
    from rnnschur.ablation import Analysed

READINGS = (
    Verdict.STABILIZER,
    Verdict.FRAGILE,
    Verdict.IMPROVES,
    Verdict.UNDECIDED,
)
"""The words of one solution's reading of its interval, in the order tables count them."""
NOT_READ = Verdict.ABSENT
"""The status of an ablation whose block holds less Schur mass than the floor: no interval is
read (the ``reading`` column holds it beside the four words)."""


@dataclass(frozen=True)
class Reading:
    """How one solution's ablations are read (config ``verdicts.threshold`` and ``level``,
    ``solutions.bootstrap``): θ, the interval's error level, the number of bootstrap
    resamples and the seed of their generator. The mass floor is the scoring's
    (:class:`rnnschur.ablation.Scoring`); :meth:`read` adds the reading to the
    ablation's rows."""

    threshold: float = schema_field("verdicts.threshold")
    level: float = schema_field("verdicts.level")
    n_boot: int = schema_field("solutions.bootstrap")
    seed: int = 0

    def read(
        self,
        rows: list[dict],
        rollout: list[int],
        outputs: np.ndarray,
        analysed: Analysed,
        mass_floor: float,
    ) -> list[dict]:
        """``rows`` (one per ablation, :func:`rnnschur.ablation.evaluate_ablations`) with this
        solution's reading of each: ``harm_share``, its bootstrap interval ``harm_low`` and
        ``harm_high`` over the held-out trials, and the word ``reading`` (module docstring;
        empty for the intact network). ``outputs`` (K, n, time, N_y) are the distinct rollouts
        on ``analysed``'s held-out set, ``rollout`` the one of each row (the intact network's
        is the first row's)."""
        task, heldout, full = analysed.task, analysed.heldout, rollout[0]
        boot = bootstrap_scores(
            task, outputs, heldout, self.n_boot, np.random.default_rng(self.seed)
        )
        low, high = harm_interval(task.SCORE, boot[:, full], boot, self.level)
        score = np.array([row["score"] for row in rows])
        share = harm_share(task.SCORE, score[0], score)
        return [
            row
            | {
                "harm_share": h,
                "harm_low": low[k],
                "harm_high": high[k],
                "reading": ""
                if row["subset"] == "none"
                else reading(low[k], high[k], row["mass_removed"], self.threshold, mass_floor),
            }
            for row, k, h in zip(rows, rollout, share, strict=True)
        ]


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
    ``outputs`` (K, n, time, N_y).

    Each score is a ratio of sums over trials (eqs. 6–7, the choice's κ), so each resample is
    scored from per-trial sums drawn once from the one rollout, weighted by how often the
    resample picks each trial (:data:`TRIAL_SUMS`): the same resamples and the same scores as
    scoring each resampled rollout again, at the cost of a sum. The sums are checked to give
    the task's own score on the whole set before any resample is read."""
    n = batch.inputs.shape[0]
    counts = np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(n_boot)])
    if task.SCORE not in TRIAL_SUMS:
        raise ValueError(f"no per-trial sums for the score {task.SCORE!r} to resample")
    scores = TRIAL_SUMS[task.SCORE](outputs, batch)
    whole, own = scores(np.ones((1, n))), np.asarray(task.score(outputs, batch), dtype=float)
    if not np.allclose(whole[0], own, rtol=1e-9, atol=1e-12, equal_nan=True):
        raise ValueError(
            f"the per-trial sums of {task.SCORE!r} do not give the task's own score "
            f"({whole[0]} against {own}): its score is not the one resampled here"
        )
    return scores(counts.astype(float))


def _accuracy_sums(outputs: np.ndarray, batch: Batch):
    """Acc_rc (eq. 6) as Σ hits / Σ mask over trials: per-trial hits (K, n) and mask counts."""
    hits, mask = np.sign(outputs) == batch.targets, batch.mask
    if mask.ndim == 2:
        per_trial, count = (hits.mean(axis=-1) * mask).sum(axis=-1), mask.sum(axis=-1)
    else:
        per_trial, count = (hits * mask).sum(axis=(-2, -1)), mask.sum(axis=(-2, -1))
    return lambda C: (C @ per_trial.T) / (C @ count)[:, None]


def _fvu_sums(outputs: np.ndarray, batch: Batch):
    """The pooled FVU (eq. 7) as Σ residual / Σ w (y − ȳ)², ȳ the resample's own mean per line:
    per trial and line the weight, Σ w y and Σ w y² (y centred on the whole set's mean, so the
    difference of sums loses no digits) and per trial and network the squared residual."""
    targets = batch.targets
    mask = batch.mask[..., None] if batch.mask.ndim == 2 else batch.mask
    w = np.broadcast_to(mask, targets.shape)
    weight = w.sum(axis=1)  # (n, N_y)
    centred = targets - (targets * w).sum(axis=(0, 1)) / np.maximum(weight.sum(axis=0), 1)
    first, second = (w * centred).sum(axis=1), (w * centred**2).sum(axis=1)
    residual = (((outputs - targets) ** 2) * w).sum(axis=(-2, -1))  # (K, n)
    # a diverged trial (inf or NaN) spoils exactly the resamples that pick it, as in a sum
    finite = np.where(np.isfinite(residual), residual, 0.0)
    spoilt = {np.inf: np.isinf(residual), np.nan: np.isnan(residual)}

    def scores(C: np.ndarray) -> np.ndarray:
        total = (C @ second - (C @ first) ** 2 / np.maximum(C @ weight, 1)).sum(axis=-1)
        if not (total > 0).all():
            raise ValueError("FVU is undefined: a resample's targets have no variance")
        fvu = (C @ finite.T) / total[:, None]
        for value, where in spoilt.items():  # NaN last: it wins over inf, as in a sum
            fvu[(C @ where.T) > 0] = value
        return fvu

    return scores


def _choice_sums(outputs: np.ndarray, batch: Batch):
    """The choice's κ (:func:`rnnschur.tasks._neurogym.choice_score`) from per-trial counts over
    the masked steps: right choices (K, n), each action as the target (A, n) and as the choice
    (A, K, n), and the steps; NaN where a resample's targets hold a single action."""
    mask, actions = batch.mask, range(batch.targets.shape[-1])
    chosen, truth = np.argmax(outputs, axis=-1), np.argmax(batch.targets, axis=-1)
    right = ((chosen == truth) * mask).sum(axis=-1)
    target = np.stack([((truth == a) * mask).sum(axis=-1) for a in actions])
    choice = np.stack([((chosen == a) * mask).sum(axis=-1) for a in actions])
    steps = mask.sum(axis=-1)

    def scores(C: np.ndarray) -> np.ndarray:
        total = (C @ steps)[:, None]
        p_target = (C @ target.T) / total  # (B, A)
        p_chosen = (choice @ C.T) / total.T  # (A, K, B)
        p_e = np.einsum("ba,akb->bk", p_target, p_chosen)
        kappa = ((C @ right.T) / total - p_e) / (1.0 - p_e)
        kappa[(p_target > 0).sum(axis=-1) < 2] = np.nan
        return kappa

    return scores


TRIAL_SUMS = {"accuracy": _accuracy_sums, "fvu": _fvu_sums, "choice": _choice_sums}
"""Per score name, the per-trial sums of one rollout as a function of the resample counts
(n_boot, n) that returns each resample's scores (n_boot, K)."""


def harm_interval(
    metric: str, full: np.ndarray, ablated: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval (1 − ``level``) of the harm share from bootstrap scores: ``full``
    (n_boot,) of the intact network, ``ablated`` (n_boot, K); a diverged ablated rollout (an
    FVU of inf) counts as :data:`rnnschur.studies.verdicts.SHARE_CAP`, but not where the intact
    network's own score is NaN (no learned performance to lose: the share stays NaN). Returns
    (low, high), each (K,)."""
    full, ablated = np.asarray(full, float)[:, None], np.asarray(ablated, float)
    shares = harm_share(metric, full, ablated)
    diverged = np.isnan(ablated) & ~np.isnan(full)
    shares = np.minimum(np.where(diverged, np.inf, shares), SHARE_CAP)
    return percentile_interval(shares, level)


def reading(
    low: float, high: float, mass_removed: float, threshold: float, mass_floor: float
) -> Verdict:
    """The word of one solution's ablation (module docstring) from the interval [``low``,
    ``high``] of its harm share and the Schur mass it removes; *undecided* where the interval
    is undefined (a full model with no learned performance)."""
    if not mass_removed >= mass_floor:
        return NOT_READ
    if np.isnan(low) or np.isnan(high):
        return Verdict.UNDECIDED
    if low > threshold:
        return Verdict.FRAGILE
    if high < -threshold:
        return Verdict.IMPROVES
    if -threshold <= low and high <= threshold:
        return Verdict.STABILIZER
    return Verdict.UNDECIDED
