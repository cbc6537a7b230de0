"""The hand-written BPTT of every network family against torch autograd on an independent
implementation of the same equations (SPEC, "the network families neuroscience trains")."""

import numpy as np
import pytest
import torch

from rnnschur.network.dynamics import Dynamics
from rnnschur.network.rnn import rollout
from rnnschur.training.bptt import loss_and_gradients

FAMILIES = [
    Dynamics(kind, leak, nonlinearity, timing=timing)
    for kind, leak in (("discrete", 1.0), ("leaky", 0.2), ("leaky", 1.0), ("leaky_current", 0.2))
    for nonlinearity in ("tanh", "relu", "softplus")
    for timing in ("after", "before")
] + [
    # the current form read from its state (Schuessler et al.'s RNN_Net reads it before)
    Dynamics("leaky_current", leak, nonlinearity, readout="state", timing=timing)
    for leak in (0.2, 1.0)
    for nonlinearity in ("tanh", "relu", "softplus")
    for timing in ("after", "before")
]


def one(X, Y, mask, W_xh, W_hh, W_hy, dynamics, noise=None, loss="mse"):
    """:func:`loss_and_gradients` of one model: a stack of one, unstacked."""
    values, outputs, grads = loss_and_gradients(
        X[None],
        Y[None],
        mask[None],
        W_xh[None],
        W_hh[None],
        W_hy[None],
        dynamics,
        None if noise is None else noise[None],
        loss,
    )
    return values[0], outputs[0], tuple(g[0] for g in grads)


ACTIVATION = {"tanh": torch.tanh, "relu": torch.relu, "softplus": torch.nn.functional.softplus}


def reference(X, Y, mask, W_xh, W_hh, W_hy, dynamics, noise):
    """Loss and outputs of the description, written from the SPEC with plain torch operations:
    the states first, then what the readout reads and when."""
    phi, a = ACTIVATION[dynamics.nonlinearity], dynamics.leak
    T, B, _ = X.shape
    state = torch.zeros(B, W_hh.shape[0], dtype=X.dtype)
    states = [state]
    for t in range(T):
        drive = X[t] @ W_xh.T + noise[t]
        if dynamics.kind == "leaky_current":
            state = (1 - a) * state + a * (phi(state) @ W_hh.T + drive)
        else:
            state = (1 - a) * state + a * phi(drive + state @ W_hh.T)
        states.append(state)
    if dynamics.kind == "leaky_current" and dynamics.readout == "rate":
        states = [phi(s) for s in states]
    read = states[:-1] if dynamics.timing == "before" else states[1:]
    outputs = torch.stack([r @ W_hy.T for r in read])
    weight = mask[..., None] if mask.dim() == 2 else mask
    count = weight.expand_as(outputs).sum()
    return ((outputs - Y) ** 2 * weight).sum() / count, outputs


