"""The differentiable parts of training: the rollout of eq. (1) and the Cayley map of the
``cayley`` construction (with :mod:`rnnschur.train` the only modules that import torch).

:func:`hidden_states` is a hand-written backpropagation through time that runs its loops on NumPy
views of CPU tensors (NumPy's tanh is about 10× torch's on CPU) and on torch for other devices.
"""

from __future__ import annotations

import numpy as np
import torch


class _TanhRecurrence(torch.autograd.Function):
    """H_t = tanh(X_t + H_{t-1} Wᵀ), H_0 = 0, with BPTT written out:

    ∂pre_t = (∂H_t + ∂pre_{t+1} W) ⊙ (1 − H_t²),  ∂W = Σ_t ∂pre_tᵀ H_{t-1},  ∂X_t = ∂pre_t.
    """

    @staticmethod
    def forward(ctx, drive: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
        H = torch.empty_like(drive)
        lib, X, H_, W_ = _arrays(drive, H, W)
        W_T = W_.T
        lib.tanh(X[0], out=H_[0])
        for t in range(1, X.shape[0]):
            lib.matmul(H_[t - 1], W_T, out=H_[t])
            H_[t] += X[t]
            lib.tanh(H_[t], out=H_[t])
        ctx.save_for_backward(W, H)
        return H

    @staticmethod
    def backward(ctx, grad_H: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        W, H = ctx.saved_tensors
        grad_H = grad_H.contiguous()
        grad_pre = torch.empty_like(H)
        lib, dH, H_, W_, dpre = _arrays(grad_H, H, W, grad_pre)
        slope = 1.0 - H_ * H_
        carry = dH[0] * 0.0  # ∂pre_{t+1} W, zero after the last step
        for t in range(H_.shape[0] - 1, -1, -1):
            lib.add(dH[t], carry, out=dpre[t])
            dpre[t] *= slope[t]
            lib.matmul(dpre[t], W_, out=carry)
        N_h = H_.shape[-1]
        grad_W = dpre[1:].reshape(-1, N_h).T @ H_[:-1].reshape(-1, N_h)
        if lib is np:
            grad_W = torch.from_numpy(grad_W)
        return grad_pre, grad_W


def _arrays(*tensors: torch.Tensor):
    """(array library, views): NumPy views of CPU tensors, the tensors themselves elsewhere."""
    if tensors[0].device.type == "cpu":
        return (np, *(t.detach().numpy() for t in tensors))
    return (torch, *(t.detach() for t in tensors))


def hidden_states(
    inputs: torch.Tensor,
    W_xh: torch.Tensor,
    W_hh: torch.Tensor,
    noise: torch.Tensor | None = None,
) -> torch.Tensor:
    """Differentiable hidden states (time, batch, N_h) of eq. (1) for inputs (time, batch, N_x).

    The input drive W_xh x_t is one matrix product outside the time loop; ``noise`` (time,
    batch, N_h), if given, is added to it (hidden-state noise in training).
    """
    drive = inputs @ W_xh.T
    if noise is not None:
        drive = drive + noise
    drive = drive.contiguous()
    return _TanhRecurrence.apply(drive, W_hh)


# The Cayley construction (rnnschur.constructions): W = O(A) D O(A)ᵀ, differentiable.


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
