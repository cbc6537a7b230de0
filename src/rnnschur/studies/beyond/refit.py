"""Readout refit after an ablation (paper §2, the question it names but does not answer).

The ablation keeps W_hy fixed. Does the perturbed latent dynamics still hold the task? Fit a new
linear readout ŷ_t = W' h̃_t by ridge regression on the ablated network's hidden states over the
scored entries of a fitting set (each output line on its own scored steps where the task has a
mask per line), choose the regularisation on a validation split of it, and score the refit
network on the held-out set. Like the network, the readout has no bias.

Beside each refit, its control: the same refit after a random removal of the same Frobenius
norm from the coupling blocks the ablation keeps (:func:`rnnschur.ablation.other_couplings`,
every eigenvalue kept), so that "a new readout recovers the ablation" can be told from "a new
readout recovers any removal of its size".
"""

from __future__ import annotations

import numpy as np

from rnnschur.ablation import (
    SUBSETS,
    Analysed,
    ablated_recurrent,
    delta_T,
    other_couplings,
    scoring_batch,
    subset_name,
)
from rnnschur.network import Network
from rnnschur.schur import COUPLING_BLOCKS, coupling_masks
from rnnschur.tasks import Batch


def ridge(H: np.ndarray, Y: np.ndarray, lam: float) -> np.ndarray:
    """W' (N_y, N_h) minimising ‖H W'ᵀ − Y‖² + λ' ‖W'‖² with λ' = lam · tr(HᵀH)/N_h, so that
    ``lam`` does not depend on the scale of the activity. H: (samples, N_h), Y: (samples, N_y)."""
    gram = H.T @ H
    penalty = lam * np.trace(gram) / gram.shape[0]
    return np.linalg.solve(gram + penalty * np.eye(gram.shape[0]), H.T @ Y).T


