"""Generic statistics the verdicts use, on scipy: Student t intervals and tests of a mean over
seeds, the equivalence test, the false-discovery adjustment, the minimum detectable effect,
the REML between-group variance, the percentile interval of a bootstrap and the exact
(Clopper–Pearson) interval of a proportion.

Each function takes plain arrays and adds only what scipy leaves to the caller: fewer than
two values give NaN (there is no spread to test against), and values that do not vary give the
limit of the test as their spread goes to 0 (scipy returns NaN there).

SciPy is imported inside the functions that use it: its statistics take most of a second to
load, and most of the workflow's jobs (an ablation, a figure) never run a test."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


def sem(values: pd.Series) -> float:
    """Standard error of the mean over seeds (NaN for fewer than two values)."""
    from scipy import stats

    values = values.dropna()
    return float(stats.sem(values)) if len(values) > 1 else np.nan


def _constant(values: np.ndarray) -> bool:
    return bool(np.all(values == values[0]))


def t_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """Two-sided Student t interval of the mean at confidence 1 − ``level``
    (``scipy.stats.ttest_1samp(...).confidence_interval``); NaN for fewer than two values; the
    point itself where the values do not vary."""
    from scipy import stats

    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return np.nan, np.nan
    if _constant(values):
        return float(values[0]), float(values[0])
    low, high = stats.ttest_1samp(values, 0.0).confidence_interval(1 - level)
    return float(low), float(high)


def p_greater(values: np.ndarray, bound: float) -> float:
    """One-sided t test of mean > ``bound`` (``ttest_1samp(..., alternative="greater")``). NaN
    for fewer than two values; where they do not vary, 0 if the mean exceeds ``bound``, else
    1."""
    from scipy import stats

    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return np.nan
    if _constant(values):
        return 0.0 if values[0] > bound else 1.0
    return float(stats.ttest_1samp(values, bound, alternative="greater").pvalue)


def tost(values: np.ndarray, margin: float) -> float:
    """Two one-sided t tests of |mean| < ``margin`` (Schuirmann 1987): the larger of the
    one-sided p-values of mean > −margin and of mean < margin; equivalence at a level when it
    is below it (the 1 − 2·level t interval lies inside ±margin). NaN for fewer than two
    values; where they do not vary, 0 if |mean| ≤ margin (a margin of 0: exactly equal), 1 if
    not."""
    from scipy import stats

    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return np.nan
    if _constant(values):
        return 0.0 if abs(values[0]) <= margin else 1.0
    above = stats.ttest_1samp(values, -margin, alternative="greater").pvalue
    below = stats.ttest_1samp(values, margin, alternative="less").pvalue
    return float(max(above, below))


def benjamini_hochberg(p: np.ndarray) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (Benjamini & Hochberg 1995;
    ``scipy.stats.false_discovery_control``) of the finite entries of ``p`` as one family (NaN
    stays NaN): rejecting every q ≤ f controls the false-discovery rate at f for independent or
    positively dependent tests."""
    from scipy import stats

    p = np.asarray(p, dtype=float)
    q = np.full(p.shape, np.nan)
    finite = np.isfinite(p)
    if finite.any():
        q[finite] = stats.false_discovery_control(p[finite], method="bh")
    return q


def mde(values: np.ndarray, level: float, power: float) -> float:
    """The minimum detectable effect of the mean of ``values`` at their n and spread: the
    distance from a bound that the two-sided level-``level`` t test detects with probability
    ``power``, (t_{1−level/2, n−1} + t_{power, n−1}) · s / √n (the usual noncentral-t
    approximation). Infinite for fewer than two values; 0 where they do not vary."""
    from scipy.special import stdtrit

    values = np.asarray(values, dtype=float)
    n = len(values)
    if n < 2:
        return math.inf
    quantiles = stdtrit(n - 1, 1 - level / 2) + stdtrit(n - 1, power)
    return float(quantiles * np.std(values, ddof=1) / np.sqrt(n))


def reml_tau2(means: np.ndarray, variances: np.ndarray) -> float:
    """The REML estimate of the between-group variance τ² of the one-way random-effects model
    y_i ~ N(μ, τ² + v_i) (group means y_i with their sampling variances v_i): the maximum over
    τ² ≥ 0 of the restricted log-likelihood
    −½ Σ log(τ² + v_i) − ½ log Σ w_i − ½ Σ w_i (y_i − μ̂)², w_i = 1/(τ² + v_i), μ̂ the weighted
    mean (Viechtbauer 2005). With equal v_i it is max(0, s²_y − v), s²_y the sample variance."""
    from scipy.optimize import minimize_scalar

    y, v = np.asarray(means, float), np.asarray(variances, float)

    def minus_restricted(tau2: float) -> float:
        w = 1.0 / (tau2 + v)
        mu = np.sum(w * y) / np.sum(w)
        return 0.5 * (np.sum(np.log(tau2 + v)) + np.log(np.sum(w)) + np.sum(w * (y - mu) ** 2))

    upper = 10.0 * float(np.var(y, ddof=1)) + float(np.max(v)) + 1e-12
    tau2 = float(minimize_scalar(minus_restricted, bounds=(0.0, upper), method="bounded").x)
    for _ in range(500):  # polished by the score equation's fixed point (Viechtbauer 2005)
        w = 1.0 / (tau2 + v)
        mu = np.sum(w * y) / np.sum(w)
        step = max(0.0, np.sum(w**2 * ((y - mu) ** 2 - v)) / np.sum(w**2) + 1.0 / np.sum(w))
        if abs(step - tau2) <= 1e-15 * (1.0 + tau2):
            tau2 = step
            break
        tau2 = step
    return 0.0 if minus_restricted(0.0) <= minus_restricted(tau2) else float(tau2)


def percentile_interval(draws: np.ndarray, level: float, axis: int = 0) -> tuple:
    """The (1 − ``level``) percentile interval of bootstrap ``draws`` along ``axis``: (low,
    high), each an array over the other axes (a float for 1-d draws); NaN where a draw is NaN
    (an undefined draw leaves the interval undefined) or there are none."""
    draws = np.asarray(draws, dtype=float)
    if draws.shape[axis] == 0:
        shape = np.delete(draws.shape, axis)
        return np.full(shape, np.nan)[()], np.full(shape, np.nan)[()]
    low, high = np.percentile(draws, [100 * level / 2, 100 * (1 - level / 2)], axis=axis)
    return low, high


def clopper_pearson(k: int, n: int, level: float) -> tuple[float, float]:
    """Exact two-sided (1 − ``level``) interval of a proportion k/n (Clopper & Pearson 1934);
    (NaN, NaN) for n = 0."""
    from scipy.stats import beta  # here: a job that draws no interval loads no scipy.stats

    if n == 0:
        return np.nan, np.nan
    low = beta.ppf(level / 2, k, n - k + 1) if k > 0 else 0.0
    high = beta.ppf(1 - level / 2, k + 1, n - k) if k < n else 1.0
    return float(low), float(high)
