"""Ablations along training ("when training stops", beyond the paper).

The paper ablates one stopping point per model. Training keeps the weights at initialisation and
at every validation step (:mod:`rnnschur.training.train`); this module picks the checkpoints to
ablate: the first one whose validation score reaches each milestone, the last one at or before each
requested step, the best-validated one and the last one of the run.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from rnnschur.ablation import Analysed, Scoring, evaluate_ablations
from rnnschur.network import WEIGHT_KEYS, Network
from rnnschur.network.dynamics import DISCRETE, Dynamics
from rnnschur.schur import ordered_real_schur
from rnnschur.tasks import Batch


def select_checkpoints(
    step: np.ndarray,
    validation_score: np.ndarray,
    milestones: list[float],
    at_steps: list[int],
    higher_is_better: bool,
) -> list[tuple[int, list[tuple[str, float | None]]]]:
    """(index, reasons) of the chosen checkpoints, in training order, each index once; a reason
    is (``"milestone"``, m), (``"step"``, s), (``"best"``, None) or (``"last"``, None).

    A milestone m is reached at the first checkpoint with validation score >= m (accuracy) or
    <= m (FVU); a milestone never reached is skipped. A requested step s picks the last
    checkpoint with step <= s. The best-validated checkpoint (the model ``keep_best`` returns)
    and the last one are always chosen; a checkpoint chosen for several reasons has them all.
    """
    sign = 1.0 if higher_is_better else -1.0
    reasons: dict[int, list[tuple[str, float | None]]] = {}
    for m in milestones:
        reached = np.flatnonzero(sign * validation_score >= sign * m)
        if reached.size:
            reasons.setdefault(int(reached[0]), []).append(("milestone", m))
    for s in at_steps:
        before = np.flatnonzero(step <= s)
        if before.size:
            reasons.setdefault(int(before[-1]), []).append(("step", s))
    best = int(np.argmax(sign * validation_score))
    reasons.setdefault(best, []).append(("best", None))
    reasons.setdefault(len(step) - 1, []).append(("last", None))
    return [(k, reasons[k]) for k in sorted(reasons)]


def evaluate_checkpoints(
    checkpoints: dict[str, np.ndarray],
    selected: list[tuple[int, list[tuple[str, float | None]]]],
    alpha: float,
    heldout: Batch,
    task: ModuleType,
    scoring: Scoring,
    dynamics: Dynamics = DISCRETE,
    split: str = "propagator",
) -> list[dict]:
    """The ablation rows of :func:`rnnschur.ablation.evaluate_ablations` at ``alpha`` for each
    selected checkpoint (each with its own ordered Schur form, evaluated once), repeated for
    each reason it was chosen and headed by ``selection`` and ``selection_value`` (the reason,
    NaN for best and last), ``step`` and ``validation_score``; ``split``: the α split of a
    leaky network's blocks (:meth:`rnnschur.network.dynamics.Dynamics.split_leak`).

    Eight parameters, not a value object: a checkpoint stack has no single Schur form, so
    the network-wide :class:`rnnschur.ablation.Analysed` does not fit; these are the rule's
    inputs one for one.
    """
    rows = []
    for k, reasons in selected:
        network = Network(*(checkpoints[key][k] for key in WEIGHT_KEYS), dynamics)
        schur = ordered_real_schur(network.W_hh, leak=dynamics.split_leak(split))
        ablations = evaluate_ablations(Analysed(network, schur, heldout, task), [alpha], scoring)
        for kind, value in reasons:
            head = {
                "selection": kind,
                "selection_value": float("nan") if value is None else float(value),
                "step": int(checkpoints["step"][k]),
                "validation_score": float(checkpoints["validation_score"][k]),
            }
            rows += [head | row for row in ablations]
    return rows
