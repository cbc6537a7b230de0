import numpy as np
import pytest

from rnnschur.tasks import metrics


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


def test_a_mask_per_line_scores_only_its_entries():
    rng = np.random.default_rng(3)
    targets = rng.standard_normal((4, 5, 3))
    outputs = targets + rng.standard_normal((4, 5, 3))
    mask = (rng.random((4, 5, 3)) > 0.4).astype(float)
    picked = mask > 0
    # By hand, per line: ȳ over that line's scored entries.
    y_bar = np.array([targets[..., j][picked[..., j]].mean() for j in range(3)])
    expected = ((outputs - targets)[picked] ** 2).sum() / (((targets - y_bar)[picked] ** 2).sum())
    assert metrics.fvu(outputs, targets, mask) == pytest.approx(expected)
    # A per-step mask equals the same mask repeated on every line.
    step = (rng.random((4, 5)) > 0.3).astype(float)
    line = np.repeat(step[..., None], 3, axis=-1)
    assert metrics.fvu(outputs, targets, step) == pytest.approx(metrics.fvu(outputs, targets, line))
    assert metrics.rollout_discrepancy(outputs, targets, step) == pytest.approx(
        metrics.rollout_discrepancy(outputs, targets, line)
    )


def test_fvu_per_trial_on_planted_trials():
    targets = np.array([[[1.0], [-1.0]], [[0.0], [2.0]], [[3.0], [3.0]]])
    outputs = np.array([[[1.0], [1.0]], [[0.0], [2.0]], [[0.0], [0.0]]])
    mask = np.ones((3, 2))
    # Trial 0: residual 4, variance 2 → 2; trial 1: exact → 0; trial 2: no variance, left out.
    assert metrics.fvu_per_trial(outputs, targets, mask) == pytest.approx(1.0)
    stacked = np.stack([outputs, targets])
    np.testing.assert_allclose(metrics.fvu_per_trial(stacked, targets, mask), [1.0, 0.0])
    assert np.isnan(metrics.fvu_per_trial(outputs[2:], targets[2:], mask[2:]))


def test_fvu_per_trial_with_partial_masks_and_small_variances():
    # Trial 0: masked targets (1, −1) → ȳ 0, variance 2, residual (−1 − 0.5)² = 2.25 → 1.125;
    # the unmasked step (target 5, output 9) counts nowhere.
    # Trial 1: variance 0.08 (below 1), residual 0.1² = 0.01 → 0.125.
    # Trial 2: one scored step has no variance of its own: left out.
    targets = np.array([[1.0, -1.0, 5.0], [0.2, 0.4, 0.6], [7.0, 3.0, 7.0]])[..., None]
    outputs = np.array([[1.0, 0.5, 9.0], [0.2, 0.5, 0.6], [0.0, 0.0, 0.0]])[..., None]
    mask = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]])
    assert metrics.fvu_per_trial(outputs, targets, mask) == pytest.approx((1.125 + 0.125) / 2)


def test_fvu_of_constant_targets_is_refused():
    with pytest.raises(ValueError, match="no variance"):
        metrics.fvu(np.zeros((2, 3, 1)), np.ones((2, 3, 1)), np.ones((2, 3)))


def test_fvu_with_a_mean_per_step_is_the_variance_a_time_locked_average_leaves():
    # Targets that follow the clock plus a per-trial offset: predicting the time-locked average
    # leaves exactly the offsets' variance, so its per-step FVU is 1 and its pooled FVU below 1.
    t = np.arange(6)
    offsets = np.array([-1.0, 1.0, 0.5, -0.5])
    y = (np.sin(t)[None, :] + offsets[:, None])[..., None]
    mask = np.ones((4, 6))
    average = np.broadcast_to(y.mean(axis=0), y.shape)
    assert metrics.fvu(average, y, mask, mean="per_step") == pytest.approx(1.0)
    pooled = np.sum(offsets**2) * 6 / np.sum((y - y.mean()) ** 2)
    assert metrics.fvu(average, y, mask) == pytest.approx(pooled)
    assert pooled < 1
    with pytest.raises(ValueError, match="per_step"):
        metrics.fvu(y, y, mask, mean="median")


def test_an_output_of_exactly_zero_is_no_sign():
    """sgn(0) = 0 matches no ±1 target: a zero output is a wrong replay, not a right one."""
    targets = np.array([[[1.0, -1.0]]])
    mask = np.ones((1, 1))
    np.testing.assert_allclose(metrics.replay_accuracy(np.zeros_like(targets), targets, mask), 0)
    np.testing.assert_allclose(
        metrics.sign_disagreement(np.zeros_like(targets), targets, mask), 1.0
    )
