"""The single-layer tanh RNN without biases (paper eqs. 1–2):

    h_t = tanh(W_xh x_t + W_hh h_{t-1}),  h_0 = 0,     ŷ_t = W_hy h_t.

:func:`rollout` evaluates it in NumPy for one or a stack of recurrent matrices (the ablations);
:func:`hidden_states` is the differentiable rollout used in training, a hand-written
backpropagation through time that runs its loops on NumPy views of CPU tensors (NumPy's tanh is
about 10× torch's on CPU) and on torch for other devices.
"""

from __future__ import annotations

import numpy as np
import torch


def rollout(
    W_xh: np.ndarray,
    W_hh: np.ndarray,
    W_hy: np.ndarray,
    inputs: np.ndarray,
    return_hidden: bool = False,
    dtype: type = np.float32,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Run eqs. (1–2) on a batch of trials.

    The rollout runs in ``dtype``: float32 by default, the precision the weights were trained
    in (and about 3× faster than float64 for a stack of ablated matrices).

    Parameters
    ----------
    W_xh : (N_h, N_x); W_hh : (..., N_h, N_h), leading axes evaluate a stack of matrices at
        once; W_hy : (N_y, N_h); inputs : (n, time, N_x).
    return_hidden : also return the hidden states.
    dtype : floating-point type of the computation.

    Returns
    -------
    outputs : (..., n, time, N_y), and hidden : (..., n, time, N_h) if ``return_hidden``.
    """
    n, time, _ = inputs.shape
    stack = W_hh.shape[:-2]
    N_h = W_hh.shape[-1]
    drive = np.ascontiguousarray(
        (inputs @ W_xh.T).transpose(1, 0, 2), dtype=dtype
    )  # (time, n, N_h)
    W_T = np.ascontiguousarray(np.swapaxes(W_hh, -1, -2), dtype=dtype)  # BLAS needs contiguity
    W_hy_T = np.ascontiguousarray(W_hy.T, dtype=dtype)
    h = np.zeros(stack + (n, N_h), dtype=dtype)
    outputs = np.empty(stack + (time, n, W_hy.shape[0]), dtype=dtype)
    hidden = np.empty(stack + (time, n, N_h), dtype=dtype) if return_hidden else None
    for t in range(time):
        h = np.tanh(drive[t] + h @ W_T)
        outputs[..., t, :, :] = h @ W_hy_T
        if hidden is not None:
            hidden[..., t, :, :] = h
    outputs = np.swapaxes(outputs, -3, -2)
    if hidden is None:
        return outputs
    return outputs, np.swapaxes(hidden, -3, -2)


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


def hidden_states(inputs: torch.Tensor, W_xh: torch.Tensor, W_hh: torch.Tensor) -> torch.Tensor:
    """Differentiable hidden states (time, batch, N_h) of eq. (1) for inputs (time, batch, N_x).

    The input drive W_xh x_t is one matrix product outside the time loop.
    """
    drive = (inputs @ W_xh.T).contiguous()
    return _TanhRecurrence.apply(drive, W_hh)
