"""Why Schur and not eigen coordinates (paper §2, "coordinate choice"; beyond the paper).

The paper argues that eigen coordinates of a strongly non-normal W are ill-conditioned, so a
component ablation in them is basis-sensitive, while the Schur basis stays orthogonal. This
module measures it on a given W:

- the condition number κ(V) of the eigenvector matrix (unit-norm columns);
- the departure from normality: Henrici's dep(W) = (‖W‖_F² − Σ|λ_i|²)^{1/2} / ‖W‖_F, and the
  share of the Schur form in the couplings, ‖N‖_F/‖T‖_F (eq. 4; it leaves out the
  non-normality inside the 2×2 blocks of the real form, so it is at most dep(W));
- the eigen-coordinate analogue of −T_{C→R}: zero the components of the C eigenvectors in the
  R eigenspace (orthogonalise them against it) and rebuild W̃ = V' Λ V'^{-1}. For a
  diagonalisable W this is the Schur ablation −T_{C→R} exactly: with T_{C→R} = 0 the
  C-invariant subspace is span(Q_C), orthogonal to the R-invariant span(Q_R), and the
  eigenvalues are unchanged;
- the spread of either route under tiny random perturbations W + E, ‖E‖_F = δ‖W‖_F, as an
  amplification: (‖W̃(W + E) − W̃(W)‖_F / ‖W̃(W)‖_F) / δ.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rnnschur.ablation import SUBSETS, ablated, subset_name
from rnnschur.schur import OrderedSchur, coupling_part, ordered_real_schur


def eigenvector_condition(W: np.ndarray) -> float:
    """κ₂(V) of the eigenvector matrix with unit-norm columns (1 for a normal W; inf if W is
    numerically defective)."""
    _, V = np.linalg.eig(W)
    return float(np.linalg.cond(V))


def henrici_departure(W: np.ndarray) -> float:
    """dep(W)/‖W‖_F = (‖W‖_F² − Σ|λ_i|²)^{1/2} / ‖W‖_F (Henrici 1962): 0 iff W is normal."""
    eigenvalues = np.linalg.eigvals(W)
    squared = np.linalg.norm(W) ** 2 - np.sum(np.abs(eigenvalues) ** 2)
    return float(np.sqrt(max(squared, 0.0)) / np.linalg.norm(W))


def schur_departure(schur: OrderedSchur) -> float:
    """‖N‖_F / ‖T‖_F: the couplings' share of the ordered Schur form (eq. 4)."""
    return float(np.linalg.norm(coupling_part(schur)) / np.linalg.norm(schur.T))


def schur_route(W: np.ndarray, alpha: float, subsets: list[tuple[str, ...]]) -> np.ndarray:
    """(len(subsets), n, n): W̃(S) for each S through one fresh ordered real Schur
    decomposition of W (the paper's ablation)."""
    schur = ordered_real_schur(W)
    return np.stack([ablated(W, schur, alpha, s) for s in subsets])


def eigen_route_CR(W: np.ndarray, alpha: float) -> np.ndarray:
    """The analogue of −T_{C→R} in eigen coordinates: with W = V Λ V^{-1}, replace each C
    eigenvector v by its component orthogonal to the R eigenspace, v − P_R v, and rebuild
    W̃ = V' Λ V'^{-1} (real part; R = {|λ| >= alpha ρ(W)} holds whole conjugate pairs)."""
    eigenvalues, V = np.linalg.eig(W)
    moduli = np.abs(eigenvalues)
    in_R = moduli >= alpha * moduli.max()
    U_R, _ = np.linalg.qr(V[:, in_R])
    V_new = V.copy()
    V_new[:, ~in_R] -= U_R @ (U_R.conj().T @ V[:, ~in_R])
    return ((V_new * eigenvalues) @ np.linalg.inv(V_new)).real


def perturbations(
    rng: np.random.Generator, W: np.ndarray, relative: float, n_draws: int
) -> np.ndarray:
    """(n_draws, n, n) Gaussian directions E scaled to ‖E‖_F = relative ‖W‖_F."""
    E = rng.standard_normal((n_draws, *W.shape))
    return E * (relative * np.linalg.norm(W) / np.linalg.norm(E, axis=(-2, -1)))[:, None, None]


def route_spread(
    route: Callable[[np.ndarray], np.ndarray], W: np.ndarray, E: np.ndarray
) -> np.ndarray:
    """Amplification of each perturbation in ``E`` (from :func:`perturbations`) through an
    ablation route that returns a matrix or a stack of them (one route per matrix):
    (‖route(W + E) − route(W)‖_F / ‖route(W)‖_F) / (‖E‖_F / ‖W‖_F), shape (n_draws, *stack)."""
    reference = route(W)
    stack = reference.shape[:-2]
    relative = np.linalg.norm(E, axis=(-2, -1)) / np.linalg.norm(W)
    change = np.stack([np.linalg.norm(route(W + e) - reference, axis=(-2, -1)) for e in E])
    size = np.linalg.norm(reference, axis=(-2, -1))
    return change / size / relative.reshape(-1, *(1,) * len(stack))


def sensitivity_rows(W: np.ndarray, schur: OrderedSchur, alpha: float, E: np.ndarray) -> list[dict]:
    """One row per route and subset: the Schur route for every non-empty subset (all from one
    decomposition per perturbed W), the eigen route for T_CR, each with the median and largest
    amplification over the perturbations ``E``. Every row also holds the model's ``kappa_V``,
    ``henrici``, ``schur_departure`` and ``eigen_schur_difference`` =
    ‖W̃_eigen − W̃_Schur‖_F / ‖W‖_F for −T_{C→R} (0 in exact arithmetic)."""
    subsets = list(SUBSETS[1:])
    model = {
        "kappa_V": eigenvector_condition(W),
        "henrici": henrici_departure(W),
        "schur_departure": schur_departure(schur),
        "eigen_schur_difference": float(
            np.linalg.norm(eigen_route_CR(W, alpha) - schur_route(W, alpha, [("T_CR",)])[0])
            / np.linalg.norm(W)
        ),
    }
    schur_spread = route_spread(lambda M: schur_route(M, alpha, subsets), W, E)
    eigen_spread = route_spread(lambda M: eigen_route_CR(M, alpha), W, E)
    spreads = [("schur", s, schur_spread[:, i]) for i, s in enumerate(subsets)]
    spreads.append(("eigen", ("T_CR",), eigen_spread))
    return [
        {
            "route": route,
            "subset": subset_name(subset),
            "amplification_median": float(np.median(amplification)),
            "amplification_max": float(np.max(amplification)),
        }
        | model
        for route, subset, amplification in spreads
    ]
