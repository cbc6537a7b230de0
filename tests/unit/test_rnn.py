import numpy as np
import torch

from rnnschur.bptt import hidden_states
from rnnschur.rnn import rollout


def straightforward(x, W_xh, W_hh):
    h = torch.zeros(x.shape[1], W_hh.shape[0], dtype=x.dtype)
    states = []
    for x_t in x.unbind(0):
        h = torch.tanh(x_t @ W_xh.T + h @ W_hh.T)
        states.append(h)
    return torch.stack(states)


def test_hand_written_bptt_matches_autograd():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(30, 6, 3, dtype=torch.float64, generator=g)
    W_xh = torch.randn(9, 3, dtype=torch.float64, generator=g).requires_grad_()
    W_hh = (0.6 * torch.randn(9, 9, dtype=torch.float64, generator=g)).requires_grad_()
    weights = torch.randn(30, 6, 9, dtype=torch.float64, generator=g)
    H = hidden_states(x, W_xh, W_hh)
    grads = torch.autograd.grad((H * weights).sum(), (W_xh, W_hh))
    H_ref = straightforward(x, W_xh, W_hh)
    grads_ref = torch.autograd.grad((H_ref * weights).sum(), (W_xh, W_hh))
    torch.testing.assert_close(H, H_ref, rtol=0, atol=1e-13)
    for a, b in zip(grads, grads_ref, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-12)


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
