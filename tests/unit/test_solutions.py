"""One solution's reading: the bootstrap interval of its harm share and the word, on planted
outputs whose harm is known by construction."""

import numpy as np
import pytest

from rnnschur import metrics
from rnnschur.solutions import bootstrap_scores, harm_interval, reading
from rnnschur.tasks import Batch
from rnnschur.verdicts import SHARE_CAP, Verdict

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


def test_a_diverged_rollout_counts_as_the_cap():
    full = np.full(50, 0.01)
    ablated = np.stack([full, np.full(50, np.inf), np.full(50, np.nan)], axis=1)
    low, high = harm_interval("fvu", full, ablated, 0.05)
    assert low[1] == high[1] == SHARE_CAP and low[2] == SHARE_CAP


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
