"""Verdicts on one scale: the effect of an ablation as a share of what the network learned, the
tests over seeds, their power, and the verdict words every study uses.

**The effect scale.** A score's *learned performance* is 0 at chance and 1 when perfect:

    p = 1 − FVU                          (FVU, eq. 7: predicting the targets' mean scores 0)
    p = (score − chance) / (1 − chance)  (sign accuracy, eq. 6, chance 1/2; the NeuroGym choice
                                          score is Cohen's κ, chance 0)

and the *harm share* of an ablation S is the part of it that the removal takes away,

    h(S) = (p(W) − p(W̃(S))) / p(W),

0 for an ablation that changes nothing, 1 for one that leaves the network at chance (above 1:
worse than chance, e.g. an FVU above 1). For FVU it is ΔFVU / (1 − FVU(W)), close to the raw
ΔFVU of a good model; for sign accuracy (acc(W) − acc(W̃)) / (acc(W) − 1/2). So one number means
the same on every score, and the paper's raw Δ stays beside it in every table.

Why this scale and not the ratio of errors log10(error(W̃) / error(W)): a copy controller is
perfect (error 0), and a 1 % error after an ablation is then an infinite, or floor-set, number
of decades; the paper calls 1.00 → 1.00 harmless and a 20-fold FVU rise in flip-flop (0.0048 →
0.099) fragile, and the share reads both (0 and 0.095) without a floor (docs: "Verdicts").

**The thresholds** (config ``verdicts``; set after the first results had been published on the
raw score change, from the paper's readings, not tuned on ours): an ablation is *fragile* when
its mean harm share exceeds ``threshold`` θ, *harmless* when the share lies within ±θ. θ = 0.02
is set by the paper's own readings: the smallest effect it reads as harmful is flip-flop −T_CC
(a share of 0.050), the largest it reads as harmless is copy −T_CC (1.00 → 1.00: at most 0.01
of accuracy at its two digits, 0.02 as a share); θ lies in [0.02, 0.05), at the lower end
(:func:`rnnschur.studies.paper.reported_verdicts.paper_readings` checks it). A block whose
removed Schur mass ‖ΔT‖_F/‖T‖_F is below ``mass_floor`` is *empty*: removing nothing is not
harmlessness.

**The tests.** Over the seeds of a group: fragile (a claim holds, fails) when the two-sided
(1 − ``level``) Student t interval of the mean lies wholly past the bound; harmless (a tie is
equivalent) when two one-sided t tests show |mean| < θ at ``level``
(:func:`rnnschur.studies.stats.tost`). What neither decides is *underpowered* when the minimum
detectable effect at its n (:func:`rnnschur.studies.stats.mde`, power ``power``) exceeds the margin
θ, else *on the threshold* (the data could decide an effect θ away from the bound, and the
mean sits nearer). A number of the paper *agrees* when it lies in
the (1 − ``level``) interval of the reproduced mean, else it *differs* by the factor reproduced
/ paper (:func:`agreement`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

import numpy as np

from rnnschur.settings.schema import field as schema_field
from rnnschur.studies.stats import mde, reml_tau2, t_interval, tost

if TYPE_CHECKING:  # an ablation job scores with this module and never builds a table
    import pandas as pd


class Verdict(StrEnum):
    """Every word a verdict can be, in one enumeration (a member equals its word)."""

    __hash__ = str.__hash__  # a member hashes as its word: dict keys and pandas' isin agree

    FRAGILE = "fragile"
    HARMLESS = "harmless"
    IMPROVES = "improves"
    EMPTY = "empty"
    UNDERPOWERED = "underpowered"
    ON_THRESHOLD = "on the threshold"
    TOO_FEW = "too few learned models"
    HOLDS = "holds"
    FAILS = "fails"
    EQUIVALENT = "equivalent"
    NOT_RUN = "not run"
    AGREES = "agrees"
    DIFFERS = "differs"
    LOAD_BEARING = "load-bearing"
    SYMMETRY = "a symmetry direction"
    MILDER = "milder than any perturbation of its size"
    MIXED = "mixed across doses or controls"
    LIKE_ANY = "like any perturbation of its size"
    UNIVERSAL = "universal"
    HARMLESS_ACROSS = "harmless across tasks"
    TASK_RESTRICTED = "task-restricted"
    VARIES_ACROSS = "varies across tasks"
    TOO_FEW_TASKS = "too few tasks"
    # one trained solution's reading of an ablation (rnnschur.studies.solutions)
    STABILIZER = "stabilizer"
    ABSENT = "absent"
    UNDECIDED = "undecided"
    # a claim of the paper read solution by solution (rnnschur.studies.paper.reproduction)
    REPRODUCES = "reproduces"
    PARTLY = "partly"
    DOES_NOT = "does not reproduce"
    UNTESTABLE = "untestable"
    # a T_RR or T_CC reading that the order of near-equal moduli moves
    # (rnnschur.studies.beyond.orderings)
    BASIS_DEPENDENT = "basis-dependent"
    # a preregistered prediction judged on fresh solutions (rnnschur.studies.paper.confirmation)
    CONFIRMED = "confirmed"
    NOT_CONFIRMED = "not confirmed"
    # an ablation beside its overlap-matched random perturbation (rnnschur.studies.beyond.subspace)
    EXPLAINED = "explained"
    ABLATION_MILDER = "ablation milder"
    ABLATION_STRONGER = "ablation stronger"
    NO_CONTROL = "no control"  # also the dose-response's block no dose of a control matches
    SATURATED = "saturated"


DECIDED = (Verdict.FRAGILE, Verdict.HARMLESS, Verdict.IMPROVES)
"""The block verdicts that decide (*improves*: the removal raises the performance by more than
θ, the interval wholly below −θ)."""
UNDECIDED = (Verdict.UNDERPOWERED, Verdict.ON_THRESHOLD)
"""The two reasons a test over seeds leaves a row open."""
BLOCK_VERDICTS = (*DECIDED, *UNDECIDED, Verdict.EMPTY, Verdict.TOO_FEW)
"""What a coupling block can be called, in the order tables count them."""

SHARE_CAP = 1000.0
"""A harm share beyond which a rollout has diverged (an FVU of +inf): counted as this, so that a
blow-up is fragile rather than undefined."""

CHANCE = {"accuracy": 0.5, "choice": 0.0}
"""A higher-is-better score's value at chance: sign accuracy 1/2; the NeuroGym choice score is
chance-corrected already (κ). FVU's chance is the mean prediction, FVU 1."""


