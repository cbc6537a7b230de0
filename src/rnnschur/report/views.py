"""What the descriptive figures show of one model: its ordered spectrum and |T|, and example
held-out trials of the full network and of each single-block ablation.

Each function returns rows (dicts) for one model; the per-model rules write them and a
collecting rule joins the models' files.
"""

from __future__ import annotations

import numpy as np

from rnnschur.ablation import ablated, label
from rnnschur.network import Network
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur, block_index, n_dominant
from rnnschur.tasks import Batch


def spectrum_rows(schur: OrderedSchur, alpha: float) -> tuple[list[dict], list[dict]]:
    """(eigenvalues, |T|) of one model.

    eigenvalues: one row per eigenvalue λ of W_hh in Schur order with ``index``, ``block``,
    ``real``, ``imag``; both moduli, each with the ρ it is compared with: ``modulus_W`` = |λ|
    and ``rho_W`` = ρ(W_hh), ``modulus_P`` = |1 − a + a λ| and ``rho_P`` = ρ(P) of the
    propagator P = (1 − a) I + a W_hh that orders and splits the blocks (``leak`` = a; a = 1,
    the paper's and the weights split: P = W_hh); ``in_R`` = modulus_P ≥ ``alpha`` · rho_P (the
    α split of eq. 3). |T|: one row per entry ``i``, ``j``, ``abs_T``, with ``n_R`` so a plot
    can draw the R/C blocks.
    """
    n = schur.T.shape[0]
    n_R = n_dominant(schur, alpha)
    blocks = block_index(schur)
    moduli_W = np.abs(schur.eigenvalues)
    moduli_P = np.abs(schur.ordering_eigenvalues)
    eigenvalues = [
        {
            "index": k,
            "block": int(blocks[k]),
            "real": float(z.real),
            "imag": float(z.imag),
            "modulus_W": float(moduli_W[k]),
            "rho_W": float(moduli_W.max()),
            "modulus_P": float(moduli_P[k]),
            "rho_P": float(schur.spectral_radius),
            "leak": float(schur.leak),
            "in_R": k < n_R,
            "alpha": alpha,
        }
        for k, z in enumerate(schur.eigenvalues)
    ]
    abs_T = np.abs(schur.T)
    entries = [
        {"i": i, "j": j, "abs_T": float(abs_T[i, j]), "n_R": n_R}
        for i in range(n)
        for j in range(n)
    ]
    return eigenvalues, entries


def rollout_rows(network: Network, schur: OrderedSchur, alpha: float, batch: Batch) -> list[dict]:
    """Outputs of the full network and of each single-block ablation (eq. 5) on the trials of
    ``batch``, with the targets: one row per trial, time, line and variant (``full``,
    and the paper's names of the ablations, :func:`rnnschur.ablation.label`: ``−T_RR``,
    ``−T_C→R``, ``−T_CC``, whose minus sign no spreadsheet reads as a formula) with ``value``,
    ``target`` and ``mask``."""
    W_hh = network.W_hh
    variants = {"full": W_hh}
    for block in COUPLING_BLOCKS:
        variants[label(block)] = ablated(W_hh, schur, alpha, (block,))
    outputs = network.rollout(batch.inputs, np.stack(list(variants.values())))
    mask = batch.line_mask
    return [
        {
            "trial": trial,
            "time": step,
            "line": line,
            "variant": name,
            "value": float(outputs[k, trial, step, line]),
            "target": float(batch.targets[trial, step, line]),
            "mask": float(mask[trial, step, line]),
        }
        for k, name in enumerate(variants)
        for trial, step, line in np.ndindex(batch.targets.shape)
    ]
