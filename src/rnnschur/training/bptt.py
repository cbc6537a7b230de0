"""Training's differentiable part: the loss of one batch and its gradients.

:func:`loss_and_gradients` is backpropagation through time written out for every network family
of :mod:`rnnschur.dynamics`, readout and loss included, on NumPy arrays (NumPy's tanh is about
10× torch's on CPU, and no autograd graph is built) or on torch tensors for other devices.
This module does not import torch; the Cayley map and its gradients are in
:mod:`rnnschur.training.cayley`, written out the same way.
"""

from __future__ import annotations

import sys

import numpy as np

from rnnschur.dynamics import Dynamics, phi, phi_prime_of_phi


def loss_and_gradients(
    X, Y, mask, W_xh, W_hh, W_hy, dynamics: Dynamics, noise=None, loss: str = "mse"
) -> tuple[float, object, tuple]:
    """Masked mean squared error (or cross-entropy) of one batch and its gradients, by BPTT
    written out.

    Arrays are time-major: ``X`` (T, B, N_x), ``Y`` (T, B, N_y), ``mask`` (T, B) or (T, B, N_y),
    all of one floating type; NumPy arrays on the CPU, torch tensors on another device.
    ``noise`` (T, B, N_h), if given, is added to the input drive W_xh x_t (hidden-state noise).

    Forward (:mod:`rnnschur.dynamics`; r_t the rate the readout reads, s_t = φ(·) of the step):

        rate form     u_t = d_t + W h_{t-1},  s_t = φ(u_t),  h_t = r_t = (1 − a) h_{t-1} + a s_t
        current form  z_t = (1 − a) z_{t-1} + a (d_t + W r_{t-1}),  r_t = s_t = φ(z_t)

    with d_t = W_xh x_t, ŷ_t = W_hy v_t and L = Σ m (ŷ − y)² / Σ m (per line), where the
    readout reads v_t = r_t (timing ``after``) or v_t = r_{t-1} (``before``; r_0 from the zero
    initial state), and r_t is z_t itself for a readout of the ``state``; for ``loss =
    "cross_entropy"`` (one-hot targets, a NeuroGym task) L = −Σ_t w_t log softmax(ŷ_t)·y_t / Σ w
    with w_t = Σ_j y_tj (every step of a trial, none of its padding; ``mask`` is not used), and
    ∂ŷ_t = w_t (softmax(ŷ_t) − y_t) / Σ w. Backward, with
    ∂r_t from the readout and φ' read from s_t (:func:`rnnschur.dynamics.phi_prime_of_phi`):

        rate form     δh_t = ∂r_t + Wᵀ δu_{t+1} + (1 − a) δh_{t+1},   δu_t = a φ'_t δh_t
        current form  δz_t = φ'_t (∂r_t + Wᵀ e_{t+1}) + (1 − a) δz_{t+1},   e_t = a δz_t
        state readout δz_t = φ'_t Wᵀ e_{t+1} + ∂z_t + (1 − a) δz_{t+1}

    and ∂W = Σ_t e_tᵀ r_{t-1} (e = δu in the rate form), ∂d_t = e_t, ∂W_xh = Σ_t e_tᵀ x_t,
    ∂W_hy = Σ_t ∂ŷ_tᵀ r_t. At a = 1 the leak terms are skipped, not multiplied by zero.

    Returns
    -------
    (loss, outputs ŷ (T, B, N_y), (∂W_xh, ∂W_hh, ∂W_hy))
    """
    lib = np if isinstance(X, np.ndarray) else sys.modules["torch"]  # tensors: torch is loaded
    T, B, N_x = X.shape
    N_h = W_hh.shape[0]
    a = dynamics.leak
    leaky = a != 1.0
    drive = X.reshape(T * B, N_x) @ W_xh.T
    drive = drive.reshape(T, B, N_h)
    if noise is not None:
        drive += noise
    S = lib.empty_like(drive)  # s_t = φ(u_t) (rate form) or φ(z_t) (current form)
    Z = lib.empty_like(drive) if dynamics.reads_state else None  # z_t, read by the readout
    if dynamics.current_form:
        R = S  # the rates r_t = φ(z_t), which W_hh multiplies
        z = drive[0] * 0.0
        rate0 = phi(dynamics, z)
        previous = rate0
        for t in range(T):
            pre = lib.matmul(previous, W_hh.T) + drive[t]
            z = (1.0 - a) * z + a * pre if leaky else pre
            if Z is not None:
                Z[t] = z
            phi(dynamics, z, out=S[t])
            previous = S[t]
    else:
        R = lib.empty_like(drive) if leaky else S  # h_t
        rate0 = drive[0] * 0.0
        previous = rate0
        for t in range(T):
            if t:  # h_0 = 0: the first step is its drive alone
                lib.matmul(previous, W_hh.T, out=S[t])
                S[t] += drive[t]
            else:
                S[t] = drive[t]
            phi(dynamics, S[t], out=S[t])
            if leaky:
                R[t] = (1.0 - a) * previous + a * S[t]
            previous = R[t]

    read = Z if Z is not None else R  # r_t after step t's update
    if dynamics.reads_before:  # ŷ_t reads r_{t-1}; r_0 from the initial state
        read = lib.concatenate([(drive[0] * 0.0 if Z is not None else rate0)[None], read[:-1]])
    N_y = W_hy.shape[0]
    outputs = (read.reshape(T * B, N_h) @ W_hy.T).reshape(T, B, N_y)
    if loss == "cross_entropy":
        weight = Y.sum(-1, keepdims=True)
        shifted = outputs - outputs.max(-1, keepdims=True)
        log_p = shifted - lib.log(lib.exp(shifted).sum(-1, keepdims=True))
        count = weight.sum()
        value = float(-(Y * log_p).sum() / count)
        d_out = (lib.exp(log_p) - Y) * (weight / count)
    else:
        residual = outputs - Y
        weighted = residual * (mask[..., None] if mask.ndim == 2 else mask)
        count = mask.sum() * (N_y if mask.ndim == 2 else 1)
        value = float((weighted * residual).sum() / count)
        d_out = weighted * (2.0 / count)
    grad_W_hy = d_out.reshape(T * B, N_y).T @ read.reshape(T * B, N_h)
    d_read = (d_out.reshape(T * B, N_y) @ W_hy).reshape(T, B, N_h)
    if dynamics.reads_before:  # r_t is read by ŷ_{t+1}; the last update is read by none
        d_read = lib.concatenate([d_read[1:], d_read[:1] * 0.0])

    slope = phi_prime_of_phi(dynamics, S)
    if leaky:
        slope *= a
    E = d_read  # overwritten step by step with e_t, the gradient of the drive d_t
    carry = drive[0] * 0.0  # Wᵀ e_{t+1} (in row form e_{t+1} W)
    leak_carry = drive[0] * 0.0  # (1 − a) δh_{t+1} or (1 − a) e_{t+1}
    for t in range(T - 1, -1, -1):
        if dynamics.reads_state:  # e_t = a φ'_t Wᵀ e_{t+1} + a ∂z_t + (1 − a) e_{t+1}
            if leaky:
                E[t] *= a
            E[t] += carry * slope[t]
            if leaky:
                E[t] += leak_carry
                leak_carry = (1.0 - a) * E[t]
        elif dynamics.current_form:  # e_t = a φ'_t (∂r_t + Wᵀ e_{t+1}) + (1 − a) e_{t+1}
            E[t] += carry
            E[t] *= slope[t]
            if leaky:
                E[t] += leak_carry
                leak_carry = (1.0 - a) * E[t]
        else:  # δh_t = ∂r_t + Wᵀ e_{t+1} + (1 − a) δh_{t+1}, e_t = a φ'_t δh_t
            E[t] += carry
            if leaky:
                E[t] += leak_carry
                leak_carry = (1.0 - a) * E[t]
            E[t] *= slope[t]
        lib.matmul(E[t], W_hh, out=carry)
    grad_W_hh = E[1:].reshape(-1, N_h).T @ R[:-1].reshape(-1, N_h)
    if dynamics.current_form:  # r_0 = φ(z_0) is not zero for every φ (softplus)
        grad_W_hh += E[0].T @ rate0
    grad_W_xh = E.reshape(T * B, N_h).T @ X.reshape(T * B, N_x)
    return value, outputs, (grad_W_xh, grad_W_hh, grad_W_hy)
