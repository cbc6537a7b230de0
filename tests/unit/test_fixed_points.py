"""Fixed points on networks whose answer is known, the Jacobian against torch autograd, and
what the matching rule calls kept, moved, lost and new."""

import numpy as np
import pytest
import torch
from scipy.optimize import brentq

from rnnschur.network import Network
from rnnschur.network.dynamics import DISCRETE, Dynamics
from rnnschur.studies import fixed_point_study as fps
from rnnschur.studies import fixed_points as fp

ROOT = brentq(lambda x: np.tanh(2 * x) - x, 0.5, 1.0)  # tanh(2x) = x: 0.95750...
Z_ROOT = brentq(lambda z: 2 * np.tanh(z) - z, 0.5, 3.0)  # z = 2 tanh(z): 1.9150...


def network(W, dynamics=DISCRETE, N_x=1, W_hy=None):
    N = W.shape[0]
    return Network(np.zeros((N, N_x)), W, np.eye(N) if W_hy is None else W_hy, dynamics)


def uniform_starts(N, n=300, seed=0):
    return np.random.default_rng(seed).uniform(-1.5, 1.5, (n, N))


def search(n):
    return fp.Search(n_starts=n)


@pytest.mark.parametrize(
    ("dynamics", "root"),
    [
        (Dynamics(), ROOT),
        (Dynamics("leaky", 0.3), ROOT),  # the leak moves no fixed point, only J
        (Dynamics("leaky_current", 0.5), Z_ROOT),  # z = W φ(z): z* = 2 tanh(z*)
    ],
    ids=["discrete", "leaky", "leaky_current"],
)
def test_W_2I_has_sixteen_stable_points_and_an_unstable_origin(dynamics, root):
    """Discrete tanh (and its leaky forms), W = 2I, N_h = 4, zero input, no bias: every
    coordinate of a stable point is ±x*, the root of tanh(2x) = x (z* = 2 tanh z* for the
    current form): 2⁴ = 16 stable points; the origin (J = 2I or 1 − a + 2a) is unstable."""
    W = 2 * np.eye(4)
    starts = 3 * uniform_starts(4) if dynamics.current_form else uniform_starts(4)
    points = fp.find(network(W, dynamics), W, np.zeros(1), starts, search(300))
    stable = [p for p in points if p.stability == "stable"]
    assert len(stable) == 16 and all(p.kind == "fixed" for p in stable)
    corners = {tuple(np.sign(p.state).astype(int)) for p in stable}
    assert len(corners) == 16
    for p in stable:
        np.testing.assert_allclose(np.abs(p.state), root, rtol=1e-10)
    origin = [p for p in points if np.allclose(p.state, 0, atol=1e-10)]
    assert len(origin) == 1 and origin[0].stability == "unstable" and origin[0].n_unstable == 4
    saddles = [p for p in points if p.stability == "saddle"]
    assert all(0 < p.n_unstable < 4 for p in saddles)  # a zero coordinate per unstable mode
    for p in saddles:
        assert p.n_unstable == int(np.sum(np.abs(p.state) < 1e-8))


def test_a_contraction_has_the_origin_alone_and_stable():
    """‖W‖₂ < 1: F is a contraction, its one fixed point the origin, stable."""
    rng = np.random.default_rng(1)
    W = rng.standard_normal((6, 6))
    W *= 0.8 / np.linalg.norm(W, 2)
    points = fp.find(network(W), W, np.zeros(1), uniform_starts(6, 50), search(50))
    assert len(points) == 1
    assert points[0].stability == "stable" and np.allclose(points[0].state, 0, atol=1e-12)


def test_a_two_bit_flip_flop_has_four_attractors_with_their_readouts():
    """Two bits held by self-excitation (W = 2I, N_h = 2), each read out alone (W_hy = I):
    four attractors reading (±x*, ±x*), every sign pattern once, beside four saddles (one bit
    undecided) and the unstable origin."""
    W = 2 * np.eye(2)
    points = fp.find(network(W), W, np.zeros(1), uniform_starts(2, 200), search(200))
    stable = [p for p in points if p.stability == "stable"]
    readouts = sorted(tuple(np.round(p.readout, 12)) for p in stable)
    r = round(ROOT, 12)
    assert readouts == [(-r, -r), (-r, r), (r, -r), (r, r)]
    assert sorted(p.stability for p in points) == ["saddle"] * 4 + ["stable"] * 4 + ["unstable"]


