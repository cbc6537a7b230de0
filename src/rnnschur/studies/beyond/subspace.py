"""Subspace control of the Schur ablations (paper §5, the confound it leaves open).

Is an ablation harmless because the coupling has no role, or only because the removed
directions ΔW(S) = W − W̃(S) = Q ΔT(S) Qᵀ avoid the activity the network uses? With P the
orthogonal projector onto a subspace (the top principal components of the held-out hidden
states, or the readout row space of W_hy), the overlap of ΔW is its share of ‖ΔW‖_F² acting on
the subspace,

    input side:  ‖ΔW P‖_F² / ‖ΔW‖_F²      output side:  ‖P ΔW‖_F² / ‖ΔW‖_F²,

between 0 and 1, and dim/N_h for a random direction. A matched control is a random
perturbation E with ‖E‖_F = ‖ΔW‖_F and a prescribed overlap o: o = 1 (confined to the
subspace), o = 0 (confined to its complement) or o = the ablation's own.
"""

from __future__ import annotations

import numpy as np

from rnnschur.ablation import SUBSETS, Analysed, delta_T, subset_name
from rnnschur.schur import coupling_masks
from rnnschur.studies.verdicts import Verdict
from rnnschur.tasks import Batch

SIDES = ("input", "output")
CHUNK = 64
"""Perturbed matrices rolled out as one stack (a speed setting only: bench/bench_speed.py)."""
"""ΔW P (the perturbation reads the subspace) and P ΔW (it writes into the subspace)."""


