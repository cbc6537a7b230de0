"""The generic statistics (rnnschur.studies.stats) on planted values whose answers are derived by
hand or from the t distribution's definition; the wrappers' own cases (one value, values that do
not vary, NaN) planted."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rnnschur.studies import stats as stats_lib


def one_sided(values, bound):
    """P(T_{n−1} ≥ t) for t = (mean − bound)/(s/√n), written out from the definition."""
    n = len(values)
    t = (np.mean(values) - bound) / (np.std(values, ddof=1) / np.sqrt(n))
    return stats.t.sf(t, n - 1)


def test_tost_at_and_around_its_margin():
    """Planted values whose mean and spread put the 90 % interval just inside, on and just
    outside ±margin; the p-value the larger of the two one-sided tests written out."""
    base = np.array([-1.0, 0.0, 1.0])  # mean 0, sd 1, se 1/√3
    half = stats.t.ppf(0.95, 2) / np.sqrt(3)  # the 90 % interval is ±half
    assert stats_lib.tost(base, half * 1.0001) < 0.05
    assert stats_lib.tost(base, half * 0.9999) > 0.05
    assert stats_lib.tost(base, half) == pytest.approx(0.05, rel=1e-9)
    shifted = base * 0.1 + 0.3  # mean 0.3, sd 0.1
    above = one_sided(shifted, -0.5)  # mean > −0.5
    below = one_sided(-shifted, -0.5)  # mean < 0.5
    assert stats_lib.tost(shifted, 0.5) == pytest.approx(max(above, below), rel=1e-12)
    assert stats_lib.tost(np.array([0.1, 0.1]), 0.2) == 0.0
    assert stats_lib.tost(np.array([0.3, 0.3]), 0.2) == 1.0
    assert stats_lib.tost(np.array([0.0, 0.0]), 0.0) == 0.0
    assert np.isnan(stats_lib.tost(np.array([0.1]), 0.2))


def test_p_greater_is_the_one_sided_t_test():
    harm = np.array([0.2, 0.35, 0.3, 0.5])
    assert stats_lib.p_greater(harm, 0.1) == pytest.approx(one_sided(harm, 0.1), rel=1e-10)
    assert stats_lib.p_greater(harm, 0.5) > 0.5  # the mean lies below the bound
    assert stats_lib.p_greater(np.array([0.3, 0.3]), 0.1) == 0.0
    assert stats_lib.p_greater(np.array([0.1, 0.1]), 0.1) == 1.0
    assert np.isnan(stats_lib.p_greater(np.array([0.3]), 0.1))


def test_t_interval_is_the_mean_plus_minus_t_times_its_standard_error():
    values = np.random.default_rng(3).normal(size=7)
    half = stats.t.ppf(0.975, 6) * np.std(values, ddof=1) / np.sqrt(7)
    expected = (values.mean() - half, values.mean() + half)
    assert stats_lib.t_interval(values, 0.05) == pytest.approx(expected, rel=1e-12)
    wider = stats_lib.t_interval(values, 0.01)
    assert wider[0] < expected[0] and wider[1] > expected[1]
    assert np.isnan(stats_lib.t_interval(np.array([0.3]), 0.05)[0])
    assert stats_lib.t_interval(np.array([0.3, 0.3, 0.3]), 0.05) == (0.3, 0.3)


def test_percentile_interval_of_planted_draws():
    """Draws 0..100 along the first axis: the 95 % interval is (2.5, 97.5) by linear
    interpolation; a NaN draw leaves its column undefined; no draws, NaN."""
    draws = np.stack([np.arange(101.0), np.arange(101.0) * 2], axis=1)
    draws[7, 1] = np.nan
    low, high = stats_lib.percentile_interval(draws, 0.05)
    np.testing.assert_allclose(low, [2.5, np.nan])
    np.testing.assert_allclose(high, [97.5, np.nan])
    assert stats_lib.percentile_interval(np.arange(101.0), 0.1) == (5.0, 95.0)
    assert all(np.isnan(stats_lib.percentile_interval(np.array([]), 0.05)))


def test_sem_over_seeds_drops_missing_values():
    values = pd.Series([1.0, 2.0, np.nan, 4.0])
    assert stats_lib.sem(values) == pytest.approx(np.std([1, 2, 4], ddof=1) / np.sqrt(3))
    assert np.isnan(stats_lib.sem(pd.Series([1.0, np.nan])))


@pytest.mark.parametrize("n", [3, 5, 10, 50])
def test_the_minimum_detectable_effect_is_detected_with_its_power(n):
    """Simulated: a true mean MDE away from the bound, the spread of the planted seeds, n seeds;
    the two-sided t test at level 0.05 rejects in about 80 % of 20,000 draws (the noncentral-t
    power at the approximation's MDE, within a few points)."""
    rng = np.random.default_rng(n)
    planted = rng.normal(0.0, 0.3, size=n)
    effect = stats_lib.mde(planted, 0.05, 0.8)
    sd = planted.std(ddof=1)
    draws = rng.normal(effect, sd, size=(20_000, n))
    t = draws.mean(axis=1) / (draws.std(axis=1, ddof=1) / np.sqrt(n))
    power = np.mean(t > stats.t.ppf(0.975, n - 1))
    assert 0.76 < power < 0.84
    assert stats_lib.mde(np.array([0.25, 0.25, 0.25]), 0.05, 0.8) == 0.0
    assert stats_lib.mde(np.array([0.1]), 0.05, 0.8) == np.inf


def test_benjamini_hochberg_by_hand():
    p = np.array([0.01, 0.04, 0.03, np.nan, 0.5])
    # m = 4 finite: sorted 0.01, 0.03, 0.04, 0.5 → 0.04, 0.06, 0.0533, 0.5 → min from the right
    q = stats_lib.benjamini_hochberg(p)
    np.testing.assert_allclose(q, [0.04, 0.16 / 3, 0.16 / 3, np.nan, 0.5])


def test_reml_tau2_equals_its_closed_form_for_equal_sampling_variances():
    """With equal v_i the restricted likelihood's maximum is max(0, s²_y − v) (derived: the
    score is −(k − 1)/(2σ²) + S/(2σ⁴) in σ² = τ² + v)."""
    rng = np.random.default_rng(0)
    for v in (0.01, 0.5, 4.0):
        y = rng.normal(0.3, 1.0, 9)
        expected = max(0.0, np.var(y, ddof=1) - v)
        assert stats_lib.reml_tau2(y, np.full(9, v)) == pytest.approx(expected, abs=1e-9)


def test_reml_tau2_maximises_the_restricted_likelihood_with_unequal_variances():
    """Against a grid search of the restricted log-likelihood written out here."""
    rng = np.random.default_rng(1)
    y, v = rng.normal(0.0, 0.5, 7), rng.uniform(0.01, 0.2, 7)

    def restricted(t):
        w = 1 / (t + v)
        mu = np.sum(w * y) / np.sum(w)
        return -0.5 * (np.sum(np.log(t + v)) + np.log(np.sum(w)) + np.sum(w * (y - mu) ** 2))

    grid = np.linspace(0, 2, 200_001)
    best = grid[np.argmax([restricted(t) for t in grid])]
    assert stats_lib.reml_tau2(y, v) == pytest.approx(best, abs=2e-5)