def scored_samples(hidden: np.ndarray, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
    """(hidden states, targets) at the scored steps (mask = 1, one mask for every line), as
    sample rows."""
    scored = batch.mask > 0
    return hidden[scored].astype(np.float64), batch.targets[scored]


def line_samples(hidden: np.ndarray, batch: Batch, line: int) -> tuple[np.ndarray, np.ndarray]:
    """(hidden states, targets of output ``line``) at the steps where that line is scored."""
    scored = batch.line_mask[..., line] > 0
    return hidden[scored].astype(np.float64), batch.targets[..., line][scored]


def fit_readout(
    hidden_fit: np.ndarray, fit: Batch, hidden_val: np.ndarray, val: Batch, grid: list[float]
) -> tuple[np.ndarray, float]:
    """The ridge readout with the ``lam`` of ``grid`` of least validation squared error, refit
    on the fitting and validation trials together; returns (W', lam). Each output line is fit
    on the entries that score it, the entries the refit network is scored on: with one mask for
    every line, all lines on the same steps; with a mask per line (flip-flop), each line on its
    own steps, and the validation error summed over every scored entry."""
    if fit.mask.ndim == 2:
        H_fit, Y_fit = scored_samples(hidden_fit, fit)
        H_val, Y_val = scored_samples(hidden_val, val)
        errors = [np.mean((H_val @ ridge(H_fit, Y_fit, lam).T - Y_val) ** 2) for lam in grid]
        lam = grid[int(np.argmin(errors))]
        return ridge(np.vstack([H_fit, H_val]), np.vstack([Y_fit, Y_val]), lam), lam
    lines = range(fit.targets.shape[-1])
    fits = [line_samples(hidden_fit, fit, j) for j in lines]
    vals = [line_samples(hidden_val, val, j) for j in lines]
    count = sum(len(y) for _, y in vals)

    def validation_error(lam: float) -> float:
        return (
            sum(
                np.sum((H_v @ ridge(H_f, y_f[:, None], lam).T - y_v[:, None]) ** 2)
                for (H_f, y_f), (H_v, y_v) in zip(fits, vals, strict=True)
            )
            / count
        )

    lam = grid[int(np.argmin([validation_error(lam) for lam in grid]))]
    rows = [
        ridge(np.vstack([H_f, H_v]), np.concatenate([y_f, y_v])[:, None], lam)[0]
        for (H_f, y_f), (H_v, y_v) in zip(fits, vals, strict=True)
    ]
    return np.stack(rows), lam


def refit_readout(
    network: Network, W_tilde: np.ndarray, fit: Batch, val: Batch, grid: list[float]
) -> tuple[np.ndarray, float]:
    """(W', lam): the ridge readout of ``network`` with W̃ in place of its W_hh, fit on the
    hidden states of the fitting trials ``fit`` and chosen on ``val`` (:func:`fit_readout`)."""
    _, hidden_fit = network.rollout(fit.inputs, W_tilde, return_hidden=True)
    _, hidden_val = network.rollout(val.inputs, W_tilde, return_hidden=True)
    return fit_readout(hidden_fit, fit, hidden_val, val, grid)


def split(batch: Batch, validation_fraction: float) -> tuple[Batch, Batch]:
    """The first trials for fitting, the last ⌈``validation_fraction`` · n⌉ for validation."""
    n_val = max(1, int(np.ceil(len(batch.inputs) * validation_fraction)))
    cut = len(batch.inputs) - n_val
    part = lambda s: Batch(batch.inputs[s], batch.targets[s], batch.mask[s])  # noqa: E731
    return part(slice(0, cut)), part(slice(cut, None))


def evaluate_refits(
    analysed: Analysed, alpha: float, fitting: Batch, design: dict, rng: np.random.Generator
) -> list[dict]:
    """For every subset S of the network at ``alpha`` (the empty one too): the held-out score
    with the fixed readout W_hy and with a ridge readout refit on W̃(S)'s hidden states over
    ``fitting`` (less ``design["validation_fraction"]``, which picks λ from
    ``design["ridge_grid"]``), and the same two scores after the control: the coupling blocks
    outside S losing ‖ΔT_S‖_F in a random order (``rng``; NaN where S holds every block).

    Columns: ``subset``, ``metric``, ``fixed_score``, ``refit_score``, ``ridge_lambda``,
    ``readout_change`` (‖W' − W_hy‖_F / ‖W_hy‖_F), ``control_norm_ratio`` (the norm the control
    removed over ‖ΔT_S‖_F: below 1 where the other blocks hold less), ``control_fixed_score``,
    ``control_refit_score``. The refit readout has no bias (for a model with ``offsets``, the
    fixed readout keeps its b_y).
    """
    network, schur = analysed.network, analysed.schur
    fit, val = split(fitting, design["validation_fraction"])
    grid = list(design["ridge_grid"])
    masks = coupling_masks(schur, alpha)
    rows = []
    for subset in SUBSETS:
        dT = delta_T(schur.T, masks, subset)
        row = {"subset": subset_name(subset), "metric": analysed.task.SCORE}
        fixed, refit, W_refit, lam = _refit(
            analysed, ablated_recurrent(network.W_hh, schur, dT), fit, val, grid
        )
        row |= {
            "fixed_score": fixed,
            "refit_score": refit,
            "ridge_lambda": lam,
            "readout_change": float(
                np.linalg.norm(W_refit - network.W_hy) / np.linalg.norm(network.W_hy)
            ),
        }
        others = [b for b in COUPLING_BLOCKS if b not in subset]
        norm = float(np.linalg.norm(dT))
        if others and norm > 0:
            where = np.logical_or.reduce([masks[b] for b in others])
            R = other_couplings(schur.T, where, norm, rng)
            W_control = ablated_recurrent(network.W_hh, schur, R)
            control = _refit(analysed, W_control, fit, val, grid)
            row |= {
                "control_norm_ratio": float(np.linalg.norm(R) / norm),
                "control_fixed_score": control[0],
                "control_refit_score": control[1],
            }
        else:
            row |= dict.fromkeys(
                ["control_norm_ratio", "control_fixed_score", "control_refit_score"], np.nan
            )
        rows.append(row)
    return rows


def _refit(analysed: Analysed, W_tilde: np.ndarray, fit: Batch, val: Batch, grid: list[float]):
    """(fixed score, refit score, W', λ) of the network with W̃ on the held-out set."""
    network, heldout, task = analysed.network, analysed.heldout, analysed.task
    W_refit, lam = refit_readout(network, W_tilde, fit, val, grid)
    fixed, hidden = network.rollout(heldout.inputs, W_tilde, return_hidden=True)
    refit = hidden.astype(np.float64) @ W_refit.T
    return float(task.score(fixed, heldout)), float(task.score(refit, heldout)), W_refit, lam


def model_rows(
    analysed: Analysed, fitting: Batch, settings: dict, rng: np.random.Generator
) -> list[dict]:
    """The readout refit of one model (rule ``readout_refit``; an external model's analysis),
    ``analysed`` on its held-out set as scored (:meth:`Analysed.scored`): :func:`evaluate_refits`
    at ``alpha`` with the ``fitting`` set scored alike (config ``ablation.fvu_steps``) and the
    config's ``validation_fraction`` and ``ridge_grid`` (``settings``: config ``readout_refit``
    with ``alpha`` and the ``ablation`` block), the controls drawn from ``rng``."""
    fitting = scoring_batch(fitting, analysed.task, settings["ablation"]["fvu_steps"])
    return evaluate_refits(analysed, settings["alpha"], fitting, settings, rng)