@dataclass(frozen=True)
class Thresholds:
    """The settings of every verdict (config ``verdicts``; ``mass_floor`` from config
    ``ablation``): θ on the harm-share scale, the floor of removed Schur mass below which a
    block is empty, the tests' error level and the power the minimum detectable effect is
    computed at."""

    threshold: float = schema_field("verdicts.threshold")
    mass_floor: float = schema_field("ablation.mass_floor")
    level: float = schema_field("verdicts.level")
    power: float = schema_field("verdicts.power")

    @classmethod
    def from_config(cls, config: dict) -> Thresholds:
        """From a whole config (``verdicts`` and ``ablation.mass_floor``)."""
        v = config["verdicts"]
        return cls(v["threshold"], config["ablation"]["mass_floor"], v["level"], v["power"])

    def scaled(self, **factors: float) -> Thresholds:
        """A copy with some settings multiplied, e.g. ``scaled(threshold=0.5)``."""
        return Thresholds(**{k: getattr(self, k) * factors.get(k, 1.0) for k in _FIELDS})


_FIELDS = ("threshold", "mass_floor", "level", "power")


def largest_size(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of each task's largest N_h (the paper's N_h = 72 for the copy task): the models
    a study's summary reads."""
    return frame[frame["n_hidden"] == frame.groupby("task")["n_hidden"].transform("max")]


def performance(metric: str, score: float | np.ndarray) -> float | np.ndarray:
    """The learned performance p of a score: 1 − FVU, or (score − chance)/(1 − chance)."""
    if metric == "fvu":
        return 1.0 - np.asarray(score, dtype=float)
    chance = CHANCE[metric]
    return (np.asarray(score, dtype=float) - chance) / (1.0 - chance)


