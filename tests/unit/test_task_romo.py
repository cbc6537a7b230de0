"""Romo's parametric working memory task, against the generator of Schuessler et al. (2024)."""

import numpy as np
import pytest

from rnnschur import tasks

ROMO = tasks.get("romo")


@pytest.fixture(scope="module")
def batch():
    return ROMO.generate(np.random.default_rng(3), 4000)


def events(inputs):
    """Per trial the steps and amplitudes of the two stimuli."""
    steps = [np.flatnonzero(trial[:, 0]) for trial in inputs]
    return np.array(steps), np.array([trial[s, 0] for trial, s in zip(inputs, steps, strict=True)])


def test_trial_length_and_shapes(batch):
    # fixation_max + 2 stimulus + delay_max + decision_delay + decision = 3 + 2 + 12 + 4 + 8
    assert batch.inputs.shape == (4000, 29, 1) and batch.targets.shape == (4000, 29, 1)
    assert batch.mask.shape == (4000, 29)


def test_two_one_step_stimuli_with_the_source_timing(batch):
    steps, f = events(batch.inputs)
    assert steps.shape == (4000, 2)  # exactly two nonzero steps per trial
    # fixation ⌊U[1, 3)⌋ ∈ {1, 2}, each about half the trials
    assert set(steps[:, 0]) == {1, 2}
    assert abs(np.mean(steps[:, 0] == 1) - 0.5) < 0.03
    # the second stimulus starts stimulus + delay after the first, delay ⌊U[2, 12)⌋ ∈ {2..11}
    delay = steps[:, 1] - steps[:, 0] - 1
    assert set(delay) == set(range(2, 12))
    counts = np.bincount(delay, minlength=12)[2:]
    assert np.all(np.abs(counts / 4000 - 0.1) < 0.02)
    # amplitudes U[0.5, 1.5], redrawn closer than 0.2
    assert f.min() >= 0.5 and f.max() <= 1.5
    assert np.all(np.abs(f[:, 0] - f[:, 1]) >= 0.2)
    assert abs(np.mean(f[:, 0] > f[:, 1]) - 0.5) < 0.03


def test_target_reports_the_larger_stimulus_on_the_decision_steps_only(batch):
    steps, f = events(batch.inputs)
    sign = np.where(f[:, 0] > f[:, 1], 1.0, -1.0)
    for k in range(0, 4000, 97):
        respond = steps[k, 1] + 1 + 4  # end of the second stimulus + decision delay
        expected_mask = np.zeros(29)
        expected_mask[respond : respond + 8] = 1
        np.testing.assert_array_equal(batch.mask[k], expected_mask)
        np.testing.assert_array_equal(batch.targets[k, :, 0], sign[k] * expected_mask)


def test_amplitude_pairs_closer_than_the_range_allows_are_refused():
    with pytest.raises(ValueError, match="min_difference"):
        ROMO.generate(np.random.default_rng(0), 4, min_difference=1.0)
