"""Task scores and ablation effects (paper §3, eqs. 6–9).

Every function accepts outputs with leading model axes (..., n, time, N_y), so one call scores a
whole stack of ablated networks. A mask is either per step, (n, time), or per output line,
(n, time, N_y) (the flip-flop scores each line from its first pulse on); its entries are 0 or 1.
"""

from __future__ import annotations

import numpy as np


def masked_mean(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean over the masked entries, the average of eqs. 6–8: over the output lines of the
    masked steps for a mask (n, time), over the masked (step, line) pairs for (n, time, N_y).

    Parameters
    ----------
    values : (..., n, time, N_y) ndarray
    mask : (n, time) or (n, time, N_y) ndarray

    Returns
    -------
    ndarray
        Shape (...).
    """
    if mask.ndim == 2:
        return (values.mean(axis=-1) * mask).sum(axis=(-2, -1)) / mask.sum()
    return (values * mask).sum(axis=(-3, -2, -1)) / mask.sum()


def replay_accuracy(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Acc_rc = mean over trials, masked lags ℓ and coordinates j of 1{sgn(ŷ_ℓj) = y_ℓj} (eq. 6).

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
        Shape (...), in [0, 1].
    """
    return masked_mean(np.sign(outputs) == targets, mask)


FVU_MEANS = ("pooled", "per_step")
"""The ȳ of eq. (7)'s normaliser: pooled over trials and steps, or one per time step."""


def fvu(
    outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray, mean: str = "pooled"
) -> np.ndarray:
    """FVU = E‖ŷ − y‖² / E‖y − ȳ‖² over the masked steps (eq. 7): perfect prediction 0,
    predicting ȳ 1. ``mean="pooled"`` (as eq. 7 reads): ȳ is the mean target of the
    evaluation set per output line over its masked steps; ``"per_step"``: ȳ_t, one mean per
    time step and line over the trials (the variance a time-locked average leaves; smaller for
    a task whose target follows the clock). See also :func:`fvu_per_trial`.

    Parameters
    ----------
    outputs : (..., n, time, N_y) ndarray
        ŷ, with leading model axes (a stack of ablated networks).
    targets : (n, time, N_y) ndarray
        y.
    mask : (n, time) or (n, time, N_y) ndarray
        1 where scored.
    mean : str
        One of :data:`FVU_MEANS`.

    Returns
    -------
    ndarray
        Shape (...).

    Raises
    ------
    ValueError
        An unknown ``mean``, or targets with no variance on the masked steps.
    """
    if mean not in FVU_MEANS:
        raise ValueError(f"the FVU's mean must be one of {FVU_MEANS}, got {mean!r}")
    weight = mask[..., None] if mask.ndim == 2 else mask
    axes = (0, 1) if mean == "pooled" else (0,)
    count = np.broadcast_to(weight, targets.shape).sum(axes)
    y_bar = (targets * weight).sum(axis=axes) / np.maximum(count, 1)
    residual = (((outputs - targets) ** 2) * weight).sum(axis=(-3, -2, -1))
    total = (((targets - y_bar) ** 2) * weight).sum()
    if total == 0:
        raise ValueError("FVU is undefined: the targets have no variance on the masked steps")
    return residual / total


def fvu_per_trial(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The other reading of eq. 7: FVU of each trial, normalised by that trial's own target
    variance (ȳ per trial and line over its masked steps), averaged over the trials whose
    targets vary. Larger than the pooled :func:`fvu` where a trial's target is nearly constant.

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
        Shape (...); NaN where no trial's target varies.
    """
    weight = np.broadcast_to(mask[..., None] if mask.ndim == 2 else mask, targets.shape)
    count = weight.sum(axis=1, keepdims=True)
    y_bar = (targets * weight).sum(axis=1, keepdims=True) / np.maximum(count, 1)
    total = (((targets - y_bar) ** 2) * weight).sum(axis=(-2, -1))
    residual = (((outputs - targets) ** 2) * weight).sum(axis=(-2, -1))
    varies = total > 0
    if not varies.any():
        return np.full(outputs.shape[:-3], np.nan)
    return (residual[..., varies] / total[varies]).mean(axis=-1)


def schur_mass_removed(delta_T: np.ndarray, T: np.ndarray) -> np.ndarray:
    """The Schur mass an ablation removes, ‖ΔT‖_F / ‖T‖_F with ΔT = T − T̃(S) (eq. 5; the
    denominator of S_ΔT, eq. 9).

    Parameters
    ----------
    delta_T : (..., n, n) ndarray
        ΔT, or a stack of them.
    T : (n, n) ndarray

    Returns
    -------
    ndarray
        Shape (...).
    """
    return np.linalg.norm(delta_T, axis=(-2, -1)) / np.linalg.norm(T)


def effect_per_mass(delta_fvu: np.ndarray, mass_removed: np.ndarray) -> np.ndarray:
    """S_ΔT = ΔFVU / (‖ΔT‖_F/‖T‖_F) (eq. 9).

    Parameters
    ----------
    delta_fvu : array_like
    mass_removed : array_like
        Broadcast against ``delta_fvu``.

    Returns
    -------
    ndarray
        NaN (undefined) where nothing was removed.
    """
    delta_fvu, mass_removed = np.broadcast_arrays(delta_fvu, mass_removed)
    out = np.full(delta_fvu.shape, np.nan)
    np.divide(delta_fvu, mass_removed, out=out, where=mass_removed > 0)
    return out


def rollout_discrepancy(outputs: np.ndarray, reference: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """d_D(f_W, f_W̃) of §2 (S is an ε-stabilizer on D when it is ≤ ε): the mean squared output
    difference over the masked steps and output lines.

    Parameters
    ----------
    outputs : (..., n, time, N_y) ndarray
        The ablated networks' outputs.
    reference : (n, time, N_y) ndarray
        The full network's.
    mask : (n, time) or (n, time, N_y) ndarray

    Returns
    -------
    ndarray
        Shape (...).
    """
    return masked_mean((outputs - reference) ** 2, mask)


def sign_disagreement(outputs: np.ndarray, reference: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The rate at which sgn(ŷ) of the ablated and the full network differ over the masked steps
    (eq. 6's sign, between two networks).

    Parameters
    ----------
    outputs : (..., n, time, N_y) ndarray
    reference : (n, time, N_y) ndarray
    mask : (n, time) or (n, time, N_y) ndarray

    Returns
    -------
    ndarray
        Shape (...), in [0, 1].
    """
    return masked_mean(np.sign(outputs) != np.sign(reference), mask)
