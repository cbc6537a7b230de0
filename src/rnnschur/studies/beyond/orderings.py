"""Orderings the moduli do not fix: how much a T_RR or T_CC reading depends on the order of
near-equal moduli inside R (or inside C).

The ordered real Schur form sorts the diagonal blocks of T by modulus (eq. 3). Where two blocks'
moduli are equal, or equal within what the trained weights can fix, nothing in the network
chooses their order, and each order is another orthogonal basis of the same R (or C) subspace:
T_C→R, whose removal takes the whole coupling from C into R, is the same operator in every such
basis, but T_RR and T_CC, the couplings *inside* R or C, are not. Per model, the blocks are
grouped into clusters of consecutive moduli within ``tolerance`` ρ of their neighbour (each of
config ``basis_dependence.tolerances``, relative to the largest modulus: 1e-6, about what
float32 weights fix, and 1e-3, moduli that agree to 0.1 %; a cluster never crosses the R/C
split), ``orderings`` random orders are drawn inside every cluster (LAPACK ``dtrexc``
realises each, as :func:`rnnschur.schur.ordered_real_schur` does), and each T_RR and T_CC
removal is scored in each order. A reading whose harm share spreads by more than θ over the
orders is *basis-dependent* (:func:`rnnschur.studies.beyond.summaries.basis_dependence`).
"""

from __future__ import annotations

import numpy as np

from rnnschur.ablation import Analysed, ablated_recurrent, delta_T
from rnnschur.schur import (
    OrderedSchur,
    SchurCheckError,
    block_structure,
    check_schur,
    coupling_masks,
    n_dominant,
    schur_of,
)
from rnnschur.studies.verdicts import harm_share

INSIDE = ("T_RR", "T_CC")
"""The blocks whose content the order inside R or C changes (T_C→R is the same operator)."""


def clusters(schur: OrderedSchur, alpha: float, tolerance: float) -> list[np.ndarray]:
    """Indices of the diagonal blocks, in runs of two or more consecutive blocks whose moduli
    differ from their neighbour's by at most ``tolerance`` ρ, each inside R or inside C."""
    moduli = schur.block_moduli
    rho = max(schur.spectral_radius, np.finfo(float).tiny)
    n_R = n_dominant(schur, alpha)
    out, run = [], [0]
    for k in range(1, len(moduli)):
        same_side = (k < n_R) == (run[-1] < n_R)
        if same_side and moduli[k - 1] - moduli[k] <= tolerance * rho:
            run.append(k)
            continue
        if len(run) > 1:
            out.append(np.array(run))
        run = [k]
    if len(run) > 1:
        out.append(np.array(run))
    return out


def reorder(schur: OrderedSchur, order: np.ndarray) -> OrderedSchur:
    """The same real Schur form W = Q T Qᵀ with its diagonal blocks in ``order`` (a permutation
    of the block indices), each block moved into place by LAPACK ``dtrexc``; reconstruction and
    orthogonality checked (the order is the caller's, so not that of the moduli)."""
    from scipy.linalg.lapack import dtrexc

    T, Q = np.asfortranarray(schur.T.copy()), np.asfortranarray(schur.Q.copy())
    current = list(range(len(schur.block_starts)))  # which original block sits at each place
    for place, block in enumerate(order):
        starts = block_structure(T)
        here = current.index(block)
        if here != place:
            T, Q, info = dtrexc(T, Q, starts[here] + 1, starts[place] + 1, wantq=1)
            if info != 0:
                raise SchurCheckError(f"LAPACK dtrexc failed to reorder (info={info})")
            current.insert(place, current.pop(here))
    moved = schur_of(T, Q, schur.leak)
    check_schur(schur.Q @ schur.T @ schur.Q.T, moved, ordered=False)
    return moved


def random_order(n_blocks: int, groups: list[np.ndarray], rng) -> np.ndarray:
    """A permutation of the blocks that shuffles each cluster of ``groups`` in place."""
    order = np.arange(n_blocks)
    for group in groups:
        order[group] = rng.permutation(group)
    return order


def _removals(analysed: Analysed, order_schur: OrderedSchur, alpha: float) -> list[tuple]:
    """(block, mass removed, score) of T_RR and T_CC removed in the basis of ``order_schur``,
    rolled out together."""
    network, _, heldout, task = analysed
    masks = coupling_masks(order_schur, alpha)
    T_norm = float(np.linalg.norm(order_schur.T))
    dTs = [delta_T(order_schur.T, masks, (block,)) for block in INSIDE]
    stack = np.stack([ablated_recurrent(network.W_hh, order_schur, dT) for dT in dTs])
    scores = np.atleast_1d(task.score(network.rollout(heldout.inputs, stack), heldout))
    masses = [float(np.linalg.norm(dT)) / T_norm if T_norm > 0 else 0.0 for dT in dTs]
    return list(zip(INSIDE, masses, scores, strict=True))


def ordering_rows(analysed: Analysed, alpha: float, design: dict, rng) -> list[dict]:
    """The rows of one model: per tolerance of ``design["tolerances"]`` (config
    ``basis_dependence``), for the canonical order (``ordering`` −1, scored once) and
    ``orderings`` random orders inside its clusters (none where it makes no cluster), each of
    T_RR and T_CC removed: its mass removed, score and harm share, and the blocks in clusters
    inside R and inside C."""
    network, schur, heldout, task = analysed
    n_R = n_dominant(schur, alpha)
    full = float(task.score(network.rollout(heldout.inputs), heldout))
    n_blocks = len(schur.block_starts)
    canonical = _removals(analysed, schur, alpha)
    rows = []
    for tolerance in design["tolerances"]:
        groups = clusters(schur, alpha, tolerance)
        in_R = sum(len(g) for g in groups if g[0] < n_R)
        n_draws = design["orderings"] if groups else 0
        orders = [random_order(n_blocks, groups, rng) for _ in range(n_draws)]
        scored = [canonical] + [_removals(analysed, reorder(schur, o), alpha) for o in orders]
        for k, removals in enumerate(scored):
            for block, mass, score in removals:
                rows.append(
                    {
                        "tolerance": float(tolerance),
                        "ordering": k - 1,
                        "block": block,
                        "clustered_R": in_R,
                        "clustered_C": sum(len(g) for g in groups) - in_R,
                        "mass_removed": mass,
                        "metric": task.SCORE,
                        "full_score": full,
                        "score": float(score),
                        "harm": float(harm_share(task.SCORE, full, score)),
                    }
                )
    return rows
