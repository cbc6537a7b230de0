import numpy as np

from rnnschur import metrics


def test_fvu_known_values():
    rng = np.random.default_rng(0)
    y = rng.standard_normal((10, 7, 2))
    mask = np.ones((10, 7))
    assert metrics.fvu(y, y, mask) == 0.0
    y_bar = y.mean(axis=(0, 1))
    np.testing.assert_allclose(metrics.fvu(np.broadcast_to(y_bar, y.shape), y, mask), 1.0)
    # Only masked steps count.
    mask[:, :3] = 0
    noisy = y.copy()
    noisy[:, :3] += 100
    assert metrics.fvu(noisy, y, mask) == 0.0


def test_fvu_of_a_stack():
    y = np.random.default_rng(1).standard_normal((5, 4, 1))
    stack = np.stack([y, y + 1])
    out = metrics.fvu(stack, y, np.ones((5, 4)))
    assert out.shape == (2,) and out[0] == 0 and out[1] > 0


def test_effect_per_mass_is_missing_where_nothing_was_removed():
    s = metrics.effect_per_mass(np.array([0.5, 0.2]), np.array([0.25, 0.0]))
    assert s[0] == 2.0 and np.isnan(s[1])


def test_replay_accuracy_and_disagreement():
    targets = np.ones((2, 3, 4))
    mask = np.array([[0, 1, 1], [0, 1, 1.0]])
    outputs = targets.copy()
    outputs[:, 1, 0] = -1
    assert metrics.replay_accuracy(outputs, targets, mask) == 1 - 2 / 16
    assert metrics.sign_disagreement(outputs, targets, mask) == 2 / 16
    assert metrics.rollout_discrepancy(outputs, targets, mask) == 2 * 4 / 16
