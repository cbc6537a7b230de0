"""The rollout of a trained network, for one or a stack of recurrent matrices (the ablations).

The paper's network (eqs. 1–2) is the ``discrete`` family with φ = tanh and no biases:

    h_t = tanh(W_xh x_t + W_hh h_{t-1}),  h_0 = 0,     ŷ_t = W_hy h_t.

Every network description of :mod:`rnnschur.network.dynamics` (update, readout, output timing) runs
through the same function. This module does
not import torch: every analysis job uses it, and ``import torch`` alone costs about a second
per job. The differentiable rollout of training is in :mod:`rnnschur.training.bptt`.
"""

from __future__ import annotations

import numpy as np

from rnnschur.network.dynamics import DISCRETE, Dynamics, phi


def rollout(
    W_xh: np.ndarray,
    W_hh: np.ndarray,
    W_hy: np.ndarray,
    inputs: np.ndarray,
    return_hidden: bool = False,
    dtype: type = np.float32,
    b_h: np.ndarray | None = None,
    b_y: np.ndarray | None = None,
    h0: np.ndarray | None = None,
    dynamics: Dynamics = DISCRETE,
    noise: np.ndarray | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Run the network of ``dynamics`` (eqs. 1–2 for the paper's) on a batch of trials.

    The rollout runs in ``dtype``: float32 by default, the precision the weights were trained
    in (and about 3× faster than float64 for a stack of ablated matrices).

    Parameters
    ----------
    W_xh : (N_h, N_x); W_hh : (..., N_h, N_h), leading axes evaluate a stack of matrices at
        once; W_hy : (N_y, N_h); inputs : (n, time, N_x).
    return_hidden : also return what the readout reads at each output step (h_t; φ(z_t) or z_t
        for ``leaky_current``; the step before for a description read ``before`` the update).
    dtype : floating-point type of the computation.
    b_h, b_y, h0 : optional hidden bias (N_h,), output bias (N_y,) and initial state (N_h,; z_0
        for ``leaky_current``) of a model trained elsewhere; the paper's networks have none
        (None: zero).
    dynamics : the network family (:class:`rnnschur.network.dynamics.Dynamics`).
    noise : optional (n, time, N_h) added to the drive W_xh x_t at every step, the same for
        every matrix of the stack (hidden noise at evaluation; scale it with
        :meth:`rnnschur.network.dynamics.Dynamics.drive_noise`).

    Returns
    -------
    outputs : (..., n, time, N_y), and hidden : (..., n, time, N_h) if ``return_hidden``.

    Eleven parameters, not a value object: the arrays of the network's equation, each but
    the three weights optional, as every caller (training, ablation, verification) holds
    them; :meth:`rnnschur.network.Network.rollout` is the value-object form.
    """
    n, time, _ = inputs.shape
    stack = W_hh.shape[:-2]
    N_h = W_hh.shape[-1]
    drive = inputs @ W_xh.T if b_h is None else inputs @ W_xh.T + b_h
    if noise is not None:
        drive = drive + noise
    drive = np.ascontiguousarray(drive.transpose(1, 0, 2), dtype=dtype)  # (time, n, N_h)
    W_T = np.ascontiguousarray(np.swapaxes(W_hh, -1, -2), dtype=dtype)  # BLAS needs contiguity
    W_hy_T = np.ascontiguousarray(W_hy.T, dtype=dtype)
    h = np.zeros(stack + (n, N_h), dtype=dtype)
    if h0 is not None:
        h += np.asarray(h0, dtype=dtype)
    outputs = np.empty(stack + (time, n, W_hy.shape[0]), dtype=dtype)
    hidden = np.empty(stack + (time, n, N_h), dtype=dtype) if return_hidden else None
    a = dtype(dynamics.leak)
    before = dynamics.reads_before

    def emit(t: int, read: np.ndarray) -> None:
        """ŷ_t = W_hy r (r read after step t's update, or before it)."""
        outputs[..., t, :, :] = read @ W_hy_T
        if hidden is not None:
            hidden[..., t, :, :] = read

    if dynamics.current_form:  # z_t = (1 − a) z_{t-1} + a (W_hh φ(z_{t-1}) + W_xh x_t + b_h)
        z, rate = h, phi(dynamics, h)
        for t in range(time):
            if before:
                emit(t, z if dynamics.reads_state else rate)
            z = (1 - a) * z + a * (drive[t] + rate @ W_T)
            rate = phi(dynamics, z)
            if not before:
                emit(t, z if dynamics.reads_state else rate)
    else:  # h_t = (1 − a) h_{t-1} + a φ(W_xh x_t + W_hh h_{t-1} + b_h); a = 1: discrete, eq. (1)
        for t in range(time):
            if before:
                emit(t, h)
            s = phi(dynamics, drive[t] + h @ W_T)
            h = s if a == 1 else (1 - a) * h + a * s
            if not before:
                emit(t, h)
    if b_y is not None:
        outputs += np.asarray(b_y, dtype=dtype)
    outputs = np.swapaxes(outputs, -3, -2)
    if hidden is None:
        return outputs
    return outputs, np.swapaxes(hidden, -3, -2)
