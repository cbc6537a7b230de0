"""Generator invariants: each test can fail if a generator is wrong."""

import numpy as np
import pytest

from rnnschur import tasks
from rnnschur.tasks import context_integration, copy, flip_flop, sine


def rng():
    return np.random.default_rng(123)


def test_copy_replays_cyclically_and_masks_the_lags():
    b = copy.generate(rng(), 16, n_symbols=8, symbol_dim=8, n_lags=128)
    assert b.inputs.shape == (16, 136, 8) and b.targets.shape == (16, 136, 8)
    symbols = b.inputs[:, :8]
    assert set(np.unique(symbols)) == {-1.0, 1.0}
    assert np.all(b.inputs[:, 8:] == 0)
    for lag in range(1, 129):
        np.testing.assert_array_equal(b.targets[:, 8 + lag - 1], symbols[:, (lag - 1) % 8])
    np.testing.assert_array_equal(b.mask.sum(axis=1), 128)
    assert np.all(b.mask[:, :8] == 0)
    assert copy.score(b.targets, b) == 1.0
    assert copy.score(-b.targets, b) == 0.0


def test_flip_flop_target_is_sign_of_last_pulse():
    b = flip_flop.generate(rng(), 64)
    assert b.inputs.shape == (64, 25, 3)
    for trial in range(64):
        for line in range(3):
            last = 0.0
            for t in range(25):
                if b.inputs[trial, t, line] != 0:
                    last = np.sign(b.inputs[trial, t, line])
                assert b.targets[trial, t, line] == last
    pulses = np.abs(b.inputs) > 0
    assert pulses.any(axis=1).mean() > 0.9  # nearly every line gets a pulse
    # Gaps between pulses on one line are at least gap_min + gap_offset.
    for trial in range(64):
        for line in range(3):
            times = np.nonzero(pulses[trial, :, line])[0]
            assert np.all(np.diff(times) >= 5)
    assert np.all(b.mask == 1)


def test_sine_frequency_follows_the_cue():
    b = sine.generate(rng(), 32)
    assert b.inputs.shape == (32, 50, 1)
    cue = b.inputs[:, 0, 0]
    assert np.all(b.inputs[:, :, 0] == cue[:, None])  # static input
    x = cue - 0.25
    assert np.all((x >= 0) & (x <= 1))
    f = 0.04 + 0.16 * x
    t = np.arange(50)
    np.testing.assert_allclose(b.targets[:, :, 0], np.sin(2 * np.pi * f[:, None] * t), atol=1e-12)
    # The dominant frequency of the target (FFT on a long window) matches f.
    long = sine.generate(np.random.default_rng(5), 4, length=4000)
    for trial in range(4):
        spectrum = np.abs(np.fft.rfft(long.targets[trial, :, 0]))
        peak = np.fft.rfftfreq(4000)[np.argmax(spectrum)]
        assert abs(peak - (0.04 + 0.16 * (long.inputs[trial, 0, 0] - 0.25))) < 1e-3


def test_context_target_is_sign_of_the_cued_stream_only():
    b = context_integration.generate(rng(), 256, input_noise=0.0)
    assert b.inputs.shape == (256, 48, 4)
    stim = slice(3, 23)
    coherence = b.inputs[:, 3, :2]
    assert np.all(b.inputs[:, stim, :2] == coherence[:, None])
    context = np.argmax(b.inputs[:, 0, 2:], axis=1)
    assert np.all(b.inputs[:, :, 2:].sum(axis=2) == 1)
    cued = coherence[np.arange(256), context]
    other = coherence[np.arange(256), 1 - context]
    np.testing.assert_array_equal(b.targets[:, -20:, 0], np.sign(cued)[:, None] * np.ones(20))
    # It ignores the other stream: the trials where the streams disagree exist and follow the cue.
    disagree = np.sign(cued) != np.sign(other)
    assert disagree.sum() > 50
    np.testing.assert_array_equal(b.targets[disagree, -1, 0], np.sign(cued[disagree]))
    # Mask: fixation (target 0) and decision, not stimulus or delay.
    np.testing.assert_array_equal(b.mask[0], np.r_[np.ones(3), np.zeros(25), np.ones(20)])
    assert np.all(b.targets[:, :3] == 0)
    assert set(np.round(np.abs(coherence.ravel()) * 8)) <= {1, 2, 4, 8}


def test_context_noise_only_on_evidence_during_stimulus():
    b = context_integration.generate(rng(), 64, input_noise=0.05)
    assert np.all(b.inputs[:, 23:, :2] == 0)
    noise = b.inputs[:, 3:23, :2] - np.round(b.inputs[:, 3:23, :2] * 8) / 8
    assert 0.03 < noise.std() < 0.07


def test_unknown_task_is_refused():
    with pytest.raises(KeyError, match="unknown task"):
        tasks.get("parity")
