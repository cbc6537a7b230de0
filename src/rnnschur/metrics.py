"""Task scores and ablation effects (paper §3, eqs. 6–9).

Every function accepts outputs with leading model axes (..., n, time, N_y), so one call scores a
whole stack of ablated networks.
"""

from __future__ import annotations

import numpy as np


def replay_accuracy(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Acc_rc = mean over trials, masked lags ℓ and coordinates j of 1{sgn(ŷ_ℓj) = y_ℓj} (eq. 6)."""
    correct = (np.sign(outputs) == targets).mean(axis=-1)
    return (correct * mask).sum(axis=(-2, -1)) / mask.sum()


def fvu(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """FVU = E‖ŷ − y‖² / E‖y − ȳ‖² over the masked steps (eq. 7); ȳ is the mean target of the
    evaluation set (per output line, over masked steps). Perfect prediction → 0, predicting ȳ → 1.
    """
    weight = mask[..., None]
    y_bar = (targets * weight).sum(axis=(0, 1)) / mask.sum()
    residual = (((outputs - targets) ** 2) * weight).sum(axis=(-3, -2, -1))
    total = (((targets - y_bar) ** 2) * weight).sum()
    if total == 0:
        raise ValueError("FVU is undefined: the targets have no variance on the masked steps")
    return residual / total


def schur_mass_removed(delta_T: np.ndarray, T: np.ndarray) -> np.ndarray:
    """‖ΔT‖_F / ‖T‖_F, ΔT = T − T̃(S); ``delta_T`` may be a stack (..., n, n)."""
    return np.linalg.norm(delta_T, axis=(-2, -1)) / np.linalg.norm(T)


def effect_per_mass(delta_fvu: np.ndarray, mass_removed: np.ndarray) -> np.ndarray:
    """S_ΔT = ΔFVU / (‖ΔT‖_F/‖T‖_F) (eq. 9); NaN (undefined) where nothing was removed."""
    delta_fvu, mass_removed = np.broadcast_arrays(delta_fvu, mass_removed)
    out = np.full(delta_fvu.shape, np.nan)
    np.divide(delta_fvu, mass_removed, out=out, where=mass_removed > 0)
    return out


def rollout_discrepancy(outputs: np.ndarray, reference: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """d_D(f_W, f_W̃): mean squared output difference over the masked steps and output lines."""
    squared = ((outputs - reference) ** 2).mean(axis=-1)
    return (squared * mask).sum(axis=(-2, -1)) / mask.sum()


def sign_disagreement(outputs: np.ndarray, reference: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Rate at which sgn(ŷ) of the ablated and the full network differ over the masked steps."""
    differ = (np.sign(outputs) != np.sign(reference)).mean(axis=-1)
    return (differ * mask).sum(axis=(-2, -1)) / mask.sum()
