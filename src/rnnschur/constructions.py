"""Recurrent constructions of the copy experiment (paper §3), with m = N_h^{-1/2}.

- ``dense_default``: W unconstrained, init W_ij ~ Unif[−m, m].
- ``dense_orthogonal``: W unconstrained, init a Haar-random orthogonal matrix.
- ``dense_normal``: W unconstrained, init Q D_norm Qᵀ, D_norm = blockdiag(B_1..B_{N_h/2}),
  B_i = [[a_i, −b_i], [b_i, a_i]], a_i, b_i ~ N(0, 1/6) (1/6 read as the variance).
- ``cayley``: every iterate is W = O(A) D O(A)ᵀ, A skew-symmetric, O(A) = (I − A)(I + A)^{-1};
  init A = (U − Uᵀ)/2 with U_ij ~ Unif[−m, m] and D = realblock(eig(W̃)), W̃_ij ~ Unif[−m, m].
  The trained parameters are A and the blocks of D: a scalar per real eigenvalue and (a, b) per
  rotation-scaling block [[a, −b], [b, a]], so W stays normal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

CONSTRUCTIONS = ("dense_default", "dense_orthogonal", "dense_normal", "cayley")


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
    return cayley_diagonal(torch.from_numpy(d_real), torch.from_numpy(d_pair)).numpy()


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


def cayley_orthogonal(A: torch.Tensor) -> torch.Tensor:
    """O(A) = (I − A)(I + A)^{-1} = (I + A)^{-1}(I − A) (the two factors commute)."""
    eye = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    return torch.linalg.solve(eye + A, eye - A)


def cayley_diagonal(d_real: torch.Tensor, d_pair: torch.Tensor) -> torch.Tensor:
    """D = blockdiag(d_real..., [[a, −b], [b, a]]...) as a differentiable function."""
    r, p = d_real.shape[0], d_pair.shape[0]
    n = r + 2 * p
    first = r + 2 * torch.arange(p, device=d_real.device)
    rows = torch.cat([torch.arange(r, device=d_real.device), first, first + 1, first, first + 1])
    cols = torch.cat([torch.arange(r, device=d_real.device), first, first + 1, first + 1, first])
    a, b = d_pair[:, 0], d_pair[:, 1]
    values = torch.cat([d_real, a, a, -b, b])
    return torch.zeros(n, n, dtype=d_real.dtype, device=d_real.device).index_put(
        (rows, cols), values
    )


def cayley_weight(A: torch.Tensor, d_real: torch.Tensor, d_pair: torch.Tensor) -> torch.Tensor:
    """W = O(A) D O(A)ᵀ with A made exactly skew-symmetric first."""
    A = (A - A.T) / 2
    O = cayley_orthogonal(A)
    return O @ cayley_diagonal(d_real, d_pair) @ O.T


def initial_recurrent(construction: str, rng: np.random.Generator, n: int):
    """The initial recurrent parameters: an (n, n) W for the dense constructions, else
    :class:`CayleyParams`."""
    if construction == "dense_default":
        return uniform_init(rng, n)
    if construction == "dense_orthogonal":
        return haar_orthogonal(rng, n)
    if construction == "dense_normal":
        return dense_normal_init(rng, n)
    if construction == "cayley":
        return cayley_init(rng, n)
    raise KeyError(f"unknown construction {construction!r}; known: {CONSTRUCTIONS}")
