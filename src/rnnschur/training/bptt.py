"""Training's differentiable part: the loss of one batch and its gradients, for a stack of K
models at once.

:func:`loss_and_gradients` is backpropagation through time written out for every network family
of :mod:`rnnschur.network.dynamics`, readout and loss included, on NumPy arrays (NumPy's tanh is
about 10× torch's on CPU, and no autograd graph is built) or on torch tensors for other devices.
K models that share a task's shapes and a description run as one computation: every product is
a matrix product per model (a stacked ``matmul``, which computes each slice as the model's own
product would), every elementwise step runs over the stack, and every sum over a model's
entries is taken on that model's own contiguous slice, so each model's loss and gradients are
the bits it would get alone; only the fixed cost of a step is paid once for the stack. This
module does not import torch; the Cayley map and its gradients are in
:mod:`rnnschur.training.cayley`, written out the same way.
"""

from __future__ import annotations

import sys

import numpy as np

from rnnschur.network.dynamics import Dynamics, phi, phi_prime_of_phi


def loss_and_gradients(
    X, Y, mask, W_xh, W_hh, W_hy, dynamics: Dynamics, noise=None, loss: str = "mse"
) -> tuple[list[float], object, tuple]:
    """Masked mean squared error (or cross-entropy) of one batch per model and its gradients,
    for a stack of K models, by BPTT written out.

    Arrays are model-major, then time-major: ``X`` (K, T, B, N_x), ``Y`` (K, T, B, N_y),
    ``mask`` (K, T, B) or (K, T, B, N_y), all of one floating type, each model's block
    contiguous; the weights stacked, ``W_xh`` (K, N_h, N_x), ``W_hh`` (K, N_h, N_h), ``W_hy``
    (K, N_y, N_h); NumPy arrays on the CPU, torch tensors on another device. ``noise`` (K, T,
    B, N_h), if given, is added to the input drive W_xh x_t (hidden-state noise). A model's
    rows of every product are those of its own (T·B, ·) array, read in place: nothing is
    copied to another layout.

    Forward (:mod:`rnnschur.network.dynamics`; r_t the rate the readout reads, s_t = φ(·) of the
    step):

        rate form     u_t = d_t + W h_{t-1},  s_t = φ(u_t),  h_t = r_t = (1 − a) h_{t-1} + a s_t
        current form  z_t = (1 − a) z_{t-1} + a (d_t + W r_{t-1}),  r_t = s_t = φ(z_t)

    with d_t = W_xh x_t, ŷ_t = W_hy v_t and L = Σ m (ŷ − y)² / Σ m (per line), where the
    readout reads v_t = r_t (timing ``after``) or v_t = r_{t-1} (``before``; r_0 from the zero
    initial state), and r_t is z_t itself for a readout of the ``state``; for ``loss =
    "cross_entropy"`` (one-hot targets, a NeuroGym task) L = −Σ_t w_t log softmax(ŷ_t)·y_t / Σ w
    with w_t = Σ_j y_tj (every step of a trial, none of its padding; ``mask`` is not used), and
    ∂ŷ_t = w_t (softmax(ŷ_t) − y_t) / Σ w. Backward, with
    ∂r_t from the readout and φ' read from s_t (:func:`rnnschur.network.dynamics.phi_prime_of_phi`):

        rate form     δh_t = ∂r_t + Wᵀ δu_{t+1} + (1 − a) δh_{t+1},   δu_t = a φ'_t δh_t
        current form  δz_t = φ'_t (∂r_t + Wᵀ e_{t+1}) + (1 − a) δz_{t+1},   e_t = a δz_t
        state readout δz_t = φ'_t Wᵀ e_{t+1} + ∂z_t + (1 − a) δz_{t+1}

    and ∂W = Σ_t e_tᵀ r_{t-1} (e = δu in the rate form), ∂d_t = e_t, ∂W_xh = Σ_t e_tᵀ x_t,
    ∂W_hy = Σ_t ∂ŷ_tᵀ r_t. At a = 1 the leak terms are skipped, not multiplied by zero.

    Returns
    -------
    (the K losses, outputs ŷ (K, T, B, N_y), (∂W_xh, ∂W_hh, ∂W_hy) stacked like the weights)

    Nine parameters, not a value object: the arrays of one stacked BPTT step, in the layout
    the kernels read in place; a container would only be unpacked again on every step.
    """
    lib = np if isinstance(X, np.ndarray) else sys.modules["torch"]  # tensors: torch is loaded
    K, T, B, N_x = X.shape
    N_h = W_hh.shape[-1]
    N_y = W_hy.shape[-2]
    rows = T * B
    a = dynamics.leak
    leaky = a != 1.0
    X_rows = X.reshape(K, rows, N_x)
    drive = lib.matmul(X_rows, W_xh.swapaxes(-1, -2)).reshape(K, T, B, N_h)
    if noise is not None:
        drive += noise
    W_T = W_hh.swapaxes(-1, -2)
    S = lib.empty_like(drive)  # s_t = φ(u_t) (rate form) or φ(z_t) (current form)
    Z = lib.empty_like(drive) if dynamics.reads_state else None  # z_t, read by the readout
    if dynamics.current_form:
        R = S  # the rates r_t = φ(z_t), which W_hh multiplies
        z = drive[:, 0] * 0.0
        rate0 = phi(dynamics, z)
        previous = rate0
        for t in range(T):
            pre = lib.matmul(previous, W_T) + drive[:, t]
            z = (1.0 - a) * z + a * pre if leaky else pre
            if Z is not None:
                Z[:, t] = z
            phi(dynamics, z, out=S[:, t])
            previous = S[:, t]
    else:
        R = lib.empty_like(drive) if leaky else S  # h_t
        rate0 = drive[:, 0] * 0.0
        previous = rate0
        for t in range(T):
            s_t = S[:, t]
            if t:  # h_0 = 0: the first step is its drive alone
                lib.matmul(previous, W_T, out=s_t)
                s_t += drive[:, t]
            else:
                s_t[...] = drive[:, t]
            phi(dynamics, s_t, out=s_t)
            if leaky:
                R[:, t] = (1.0 - a) * previous + a * s_t
            previous = R[:, t]

    read = Z if Z is not None else R  # r_t after step t's update
    if dynamics.reads_before:  # ŷ_t reads r_{t-1}; r_0 from the initial state
        first = drive[:, 0] * 0.0 if Z is not None else rate0
        read = lib.concatenate([first[:, None], read[:, :-1]], 1)
    read_rows = read.reshape(K, rows, N_h)
    outputs = lib.matmul(read_rows, W_hy.swapaxes(-1, -2)).reshape(K, T, B, N_y)
    if loss == "cross_entropy":
        weight = Y.sum(-1, keepdims=True)
        peak = outputs.max(-1, keepdims=True) if lib is np else outputs.amax(-1, keepdim=True)
        shifted = outputs - peak
        log_p = shifted - lib.log(lib.exp(shifted).sum(-1, keepdims=True))
        counts = [weight[k].sum() for k in range(K)]
        values = [float(-(Y[k] * log_p[k]).sum() / counts[k]) for k in range(K)]
        d_out = lib.exp(log_p) - Y
        for k in range(K):
            d_out[k] *= weight[k] / counts[k]
    else:
        residual = outputs - Y
        weighted = residual * (mask[..., None] if mask.ndim == 3 else mask)
        counts = [mask[k].sum() * (N_y if mask.ndim == 3 else 1) for k in range(K)]
        squares = weighted * residual
        values = [float(squares[k].sum() / counts[k]) for k in range(K)]
        d_out = weighted
        for k in range(K):
            d_out[k] *= 2.0 / counts[k]
    d_out = d_out.reshape(K, rows, N_y)
    grad_W_hy = lib.matmul(d_out.swapaxes(-1, -2), read_rows)
    d_read = lib.matmul(d_out, W_hy).reshape(K, T, B, N_h)
    if dynamics.reads_before:  # r_t is read by ŷ_{t+1}; the last update is read by none
        d_read = lib.concatenate([d_read[:, 1:], d_read[:, :1] * 0.0], 1)

    slope = phi_prime_of_phi(dynamics, S)
    if leaky:
        slope *= a
    E = d_read  # overwritten step by step with e_t, the gradient of the drive d_t
    carry = drive[:, 0] * 0.0  # Wᵀ e_{t+1} (in row form e_{t+1} W)
    leak_carry = drive[:, 0] * 0.0  # (1 − a) δh_{t+1} or (1 − a) e_{t+1}
    for t in range(T - 1, -1, -1):
        e = E[:, t]
        if dynamics.reads_state:  # e_t = a φ'_t Wᵀ e_{t+1} + a ∂z_t + (1 − a) e_{t+1}
            if leaky:
                e *= a
            e += carry * slope[:, t]
            if leaky:
                e += leak_carry
                leak_carry = (1.0 - a) * e
        elif dynamics.current_form:  # e_t = a φ'_t (∂r_t + Wᵀ e_{t+1}) + (1 − a) e_{t+1}
            e += carry
            e *= slope[:, t]
            if leaky:
                e += leak_carry
                leak_carry = (1.0 - a) * e
        else:  # δh_t = ∂r_t + Wᵀ e_{t+1} + (1 − a) δh_{t+1}, e_t = a φ'_t δh_t
            e += carry
            if leaky:
                e += leak_carry
                leak_carry = (1.0 - a) * e
            e *= slope[:, t]
        lib.matmul(e, W_hh, out=carry)
    later = (T - 1) * B
    grad_W_hh = lib.matmul(
        E[:, 1:].reshape(K, later, N_h).swapaxes(-1, -2), R[:, :-1].reshape(K, later, N_h)
    )
    if dynamics.current_form:  # r_0 = φ(z_0) is not zero for every φ (softplus)
        grad_W_hh += lib.matmul(E[:, 0].swapaxes(-1, -2), rate0)
    grad_W_xh = lib.matmul(E.reshape(K, rows, N_h).swapaxes(-1, -2), X_rows)
    return values, outputs, (grad_W_xh, grad_W_hh, grad_W_hy)
