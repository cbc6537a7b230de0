"""One solution's reading: the bootstrap interval of its harm share and the word, on planted
outputs whose harm is known by construction."""

import numpy as np
import pytest

from rnnschur import tasks
from rnnschur.external.task import Score
from rnnschur.studies.solutions import bootstrap_scores, harm_interval, reading
from rnnschur.studies.verdicts import SHARE_CAP, Verdict
from rnnschur.tasks import Batch, metrics
from rnnschur.tasks._neurogym import choice_score

THETA, FLOOR = 0.02, 0.01


class FVUTask:
    SCORE = "fvu"

    @staticmethod
    def score(outputs, batch):
        return metrics.fvu(outputs, batch.targets, batch.mask)


def planted(n=400, noise=(0.0, 0.1, 1.0), seed=0):
    """A target and three networks: perfect, off by a small and by a large noise."""
    rng = np.random.default_rng(seed)
    targets = rng.standard_normal((n, 5, 1))
    outputs = np.stack([targets + s * rng.standard_normal(targets.shape) for s in noise])
    return outputs, Batch(np.zeros((n, 5, 1)), targets, np.ones((n, 5)))


def test_the_bootstrap_interval_holds_the_harm_and_is_zero_where_nothing_changes():
    outputs, batch = planted()
    boot = bootstrap_scores(FVUTask, outputs, batch, 300, np.random.default_rng(1))
    low, high = harm_interval("fvu", boot[:, 0], boot, 0.05)
    assert low[0] == high[0] == 0.0  # the full network against itself
    # derived: FVU of added N(0, s²) noise on a unit-variance target is s² / var(targets)
    for k, s in ((1, 0.1), (2, 1.0)):
        expected = s**2 / batch.targets.var()
        assert low[k] < expected < high[k]
        assert high[k] - low[k] < 0.5 * expected  # 400 trials: an interval, not a shrug


def test_the_same_resamples_score_every_network():
    outputs, batch = planted()
    a = bootstrap_scores(FVUTask, outputs, batch, 20, np.random.default_rng(3))
    b = bootstrap_scores(FVUTask, outputs[::-1], batch, 20, np.random.default_rng(3))
    np.testing.assert_array_equal(a, b[:, ::-1])


class ChoiceTask:
    SCORE = "choice"

    @staticmethod
    def score(outputs, batch):
        return choice_score(outputs, batch.targets, batch.mask)


def rescored(task, outputs, batch, n_boot, rng):
    """The bootstrap by its definition: each resample's trials picked and scored again."""
    n, scores = batch.inputs.shape[0], []
    for _ in range(n_boot):
        pick = rng.integers(0, n, n)
        resample = Batch(batch.inputs[pick], batch.targets[pick], batch.mask[pick])
        scores.append(np.asarray(task.score(outputs[:, pick], resample), dtype=float))
    return np.stack(scores)


def planted_tasks(rng, n=60, time=7):
    """(task, outputs (4, n, time, N_y), batch) for every kind of score: accuracy with a mask per
    step and per line, the pooled FVU with both masks and a target far from zero, the choice's
    κ, and an external model's scores; the masks leave some steps out."""
    copy = tasks.get("copy").generate(rng, n, n_symbols=3, symbol_dim=3, n_lags=4)
    flip = tasks.get("flip_flop").generate(rng, n)
    sine = tasks.get("sine").generate(rng, n)
    shifted = Batch(sine.inputs, sine.targets + 30.0, sine.mask)  # ȳ ≫ its spread
    actions = rng.integers(0, 3, (n, time))
    choice = Batch(np.zeros((n, time, 1)), np.eye(3)[actions], (rng.random((n, time)) < 0.6) * 1.0)
    per_line = Batch(copy.inputs, copy.targets, np.repeat(copy.mask[..., None], 3, axis=-1))
    per_line.mask[:, :, 0] *= rng.random(per_line.mask.shape[:2]) < 0.5

    def noisy(batch, scale):
        y = batch.targets
        return np.stack([y + s * rng.standard_normal(y.shape) for s in scale]).astype(np.float32)

    scale = (0.0, 0.3, 1.0, 3.0)
    return [
        (tasks.get("copy"), noisy(copy, scale), copy),
        (Score("accuracy"), noisy(per_line, scale), per_line),
        (tasks.get("flip_flop"), noisy(flip, scale), flip),
        (tasks.get("sine"), noisy(sine, scale), sine),
        (Score("fvu"), noisy(shifted, scale), shifted),
        (ChoiceTask, noisy(choice, scale), choice),
    ]


