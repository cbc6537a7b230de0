"""The Cayley construction's map from its trained arrays to W_hh, and the map's gradients.

W = O D Oᵀ with O = (I + K)^{-1} (I − K), K = (A − Aᵀ)/2 (A made exactly skew-symmetric) and
D = blockdiag(d_real..., [[a, −b], [b, a]]...) (:mod:`rnnschur.training.constructions` has the
initialisation). Written out on NumPy arrays (or torch tensors on another device), like the rest
of training (:mod:`rnnschur.training.bptt`): with G = ∂L/∂W and M = (I + K)^{-1},

    ∂L/∂D = Oᵀ G O,   ∂L/∂O = G O Dᵀ + Gᵀ O D,   ∂L/∂K = −Mᵀ (∂L/∂O) (O + I)ᵀ,
    ∂L/∂A = (∂L/∂K − ∂L/∂Kᵀ) / 2

(from dO = −M dK M (I − K) − M dK = −M dK (O + I)); ∂L/∂d_real is the diagonal of ∂L/∂D on the
real blocks, ∂L/∂a the sum of a pair block's diagonal and ∂L/∂b its lower minus its upper entry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnnschur.network.dynamics import array_library


@dataclass(frozen=True)
class CayleyMap:
    """W of the arrays (A, d_real, d_pair) and what its gradients reuse: M = (I + K)^{-1}, O, D."""

    M: object
    O: object
    D: object
    W: object
    n_real: int


def _zeros(lib, n: int, like):
    """(n, n) zeros of the type, dtype (and device) of ``like``."""
    if lib is np:
        return np.zeros((n, n), dtype=like.dtype)
    return lib.zeros((n, n), dtype=like.dtype, device=like.device)


def _identity(like):
    """The identity matrix of the shape, type and dtype of the square ``like``."""
    identity = _zeros(array_library(like), like.shape[0], like)
    identity[np.arange(like.shape[0]), np.arange(like.shape[0])] = 1
    return identity


def cayley_diagonal(d_real, d_pair):
    """D = blockdiag(d_real..., [[a, −b], [b, a]]...) for the pair rows (a, b) of ``d_pair``."""
    r, p = d_real.shape[0], d_pair.shape[0]
    D = _zeros(array_library(d_real), r + 2 * p, d_real)
    real, first = np.arange(r), r + 2 * np.arange(p)
    D[real, real] = d_real
    D[first, first] = D[first + 1, first + 1] = d_pair[:, 0]
    D[first, first + 1] = -d_pair[:, 1]
    D[first + 1, first] = d_pair[:, 1]
    return D


def cayley_map(A, d_real, d_pair) -> CayleyMap:
    """W = O D Oᵀ, O = (I + K)^{-1}(I − K), K = (A − Aᵀ)/2; O is orthogonal and W normal."""
    K = (A - A.T) / 2
    identity = _identity(A)
    M = array_library(A).linalg.solve(identity + K, identity)
    O = M @ (identity - K)
    D = cayley_diagonal(d_real, d_pair)
    return CayleyMap(M=M, O=O, D=D, W=O @ D @ O.T, n_real=d_real.shape[0])


def cayley_gradients(forward: CayleyMap, grad_W) -> tuple:
    """(∂L/∂A, ∂L/∂d_real, ∂L/∂d_pair) from G = ∂L/∂W (the module's equations)."""
    M, O, D, r = forward.M, forward.O, forward.D, forward.n_real
    grad_D = O.T @ grad_W @ O
    grad_O = grad_W @ O @ D.T + grad_W.T @ O @ D
    grad_K = -(M.T @ grad_O @ (O.T + _identity(O)))
    grad_A = (grad_K - grad_K.T) / 2
    real, first = np.arange(r), r + 2 * np.arange((O.shape[0] - r) // 2)
    grad_real = grad_D[real, real]
    grad_a = grad_D[first, first] + grad_D[first + 1, first + 1]
    grad_b = grad_D[first + 1, first] - grad_D[first, first + 1]
    return grad_A, grad_real, array_library(O).stack([grad_a, grad_b], 1)