@pytest.mark.parametrize("dynamics", FAMILIES, ids=lambda d: d.describe())
@pytest.mark.parametrize("line_mask", [False, True])
def test_gradients_equal_autograd(dynamics, line_mask):
    rng = np.random.default_rng(3)
    T, B, N_x, N_h, N_y = 7, 5, 3, 6, 2
    X, Y = rng.standard_normal((T, B, N_x)), rng.standard_normal((T, B, N_y))
    mask = (rng.random((T, B, N_y) if line_mask else (T, B)) < 0.7).astype(float)
    weights = [rng.standard_normal(s) * 0.5 for s in ((N_h, N_x), (N_h, N_h), (N_y, N_h))]
    noise = 0.1 * rng.standard_normal((T, B, N_h))
    loss, outputs, grads = one(X, Y, mask, *weights, dynamics, noise.copy())
    tensors = [torch.tensor(w, requires_grad=True) for w in weights]
    expected, expected_out = reference(
        *map(torch.tensor, (X, Y, mask)), *tensors, dynamics, torch.tensor(noise)
    )
    expected.backward()
    assert loss == pytest.approx(expected.item(), rel=1e-12)
    np.testing.assert_allclose(outputs, expected_out.detach().numpy(), rtol=1e-12, atol=1e-14)
    for grad, tensor in zip(grads, tensors, strict=True):
        np.testing.assert_allclose(grad, tensor.grad.numpy(), rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("dynamics", FAMILIES, ids=lambda d: d.describe())
def test_training_forward_equals_rollout(dynamics):
    """The outputs of the training step are those of the analyses' rollout (float64)."""
    rng = np.random.default_rng(4)
    X, Y = rng.standard_normal((9, 4, 2)), rng.standard_normal((9, 4, 3))
    W_xh, W_hh, W_hy = (rng.standard_normal(s) * 0.6 for s in ((5, 2), (5, 5), (3, 5)))
    _, outputs, _ = one(X, Y, np.ones((9, 4)), W_xh, W_hh, W_hy, dynamics)
    expected = rollout(W_xh, W_hh, W_hy, X.swapaxes(0, 1), dtype=np.float64, dynamics=dynamics)
    np.testing.assert_allclose(outputs.swapaxes(0, 1), expected, rtol=1e-12, atol=1e-14)


def test_leaky_at_leak_one_is_discrete_bit_for_bit():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((8, 6, 3)).astype(np.float32)
    Y = rng.standard_normal((8, 6, 2)).astype(np.float32)
    weights = [rng.standard_normal(s).astype(np.float32) for s in ((7, 3), (7, 7), (2, 7))]
    for nonlinearity in ("tanh", "relu", "softplus"):
        discrete = one(
            X, Y, np.ones((8, 6), np.float32), *weights, Dynamics("discrete", 1.0, nonlinearity)
        )
        leaky = one(
            X, Y, np.ones((8, 6), np.float32), *weights, Dynamics("leaky", 1.0, nonlinearity)
        )
        assert discrete[0] == leaky[0]
        for a, b in zip(discrete[2], leaky[2], strict=True):
            assert np.array_equal(a, b)


def test_cross_entropy_gradients_equal_autograd():
    """The NeuroGym loss: cross-entropy over the steps whose one-hot targets are not padding."""
    rng = np.random.default_rng(6)
    T, B, N_x, N_h, N_y = 6, 4, 3, 5, 3
    X = rng.standard_normal((T, B, N_x))
    Y = np.eye(N_y)[rng.integers(0, N_y, (T, B))]
    Y[4:, :2] = 0.0  # padding of two shorter trials
    weights = [rng.standard_normal(s) * 0.5 for s in ((N_h, N_x), (N_h, N_h), (N_y, N_h))]
    dynamics = Dynamics("leaky", 0.3, "relu")
    loss, _, grads = one(X, Y, np.ones((T, B)), *weights, dynamics, loss="cross_entropy")
    tensors = [torch.tensor(w, requires_grad=True) for w in weights]
    _, outputs = reference(
        torch.tensor(X),
        torch.tensor(Y),
        torch.ones(T, B),
        *tensors,
        dynamics,
        torch.zeros(T, B, N_h, dtype=torch.float64),
    )
    real = torch.tensor(Y.sum(-1) > 0)
    expected = torch.nn.functional.cross_entropy(outputs[real], torch.tensor(Y.argmax(-1))[real])
    expected.backward()
    assert loss == pytest.approx(expected.item(), rel=1e-12)
    for grad, tensor in zip(grads, tensors, strict=True):
        np.testing.assert_allclose(grad, tensor.grad.numpy(), rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize(
    "dynamics",
    [FAMILIES[0], Dynamics("leaky", 0.2, "relu"), FAMILIES[-1]],
    ids=lambda d: d.describe(),
)
@pytest.mark.parametrize("loss", ["mse", "mse per line", "cross_entropy"])
def test_a_stack_gives_each_model_its_own_bits(dynamics, loss):
    """K = 3 models as one computation: each model's loss, outputs and gradients are exactly
    (bit for bit, float32) what it gets alone."""
    rng = np.random.default_rng(7)
    T, B, N_x, N_h, N_y, K = 9, 8, 3, 12, 3, 3

    def f32(shape, scale=1.0):
        return (scale * rng.standard_normal(shape)).astype(np.float32)

    X, noise = f32((K, T, B, N_x)), f32((K, T, B, N_h), 0.1)
    if loss == "cross_entropy":
        Y = np.eye(N_y, dtype=np.float32)[rng.integers(0, N_y, (K, T, B))]
    else:
        Y = f32((K, T, B, N_y))
    shape = (K, T, B, N_y) if loss == "mse per line" else (K, T, B)
    mask = (rng.random(shape) < 0.7).astype(np.float32)
    weights = [f32((K, *s), 0.5) for s in ((N_h, N_x), (N_h, N_h), (N_y, N_h))]
    kind = "cross_entropy" if loss == "cross_entropy" else "mse"
    values, outputs, grads = loss_and_gradients(X, Y, mask, *weights, dynamics, noise, kind)
    for k in range(K):
        alone = one(
            *(a[k].copy() for a in (X, Y, mask)),
            *(w[k].copy() for w in weights),
            dynamics,
            noise[k].copy(),
            kind,
        )
        assert values[k] == alone[0]
        assert np.array_equal(outputs[k], alone[1])
        for stacked, own in zip(grads, alone[2], strict=True):
            assert np.array_equal(stacked[k], own)


@pytest.mark.parametrize("dynamics", [FAMILIES[0], FAMILIES[-1]], ids=lambda d: d.describe())
@pytest.mark.parametrize("loss", ["mse", "mse per line", "cross_entropy"])
def test_the_stacked_step_on_torch_tensors_equals_numpys(dynamics, loss):
    """The device path (torch tensors, here on the CPU in float64): the same losses, outputs
    and gradients as NumPy's, to rounding."""
    rng = np.random.default_rng(8)
    K, T, B, N_x, N_h, N_y = 4, 6, 5, 3, 7, 3
    X = rng.standard_normal((K, T, B, N_x))
    if loss == "cross_entropy":
        Y = np.eye(N_y)[rng.integers(0, N_y, (K, T, B))]
    else:
        Y = rng.standard_normal((K, T, B, N_y))
    mask = (rng.random((K, T, B, N_y) if loss == "mse per line" else (K, T, B)) < 0.7) * 1.0
    weights = [rng.standard_normal((K, *s)) * 0.5 for s in ((N_h, N_x), (N_h, N_h), (N_y, N_h))]
    noise = 0.1 * rng.standard_normal((K, T, B, N_h))
    kind = "cross_entropy" if loss == "cross_entropy" else "mse"
    ours = loss_and_gradients(X, Y, mask, *weights, dynamics, noise.copy(), kind)
    tensors = [torch.tensor(a) for a in (X, Y, mask, *weights)]
    theirs = loss_and_gradients(*tensors, dynamics, torch.tensor(noise), kind)
    np.testing.assert_allclose(theirs[0], ours[0], rtol=1e-12)
    np.testing.assert_allclose(theirs[1].numpy(), ours[1], rtol=1e-12, atol=1e-14)
    for a, b in zip(theirs[2], ours[2], strict=True):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-10, atol=1e-13)
