"""Recurrent constructions of the copy experiment (paper §3), with m = N_h^{-1/2}.

- ``dense_default``: W unconstrained, init W_ij ~ Unif[−m, m].
- ``dense_orthogonal``: W unconstrained, init a Haar-random orthogonal matrix.
- ``dense_normal``: W unconstrained, init Q D_norm Qᵀ, D_norm = blockdiag(B_1..B_{N_h/2}),
  B_i = [[a_i, −b_i], [b_i, a_i]], a_i, b_i ~ N(0, 1/6) (1/6 read as the variance).
- ``cayley``: every iterate is W = O(A) D O(A)ᵀ, A skew-symmetric, O(A) = (I − A)(I + A)^{-1};
  init A = (U − Uᵀ)/2 with U_ij ~ Unif[−m, m] and D = realblock(eig(W̃)), W̃_ij ~ Unif[−m, m].
  The trained parameters are A and the blocks of D: a scalar per real eigenvalue and (a, b) per
  rotation-scaling block [[a, −b], [b, a]], so W stays normal.

:data:`CONSTRUCTIONS` is the registry: a construction is added by writing its initialiser (a
dense W, or parameters that training maps to W, as for ``cayley``) and one entry there. The
Cayley map itself needs torch (it is differentiated in training) and imports it when called, so
this module stays importable without torch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def haar_orthogonal(rng: np.random.Generator, n: int) -> np.ndarray:
    """A Haar-distributed orthogonal (n, n) matrix (QR of a Gaussian, signs fixed)."""
    Q, R = np.linalg.qr(rng.standard_normal((n, n)))
    return Q * np.sign(np.diag(R))


def uniform_init(rng: np.random.Generator, n: int) -> np.ndarray:
    """W_ij ~ Unif[−m, m], m = n^{-1/2}."""
    m = n**-0.5
    return rng.uniform(-m, m, size=(n, n))


def dense_normal_init(rng: np.random.Generator, n: int, variance: float = 1 / 6) -> np.ndarray:
    """Q D_norm Qᵀ with N_h/2 rotation-scaling blocks [[a, −b], [b, a]], a, b ~ N(0, variance)."""
    if n % 2:
        raise ValueError(f"dense_normal needs an even N_h (N_h/2 blocks of size 2), got {n}")
    a, b = rng.normal(0.0, np.sqrt(variance), size=(2, n // 2))
    D = rotation_scaling_blockdiag(np.zeros(0), np.stack([a, b], axis=1))
    Q = haar_orthogonal(rng, n)
    return Q @ D @ Q.T


def rotation_scaling_blockdiag(d_real: np.ndarray, d_pair: np.ndarray) -> np.ndarray:
    """blockdiag(d_real[0], .., [[a_0, −b_0], [b_0, a_0]], ..): real blocks first, then pairs."""
    r, p = len(d_real), len(d_pair)
    D = np.zeros((r + 2 * p, r + 2 * p))
    D[np.arange(r), np.arange(r)] = d_real
    first = r + 2 * np.arange(p)
    a, b = d_pair[:, 0], d_pair[:, 1]
    D[first, first], D[first + 1, first + 1] = a, a
    D[first, first + 1], D[first + 1, first] = -b, b
    return D


def realblock(eigenvalues: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split eigenvalues into real ones and rotation-scaling pairs (a, b) for a ± ib, b > 0."""
    eigenvalues = np.asarray(eigenvalues)
    is_real = np.abs(eigenvalues.imag) <= 1e-12 * max(1.0, float(np.max(np.abs(eigenvalues))))
    upper = eigenvalues[~is_real & (eigenvalues.imag > 0)]
    return eigenvalues[is_real].real.copy(), np.stack([upper.real, upper.imag], axis=1)


@dataclass(frozen=True)
class CayleyParams:
    """A (n, n) skew-symmetric; d_real (r,); d_pair (p, 2) rows (a, b); r + 2p = n."""

    A: np.ndarray
    d_real: np.ndarray
    d_pair: np.ndarray


def cayley_init(rng: np.random.Generator, n: int) -> CayleyParams:
    """A = (U − Uᵀ)/2, U ~ Unif[−m, m]; D = realblock(eig(W̃)), W̃ ~ Unif[−m, m]."""
    U = uniform_init(rng, n)
    d_real, d_pair = realblock(np.linalg.eigvals(uniform_init(rng, n)))
    return CayleyParams(A=(U - U.T) / 2, d_real=d_real, d_pair=d_pair)


@dataclass(frozen=True)
class Construction:
    """A recurrent construction: its initialiser (rng, N_h) -> W, or :class:`CayleyParams` that
    training maps to W; ``even_sizes`` where N_h must be even."""

    init: Callable[[np.random.Generator, int], np.ndarray | CayleyParams]
    even_sizes: bool = False


CONSTRUCTIONS = {
    "dense_default": Construction(uniform_init),
    "dense_orthogonal": Construction(haar_orthogonal),
    "dense_normal": Construction(dense_normal_init, even_sizes=True),
    "cayley": Construction(cayley_init),
}


def initial_recurrent(construction: str, rng: np.random.Generator, n: int):
    """The initial recurrent parameters of ``construction`` (:data:`CONSTRUCTIONS`): an (n, n) W
    for the dense constructions, else :class:`CayleyParams`."""
    if construction not in CONSTRUCTIONS:
        raise KeyError(f"unknown construction {construction!r}; known: {list(CONSTRUCTIONS)}")
    return CONSTRUCTIONS[construction].init(rng, n)
