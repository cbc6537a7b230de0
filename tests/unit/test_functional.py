"""Bits, decisions and a frequency, each read off outputs whose answer is planted."""

import numpy as np

from rnnschur.tasks import context_integration, flip_flop, functional, sine


def test_bits_count_only_the_steps_that_hold_a_bit():
    targets = np.array([[[1.0], [-1.0], [0.0], [1.0]]])  # one trial, four steps, one line
    mask = np.ones((1, 4))
    outputs = np.stack([targets, -targets, np.array([[[0.5], [0.5], [9.0], [0.5]]])])
    # the step of target 0 is not a bit: 3 bits, all right, all wrong, 2 of 3 right
    np.testing.assert_allclose(functional.sign_accuracy(outputs, targets, mask), [1, 0, 2 / 3])


def test_a_decision_is_the_sign_of_the_mean_output_in_the_decision_period():
    targets = np.zeros((2, 5, 1))
    targets[0, 3:], targets[1, 3:] = 1.0, -1.0
    said = np.zeros((2, 5, 1))
    said[:, 3:] = 0.2  # both trials answer +1: one right, one wrong
    said[:, :3] = -5.0  # fixation outputs do not decide
    assert functional.decision_accuracy(said, targets, np.ones((2, 5))) == 0.5


def test_the_frequency_error_of_a_slower_sine():
    t = np.arange(50)
    target = np.sin(2 * np.pi * 0.1 * t)[None, :, None]
    slow = np.sin(2 * np.pi * 0.08 * t)[None, :, None]
    mask = np.ones((1, 50))
    np.testing.assert_allclose(functional.frequency_error(target, target, mask), 0.0)
    # derived: the grid resolves 0.0025 cycles per step; 0.08 against 0.1 is an error of 0.2
    assert abs(functional.frequency_error(slow, target, mask) - 0.2) <= 0.0025 / 0.1


def test_each_paper_task_is_read_and_a_perfect_output_scores_perfectly():
    rng = np.random.default_rng(0)
    for task, perfect in ((flip_flop, 1.0), (context_integration, 1.0), (sine, 0.0)):
        batch = task.generate(rng, 64)
        name, read = functional.of(task)
        assert name and read(batch.targets, batch.targets, batch.mask) == perfect
    assert functional.of(object()) is None