def harm_share(
    metric: str, full: float | np.ndarray, ablated: float | np.ndarray
) -> float | np.ndarray:
    """h = (p(W) − p(W̃)) / p(W), the share of the learned performance an ablation removes
    (module docstring); NaN where the full model has no learned performance (p(W) ≤ 0)."""
    p_full = np.asarray(performance(metric, full), dtype=float)
    p_ablated = np.asarray(performance(metric, ablated), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(p_full > 0, (p_full - p_ablated) / p_full, np.nan)
    return float(share) if share.ndim == 0 else share


def error_ratio(metric: str, full: float | np.ndarray, ablated: float | np.ndarray):
    """log10(error(W̃) / error(W)), error = FVU or 1 − score: how many decades an ablation
    multiplies the error by (shown beside the harm share, not judged: it is undefined for a
    perfect model and makes a tiny error of an over-trained one look large); NaN where the
    full model's error is 0."""
    if metric == "fvu":
        e_full, e_ablated = np.asarray(full, float), np.asarray(ablated, float)
    else:
        e_full, e_ablated = 1.0 - np.asarray(full, float), 1.0 - np.asarray(ablated, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where((e_full > 0) & (e_ablated > 0), np.log10(e_ablated / e_full), np.nan)
    return float(ratio) if ratio.ndim == 0 else ratio


def undecided(minimum_effect: float, margin: float) -> Verdict:
    """Why a test left a row open: :attr:`Verdict.UNDERPOWERED` where the minimum detectable
    effect exceeds the margin the verdict is decided at, else :attr:`Verdict.ON_THRESHOLD`."""
    return Verdict.UNDERPOWERED if not minimum_effect <= margin else Verdict.ON_THRESHOLD


@dataclass(frozen=True)
class Decision:
    """A verdict over seeds with what decided it: the (1 − level) interval of the mean, the
    p-value of the equivalence test and the minimum detectable effect."""

    verdict: Verdict
    mean: float
    ci_low: float
    ci_high: float
    tost_p: float
    mde: float


def block_verdict(
    harm: np.ndarray, mass_removed: np.ndarray, thresholds: Thresholds, min_models: int = 3
) -> Decision:
    """The verdict of one coupling block over the seeds of a group (the learned models' harm
    shares and removed masses): :attr:`Verdict.TOO_FEW` below ``min_models`` seeds with a
    share, *empty* where the mean removed mass is below the floor, *fragile* where the interval
    lies above θ, *improves* where it lies below −θ, *harmless* where the equivalence test shows
    |mean| < θ, else *underpowered* or *on the threshold* (:func:`undecided`). A share above
    :data:`SHARE_CAP` (a diverged rollout) counts as the cap; an undefined one (NaN) not at
    all."""
    harm = np.asarray(harm, dtype=float)
    keep = ~np.isnan(harm)
    harm, mass_removed = np.minimum(harm[keep], SHARE_CAP), np.asarray(mass_removed)[keep]
    low, high = t_interval(harm, thresholds.level)
    theta = thresholds.threshold
    p_equal = tost(harm, theta)
    minimum = mde(harm, thresholds.level, thresholds.power)
    mean = float(harm.mean()) if len(harm) else np.nan
    if len(harm) < min_models:
        call = Verdict.TOO_FEW
    elif float(np.mean(mass_removed)) < thresholds.mass_floor:
        call = Verdict.EMPTY
    elif low > theta:
        call = Verdict.FRAGILE
    elif high < -theta:
        call = Verdict.IMPROVES
    elif p_equal < thresholds.level:
        call = Verdict.HARMLESS
    else:
        call = undecided(minimum, theta)
    return Decision(call, mean, low, high, p_equal, minimum)


@dataclass(frozen=True)
class AcrossTasks:
    """One random-effects estimate over k groups (tasks): the pooled mean μ̂ with its
    Hartung–Knapp (1 − level) interval, the between-group standard deviation τ̂ (REML), the
    share of the spread that is between groups (I²), Cochran's Q test of no between-group
    variance (``p_heterogeneity``), the (1 − level) prediction interval of a new group's
    mean, the minimum detectable effect of the prediction (:func:`across_mde`) and the verdict
    :func:`across_tasks` reads from them."""

    k: int
    mean: float
    ci_low: float
    ci_high: float
    tau: float
    i_squared: float
    p_heterogeneity: float
    pi_low: float
    pi_high: float
    mde: float
    verdict: Verdict


ACROSS_CAP = 2.0
"""The largest harm share the across-task estimate takes (twice what leaving the network at
chance removes): beyond it a rollout is destroyed, and a normal model of the tasks would be
driven by how far past chance a diverged one lands."""


def across_mde(k: int, se: float, pi_half: float, level: float, power: float) -> float:
    """The minimum detectable effect of the across-task prediction: how far from a bound the
    pooled mean μ̂ must lie for the prediction interval (half-width ``pi_half``,
    t_{k−2} √(τ̂² + 1/Σw)) to clear it with probability ``power``, μ̂ itself scattering with
    its standard error ``se`` (Hartung–Knapp's): pi_half + t_{power, k−1} · se. It holds
    pi_half fixed, but τ̂ inside it is estimated too: at k = 5 to 14 tasks a pooled harm one
    MDE past θ is called universal in about 0.7 of draws for a nominal power of 0.8 (tested).
    Its floor, as the tasks grow in number, is z_{1−level/2} · τ̂: the tasks' own spread,
    which more tasks do not narrow (:func:`across_undecided`)."""
    if k < 3:
        return math.inf
    from scipy.special import stdtrit

    return float(pi_half + stdtrit(k - 1, power) * se)


def across_undecided(
    mean: float, tau: float, p_heterogeneity: float, mde: float, thresholds: Thresholds
) -> Verdict:
    """Why the across-task test left a block open, on the rule of :func:`undecided`:
    *on the threshold* where the prediction could decide an effect θ away from the bound (its
    minimum detectable effect at most θ) and μ̂ sits nearer; else *varies across tasks* where
    Cochran's Q rejects equal tasks at ``level`` and the tasks' own spread z_{1−level/2} · τ̂
    alone exceeds μ̂'s distance from the nearer of ±θ (``| |μ̂| − θ |``): at the estimated τ̂
    and μ̂ a task like these falls on the other side of that bound with probability above
    level/2, so more tasks would not be expected to make it universal or harmless across tasks (more
    seeds or tasks may still show one task on the other side: *task-restricted*); else
    *underpowered* (more tasks, or seeds, would be expected to narrow the prediction enough, or
    to show that the tasks differ)."""
    theta = thresholds.threshold
    if mde <= theta:
        return Verdict.ON_THRESHOLD
    from scipy.special import ndtri

    spread = ndtri(1 - thresholds.level / 2) * tau
    if p_heterogeneity < thresholds.level and spread > abs(abs(mean) - theta):
        return Verdict.VARIES_ACROSS
    return Verdict.UNDERPOWERED


def across_tasks(groups: list[np.ndarray], thresholds: Thresholds) -> AcrossTasks:
    """The harm share of one coupling block across groups (tasks; each the learned seeds'
    shares of one task), in two stages: per task its mean y_i and the sampling variance
    v_i = max(s_i², s_p²)/n_i (s_p² the pooled within-task variance, a floor that keeps a task
    whose seeds agree exactly from outweighing all others), then the random-effects model
    y_i ~ N(μ, τ² + v_i) (:func:`rnnschur.studies.stats.reml_tau2`; μ̂ = Σ w_i y_i / Σ w_i,
    w_i = 1/(τ̂² + v_i); its
    interval Hartung–Knapp's, t_{k−1} on Σ w_i (y_i − μ̂)² / ((k − 1) Σ w_i), never narrower
    than the plain 1/Σ w_i; the prediction interval for a task like these
    μ̂ ± t_{k−2} √(τ̂² + 1/Σ w_i), Higgins et al. 2009; its minimum detectable effect
    :func:`across_mde`). Shares above :data:`ACROSS_CAP` count as it. Its verdict, at the θ,
    level and power of ``thresholds``, fixed before the data:

    - *universal*: the prediction interval lies above θ (a task like these is predicted
      harmed);
    - *harmless across tasks*: the prediction interval lies within ±θ (a task like these is
      predicted harmless);
    - *improves*: the prediction interval lies below −θ (a task like these is predicted to do
      better without the block);
    - *task-restricted*: Cochran's Q rejects equal tasks at ``level``, and some task's own
      (1 − level) t interval lies above θ while another's lies below it;
    - else undecided, and why (:func:`across_undecided`): *on the threshold*, *varies across
      tasks* or *underpowered*;
    - *too few tasks* below 3 groups (no prediction interval)."""
    from scipy.special import chdtrc, stdtrit

    groups = [np.minimum(np.asarray(g, float)[~np.isnan(g)], ACROSS_CAP) for g in groups]
    groups = [g for g in groups if len(g) >= 2]
    k = len(groups)
    if k < 3:
        return AcrossTasks(k, *(np.nan,) * 8, math.inf, Verdict.TOO_FEW_TASKS)
    y = np.array([g.mean() for g in groups])
    n = np.array([len(g) for g in groups])
    s2 = np.array([g.var(ddof=1) for g in groups])
    pooled = float(np.sum((n - 1) * s2) / np.sum(n - 1))
    v = np.maximum(s2, pooled) / n
    if not np.all(v > 0):  # every seed of every task agrees: nothing varies but the means
        v = np.full(k, 1e-12)
    tau2 = reml_tau2(y, v)
    w = 1.0 / (tau2 + v)
    mu = float(np.sum(w * y) / np.sum(w))
    hk = np.sqrt(max(np.sum(w * (y - mu) ** 2) / (k - 1), 1.0) / np.sum(w))
    half = stdtrit(k - 1, 1 - thresholds.level / 2) * hk
    w0 = 1.0 / v  # Cochran's Q: the fixed-effect weights
    q = float(np.sum(w0 * (y - np.sum(w0 * y) / np.sum(w0)) ** 2))
    p_het = float(chdtrc(k - 1, q))
    i2 = max(0.0, (q - (k - 1)) / q) if q > 0 else 0.0
    pi_half = stdtrit(k - 2, 1 - thresholds.level / 2) * np.sqrt(tau2 + 1.0 / np.sum(w))
    pi_low, pi_high = mu - pi_half, mu + pi_half
    minimum = across_mde(k, hk, pi_half, thresholds.level, thresholds.power)
    theta = thresholds.threshold
    own = [t_interval(g, thresholds.level) for g in groups]
    if pi_low > theta:
        verdict = Verdict.UNIVERSAL
    elif -theta < pi_low and pi_high < theta:
        verdict = Verdict.HARMLESS_ACROSS
    elif pi_high < -theta:
        verdict = Verdict.IMPROVES
    elif (
        p_het < thresholds.level
        and any(low > theta for low, _ in own)
        and any(high < theta for _, high in own)
    ):
        verdict = Verdict.TASK_RESTRICTED
    else:
        verdict = across_undecided(mu, float(np.sqrt(tau2)), p_het, minimum, thresholds)
    return AcrossTasks(
        k,
        mu,
        mu - half,
        mu + half,
        float(np.sqrt(tau2)),
        i2,
        p_het,
        pi_low,
        pi_high,
        minimum,
        verdict,
    )


def point_verdict(harm: float, mass_removed: float, thresholds: Thresholds) -> Verdict:
    """The verdict of one block of one model (no seeds to test over: a user's own network, or
    a number the paper reports for one controller): *empty* below the mass floor, *fragile*
    where the share exceeds θ (or the rollout diverged), *improves* where it lies below −θ,
    else *harmless*; an undefined share (a full model at chance) is *underpowered*: nothing
    was learned to lose."""
    if not mass_removed >= thresholds.mass_floor:
        return Verdict.EMPTY
    if np.isnan(harm):
        return Verdict.UNDERPOWERED
    if harm > thresholds.threshold:
        return Verdict.FRAGILE
    return Verdict.IMPROVES if harm < -thresholds.threshold else Verdict.HARMLESS


def far_agreements(compared: pd.DataFrame, mean: str, factor: float = 2.0) -> pd.DataFrame:
    """The rows whose reproduced ``mean`` *agrees* with the paper's value yet lies more than
    ``factor`` from it (:func:`far_off`): agreeing only because the interval is wide. A paper
    value within its own printed precision of 0 (column ``paper_precision``, where there is
    one) has no factor to be off by."""
    precision = compared["paper_precision"].fillna(0.0) if "paper_precision" in compared else 0.0
    return compared[
        (compared["paper_value"].abs() > precision)
        & (compared["agreement"] == Verdict.AGREES)
        & far_off(compared[mean], compared["paper_value"], factor)
    ]


def far_off(mean, paper_value, factor: float = 2.0) -> np.ndarray:
    """Whether each reproduced mean lies more than ``factor`` from the paper's value (in ratio
    of sizes): an agreement only a wide interval allows."""
    mean, paper_value = np.abs(np.asarray(mean, float)), np.abs(np.asarray(paper_value, float))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.abs(np.log10(mean / paper_value)) > np.log10(factor)


def agreement(
    values: np.ndarray, paper_value: float, level: float, precision: float = 0.0
) -> tuple[str, float]:
    """Whether a number of the paper agrees with the reproduced one: (:attr:`Verdict.AGREES`,
    the paper's value, ± ``precision`` (half a unit in its last printed digit), meets the
    two-sided (1 − ``level``) t interval of the reproduced mean; :attr:`Verdict.DIFFERS`, it
    lies wholly outside) and the factor reproduced mean / paper value. ('—', NaN) where the
    paper gives no number or fewer than two seeds give no interval. The paper's own sampling
    error (its SEM) is not counted, and "agrees" means only that this test does not tell the
    two apart."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if not np.isfinite(paper_value) or len(values) < 2:
        return "—", np.nan
    low, high = t_interval(values, level)
    factor = float(values.mean() / paper_value) if paper_value != 0 else np.nan
    meets = low <= paper_value + precision and paper_value - precision <= high
    return (Verdict.AGREES if meets else Verdict.DIFFERS), factor
