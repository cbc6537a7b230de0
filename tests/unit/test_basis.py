"""Schur against eigen coordinates: planted normal, Jordan and near-defective matrices."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import ortho_group

from rnnschur.schur import ordered_real_schur
from rnnschur.studies.beyond import basis


def planted(T, seed=1):
    """Q T Qᵀ for a random orthogonal Q."""
    Q = ortho_group.rvs(len(T), random_state=seed)
    return Q @ T @ Q.T


def near_defective_in_C(gap, seed=1):
    """R = {0.95, 0.9}; C holds the pair 0.5, 0.5 + gap with a unit coupling (κ(V) ~ 1/gap)."""
    rng = np.random.default_rng(seed)
    T = np.triu(rng.standard_normal((8, 8))) * 0.3
    np.fill_diagonal(T, [0.95, 0.9, 0.5, 0.5 + gap, 0.25, 0.2, 0.15, 0.1])
    T[2, 3] = 1.0
    return planted(T, seed)


def test_normal_matrix_is_perfectly_conditioned():
    blocks = np.zeros((6, 6))
    for i, (a, b) in enumerate([(0.9, 0.3), (0.5, -0.2), (0.1, 0.4)]):
        blocks[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[a, -b], [b, a]]
    W = planted(blocks)
    assert basis.eigenvector_condition(W) == pytest.approx(1.0, abs=1e-10)
    assert basis.henrici_departure(W) < 1e-7
    assert basis.schur_departure(ordered_real_schur(W)) < 1e-12
    # Nothing to remove: both routes give W back.
    np.testing.assert_allclose(basis.eigen_route_CR(W, 0.9), W, atol=1e-12)
    np.testing.assert_allclose(basis.schur_route(W, 0.9, [("T_CR",)])[0], W, atol=1e-12)


def test_henrici_departure_of_a_jordan_block():
    a = 0.7
    J = np.array([[a, 1.0], [0.0, a]])
    # dep(J)² = ‖J‖_F² − 2a² = 1, ‖J‖_F² = 2a² + 1.
    assert basis.henrici_departure(J) == pytest.approx(1 / np.sqrt(2 * a**2 + 1), rel=1e-6)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 16), alpha=st.sampled_from([0.5, 0.9]))
def test_eigen_route_is_the_schur_ablation_of_T_CR(seed, n, alpha):
    W = np.random.default_rng(seed).standard_normal((n, n)) / np.sqrt(n)
    kappa = basis.eigenvector_condition(W)
    difference = np.linalg.norm(
        basis.eigen_route_CR(W, alpha) - basis.schur_route(W, alpha, [("T_CR",)])[0]
    )
    # Exact in exact arithmetic; numerically up to rounding amplified by κ(V).
    assert difference <= 1e-12 * max(kappa, 1.0) * np.linalg.norm(W)


def test_eigen_route_loses_accuracy_with_the_eigenvector_condition():
    """Rounding in the eigen route grows like κ(V) ε (not in every draw: take the worst of a
    few); the Schur route has none of it."""

    def worst_difference(gap):
        matrices = [near_defective_in_C(gap, seed) for seed in range(6)]
        kappa = min(basis.eigenvector_condition(W) for W in matrices)
        difference = max(
            np.linalg.norm(basis.eigen_route_CR(W, 0.9) - basis.schur_route(W, 0.9, [("T_CR",)])[0])
            / np.linalg.norm(W)
            for W in matrices
        )
        return kappa, difference

    kappa_well, well = worst_difference(1e-1)
    kappa_ill, ill = worst_difference(1e-8)
    assert kappa_ill > 1e7 and kappa_well < 1e3
    assert well < 1e-13 and ill > 1e-11


def test_spread_is_one_for_a_linear_route_and_perturbations_have_the_asked_norm():
    rng = np.random.default_rng(0)
    W = rng.standard_normal((6, 6))
    E = basis.perturbations(rng, W, 1e-8, 4)
    np.testing.assert_allclose(np.linalg.norm(E, axis=(1, 2)), 1e-8 * np.linalg.norm(W))
    np.testing.assert_allclose(basis.route_spread(lambda M: M, W, E), 1.0, rtol=1e-6)
    assert np.all(basis.route_spread(lambda M: 3 * M, W, E) == pytest.approx(1.0, rel=1e-6))


def test_sensitivity_rows_cover_every_subset_and_both_routes():
    W = near_defective_in_C(1e-2)
    E = basis.perturbations(np.random.default_rng(0), W, 1e-8, 3)
    rows = basis.sensitivity_rows(W, ordered_real_schur(W), 0.9, E)
    assert [(r["route"], r["subset"]) for r in rows][-1] == ("eigen", "T_CR")
    assert len(rows) == 8
    for r in rows:
        assert 0 < r["amplification_median"] <= r["amplification_max"] < 1e4
        assert r["kappa_V"] >= 1 and 0 <= r["schur_departure"] <= r["henrici"] + 1e-12 <= 1
