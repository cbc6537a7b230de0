"""Generator invariants: each test can fail if a generator is wrong."""

import inspect
from pathlib import Path

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


@pytest.mark.parametrize("size", [(1,), (64, 8), (3, 5, 7), (0, 4)])
def test_random_signs_are_the_draws_of_choice_from_the_same_stream(size):
    """The copy and flip-flop signs stay those of ``rng.choice([-1.0, 1.0])``: the same values,
    and the generator left in the same state for the draws that follow."""
    for seed in range(20):
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        signs = tasks.random_signs(ours, size)
        np.testing.assert_array_equal(signs, numpys.choice(np.array([-1.0, 1.0]), size=size))
        assert signs.dtype == np.float64
        assert ours.bit_generator.state == numpys.bit_generator.state


def test_flip_flop_planted_trial_every_step():
    """A trial written by hand: pulses +1 on line 0 at t = 0, −1 on line 1 at t = 3, +1 on line 2
    at t = 6, −1 on line 0 at t = 12; grace 2. Each target and mask entry follows by hand."""
    pulses = np.zeros((1, 16, 3))
    for t, line, sign in [(0, 0, 1), (3, 1, -1), (6, 2, 1), (12, 0, -1)]:
        pulses[0, t, line] = sign
    targets, mask = flip_flop.held_targets(pulses, grace=2)
    expected = np.zeros((16, 3))
    expected[2:12, 0] = 1  # set 2 steps after its pulse; the second pulse's grace: 12, 13
    expected[14:, 0] = -1
    expected[5:, 1] = -1
    expected[8:, 2] = 1
    expected_mask = np.zeros((16, 3))
    expected_mask[2:12, 0] = expected_mask[14:, 0] = 1
    expected_mask[5:, 1] = expected_mask[8:, 2] = 1
    np.testing.assert_array_equal(targets[0], expected)
    np.testing.assert_array_equal(mask[0], expected_mask)


def flip_flop_pulses(b):
    """(time, line, sign) of every pulse of every trial of a batch without input noise."""
    return [
        [(t, line, b.inputs[k, t, line]) for t, line in zip(*np.nonzero(b.inputs[k]), strict=True)]
        for k in range(len(b.inputs))
    ]


def test_flip_flop_source_pulse_train():
    b = flip_flop.generate(rng(), 2000)
    assert b.inputs.shape == b.targets.shape == b.mask.shape == (2000, 25, 3)
    gaps, counts = [], []
    for trial in flip_flop_pulses(b):
        times = [t for t, _, _ in trial]
        lines = [line for _, line, _ in trial]
        assert times[:3] == [0, 3, 6] and sorted(lines[:3]) == [0, 1, 2]
        assert len(set(times)) == len(times)  # one line at a time
        assert {abs(s) for _, _, s in trial} == {1.0}
        gaps += list(np.diff(times[2:]))
        counts.append(len(times))
    # Later gaps are 2 + floor(U[3, 10)): 5..11, each with probability 1/7 (the gaps seen inside
    # a trial favour short ones, so take them from the untruncated train).
    assert set(gaps) <= set(range(5, 12))
    times = flip_flop.pulse_times(rng(), 4000, 3, 25, 3, 10, 2)
    np.testing.assert_array_equal(times[:, :3], [[0, 3, 6]] * 4000)
    values, freq = np.unique(np.diff(times[:, 2:]), return_counts=True)
    assert list(values) == list(range(5, 12))
    np.testing.assert_allclose(freq / freq.sum(), 1 / 7, atol=0.01)
    # Expected pulses per trial, derived: 3 at t = 0, 3, 6, then a renewal process with gaps
    # uniform on 5..11 from t = 6; E[count] = 3 + sum over t < 25 of P(a pulse at t).
    onset = np.zeros(40)
    onset[6] = 1.0
    for t in range(7, 40):
        onset[t] = sum(onset[t - g] for g in range(5, 12) if t - g >= 6) / 7
    expected = 2 + onset[:25].sum()
    assert abs(np.mean(counts) - expected) < 0.05
    assert 4.5 < expected < 5.5  # "roughly 5 pulses a trial"


def test_flip_flop_source_targets_follow_the_pulses_of_a_batch():
    b = flip_flop.generate(rng(), 64)
    targets, mask = flip_flop.held_targets(b.inputs, grace=2)
    np.testing.assert_array_equal(b.targets, targets)
    np.testing.assert_array_equal(b.mask, mask)
    # Lines are unscored before their first pulse and for 2 steps at each pulse.
    for k, trial in enumerate(flip_flop_pulses(b)):
        for t, line, _ in trial:
            assert np.all(b.mask[k, t : t + 2, line] == 0)
        first = {line: min(t for t, l2, _ in trial if l2 == line) for line in range(3)}
        for line, t in first.items():
            assert np.all(b.mask[k, :t, line] == 0) and np.all(b.targets[k, :t, line] == 0)


