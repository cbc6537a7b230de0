"""Are the couplings special? Each coupling block removed by a fraction, against random
perturbations of the same size.

The paper removes whole blocks: W̃(S) = Q (T − ΔT_S) Qᵀ. Near full removal the harm often
saturates near chance, where any perturbation that large does as much. Here each block S of
{T_RR, T_C→R, T_CC} at α is removed by a fraction ε of a grid (config ``dose_response.epsilons``),

    T̃(ε) = T − ε ΔT_S,    W̃(ε) = W − ε Q ΔT_S Qᵀ,    ‖ΔW(ε)‖_F = ε ‖ΔT_S‖_F  (Q orthogonal),

and at every ε beside K random perturbations ΔW of the same Frobenius norm (each draw seeded
by the job's own stream and recorded), of six kinds (:data:`CONTROLS`), each named by what it
does to T (:data:`EFFECTS`). One removes coupling as the block's removal does and is the
verdicts' reference (:data:`JUDGED`):

- ``other_couplings`` (*removes*): entries of N outside the tested block, in a random order,
  zeroed until the removed Frobenius norm reaches ε ‖ΔT_S‖_F (the last one shrunk to match;
  all of them where they hold less). Its achieved norm is recorded per draw
  (``drawn_norm``); a dose where it falls short of the block's in a solution is *unmatched*
  there, and the verdicts are judged only on matched doses
  (:func:`rnnschur.studies.beyond.dose_summary.dose_summary`).

The others are secondary columns, reported beside it, not judged against:

- ``rotated_block`` (*adds*, keeping the spectrum): the tested block's singular values along
  random singular vectors (Haar), ε U' Σ V'ᵀ in the block's positions, subtracted from T: the
  block is perturbed, not removed (its expected norm grows, as for ``same_positions``);
- ``other_couplings_operator`` (*removes*): the same entries of N in a random order, removed
  until the operator norm ‖ΔT‖₂ reaches the block's ε ‖ΔT_S‖₂ (the prefix that reaches it,
  shrunk as a whole to match); its draws come from a stream of their own;
- ``same_positions`` (*adds*): Gaussian values in the block's own positions of T (W − Q R Qᵀ):
  the expected coupling norm grows to √(1 + ε²) ‖T_S‖;
- ``other_blocks`` (*adds*): Gaussian values in the positions of the other two coupling blocks;
- ``gaussian`` (*moves* eigenvalues): an unstructured Gaussian ΔW in W's own coordinates.

The spectrum-keeping kinds (:data:`SPECTRAL`) move only strictly block-upper entries of T, so
T̃ keeps T's diagonal blocks and W̃ every eigenvalue of W, as the block's own removal does
(checked on every draw: :func:`check_keeps_spectrum`).

Every perturbation is scored on the held-out set and judged on the workflow's one scale, the
harm share (:func:`rnnschur.studies.verdicts.harm_share`). Where a fitting set is given, a ridge
readout is refit on the hidden states of W̃(ε) (:func:`rnnschur.studies.beyond.refit.fit_readout`)
at every ε, so that harm that a new readout recovers ("misaligned") is told apart from harm it
does not ("lost"), and on those of the first removal control's draw at the same ε: whether a
new readout recovers the block's removal more than any removal of its size. The per-model
rows are judged over seeds by :mod:`rnnschur.studies.beyond.dose_summary`.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from rnnschur.ablation import Analysed, ablated_recurrent, delta_T, other_couplings
from rnnschur.network import Network
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur, coupling_masks
from rnnschur.studies.beyond.refit import refit_readout, split
from rnnschur.studies.verdicts import harm_share
from rnnschur.tasks import Batch

CONTROLS = (
    "other_couplings",
    "rotated_block",
    "same_positions",
    "other_blocks",
    "gaussian",
    "other_couplings_operator",
)
"""The matched random perturbations, in the order the table lists them."""
OPERATOR = "other_couplings_operator"
"""The control matched in operator norm instead of Frobenius norm (reported, not judged)."""
SPECTRAL = ("other_couplings", "rotated_block", OPERATOR)
"""The controls that keep every eigenvalue (checked on every draw)."""
JUDGED = ("other_couplings",)
"""The controls that remove coupling as the block's removal does: the verdicts' reference."""
EFFECTS = {
    "other_couplings": "removes other couplings",
    "rotated_block": "adds a rotated copy of the block",
    "same_positions": "adds noise in the block's positions",
    "other_blocks": "adds noise in the other blocks' positions",
    "gaussian": "adds noise to W (moves eigenvalues)",
    OPERATOR: "removes other couplings to the operator norm",
}
"""What each control does to T, as the tables name it."""
MATCHED = 1 - 1e-6
"""The share of the block's norm a removal control must reach for its dose to count."""
CHUNK = 16
"""Perturbed matrices rolled out in one batched call (memory: CHUNK × trials × steps × N_h)."""


