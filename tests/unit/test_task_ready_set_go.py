"""Ready-set-go interval reproduction, against the generator of Schuessler et al. (2024)."""

import numpy as np
import pytest

from rnnschur import tasks

RSG = tasks.get("ready_set_go")
SIGMA = 10 / 16


@pytest.fixture(scope="module")
def batch():
    return RSG.generate(np.random.default_rng(5), 4000)


def test_trial_length(batch):
    # fixation_max + 2 stimulus + 2 interval_max + decision = 3 + 2 + 50 + 10
    assert batch.inputs.shape == (4000, 65, 1) and batch.mask.shape == (4000, 65)


def test_ready_and_set_pulses_and_the_interval_distribution(batch):
    steps = np.array([np.flatnonzero(trial[:, 0]) for trial in batch.inputs])
    assert steps.shape == (4000, 2)
    assert (batch.inputs[batch.inputs != 0] == 1.0).all()
    assert set(steps[:, 0]) == {1, 2}  # fixation ⌊U[1, 3)⌋
    interval = steps[:, 1] - steps[:, 0] - 1  # steps between ready's end and set
    assert set(interval) == set(range(5, 25))  # ⌊U[5, 25)⌋
    counts = np.bincount(interval, minlength=25)[5:]
    assert np.all(np.abs(counts / 4000 - 0.05) < 0.015)


def test_the_bump_peaks_one_interval_after_set(batch):
    steps = np.array([np.flatnonzero(trial[:, 0]) for trial in batch.inputs])
    interval = steps[:, 1] - steps[:, 0] - 1
    peak = steps[:, 1] + 1 + interval  # set's end + the interval
    np.testing.assert_array_equal(batch.targets[:, :, 0].argmax(axis=1), peak)
    # height of a Gaussian density of σ = 10/16 at its centre; ±1 step: e^{-1/(2σ²)} of it
    height = 1 / np.sqrt(2 * np.pi * SIGMA**2)
    np.testing.assert_allclose(batch.targets[np.arange(4000), peak, 0], height)
    np.testing.assert_allclose(
        batch.targets[np.arange(4000), peak + 1, 0], height * np.exp(-1 / (2 * SIGMA**2))
    )
    # the bump spans peak − 5 .. peak + 4; the target is 0 elsewhere
    t = np.arange(65)
    outside = (t < peak[:, None] - 5) | (t > peak[:, None] + 4)
    assert (batch.targets[:, :, 0][outside] == 0).all()


def test_scored_from_the_start_to_ten_steps_after_the_bump(batch):
    steps = np.array([np.flatnonzero(trial[:, 0]) for trial in batch.inputs])
    peak = 2 * steps[:, 1] - steps[:, 0]
    end = np.minimum(peak + 5 + 10, 65)
    expected = (np.arange(65) < end[:, None]).astype(float)
    np.testing.assert_array_equal(batch.mask, expected)
    assert (end == 65).any()  # the longest intervals are clipped to the trial


def test_an_interval_shorter_than_half_the_bump_is_refused():
    with pytest.raises(ValueError, match="interval_min"):
        RSG.generate(np.random.default_rng(0), 4, interval_min=3)