def test_flip_flop_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="variant"):
        flip_flop.generate(rng(), 2, variant="mine")


def test_legacy_flip_flop_target_is_sign_of_last_pulse():
    b = flip_flop.generate(rng(), 64, variant="legacy")
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


def test_context_source_trial_every_step():
    """Without noise every step of a source trial is known: fixation 0–2, stimulus 3–22 (cue
    and coherence on), delay 23–27, decision 28–47."""
    b = context_integration.generate(rng(), 256, input_noise=0.0)
    assert b.inputs.shape == (256, 48, 4) and b.mask.shape == (256, 48)
    stimulus = np.zeros(48, dtype=bool)
    stimulus[3:23] = True
    for k in range(256):
        cue, evidence = b.inputs[k, :, :2], b.inputs[k, :, 2:]
        context = int(np.argmax(cue[3]))
        coherence = evidence[3]
        assert set(np.round(np.abs(coherence) * 8)) <= {1, 2, 4, 8}
        expected_cue = np.zeros((48, 2))
        expected_cue[stimulus, context] = 1
        np.testing.assert_array_equal(cue, expected_cue)  # cue during the stimulus only
        np.testing.assert_array_equal(evidence, stimulus[:, None] * coherence[None, :])
        expected_target = np.r_[np.zeros(28), np.full(20, np.sign(coherence[context]))]
        np.testing.assert_array_equal(b.targets[k, :, 0], expected_target)
        # Fixation and stimulus scored (target 0), delay not, decision scored.
        np.testing.assert_array_equal(b.mask[k], np.r_[np.ones(23), np.zeros(5), np.ones(20)])
    contexts = np.argmax(b.inputs[:, 3, :2], axis=1)
    assert 0.4 < contexts.mean() < 0.6
    cued = b.inputs[np.arange(256), 3, 2 + contexts]
    other = b.inputs[np.arange(256), 3, 3 - contexts]
    assert (np.sign(cued) != np.sign(other)).sum() > 50  # the other stream is often the opposite


def test_context_source_noise_on_every_step_of_the_evidence_only():
    b = context_integration.generate(rng(), 512, input_noise=0.05)
    quiet = context_integration.generate(rng(), 512, input_noise=0.0)  # same draws, no noise
    noise = b.inputs - quiet.inputs
    assert np.all(noise[:, :, :2] == 0)  # cues carry none
    for epoch in (slice(0, 3), slice(3, 23), slice(23, 28), slice(28, 48)):
        std = noise[:, epoch, 2:].std()
        assert 0.045 < std < 0.055, (epoch, std)
    np.testing.assert_array_equal(b.targets, quiet.targets)


def test_legacy_context_target_is_sign_of_the_cued_stream_only():
    b = context_integration.generate(rng(), 256, input_noise=0.0, variant="legacy")
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


def test_legacy_context_noise_only_on_evidence_during_stimulus():
    b = context_integration.generate(rng(), 64, input_noise=0.05, variant="legacy")
    assert np.all(b.inputs[:, 23:, :2] == 0)
    noise = b.inputs[:, 3:23, :2] - np.round(b.inputs[:, 3:23, :2] * 8) / 8
    assert 0.03 < noise.std() < 0.07


def test_unknown_task_is_refused():
    with pytest.raises(KeyError, match="unknown task"):
        tasks.get("parity")


@pytest.mark.parametrize("name", tasks.names())
def test_every_task_module_keeps_the_registry_contract(name):
    """What the workflow relies on of a task module, so a new module that lacks it fails here."""
    from jsonschema import Draft202012Validator

    module = tasks.get(name)
    signature = inspect.signature(module.generate).parameters
    assert set(module.PARAMETERS) <= set(signature)
    defaults = tasks.defaults(name)
    schema = {"type": "object", "additionalProperties": False, "properties": module.PARAMETERS}
    assert not list(Draft202012Validator(schema).iter_errors(defaults))
    assert module.SCORE in ("accuracy", "fvu")
    assert module.HIGHER_IS_BETTER == (module.SCORE == "accuracy")
    assert module.CURRICULUM_PARAM in (None, *module.PARAMETERS)
    batch = module.generate(rng(), 6, **defaults)
    assert (batch.inputs.shape[-1], batch.targets.shape[-1]) == module.dims(**defaults)
    assert batch.mask.sum() > 0
    perfect = module.score(batch.targets, batch)
    assert perfect == (1.0 if module.HIGHER_IS_BETTER else 0.0)
    # The same seed gives the same trials (the held-out set is drawn once per task).
    again = module.generate(rng(), 6, **defaults)
    np.testing.assert_array_equal(batch.inputs, again.inputs)