def control_perturbation(
    kind: str, block: str, masks: dict[str, np.ndarray], schur: OrderedSchur, norm: float, rng
) -> np.ndarray:
    """One random ΔW of kind ``kind`` (:data:`CONTROLS`) for ``block``, scaled to Frobenius
    norm ``norm`` (:data:`OPERATOR`: to operator norm ``norm``); zeros where the positions it
    would fill are none, less where the other couplings hold less (``other_couplings``).

    Six parameters, not a value object: the draw's kind, block and size with the split it
    draws in (``masks`` of ``schur`` at α, computed once per model) and its random stream.
    """
    n = schur.T.shape[0]
    others = [b for b in COUPLING_BLOCKS if b != block]
    if kind in SPECTRAL:
        if kind == OPERATOR:
            R = other_couplings_operator(schur.T, masks[others[0]] | masks[others[1]], norm, rng)
        elif kind == "other_couplings":
            R = other_couplings(schur.T, masks[others[0]] | masks[others[1]], norm, rng)
        else:
            R = rotated_block(schur.T, masks[block], norm, rng)
        check_keeps_spectrum(R, masks)
        return schur.Q @ R @ schur.Q.T
    if kind == "gaussian":
        dW = rng.standard_normal((n, n))
    else:
        where = masks[block] if kind == "same_positions" else masks[others[0]] | masks[others[1]]
        R = np.where(where, rng.standard_normal((n, n)), 0.0)
        dW = schur.Q @ R @ schur.Q.T
    size = np.linalg.norm(dW)
    return dW * (norm / size) if size > 0 else dW


def other_couplings_operator(T: np.ndarray, others: np.ndarray, norm: float, rng) -> np.ndarray:
    """ΔT removing entries of T where ``others`` in a random order until ‖ΔT‖₂ = ``norm``: the
    shortest prefix of the order whose operator norm reaches it (found by bisection), shrunk as
    a whole to match; every entry where they reach less than ``norm`` together."""
    where = np.flatnonzero(others.ravel())
    order = where[rng.permutation(len(where))]
    values = T.ravel()[order]

    def prefix(k: int) -> np.ndarray:
        R = np.zeros(T.size)
        R[order[:k]] = values[:k]
        return R.reshape(T.shape)

    if len(order) == 0 or np.linalg.norm(prefix(len(order)), 2) <= norm:
        return prefix(len(order))
    low, high = 0, len(order)  # ‖prefix(low)‖₂ < norm ≤ ‖prefix(high)‖₂
    while high - low > 1:
        middle = (low + high) // 2
        if np.linalg.norm(prefix(middle), 2) < norm:
            low = middle
        else:
            high = middle
    R = prefix(high)
    return R * (norm / np.linalg.norm(R, 2))


def haar(n: int, k: int, rng) -> np.ndarray:
    """(n, k) with orthonormal columns, uniform (Haar) over the Stiefel manifold."""
    q, r = np.linalg.qr(rng.standard_normal((n, k)))
    return q * np.sign(np.diag(r))


def rotated_block(T: np.ndarray, mask: np.ndarray, norm: float, rng) -> np.ndarray:
    """ΔT = U' Σ V'ᵀ with Σ the singular values of T's block at ``mask`` (its bounding
    rectangle) and U', V' drawn at random, kept on the block's positions and scaled to
    ‖ΔT‖_F = ``norm``."""
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    R = np.zeros_like(T)
    if len(rows) == 0:
        return R
    sigma = np.linalg.svd(np.where(mask, T, 0.0)[np.ix_(rows, cols)], compute_uv=False)
    k = len(sigma)
    R[np.ix_(rows, cols)] = haar(len(rows), k, rng) @ np.diag(sigma) @ haar(len(cols), k, rng).T
    R = np.where(mask, R, 0.0)
    size = np.linalg.norm(R)
    return R * (norm / size) if size > 0 else R


def check_keeps_spectrum(R: np.ndarray, masks: dict[str, np.ndarray]) -> None:
    """A control that must keep W's eigenvalues moves only strictly block-upper entries of T
    (the union of the coupling masks): T − R keeps T's diagonal blocks, so its eigenvalues."""
    inside = masks["T_RR"] | masks["T_CR"] | masks["T_CC"]
    if np.any(R[~inside] != 0):
        raise ValueError("a spectrum-keeping control moves entries on or below T's diagonal blocks")


def _scores(network: Network, stack: list[np.ndarray], batch: Batch, task: ModuleType):
    """The task's score of each W of ``stack`` on ``batch``, rolled out in chunks."""
    out = []
    for start in range(0, len(stack), CHUNK):
        outputs = network.rollout(batch.inputs, np.stack(stack[start : start + CHUNK]))
        out += list(np.atleast_1d(task.score(outputs, batch)))
    return np.asarray(out, dtype=float)


