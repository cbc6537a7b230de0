"""Ordered real Schur form: reconstruction, orthogonality, ordering and block structure on
random, orthogonal, defective and near-degenerate matrices (hypothesis)."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rnnschur.schur import (
    COUPLING_BLOCKS,
    SchurCheckError,
    block_structure,
    check_schur,
    coupling_masks,
    coupling_part,
    modulus_resolution,
    n_dominant,
    ordered_real_schur,
)

sizes = st.integers(min_value=1, max_value=24)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_matrix(seed, n, scale=1.0):
    return np.random.default_rng(seed).standard_normal((n, n)) * scale / np.sqrt(n)


def orthogonal(seed, n):
    q, r = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, n)))
    return q * np.sign(np.diag(r))


def defective(seed, n):
    """A similarity transform of Jordan blocks (repeated eigenvalues, deficient eigenvectors)."""
    rng = np.random.default_rng(seed)
    eigenvalues = np.repeat(rng.uniform(-1, 1, size=(n + 2) // 3), 3)[:n]
    J = np.diag(eigenvalues) + np.diag((eigenvalues[:-1] == eigenvalues[1:]).astype(float), 1)
    S = orthogonal(seed + 1, n) + 0.1 * rng.standard_normal((n, n))
    return S @ J @ np.linalg.inv(S)


def near_degenerate(seed, n):
    """Eigenvalue moduli equal up to 1e-12: the ordering meets ties everywhere."""
    rng = np.random.default_rng(seed)
    angles = rng.uniform(0, np.pi, size=n // 2)
    blocks = [np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) for a in angles]
    D = np.zeros((n, n))
    for k, b in enumerate(blocks):
        D[2 * k : 2 * k + 2, 2 * k : 2 * k + 2] = b * (1 + 1e-12 * k)
    if n % 2:
        D[-1, -1] = -1.0
    Q = orthogonal(seed, n)
    return Q @ D @ Q.T


def assert_ordered_schur(W, schur):
    n = W.shape[0]
    Q, T = schur.Q, schur.T
    assert np.linalg.norm(W - Q @ T @ Q.T) <= 1e-10 * max(np.linalg.norm(W), 1e-300)
    assert np.linalg.norm(Q.T @ Q - np.eye(n)) <= 1e-10 * n
    assert np.all(np.tril(T, -2) == 0)
    starts = block_structure(T)
    np.testing.assert_array_equal(starts, schur.block_starts)
    assert set(np.diff(np.append(starts, n))) <= {1, 2}
    moduli = schur.block_moduli
    assert np.all(np.diff(moduli) <= 1e-8 * max(schur.spectral_radius, 1e-300))
    # The ordered diagonal blocks carry the spectrum of W.
    expected = np.sort_complex(np.linalg.eigvals(W))
    got = np.sort_complex(schur.eigenvalues)
    np.testing.assert_allclose(
        np.abs(got), np.abs(expected), atol=1e-6 * max(1, np.abs(expected).max())
    )


@settings(max_examples=60, deadline=None)
@given(seeds, sizes, st.sampled_from([1e-3, 1.0, 1e3]))
def test_random_matrices(seed, n, scale):
    W = random_matrix(seed, n, scale)
    assert_ordered_schur(W, ordered_real_schur(W))


@settings(max_examples=30, deadline=None)
@given(seeds, sizes)
def test_orthogonal_matrices(seed, n):
    W = orthogonal(seed, n)
    assert_ordered_schur(W, ordered_real_schur(W))


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=18))
@example(seed=443646, n=17)  # dtrexc's swaps lifted a triple eigenvalue's modulus by 1.3e-8
def test_defective_matrices(seed, n):
    """Ordered wherever rounding can resolve the order: a rise between two blocks' moduli stays
    within what rounding moves them by (n ε ‖T‖ κ(λ), each), never above."""
    W = defective(seed, n)
    schur = ordered_real_schur(W)
    Q, T = schur.Q, schur.T
    assert np.linalg.norm(W - Q @ T @ Q.T) <= 1e-10 * np.linalg.norm(W)
    rise = np.diff(schur.block_moduli)
    resolution = modulus_resolution(schur)
    assert np.all(rise <= 1e-8 * schur.spectral_radius + resolution[:-1] + resolution[1:])


def test_a_rise_that_rounding_cannot_make_is_refused():
    """A well-conditioned T (κ = 1: normal) whose moduli rise by 1e-6 ρ: far above its
    resolution (about n ε ‖T‖), so refused; the same T ordered passes."""
    values = np.array([1.0, 0.5, 0.5 + 1e-6, 0.2])
    resolution_bound = 4 * np.finfo(float).eps * np.linalg.norm(np.diag(values))
    make = type(ordered_real_schur(np.eye(1)))
    schur = make(np.eye(4), np.diag(values), np.arange(4), values + 0j)
    assert np.all(modulus_resolution(schur) <= 1.01 * resolution_bound)
    with pytest.raises(SchurCheckError, match="non-increasing"):
        check_schur(np.diag(values), schur)
    ordered = np.sort(values)[::-1]
    check_schur(np.diag(ordered), make(np.eye(4), np.diag(ordered), np.arange(4), ordered + 0j))


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=24))
def test_near_degenerate_matrices(seed, n):
    W = near_degenerate(seed, n)
    assert_ordered_schur(W, ordered_real_schur(W))


def test_strongly_non_normal_and_special_cases():
    n = 12
    W = np.triu(np.random.default_rng(0).standard_normal((n, n)) * 10, 1) + np.diag(
        np.linspace(0.1, 1.2, n)
    )
    assert_ordered_schur(W, ordered_real_schur(W))
    for W in (np.zeros((3, 3)), np.array([[2.0]]), np.array([[0.0, -1.0], [1.0, 0.0]])):
        assert_ordered_schur(W, ordered_real_schur(W))


@settings(max_examples=40, deadline=None)
@given(seeds, sizes, st.floats(min_value=0.05, max_value=1.0))
def test_masks_partition_N(seed, n, alpha):
    schur = ordered_real_schur(random_matrix(seed, n))
    masks = coupling_masks(schur, alpha)
    N_support = coupling_part(schur) != 0
    union = masks["T_RR"] | masks["T_CR"] | masks["T_CC"]
    total = sum(m.astype(int) for m in masks.values())
    assert total.max() <= 1  # disjoint
    # The union is exactly the strictly block-upper part: N's support lies inside it, and no
    # mask touches a diagonal block or the part below it.
    assert np.all(union[N_support])
    blocks = np.repeat(np.arange(len(schur.block_starts)), schur.block_sizes)
    np.testing.assert_array_equal(union, blocks[:, None] < blocks[None, :])
    # R is a leading set that never splits a 2x2 block, and n_R counts its dimensions.
    n_R = n_dominant(schur, alpha)
    assert n_R in set(np.append(schur.block_starts, n))
    assert np.all(np.abs(schur.eigenvalues[:n_R]) >= alpha * schur.spectral_radius * (1 - 1e-12))
    assert np.all(np.abs(schur.eigenvalues[n_R:]) < alpha * schur.spectral_radius)
    assert set(masks) == set(COUPLING_BLOCKS)


def test_alpha_out_of_range_is_refused():
    schur = ordered_real_schur(random_matrix(0, 4))
    for alpha in (0.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="alpha"):
            n_dominant(schur, alpha)


def test_check_schur_detects_a_broken_decomposition():
    W = random_matrix(1, 8)
    schur = ordered_real_schur(W)
    broken = type(schur)(schur.Q, schur.T + 1e-3, schur.block_starts, schur.eigenvalues)
    with pytest.raises(SchurCheckError, match="QTQ"):
        check_schur(W, broken)
    reversed_T = schur.T[::-1, ::-1].copy()
    with pytest.raises(SchurCheckError):
        check_schur(W, type(schur)(schur.Q, reversed_T, schur.block_starts, schur.eigenvalues))


def test_non_finite_matrix_is_refused():
    with pytest.raises(ValueError, match="NaN"):
        ordered_real_schur(np.array([[np.nan, 0.0], [0.0, 1.0]]))


def test_alpha_one_keeps_the_blocks_at_the_spectral_radius():
    """The boundary α = 1: R is exactly the leading block(s) with |λ| = ρ (a real one here, a
    conjugate pair in the rotation), never empty."""
    W = np.diag([0.5, 2.0, -2.0, 1.0])  # two real eigenvalues tie at ρ = 2
    assert n_dominant(ordered_real_schur(W), 1.0) == 2
    rotation = np.array([[0.0, -1.5, 0.0], [1.5, 0.0, 0.0], [0.0, 0.0, 1.0]])
    assert n_dominant(ordered_real_schur(rotation), 1.0) == 2


@settings(max_examples=20, deadline=None)
@given(seeds, sizes)
def test_T_is_its_blocks_plus_N_and_the_eigenvalues_are_W_s(seed, n):
    W = random_matrix(seed, n)
    schur = ordered_real_schur(W)
    N = coupling_part(schur)
    blocks = np.repeat(np.arange(len(schur.block_starts)), schur.block_sizes)
    upper = blocks[:, None] < blocks[None, :]
    np.testing.assert_array_equal(N[upper], schur.T[upper])
    assert not N[~upper].any()
    # B = T − N is block diagonal and holds W's eigenvalues, each conjugate pair in one block.
    key = lambda z: (round(z.real, 6), round(z.imag, 6))  # noqa: E731
    expected = sorted(np.linalg.eigvals(W), key=key)
    np.testing.assert_allclose(sorted(schur.eigenvalues, key=key), expected, atol=1e-7)
    for start, size in zip(schur.block_starts, schur.block_sizes, strict=True):
        pair = schur.eigenvalues[start : start + size]
        if size == 2:
            assert pair[0].imag > 0 and pair[1] == np.conj(pair[0])


def test_check_schur_names_each_broken_property():
    W = np.diag([3.0, 2.0, 1.0, 0.5])
    schur = ordered_real_schur(W)
    make = type(schur)
    below = schur.T.copy()
    below[3, 0] = 1e-3  # W is still Q T Qᵀ for the W made from it
    with pytest.raises(SchurCheckError, match="below its first sub-diagonal"):
        check_schur(below, make(np.eye(4), below, schur.block_starts, schur.eigenvalues))
    increasing = np.diag([0.5, 1.0, 2.0, 3.0])
    with pytest.raises(SchurCheckError, match="non-increasing"):
        check_schur(increasing, make(np.eye(4), increasing, np.arange(4), np.diag(increasing) + 0j))
    with pytest.raises(SchurCheckError, match="block_starts"):
        check_schur(W, make(schur.Q, schur.T, np.array([0, 2]), schur.eigenvalues))
    skew = np.eye(4) + np.triu(
        np.full((4, 4), 0.1), 1
    )  # W = S T Sᵀ reconstructs; S is not orthogonal
    with pytest.raises(SchurCheckError, match="not orthogonal"):
        check_schur(skew @ W @ skew.T, make(skew, W, schur.block_starts, schur.eigenvalues))
