"""What the descriptive figures show of one model beside its spectrum
(:func:`rnnschur.schur.spectrum_rows`): example held-out trials of the full network and of
each single-block ablation, as rows (dicts) the per-model rule writes and a collecting rule
joins.
"""

from __future__ import annotations

import numpy as np

from rnnschur.ablation import ablated, label
from rnnschur.network import Network
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur
from rnnschur.tasks import Batch


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
