import numpy as np
import pytest
import torch

from rnnschur.network.dynamics import Dynamics
from rnnschur.network.rnn import rollout


def straightforward(x, W_xh, W_hh):
    h = torch.zeros(x.shape[1], W_hh.shape[0], dtype=x.dtype)
    states = []
    for x_t in x.unbind(0):
        h = torch.tanh(x_t @ W_xh.T + h @ W_hh.T)
        states.append(h)
    return torch.stack(states)


def test_numpy_rollout_matches_torch_and_stacks():
    rng = np.random.default_rng(0)
    W_xh, W_hy = rng.standard_normal((9, 3)), rng.standard_normal((2, 9))
    W_hh = 0.3 * rng.standard_normal((4, 9, 9))
    inputs = rng.standard_normal((5, 11, 3))
    outputs, hidden = rollout(W_xh, W_hh, W_hy, inputs, return_hidden=True, dtype=np.float64)
    assert outputs.shape == (4, 5, 11, 2) and hidden.shape == (4, 5, 11, 9)
    for k in range(4):
        H = (
            straightforward(
                torch.from_numpy(inputs.swapaxes(0, 1)),
                torch.from_numpy(W_xh),
                torch.from_numpy(W_hh[k]),
            )
            .numpy()
            .swapaxes(0, 1)
        )
        np.testing.assert_allclose(hidden[k], H, atol=1e-13)
        np.testing.assert_allclose(outputs[k], H @ W_hy.T, atol=1e-12)
        np.testing.assert_allclose(
            rollout(W_xh, W_hh[k], W_hy, inputs, dtype=np.float64), outputs[k], atol=1e-13
        )
        np.testing.assert_allclose(rollout(W_xh, W_hh[k], W_hy, inputs), outputs[k], atol=1e-5)


@pytest.mark.parametrize(
    "dynamics",
    [Dynamics("leaky", 0.2, "relu"), Dynamics("leaky_current", 0.3, "softplus")],
    ids=lambda d: d.describe(),
)
def test_leaky_rollout_with_biases_and_initial_state(dynamics):
    """A tutorial-style CTRNN step by step (biases, h0), against the stacked NumPy rollout."""
    rng = np.random.default_rng(1)
    W_xh, W_hy = rng.standard_normal((6, 2)), rng.standard_normal((3, 6))
    W_hh = 0.4 * rng.standard_normal((2, 6, 6))
    b_h, b_y, h0 = rng.standard_normal(6), rng.standard_normal(3), rng.standard_normal(6)
    inputs = rng.standard_normal((4, 10, 2))
    phi = {"relu": lambda u: np.maximum(u, 0), "softplus": lambda u: np.log1p(np.exp(u))}[
        dynamics.nonlinearity
    ]
    a = dynamics.leak
    out = rollout(
        W_xh, W_hh, W_hy, inputs, dtype=np.float64, b_h=b_h, b_y=b_y, h0=h0, dynamics=dynamics
    )
    for k in range(2):
        state = np.tile(h0, (4, 1))
        for t in range(10):
            drive = inputs[:, t] @ W_xh.T + b_h
            if dynamics.current_form:
                state = (1 - a) * state + a * (phi(state) @ W_hh[k].T + drive)
                rate = phi(state)
            else:
                state = (1 - a) * state + a * phi(drive + state @ W_hh[k].T)
                rate = state
            np.testing.assert_allclose(out[k, :, t], rate @ W_hy.T + b_y, rtol=1e-12, atol=1e-12)


def test_noise_in_the_drive_equals_the_same_drive_through_the_inputs():
    # Noise ξ_t = W_xh u_t added to the drive is the rollout of the inputs x + u.
    rng = np.random.default_rng(3)
    W_xh, W_hh, W_hy = rng.standard_normal((5, 5)), rng.standard_normal((5, 5)) / 3, np.eye(5)
    x, u = rng.standard_normal((4, 7, 5)), rng.standard_normal((4, 7, 5))
    for dynamics in (Dynamics(), Dynamics("leaky_current", leak=0.2)):
        shifted = rollout(W_xh, W_hh, W_hy, x + u, dynamics=dynamics, dtype=np.float64)
        noisy = rollout(W_xh, W_hh, W_hy, x, dynamics=dynamics, dtype=np.float64, noise=u @ W_xh.T)
        np.testing.assert_allclose(noisy, shifted, rtol=1e-12, atol=1e-12)
