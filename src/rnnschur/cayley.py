"""The Cayley construction's map W = O(A) D O(A)ᵀ as a differentiable torch function (the one
part of training that torch autograd differentiates; :mod:`rnnschur.constructions` has the
initialisation)."""

from __future__ import annotations

import torch


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