def test_the_registry_is_the_package():
    modules = {p.stem for p in Path(tasks.__file__).parent.glob("*.py") if p.stem[0] != "_"}
    assert set(tasks.names()) == modules - {"functional", "metrics"}


def test_generator_defaults_are_the_sources():
    """The defaults of each generator, against the values of Schuessler et al.'s generators
    (SPEC, the source's task_generators.py) and the paper's copy task."""
    assert tasks.defaults("copy") == {"n_symbols": 8, "symbol_dim": 8, "n_lags": 128}
    flip = tasks.defaults("flip_flop")
    assert (flip["n_bits"], flip["length"], flip["gap_min"], flip["gap_max"]) == (3, 25, 3, 10)
    assert (flip["gap_offset"], flip["pulse_amplitude"], flip["input_noise"]) == (2, 1.0, 0.0)
    assert tasks.defaults("sine") == {
        "length": 50,
        "input_offset": 0.25,
        "freq_min": 0.04,
        "freq_range": 0.16,
        "input_noise": 0.0,
    }
    context = tasks.defaults("context_integration")
    assert [context[k] for k in ("fixation", "stimulus", "delay", "decision")] == [3, 20, 5, 20]
    assert context["input_noise"] == 0.05
    romo = tasks.defaults("romo")
    assert [romo[k] for k in ("fixation_min", "fixation_max", "delay_min", "delay_max")] == [
        1,
        3,
        2,
        12,
    ]
    assert (romo["decision_delay"], romo["decision"], romo["min_difference"]) == (4, 8, 0.2)
    rsg = tasks.defaults("ready_set_go")
    assert [rsg[k] for k in ("interval_min", "interval_max", "decision", "pulse_width")] == [
        5,
        25,
        10,
        10,
    ]


def test_sine_cue_is_uniform_on_the_unit_interval():
    x = sine.generate(rng(), 4000).inputs[:, 0, 0] - 0.25
    assert x.min() < 0.005 and x.max() > 0.995
    assert abs(x.mean() - 0.5) < 0.02 and abs(x.var() - 1 / 12) < 0.005


@pytest.mark.parametrize("variant", ["source", "legacy"])
def test_input_noise_has_its_standard_deviation(variant):
    clean = flip_flop.generate(rng(), 400, variant=variant)
    noisy = flip_flop.generate(rng(), 400, variant=variant, input_noise=0.1)
    quiet = clean.inputs == 0  # steps without a pulse: the noise alone
    assert abs(noisy.inputs[quiet].std() - 0.1) < 0.005 and abs(noisy.inputs[quiet].mean()) < 0.005
    cue = sine.generate(rng(), 400, input_noise=0.1).inputs[..., 0]
    assert abs((cue - cue.mean(axis=1, keepdims=True)).std() - 0.1) < 0.005


def test_flip_flop_source_later_pulses_hit_every_line_alike():
    lines = [
        line
        for trial in flip_flop_pulses(flip_flop.generate(rng(), 3000))
        for _, line, _ in trial[3:]
    ]
    counts = np.bincount(lines, minlength=3) / len(lines)
    np.testing.assert_allclose(counts, 1 / 3, atol=0.02)


def test_legacy_flip_flop_gaps_and_first_pulses():
    b = flip_flop.generate(rng(), 3000, variant="legacy")
    first, gaps, signs = [], [], []
    for trial in range(3000):
        for line in range(3):
            times = np.nonzero(b.inputs[trial, :, line])[0]
            first += list(times[:1])
            gaps += list(np.diff(times))
            signs += list(b.inputs[trial, times, line])
    # First pulse at U{0..gap_max − gap_min}, gaps U{gap_min..gap_max} + gap_offset (3..10 + 2).
    assert set(first) == set(range(0, 8))
    assert set(gaps) == set(range(5, 13))
    assert abs(np.mean(np.array(signs) > 0) - 0.5) < 0.02


def test_window_marks_each_trials_steps_from_its_start():
    from rnnschur.tasks import window

    marked = window(6, np.array([0, 3]), 2)
    assert marked.tolist() == [[1, 1, 0, 0, 0, 0], [0, 0, 0, 1, 1, 0]]
    per_trial = window(4, np.array([1, 0]), np.array([3, 1]))  # widths per trial, clipped
    assert per_trial.tolist() == [[0, 1, 1, 1], [1, 0, 0, 0]]