def test_the_bootstrap_from_trial_sums_is_the_rescored_bootstrap():
    """Every kind of score: the same resamples give the same scores as picking each resample's
    trials and scoring them again (to 1e-12), and so the same intervals."""
    for task, outputs, batch in planted_tasks(np.random.default_rng(7)):
        fast = bootstrap_scores(task, outputs, batch, 50, np.random.default_rng(11))
        slow = rescored(task, outputs, batch, 50, np.random.default_rng(11))
        np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-14, err_msg=task.SCORE)
        intervals = [harm_interval(task.SCORE, b[:, 0], b, 0.05) for b in (fast, slow)]
        np.testing.assert_allclose(intervals[0], intervals[1], rtol=0, atol=1e-12)


def test_a_diverged_trial_spoils_exactly_the_resamples_that_pick_it():
    outputs, batch = planted(n=30)
    outputs[1, 4], outputs[2, 7, 0, 0] = np.inf, np.nan
    fast = bootstrap_scores(FVUTask, outputs, batch, 40, np.random.default_rng(2))
    slow = rescored(FVUTask, outputs, batch, 40, np.random.default_rng(2))
    np.testing.assert_allclose(fast, slow, rtol=1e-12)  # inf and NaN where they are, too
    assert np.isinf(fast[:, 1]).any() and np.isfinite(fast[:, 1]).any()


def test_a_score_the_trial_sums_do_not_give_is_refused():
    """A task whose score is not the resampled one (here the FVU with a mean per step under the
    name fvu) is refused, not read."""

    class PerStep:
        SCORE = "fvu"

        @staticmethod
        def score(outputs, batch):
            return metrics.fvu(outputs, batch.targets, batch.mask, mean="per_step")

    outputs, batch = planted()
    batch = Batch(batch.inputs, batch.targets + np.arange(5)[None, :, None], batch.mask)
    with pytest.raises(ValueError, match="not the one resampled"):
        bootstrap_scores(PerStep, outputs, batch, 5, np.random.default_rng(0))


def test_a_diverged_rollout_counts_as_the_cap():
    full = np.full(50, 0.01)
    ablated = np.stack([full, np.full(50, np.inf), np.full(50, np.nan)], axis=1)
    low, high = harm_interval("fvu", full, ablated, 0.05)
    assert low[1] == high[1] == SHARE_CAP and low[2] == SHARE_CAP


def test_a_nan_full_score_gives_no_interval_and_no_fragile():
    """An intact network whose own score is NaN (an overflowed rollout) has no learned
    performance to lose: an ablated NaN is not read as diverged (the cap, fragile)."""
    full = np.full(50, np.nan)
    ablated = np.stack([full, np.full(50, np.nan), np.full(50, 0.5)], axis=1)
    low, high = harm_interval("fvu", full, ablated, 0.05)
    assert np.isnan(low).all() and np.isnan(high).all()
    assert reading(low[1], high[1], 0.3, THETA, FLOOR) is not Verdict.FRAGILE


@pytest.mark.parametrize(
    ("low", "high", "mass", "word"),
    [
        (THETA + 1e-3, 0.5, 0.1, Verdict.FRAGILE),
        (THETA - 1e-3, 0.5, 0.1, Verdict.UNDECIDED),
        (-THETA, THETA, 0.1, Verdict.STABILIZER),
        (-THETA - 1e-3, THETA, 0.1, Verdict.UNDECIDED),
        (-THETA, THETA + 1e-3, 0.1, Verdict.UNDECIDED),
        (-0.5, -THETA - 1e-3, 0.1, Verdict.IMPROVES),
        (0.9, 1.2, FLOOR - 1e-3, Verdict.ABSENT),  # a large harm of a block below the floor
        (0.9, 1.2, FLOOR, Verdict.FRAGILE),
        (np.nan, np.nan, 0.1, Verdict.UNDECIDED),
        (0.9, 1.2, np.nan, Verdict.ABSENT),
    ],
)
def test_the_reading_at_its_bounds(low, high, mass, word):
    assert reading(low, high, mass, THETA, FLOOR) == word


def test_the_interval_is_the_central_one_at_its_level():
    """Planted replicates: a perfect full model (FVU 0) and ablated FVUs 0, 0.001, ..., 1, so
    the shares are the FVUs themselves; the 95 % interval is their 2.5th and 97.5th percentile."""
    ablated = np.linspace(0.0, 1.0, 1001)[:, None]
    low, high = harm_interval("fvu", np.zeros(1001), ablated, 0.05)
    np.testing.assert_allclose([low[0], high[0]], [0.025, 0.975], atol=1e-12)
    low, high = harm_interval("fvu", np.zeros(1001), ablated, 0.2)
    np.testing.assert_allclose([low[0], high[0]], [0.1, 0.9], atol=1e-12)