def principal_axes(hidden: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Principal axes (N_h, N_h; column i the i-th component) of hidden states (..., N_h)
    pooled over trials and steps (centred), and the explained-variance ratio of each; the
    top-k subspace is ``axes[:, :k]``."""
    X = hidden.reshape(-1, hidden.shape[-1]).astype(np.float64)
    X = X - X.mean(axis=0)
    _, s, Vt = np.linalg.svd(X, full_matrices=False)
    variance = s**2
    return Vt.T, variance / variance.sum()


def components_for_variance(variance_ratio: np.ndarray, level: float) -> int:
    """The smallest k whose top-k components explain at least ``level`` of the variance."""
    return int(np.searchsorted(np.cumsum(variance_ratio), level - 1e-12) + 1)


def readout_subspace(W_hy: np.ndarray) -> np.ndarray:
    """Orthonormal basis (N_h, rank) of the row space of W_hy: the directions the readout sees."""
    U, s, _ = np.linalg.svd(W_hy.T, full_matrices=False)
    rank = int(np.sum(s > s.max() * max(W_hy.shape) * np.finfo(float).eps))
    return U[:, :rank]


def restrict(M: np.ndarray, P: np.ndarray, side: str) -> np.ndarray:
    """M P (input side) or P M (output side); M may be a stack (..., n, n)."""
    if side == "input":
        return M @ P
    if side == "output":
        return P @ M
    raise ValueError(f"side must be one of {SIDES}, got {side!r}")


def overlap(dW: np.ndarray, P: np.ndarray, side: str) -> float:
    """Share of ‖ΔW‖_F² on the subspace of the projector P; NaN for ΔW = 0."""
    total = np.linalg.norm(dW) ** 2
    if total == 0:
        return float("nan")
    return float(np.linalg.norm(restrict(dW, P, side)) ** 2 / total)


def matched_perturbation(
    rng: np.random.Generator, P: np.ndarray, side: str, norm: float, target_overlap: float
) -> np.ndarray:
    """A random E with ‖E‖_F = ``norm`` and overlap(E, P, side) = ``target_overlap`` exactly.

    E = norm (√o G_P/‖G_P‖_F + √(1−o) G_⊥/‖G_⊥‖_F), G Gaussian, G_P its restriction to the
    subspace and G_⊥ to the complement: the two parts are Frobenius-orthogonal.
    """
    G = rng.standard_normal(P.shape)
    inside = restrict(G, P, side)
    E = np.zeros_like(G)
    for share, part in ((target_overlap, inside), (1.0 - target_overlap, G - inside)):
        if share > 0:
            size = np.linalg.norm(part)
            if size == 0:
                raise ValueError("the subspace or its complement is empty: no such perturbation")
            E += np.sqrt(share) * part / size
    return norm * E


def harm(score: np.ndarray, full_score: float, higher_is_better: bool) -> np.ndarray:
    """Behavioural change towards worse: accuracy lost, or FVU gained."""
    return (full_score - score) if higher_is_better else (score - full_score)


def verdict(ablation_harm: float, control_harm: float, floor: float, ratio: float) -> Verdict:
    """Compare an ablation's harm with the mean harm of its overlap-matched controls.

    Both are raised to ``floor`` (harms below it count as none), then ``"explained"`` if they
    are within a factor ``ratio`` of each other, else ``"ablation milder"`` or
    ``"ablation stronger"`` than a random perturbation with the same norm and overlap;
    ``"no control"`` where there is none (a subspace without complement).
    """
    if np.isnan(control_harm):
        return Verdict.NO_CONTROL
    a, c = max(ablation_harm, floor), max(control_harm, floor)
    if a * ratio < c:
        return Verdict.ABLATION_MILDER
    if a > c * ratio:
        return Verdict.ABLATION_STRONGER
    return Verdict.EXPLAINED


def evaluate_controls(
    analysed: Analysed,
    alpha: float,
    subspaces: dict[str, np.ndarray],
    n_draws: int,
    rng: np.random.Generator,
) -> list[dict]:
    """Every non-empty ablation S of the network at ``alpha`` beside its matched controls,
    scored on its held-out set (``batch`` below), the perturbed matrices rolled out
    :data:`CHUNK` at a time.

    ``subspaces`` maps a name to an orthonormal basis (N_h, dim). For each S, subspace and side:
    one row ``kind="ablation"`` with the measured overlap, then ``n_draws`` rows for each
    control kind ``inside`` (o = 1), ``complement`` (o = 0) and ``matched`` (the ablation's o),
    all with ‖E‖_F = ‖ΔW(S)‖_F. Columns: ``subset``, ``subspace``, ``dim``, ``side``, ``kind``,
    ``draw``, ``overlap``, ``chance_overlap`` (dim/N_h), ``relative_norm`` (‖ΔW‖_F/‖W‖_F),
    ``score`` and ``harm`` (:func:`harm`, against the full network on ``batch``). A subset that
    removes nothing (ΔW = 0) gets no rows.
    """
    network, schur, batch, task = analysed
    W_hh, chunk = network.W_hh, CHUNK
    N_h = W_hh.shape[0]
    masks = coupling_masks(schur, alpha)
    cases, matrices = [], [W_hh]
    for subset in SUBSETS[1:]:
        dW = schur.Q @ delta_T(schur.T, masks, subset) @ schur.Q.T
        norm = float(np.linalg.norm(dW))
        if norm == 0:
            continue
        matrices.append(W_hh - dW)
        ablation = len(matrices) - 1
        for name, basis in subspaces.items():
            P = basis @ basis.T
            dim = basis.shape[1]
            for side in SIDES:
                o = overlap(dW, P, side)
                common = {"subset": subset_name(subset), "subspace": name, "dim": dim}
                common |= {"side": side, "chance_overlap": dim / N_h}
                common["relative_norm"] = norm / float(np.linalg.norm(W_hh))
                cases.append(common | {"kind": "ablation", "draw": 0, "overlap": o, "k": ablation})
                controls = [("inside", 1.0), ("complement", 0.0), ("matched", o)]
                for kind, target in controls if dim < N_h else controls[:1]:
                    for draw in range(n_draws):
                        E = matched_perturbation(rng, P, side, norm, target)
                        assert abs(overlap(E, P, side) - target) < 1e-9
                        matrices.append(W_hh - E)
                        row = {"kind": kind, "draw": draw, "overlap": target}
                        cases.append(common | row | {"k": len(matrices) - 1})
    stack = np.stack(matrices)
    score = np.concatenate(
        [
            np.atleast_1d(task.score(network.rollout(batch.inputs, stack[i : i + chunk]), batch))
            for i in range(0, len(stack), chunk)
        ]
    )
    rows = []
    for case in cases:
        k = case.pop("k")
        value = float(score[k])
        rows.append(
            case | {"score": value, "harm": float(harm(value, score[0], task.HIGHER_IS_BETTER))}
        )
    return rows


def model_rows(analysed: Analysed, settings: dict, rng: np.random.Generator) -> list[dict]:
    """The subspace control of one model (rule ``subspace_control``; an external model's
    analysis), ``analysed`` on its held-out set as scored (:meth:`Analysed.scored`): on its
    first ``n_trials`` trials, the subspaces of its top ``n_components`` principal components
    (fewer than N_h), of the fewest components explaining ``variance`` of the hidden states'
    variance and of its readout, each ablation and its ``n_draws`` matched controls at ``alpha``
    (:func:`evaluate_controls`; ``settings``: config ``subspace_control`` with ``alpha``). Each
    row says on how many trials it was scored of how many held out."""
    network, schur, heldout, task = analysed
    n = settings["n_trials"]
    batch = Batch(heldout.inputs[:n], heldout.targets[:n], heldout.mask[:n])
    _, hidden = network.rollout(batch.inputs, return_hidden=True)
    axes, variance_ratio = principal_axes(hidden)
    k = components_for_variance(variance_ratio, settings["variance"])
    subspaces = {
        "top_pcs": axes[:, : min(settings["n_components"], network.n_hidden - 1)],
        "variance_pcs": axes[:, :k],
        "readout": readout_subspace(network.W_hy),
    }
    on = Analysed(network, schur, batch, task)
    rows = evaluate_controls(on, settings["alpha"], subspaces, settings["n_draws"], rng)
    scored_on = {"n_trials": len(batch.inputs), "n_heldout": len(heldout.inputs)}
    return [row | scored_on for row in rows]