def test_a_rotation_that_grows_oscillates_and_has_no_stable_point():
    """W = 1.2 R(2π · 0.1), N_h = 2: the origin is unstable (|λ| = 1.2, a complex pair), tanh
    bounds the growth, and the readout oscillates near 0.1 cycles per step."""
    theta = 2 * np.pi * 0.1
    W = 1.2 * np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    net = Network(np.zeros((2, 1)), W, np.eye(2), Dynamics(), {"h0": np.array([0.1, 0.0])})
    points = fp.find(net, W, np.zeros(1), uniform_starts(2, 100), search(100))
    assert not [p for p in points if p.stability == "stable"]
    assert [p.stability for p in points if p.kind == "fixed"] == ["unstable"]
    [(frequency, amplitude)] = fp.oscillations(net, W, np.zeros((1, 1)))
    assert amplitude > 0.1 and frequency == pytest.approx(0.1, rel=0.2)
    still = Network(np.zeros((2, 1)), 0.5 * W, np.eye(2), Dynamics(), {"h0": np.ones(2)})
    assert np.isnan(fp.oscillations(still, 0.5 * W, np.zeros((1, 1)))[0][0])  # it settles


def _torch_step(dynamics, W, u, s):
    a = dynamics.leak
    phi = {"tanh": torch.tanh, "relu": torch.relu, "softplus": torch.nn.functional.softplus}[
        dynamics.nonlinearity
    ]
    if dynamics.current_form:
        return (1 - a) * s + a * (W @ phi(s) + u)
    return (1 - a) * s + a * phi(W @ s + u)


