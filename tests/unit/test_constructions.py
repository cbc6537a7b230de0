import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from rnnschur.training.cayley import cayley_gradients, cayley_map
from rnnschur.training.constructions import (
    CayleyParams,
    cayley_init,
    dense_normal_init,
    haar_orthogonal,
    initial_recurrent,
    realblock,
    uniform_init,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def is_normal(W, tol=1e-10):
    return np.linalg.norm(W @ W.T - W.T @ W) <= tol * max(1.0, np.linalg.norm(W) ** 2)


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=40))
def test_cayley_gives_orthogonal_factor_and_normal_W(seed, n):
    params = cayley_init(np.random.default_rng(seed), n)
    np.testing.assert_allclose(params.A, -params.A.T)
    assert params.d_real.shape[0] + 2 * params.d_pair.shape[0] == n
    cayley = cayley_map(params.A, params.d_real, params.d_pair)
    O, W = cayley.O, cayley.W
    assert np.linalg.norm(O.T @ O - np.eye(n)) < 1e-10
    assert is_normal(W)
    # The spectrum of W is the spectrum of D: realblock(eig(W~)).
    expected = np.concatenate(
        [
            params.d_real,
            params.d_pair[:, 0] + 1j * params.d_pair[:, 1],
            params.d_pair[:, 0] - 1j * params.d_pair[:, 1],
        ]
    )
    np.testing.assert_allclose(
        np.sort(np.abs(np.linalg.eigvals(W))), np.sort(np.abs(expected)), atol=1e-10
    )


def test_cayley_stays_normal_for_any_parameters():
    rng = np.random.default_rng(3)
    A = rng.standard_normal((9, 9))  # not skew: the map projects it
    W = cayley_map(A, rng.standard_normal(3), rng.standard_normal((3, 2))).W
    assert is_normal(W)


def torch_cayley_weight(A, d_real, d_pair):
    """W = O D Oᵀ, O = solve(I + K, I − K), K = (A − Aᵀ)/2, D filled block by block: an
    independent torch implementation, differentiated by autograd."""
    n, r = A.shape[0], d_real.shape[0]
    K = (A - A.T) / 2
    eye = torch.eye(n, dtype=A.dtype)
    O = torch.linalg.solve(eye + K, eye - K)
    blocks = [d_real[i].reshape(1, 1) for i in range(r)]
    blocks += [torch.stack([torch.stack([a, -b]), torch.stack([b, a])]) for a, b in d_pair]
    return O @ torch.block_diag(*blocks) @ O.T


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=5), st.integers(min_value=0, max_value=5))
def test_cayley_gradients_equal_torch_autograd(seed, r, p):
    """∂L/∂(A, d_real, d_pair) written out equal autograd's on any arrays (A not skew, any real
    and pair blocks), for L = Σ G ∘ W with a random G."""
    if r + p == 0:
        return
    rng = np.random.default_rng(seed)
    n = r + 2 * p
    A, d_real, d_pair = rng.standard_normal((n, n)), rng.standard_normal(r), rng.normal(size=(p, 2))
    G = rng.standard_normal((n, n))
    cayley = cayley_map(A, d_real, d_pair)
    leaves = [torch.tensor(x, requires_grad=True) for x in (A, d_real, d_pair)]
    W = torch_cayley_weight(*leaves)
    np.testing.assert_allclose(cayley.W, W.detach().numpy(), atol=1e-12)
    W.backward(torch.from_numpy(G))
    for ours, leaf in zip(cayley_gradients(cayley, G), leaves, strict=True):
        expected = leaf.grad.numpy() if leaf.grad is not None else np.zeros(leaf.shape)  # empty
        np.testing.assert_allclose(ours, expected, atol=1e-11)


def test_cayley_map_on_tensors_equals_arrays():
    """The tensor path (training on another device) computes what the array path does."""
    rng = np.random.default_rng(1)
    arrays = rng.standard_normal((7, 7)), rng.standard_normal(3), rng.standard_normal((2, 2))
    G = rng.standard_normal((7, 7))
    cayley = cayley_map(*arrays)
    on_tensors = cayley_map(*map(torch.from_numpy, arrays))
    np.testing.assert_allclose(on_tensors.W.numpy(), cayley.W, atol=1e-14)
    ours = cayley_gradients(cayley, G)
    for tensor, array in zip(cayley_gradients(on_tensors, torch.from_numpy(G)), ours, strict=True):
        np.testing.assert_allclose(tensor.numpy(), array, atol=1e-14)


def test_realblock_pairs_conjugates():
    d_real, d_pair = realblock(np.array([0.5, 1 + 2j, 1 - 2j, -0.3]))
    np.testing.assert_allclose(np.sort(d_real), [-0.3, 0.5])
    np.testing.assert_allclose(d_pair, [[1.0, 2.0]])


@settings(max_examples=20, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=30))
def test_dense_inits(seed, n):
    rng = np.random.default_rng(seed)
    W = uniform_init(rng, n)
    assert np.all(np.abs(W) <= n**-0.5)
    Q = haar_orthogonal(rng, n)
    assert np.linalg.norm(Q.T @ Q - np.eye(n)) < 1e-10
    if n % 2 == 0:
        assert is_normal(dense_normal_init(rng, n))


def test_dense_normal_block_variance():
    """a_i, b_i ~ N(0, 1/6): the eigenvalues a ± ib have E|λ|² = 2/6 (|λ|² is 1/6 χ²₂: over
    500 pairs the mean's standard error is 0.015, the bound two of them)."""
    W = dense_normal_init(np.random.default_rng(0), 1000)
    moduli2 = np.abs(np.linalg.eigvals(W)) ** 2
    assert abs(moduli2.mean() - 1 / 3) < 0.03


def test_odd_size_refused_for_dense_normal():
    with pytest.raises(ValueError, match="even"):
        dense_normal_init(np.random.default_rng(0), 7)


def test_initial_recurrent_dispatch():
    rng = np.random.default_rng(0)
    assert isinstance(initial_recurrent("cayley", rng, 6), CayleyParams)
    assert initial_recurrent("dense_default", rng, 6).shape == (6, 6)
    with pytest.raises(KeyError, match="unknown construction"):
        initial_recurrent("sparse", rng, 6)
