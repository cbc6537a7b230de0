"""Ablations along training ("when training stops", beyond the paper).

The paper ablates one stopping point per model. Training keeps the weights at initialisation and
at every validation step (:mod:`rnnschur.train`); this module picks the checkpoints to ablate:
the first one whose validation score reaches each milestone, the last one at or before each
requested step, the best-validated one and the last one of the run.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from rnnschur.ablation import evaluate_ablations
from rnnschur.schur import ordered_real_schur
from rnnschur.tasks import Batch


def select_checkpoints(
    step: np.ndarray,
    validation_score: np.ndarray,
    milestones: list[float],
    at_steps: list[int],
    higher_is_better: bool,
) -> list[tuple[int, str]]:
    """(index, label) of the chosen checkpoints, in training order, each index once.

    A milestone m is reached at the first checkpoint with validation score >= m (accuracy) or
    <= m (FVU); a milestone never reached is skipped. A requested step s picks the last
    checkpoint with step <= s. The best-validated checkpoint (the model ``keep_best`` returns)
    and the last one are always chosen. Labels of a checkpoint
    chosen twice are joined with ``", "``.
    """
    sign = 1.0 if higher_is_better else -1.0
    labels: dict[int, list[str]] = {}
    for m in milestones:
        reached = np.flatnonzero(sign * validation_score >= sign * m)
        if reached.size:
            labels.setdefault(int(reached[0]), []).append(f"score {m:g}")
    for s in at_steps:
        before = np.flatnonzero(step <= s)
        if before.size:
            labels.setdefault(int(before[-1]), []).append(f"step {s}")
    best = int(np.argmax(sign * validation_score))
    labels.setdefault(best, []).append("best")
    labels.setdefault(len(step) - 1, []).append("last")
    return [(k, ", ".join(labels[k])) for k in sorted(labels)]


def evaluate_checkpoints(
    checkpoints: dict[str, np.ndarray],
    selected: list[tuple[int, str]],
    alpha: float,
    heldout: Batch,
    task: ModuleType,
    epsilon: float,
    mass_floor: float,
) -> list[dict]:
    """The ablation rows of :func:`rnnschur.ablation.evaluate_ablations` at ``alpha`` for each
    selected checkpoint (each with its own ordered Schur form), headed by ``checkpoint`` (the
    label), ``step`` and ``validation_score``."""
    rows = []
    for k, label in selected:
        W_xh, W_hh, W_hy = (checkpoints[key][k] for key in ("W_xh", "W_hh", "W_hy"))
        head = {
            "checkpoint": label,
            "step": int(checkpoints["step"][k]),
            "validation_score": float(checkpoints["validation_score"][k]),
        }
        schur = ordered_real_schur(W_hh)
        ablations = evaluate_ablations(
            W_xh, W_hh, W_hy, schur, [alpha], heldout, task, epsilon, mass_floor
        )
        rows += [head | row for row in ablations]
    return rows