@pytest.mark.parametrize("kind", ["discrete", "leaky", "leaky_current"])
@pytest.mark.parametrize("nonlinearity", ["tanh", "relu", "softplus"])
def test_the_jacobian_is_torch_autograds(kind, nonlinearity):
    """J = ∂F/∂s, written out in fixed_points for one state and for a stack of them (the
    Newton search's), against torch's autograd of F written here from the module docstring's
    equations."""
    rng = np.random.default_rng(2)
    N = 7
    dynamics = Dynamics(kind, 1.0 if kind == "discrete" else 0.3, nonlinearity)
    W, u, S = rng.standard_normal((N, N)), rng.standard_normal(N), rng.standard_normal((3, N))
    Wt, ut = torch.tensor(W), torch.tensor(u)
    stacked = fp.jacobians(dynamics, W, u, S)
    for s, J in zip(S, stacked, strict=True):
        J_torch = torch.autograd.functional.jacobian(
            lambda x: _torch_step(dynamics, Wt, ut, x), torch.tensor(s)
        ).numpy()
        np.testing.assert_allclose(J, J_torch, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(fp.jacobian(dynamics, W, u, s), J_torch, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["discrete", "leaky", "leaky_current"])
@pytest.mark.parametrize("nonlinearity", ["tanh", "relu", "softplus"])
def test_the_map_is_the_module_docstrings_written_in_torch(kind, nonlinearity):
    """F(s) of a stack of states, returned or written into a window's slice (the free runs'),
    against F written here in torch from the module docstring's equations."""
    rng = np.random.default_rng(3)
    N = 7
    dynamics = Dynamics(kind, 1.0 if kind == "discrete" else 0.3, nonlinearity)
    W, u, S = rng.standard_normal((N, N)), rng.standard_normal(N), rng.standard_normal((3, N))
    expected = torch.stack(
        [_torch_step(dynamics, torch.tensor(W), torch.tensor(u), torch.tensor(s)) for s in S]
    ).numpy()
    np.testing.assert_allclose(fp.step(dynamics, W, u, S), expected, rtol=1e-12, atol=1e-12)
    window = np.zeros((3, 5, N))
    returned = fp.step(dynamics, W, u, S, window[:, 2])
    np.testing.assert_allclose(window[:, 2], expected, rtol=1e-12, atol=1e-12)
    assert np.shares_memory(returned, window) and not window[:, [0, 1, 3, 4]].any()


def _point(state, stability="stable", readout=None):
    state = np.asarray(state, float)
    readout = state if readout is None else np.asarray(readout, float)
    return fp.Point(state, 0.0, "fixed", stability, 0, np.zeros(len(state)), readout)


def test_the_matching_rule_keeps_moves_loses_and_adds():
    """Planted: A kept (0.01 away per unit), B moved (0.5 away, same readout signs), C lost
    (its nearest is D's sign pattern), D new, a saddle never counted."""
    intact = [_point([1, 1]), _point([-1, 1]), _point([1, -1]), _point([0, 0], "saddle")]
    ablated = [_point([1.01, 1.01]), _point([-0.5, 1.5]), _point([-1, -1])]
    fate = fp.fates(intact, ablated, match=0.05)
    assert (fate.n_intact, fate.n_ablated) == (3, 3)
    assert (fate.kept, fate.moved, fate.lost, fate.new) == (1, 1, 1, 1)
    assert fate.distance == pytest.approx((0.01 + 0.5) / 2)


def test_input_conditions_per_task():
    """Zero input for every task; the sine task's cues over its range, with the frequency each
    cues; the context task's two cues on the lines of its variant."""
    sine = fps.input_conditions("sine", np.zeros((2, 3, 1)), {"input_offset": 0.25}, n_cues=3)
    assert [float(x[0]) for x in sine.values()] == [0.0, 0.25, 0.75, 1.25]
    generator = {"input_offset": 0.25, "freq_min": 0.04, "freq_range": 0.16}
    assert fps.cued_frequency("sine", np.array([0.75]), generator) == pytest.approx(0.12)
    assert np.isnan(fps.cued_frequency("sine", np.zeros(1), generator))  # outside the cues
    context = fps.input_conditions("context_integration", np.zeros((2, 3, 4)), {})
    assert [list(x) for x in context.values()] == [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]]
    legacy = fps.input_conditions("context_integration", np.zeros((2, 3, 4)), {"variant": "legacy"})
    assert list(legacy["context 2 cue"]) == [0, 0, 0, 1]


@pytest.mark.parametrize("N", [1, 2, 3, 4])
@pytest.mark.parametrize("w", [2.0, 3.0])
def test_every_fixed_point_of_w_identity_from_trials_that_visit_one_corner(N, w):
    """W = w·I (w > 1), discrete tanh, no input: each coordinate is 0 or ±x*, the root of
    tanh(w x) = x, so there are 3^N fixed points: 2^N stable corners, the unstable origin, and
    3^N − 2^N − 1 saddles whose unstable modes are their zero coordinates. Found whatever the
    held-out trials visit: here states near a single corner only (the search's starts spread
    over φ's range, then the midpoints between the attractors found)."""
    root = brentq(lambda x: np.tanh(w * x) - x, 0.1, 1.0)
    W = w * np.eye(N)
    rng = np.random.default_rng(N)
    visited = root + 0.01 * rng.standard_normal((4, 10, N))  # trials near (+x*, ..., +x*)
    net = network(W)
    search = fp.Search(n_starts=256)  # 256 of them uniform over φ's range: every orthant
    points = fp.find(net, W, np.zeros(1), fp.starts(visited, search, fp.state_bounds(net)), search)
    assert len(points) == 3**N and all(p.kind == "fixed" for p in points)
    pattern = {tuple(np.sign(np.round(p.state, 8)).astype(int)) for p in points}
    assert len(pattern) == 3**N  # every sign pattern of {−, 0, +}^N once
    for p in points:
        zeros = int(np.sum(np.abs(p.state) < 1e-8))
        np.testing.assert_allclose(np.abs(p.state[np.abs(p.state) >= 1e-8]), root, rtol=1e-9)
        assert p.n_unstable == zeros
        assert p.stability == ("stable" if zeros == 0 else "unstable" if zeros == N else "saddle")