def dose_response(
    analysed: Analysed,
    alpha: float,
    design: dict,
    rng: np.random.Generator,
    fitting: Batch | None = None,
) -> list[dict]:
    """The rows of one model: per block S and fraction ε, the block's own removal
    (``perturbation`` "block", draw −1) and ``design["n_draws"]`` draws of each control, all
    with ‖ΔW‖_F = ε ‖ΔT_S‖_F. ``design``: ``epsilons``, ``n_draws`` and, for the refit (with
    ``fitting``), ``validation_fraction`` and ``ridge_grid`` (the config's ``dose_response``).

    Columns: ``block``, ``epsilon``, ``perturbation``, ``draw``, ``norm``, ``mass_removed``
    (ε ‖ΔT_S‖_F / ‖T‖_F), ``drawn_norm`` and ``operator_norm`` (‖ΔW‖_F and ‖ΔW‖₂ of the
    perturbation as drawn), ``metric``, ``full_score``, ``refit_full_score`` (a readout refit on
    the intact network), ``refit_score`` and ``refit_harm`` (the refit on W̃(ε) and its harm
    share against that baseline; on the block's rows with a fitting set, NaN elsewhere),
    ``perturbation``, ``draw``, ``score`` and ``harm`` (the harm share). With a fitting set,
    the first draw of the removal control (:data:`JUDGED`) at each ε is refit too: its
    ``refit_score`` and ``refit_harm``, the refit's control."""
    network, schur, heldout, task = (
        analysed.network,
        analysed.schur,
        analysed.heldout,
        analysed.task,
    )
    masks = coupling_masks(schur, alpha)
    full = float(task.score(network.rollout(heldout.inputs), heldout))
    T_norm = float(np.linalg.norm(schur.T))
    parts = split(fitting, design["validation_fraction"]) if fitting is not None else None
    grid = design.get("ridge_grid")
    # the refit's own baseline: a readout refit on the intact network's hidden states
    refit_full = refit_score(analysed, network.W_hh, parts, grid) if parts else np.nan
    # the operator-norm control draws from a stream of its own (spawning leaves rng's as it
    # is): the other kinds' draws are those of a run without it
    operator_rng = rng.spawn(1)[0]
    rows = []
    for block in COUPLING_BLOCKS:
        dT = delta_T(schur.T, masks, (block,))
        block_norm = float(np.linalg.norm(dT))
        block_op = float(np.linalg.norm(dT, 2))
        for epsilon in design["epsilons"]:
            W_block = ablated_recurrent(network.W_hh, schur, epsilon * dT)
            stack, labels = [W_block], [("block", -1, epsilon * block_norm, epsilon * block_op)]
            for kind in CONTROLS:
                operator = kind == OPERATOR
                size = epsilon * (block_op if operator else block_norm)
                for draw in range(design["n_draws"]):
                    stream = operator_rng if operator else rng
                    dW = control_perturbation(kind, block, masks, schur, size, stream)
                    stack.append(network.W_hh - dW)
                    labels.append((kind, draw, np.linalg.norm(dW), np.linalg.norm(dW, 2)))
            scores = _scores(network, stack, heldout, task)
            common = {
                "block": block,
                "epsilon": float(epsilon),
                "norm": epsilon * block_norm,
                "mass_removed": epsilon * block_norm / T_norm if T_norm > 0 else 0.0,
                "metric": task.SCORE,
                "full_score": full,
                "refit_full_score": refit_full,
                "refit_score": np.nan,  # the block's own rows, with a fitting set
                "refit_harm": np.nan,
            }
            for (kind, draw, drawn, operator), score in zip(labels, scores, strict=True):
                rows.append(
                    common
                    | {
                        "perturbation": kind,
                        "draw": draw,
                        "drawn_norm": float(drawn),
                        "operator_norm": float(operator),
                        "score": float(score),
                        "harm": float(harm_share(task.SCORE, full, score)),
                    }
                )
            if parts is not None:
                first = len(rows) - len(labels)
                control = next(i for i, lab in enumerate(labels) if lab[:2] == (JUDGED[0], 0))
                for row, W in ((first, W_block), (first + control, stack[control])):
                    refit = refit_score(analysed, W, parts, grid)
                    rows[row] |= {
                        "refit_score": refit,
                        "refit_harm": float(harm_share(task.SCORE, refit_full, refit)),
                    }
    return rows


def refit_score(
    analysed: Analysed, W_tilde: np.ndarray, parts: tuple[Batch, Batch], grid: list[float]
) -> float:
    """The held-out score of W̃ with a ridge readout refit on its hidden states over the
    fitting set's two ``parts`` (fit, validation)."""
    network, heldout = analysed.network, analysed.heldout
    W_refit, _ = refit_readout(network, W_tilde, *parts, grid)
    _, hidden = network.rollout(heldout.inputs, W_tilde, return_hidden=True)
    return float(analysed.task.score(hidden.astype(np.float64) @ W_refit.T, heldout))
