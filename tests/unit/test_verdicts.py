"""The verdict statistics on planted values whose answers are derived by hand or by scipy."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats
from scipy.special import stdtrit

from rnnschur.studies import profile as profiles
from rnnschur.studies import verdicts
from rnnschur.studies.paper import reported, reported_verdicts
from rnnschur.studies.verdicts import Thresholds, Verdict

ROOT = Path(__file__).resolve().parents[2]


def test_a_verdict_is_its_word_in_tables_and_dictionaries():
    assert Verdict.FRAGILE == "fragile" and str(Verdict.ON_THRESHOLD) == "on the threshold"
    assert {Verdict.HARMLESS: 1}["harmless"] == 1 and {"empty": 2}[Verdict.EMPTY] == 2
    assert pd.Series(["fragile", "x"]).isin([Verdict.FRAGILE]).tolist() == [True, False]
    assert pd.DataFrame({"v": [Verdict.UNDERPOWERED]}).to_csv(index=False) == "v\nunderpowered\n"


def test_harm_share_is_the_part_of_the_learned_performance_removed():
    # FVU: the mean prediction scores 0, a perfect one 1; an FVU rise of 0.1 from 0 takes 0.1
    assert verdicts.harm_share("fvu", 0.0, 0.1) == pytest.approx(0.1)
    # from FVU 0.5, half of the variance is learned: the same rise takes a fifth of it
    assert verdicts.harm_share("fvu", 0.5, 0.6) == pytest.approx(0.2)
    assert verdicts.harm_share("fvu", 0.2, 1.0) == pytest.approx(1.0)  # back to the mean
    assert verdicts.harm_share("fvu", 0.2, 1.8) == pytest.approx(2.0)  # worse than the mean
    # sign accuracy: chance 1/2; 1.0 → 0.75 takes half of what was learned
    assert verdicts.harm_share("accuracy", 1.0, 0.75) == pytest.approx(0.5)
    assert verdicts.harm_share("accuracy", 0.9, 0.5) == pytest.approx(1.0)
    # κ: chance 0
    assert verdicts.harm_share("choice", 0.8, 0.6) == pytest.approx(0.25)
    assert verdicts.harm_share("accuracy", 1.0, 1.0) == 0.0
    # a full model at chance has nothing to lose: no share
    assert np.isnan(verdicts.harm_share("accuracy", 0.5, 0.4))
    assert np.isnan(verdicts.harm_share("fvu", 1.2, 1.5))
    shares = verdicts.harm_share("fvu", np.array([0.0, 0.5]), np.array([0.1, 0.6]))
    np.testing.assert_allclose(shares, [0.1, 0.2])


def test_the_same_share_means_the_same_verdict_on_every_score():
    """An FVU, an accuracy and a κ that each lose 5 % of what the model learned get one verdict;
    their raw changes (0.05, 0.025, 0.04) differ."""
    t = Thresholds()
    planted = {
        "fvu": (0.0, np.array([0.045, 0.05, 0.055])),
        "accuracy": (1.0, 1.0 - np.array([0.0225, 0.025, 0.0275])),
        "choice": (0.8, 0.8 - np.array([0.036, 0.04, 0.044])),
    }
    calls = set()
    for metric, (full, ablated) in planted.items():
        share = verdicts.harm_share(metric, full, ablated)
        np.testing.assert_allclose(share, [0.045, 0.05, 0.055])
        calls.add(verdicts.block_verdict(share, np.full(3, 0.2), t).verdict)
    assert calls == {Verdict.FRAGILE}


def test_block_verdict_at_its_edges():
    """θ = 0.02, mass floor 0.01; three seeds each. The interval's low end and the equivalence
    test each move the verdict when the planted values move across θ by 1e-3."""
    t = Thresholds()
    mass = np.full(3, 0.2)
    spread = np.array([-1.0, 0.0, 1.0]) * 1e-3
    half = stats.t.ppf(0.975, 2) * 1e-3 / np.sqrt(3)
    just_above = 0.02 + half + 1e-3 + spread
    assert verdicts.block_verdict(just_above, mass, t).verdict == Verdict.FRAGILE
    assert verdicts.block_verdict(just_above - 2e-3, mass, t).verdict == Verdict.ON_THRESHOLD
    equal_half = stats.t.ppf(0.95, 2) * 1e-3 / np.sqrt(3)
    just_inside = 0.02 - equal_half - 1e-3 + spread
    assert verdicts.block_verdict(just_inside, mass, t).verdict == Verdict.HARMLESS
    assert verdicts.block_verdict(just_inside + 2e-3, mass, t).verdict == Verdict.ON_THRESHOLD
    # no mass to remove: empty, whatever the harm (also a harm of exactly 0)
    assert verdicts.block_verdict(np.zeros(3), np.full(3, 1e-7), t).verdict == Verdict.EMPTY
    assert verdicts.block_verdict(np.zeros(3), np.full(3, 0.0099), t).verdict == Verdict.EMPTY
    assert verdicts.block_verdict(np.zeros(3), np.full(3, 0.0101), t).verdict == Verdict.HARMLESS
    # a wide spread: the minimum detectable effect exceeds θ, the row is underpowered
    wide = np.array([-0.1, 0.05, 0.2])
    decision = verdicts.block_verdict(wide, mass, t)
    assert decision.verdict == Verdict.UNDERPOWERED and decision.mde > 0.02
    assert verdicts.block_verdict(wide[:2], mass[:2], t).verdict == Verdict.TOO_FEW


def test_point_verdict_of_one_model():
    t = Thresholds()
    assert verdicts.point_verdict(0.0201, 0.1, t) == Verdict.FRAGILE
    assert verdicts.point_verdict(0.0199, 0.1, t) == Verdict.HARMLESS
    assert verdicts.point_verdict(0.9, 0.0, t) == Verdict.EMPTY


def test_agreement_with_the_paper_inside_or_outside_the_interval():
    values = np.array([0.5, 0.55, 0.6])  # interval 0.55 ± 4.30 · 0.05/√3 = [0.426, 0.674]
    assert verdicts.agreement(values, 0.639, 0.05) == (Verdict.AGREES, pytest.approx(0.55 / 0.639))
    call, factor = verdicts.agreement(values, 0.7, 0.05)
    assert call == Verdict.DIFFERS and factor == pytest.approx(0.55 / 0.7)
    assert verdicts.agreement(values, np.nan, 0.05)[0] == "—"
    assert verdicts.agreement(values[:1], 0.5, 0.05)[0] == "—"


def test_the_paper_own_numbers_give_the_paper_own_readings():
    """The paper's Figure 1 and Figure 2 numbers (three seeds planted with its mean and SEM
    where it gives them) through the rules: every verdict is the paper's reading (the readings
    are the paper's words, reported.READINGS), except context −T_C→R (0.37 ± 0.16 over 3 seeds),
    which its own spread cannot decide: underpowered, not contradicted. On the raw change at
    0.1 instead, flip-flop −T_CC (ΔFVU 0.0496) comes out harmless: the contradiction the one
    scale removes."""
    table = reported_verdicts.paper_readings(Thresholds()).set_index(["task", "block"])
    assert len(table) == len(reported.READINGS) == 11
    undecidable = {("context_integration", "T_CR")}
    for key, row in table.iterrows():
        if key in undecidable:
            assert row["verdict"] == Verdict.UNDERPOWERED
        else:
            assert row["verdict"] == row["paper_reading"], key
    assert table.loc[("flip_flop", "T_CC"), "harm_share"] == pytest.approx(0.0496 / 0.9952)
    assert table.loc[("copy", "T_CR"), "harm_share"] == pytest.approx(0.361 / 0.5)
    assert table.loc[("flip_flop", "T_CC"), "verdict_raw"] == Verdict.HARMLESS
    assert table.loc[("flip_flop", "T_CR"), "verdict_raw"] in verdicts.UNDECIDED


def test_theta_lies_between_the_paper_harmless_and_its_smallest_harm():
    """The config's θ (0.02) against the paper's own extremes: copy −T_CC at most 0.01 (1.00 at
    two digits), flip-flop −T_CC 0.050; halving or doubling θ keeps it between them."""
    theta = yaml.safe_load((ROOT / "config.yaml").read_text())["verdicts"]["threshold"]
    assert theta == Thresholds().threshold
    smallest_harm = reported.reported_share("flip_flop", "T_CC")
    largest_harmless = verdicts.harm_share("accuracy", 1.0, 0.995)
    for factor in (0.5, 1.0, 2.0):
        assert largest_harmless <= theta * factor + 1e-12 and theta * factor < smallest_harm


def test_sensitivity_names_the_rows_that_move():
    harm = {"a": np.array([0.03, 0.035, 0.04]), "b": np.array([0.5, 0.6, 0.7])}

    def evaluate(t):
        calls = [verdicts.block_verdict(h, np.full(3, 0.2), t).verdict for h in harm.values()]
        return pd.DataFrame({"row": list(harm), "verdict": calls})

    table = profiles.sensitivity(evaluate, ["row"], Thresholds()).set_index("row")
    assert table.loc["a", "as configured"] == Verdict.FRAGILE
    assert table.loc["a", "θ = 0.04"] != Verdict.FRAGILE and table.loc["a", "moves"]
    assert not table.loc["b", "moves"]
    text = profiles.sensitivity_markdown(table.reset_index(), ["row"])
    assert text.startswith("With θ and the mass floor each halved and doubled, 1 of 2 rows")
    assert "| a ⇄ |" in text


def test_the_error_ratio_is_shown_not_judged():
    """Flip-flop −T_CC as reproduced (FVU 4.85e-5 → 0.0041: 84×) is 1.93 decades of error but
    a harm share of 0.004; a perfect copy controller has no error ratio."""
    assert verdicts.error_ratio("fvu", 4.85e-5, 4.85e-5 + 0.00406) == pytest.approx(
        np.log10((4.85e-5 + 0.00406) / 4.85e-5)
    )
    assert verdicts.harm_share("fvu", 4.85e-5, 4.85e-5 + 0.00406) == pytest.approx(
        0.00406 / (1 - 4.85e-5)
    )
    assert np.isnan(verdicts.error_ratio("accuracy", 1.0, 0.99))
    assert verdicts.error_ratio("accuracy", 0.99, 0.9) == pytest.approx(1.0)


def test_an_ablation_that_helps_a_diverged_one_and_an_undefined_share():
    t = Thresholds()
    mass = np.full(3, 0.2)
    helps = np.array([-0.11, -0.1, -0.09])
    assert verdicts.block_verdict(helps, mass, t).verdict == Verdict.IMPROVES
    assert verdicts.point_verdict(-0.5, 0.2, t) == Verdict.IMPROVES
    diverged = np.full(3, np.inf)  # every rollout's FVU went to infinity
    assert verdicts.block_verdict(diverged, mass, t).verdict == Verdict.FRAGILE
    one = verdicts.block_verdict(np.array([0.3, np.inf, 0.5]), mass, t)  # one of three
    assert np.isfinite(one.mean) and one.verdict == Verdict.UNDERPOWERED
    # an undefined share (a full model at chance) counts as no seed: two left, below min_models
    assert verdicts.block_verdict(np.array([0.5, np.nan, 0.6]), mass, t).verdict == Verdict.TOO_FEW
    assert verdicts.point_verdict(np.nan, 0.2, t) == Verdict.UNDERPOWERED


def test_the_paper_printed_precision_counts_in_the_agreement():
    """The paper's 1.00 stands for [0.995, 1.005): seeds at 0.996 ± 0.0005 agree with it, but
    not with a 0.990 printed the same way, and not with 0.876 (three decimals)."""
    values = np.array([0.9955, 0.996, 0.9965])
    assert reported.printed_precision("copy", "accuracy", 1.0) == 0.005
    assert reported.printed_precision("copy", "accuracy", 0.876) == 0.0005
    assert reported.printed_precision("flip_flop", "delta_fvu", 0.0945) == pytest.approx(5e-5)
    assert verdicts.agreement(values, 1.0, 0.05)[0] == Verdict.DIFFERS  # taken as exact
    assert verdicts.agreement(values, 1.0, 0.05, 0.005)[0] == Verdict.AGREES
    assert verdicts.agreement(values, 0.990, 0.05, 0.0005)[0] == Verdict.DIFFERS


# across tasks: the two-level (random-effects) estimate


def _planted(task_means, n_seeds=10, sd=0.01, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(m, sd, n_seeds) for m in task_means]


def test_across_tasks_finds_the_planted_pattern():
    """Every task harmed alike: universal; none harmed: harmless across tasks; half harmed,
    half not: task-restricted (τ̂ near the planted spread); a uniform harm at θ: undecided."""
    t = Thresholds(threshold=0.02)
    alike = verdicts.across_tasks(_planted([0.3] * 8), t)
    assert alike.verdict == Verdict.UNIVERSAL and alike.mean == pytest.approx(0.3, abs=0.01)
    assert alike.ci_low < 0.3 < alike.ci_high and alike.tau < 0.01
    assert alike.p_heterogeneity > 0.01
    none = verdicts.across_tasks(_planted([0.0] * 8, sd=0.005), t)
    assert none.verdict == Verdict.HARMLESS_ACROSS
    split = verdicts.across_tasks(_planted([0.4, 0.0] * 4), t)
    assert split.verdict == Verdict.TASK_RESTRICTED
    assert split.tau == pytest.approx(np.std([0.4, 0.0] * 4, ddof=1), rel=0.1)
    assert split.p_heterogeneity < 1e-6 and split.i_squared > 0.99
    assert split.pi_low < 0.02 < split.pi_high
    edge = verdicts.across_tasks(_planted([0.02] * 8), t)
    assert edge.verdict == Verdict.ON_THRESHOLD and edge.mde <= 0.02
    better = verdicts.across_tasks(_planted([-0.3] * 8), t)  # every task better without it
    assert better.verdict == Verdict.IMPROVES and better.pi_high < -0.02


def test_an_open_estimate_says_why():
    """Tasks harmed by 0.1 ... 0.9: τ̂ ≈ 0.32, so z·τ̂ ≈ 0.62 exceeds the pooled harm's distance
    from θ (≈ 0.48): more tasks would not be expected to make it universal. Three tasks near
    0.3 that agree (τ̂ ≈ 0.05, z·τ̂ ≈ 0.1 < 0.28), with three seeds each: t_1 makes the
    prediction interval ±0.76, more tasks would decide it: underpowered."""
    t = Thresholds(threshold=0.02)
    varied = verdicts.across_tasks(_planted([0.1, 0.3, 0.5, 0.7, 0.9]), t)
    assert varied.verdict == Verdict.VARIES_ACROSS
    assert 1.96 * varied.tau > abs(varied.mean - 0.02) and varied.mde > 0.02
    few = verdicts.across_tasks(_planted([0.25, 0.3, 0.35], n_seeds=3, sd=0.05), t)
    assert few.verdict == Verdict.UNDERPOWERED
    assert 1.96 * few.tau < few.mean - 0.02 < few.mde


def test_the_prediction_s_mde_is_detected_at_its_power():
    """Tasks drawn from N(μ, τ²) (k = 10, τ = 0.1, 5 seeds of sd 0.05 each): with μ − θ at the
    minimum detectable effect of the true τ and standard error,
    t_{k−2,0.975} √(τ² + se²) + t_{k−1,0.8} se, se² = (τ² + sd²/5)/k, the estimate is universal
    in about 0.7–0.75 of the draws, short of the nominal 0.8 because τ̂ is estimated (as
    across_mde says; 0.62–0.82 over 400 draws); at half that distance, rarely."""
    rng = np.random.default_rng(0)
    t = Thresholds(threshold=0.02, level=0.05, power=0.8)
    k, tau, sd, n = 10, 0.1, 0.05, 5
    se = np.sqrt((tau**2 + sd**2 / n) / k)
    minimum = stdtrit(k - 2, 0.975) * np.sqrt(tau**2 + se**2) + stdtrit(k - 1, 0.8) * se
    rates = []
    for mu in (0.02 + minimum, 0.02 + minimum / 2):
        hits = 0
        for _ in range(400):
            groups = [rng.normal(m, sd, n) for m in rng.normal(mu, tau, k)]
            hits += verdicts.across_tasks(groups, t).verdict == Verdict.UNIVERSAL
        rates.append(hits / 400)
    assert 0.62 <= rates[0] <= 0.82 and rates[1] < 0.2


def test_across_tasks_interval_covers_the_mean_at_its_level():
    """Tasks drawn from N(μ, τ²), seeds around each: the Hartung–Knapp interval covers μ in
    about 1 − level of the draws (Monte Carlo, 400 draws: 0.95 ± 0.03)."""
    rng = np.random.default_rng(2)
    covered = 0
    for _ in range(400):
        means = rng.normal(0.1, 0.05, 10)
        groups = [rng.normal(m, 0.05, 5) for m in means]
        est = verdicts.across_tasks(groups, Thresholds())
        covered += est.ci_low <= 0.1 <= est.ci_high
    assert 0.92 <= covered / 400 <= 0.98


def test_across_tasks_needs_three_groups_and_two_seeds_each():
    t = Thresholds()
    two = verdicts.across_tasks(_planted([0.3, 0.3]), t)
    assert two.verdict == Verdict.TOO_FEW_TASKS and two.k == 2 and np.isnan(two.mean)
    assert two.mde == np.inf
    thin = verdicts.across_tasks([np.array([0.3])] * 5 + _planted([0.3] * 2), t)
    assert thin.k == 2  # groups of one seed have no sampling variance: left out


def test_tasks_that_differ_are_task_restricted_only_with_one_harmed_and_one_not():
    """Every task harmed, by different amounts (0.1 ... 0.9): the tasks differ, but none is
    unharmed: not task-restricted. Tasks that differ below θ (0 ... 0.015): none harmed past
    θ: not task-restricted either."""
    t = Thresholds(threshold=0.02)
    harmed = verdicts.across_tasks(_planted([0.1, 0.3, 0.5, 0.7, 0.9]), t)
    assert harmed.p_heterogeneity < 1e-6 and harmed.verdict != Verdict.TASK_RESTRICTED
    small = verdicts.across_tasks(_planted(np.linspace(0, 0.015, 6), sd=0.001), t)
    assert small.p_heterogeneity < 1e-6 and small.verdict != Verdict.TASK_RESTRICTED


def test_a_task_whose_seeds_agree_exactly_does_not_outweigh_the_rest():
    """One task at 0 on every seed (± 1e-6) and four at 0.3 ± 0.05: with the pooled variance as
    the floor, the five weigh alike (the pooled mean near (4 · 0.3)/5 = 0.24, not 0)."""
    groups = _planted([0.0], sd=1e-6) + _planted([0.3] * 4, sd=0.05, seed=1)
    est = verdicts.across_tasks(groups, Thresholds())
    assert 0.15 < est.mean < 0.3


def test_the_interval_is_never_narrower_than_the_plain_one_and_destroyed_counts_as_two():
    """Task means that agree by chance: Hartung–Knapp's variance would be ~0; the interval keeps
    at least t_{k−1} √(1/Σw). A diverged share (1000) counts as 2."""
    rng = np.random.default_rng(3)
    noise = rng.normal(0, 0.1, (5, 6))
    groups = [0.3 + row - row.mean() for row in noise]  # every task mean exactly 0.3
    est = verdicts.across_tasks(groups, Thresholds())
    assert est.ci_high - est.ci_low > 0.05
    blown = verdicts.across_tasks([np.array([1000.0, 1000.0, 2.0])] * 3, Thresholds())
    assert blown.mean == pytest.approx(2.0)


def test_the_prediction_interval_is_higgins_with_k_minus_2_degrees_of_freedom():
    """Equal variances and τ̂ = 0 (task means closer than their noise): μ̂ the plain mean and
    the half-width t_{k−2, 0.975} √(v/k) (Higgins, Thompson & Spiegelhalter 2009, eq. 12)."""
    k, n = 6, 4
    base = np.array([-0.15, -0.05, 0.05, 0.15])  # within-task sd 0.129, the same in each task
    groups = [0.3 + 0.001 * i + base for i in range(k)]
    est = verdicts.across_tasks(groups, Thresholds())
    assert est.tau == 0.0
    v = np.var(base, ddof=1) / n
    half = stats.t.ppf(0.975, k - 2) * np.sqrt(v / k)
    assert est.pi_high - est.mean == pytest.approx(half, rel=1e-9)


def test_an_open_estimate_varies_only_past_its_distance_and_where_the_tasks_differ():
    """The rule at its bounds: a pooled harm 0.52 lies 0.5 from θ = 0.02, so τ̂ just past
    0.5 / z_{0.975} varies and just short of it is underpowered; the same τ̂ without a rejecting
    Q test is underpowered; an MDE at θ is on the threshold, just past it is not. A pooled harm
    of ±0.005 lies 0.015 inside ±θ: the same rule on the harmless side."""
    t = Thresholds(threshold=0.02, level=0.05)
    z = stats.norm.ppf(0.975)
    undecided = verdicts.across_undecided
    assert undecided(0.52, 0.5 / z + 1e-3, 0.01, 1.0, t) == Verdict.VARIES_ACROSS
    assert undecided(0.52, 0.5 / z - 1e-3, 0.01, 1.0, t) == Verdict.UNDERPOWERED
    assert undecided(0.52, 0.5 / z + 1e-3, 0.06, 1.0, t) == Verdict.UNDERPOWERED
    assert undecided(0.52, 0.5 / z + 1e-3, 0.01, 0.02, t) == Verdict.ON_THRESHOLD
    assert undecided(0.52, 0.5 / z + 1e-3, 0.01, 0.021, t) == Verdict.VARIES_ACROSS
    assert undecided(0.005, 0.015 / z + 1e-4, 0.01, 1.0, t) == Verdict.VARIES_ACROSS
    assert undecided(-0.005, 0.015 / z - 1e-4, 0.01, 1.0, t) == Verdict.UNDERPOWERED


def test_the_across_task_mde_is_the_prediction_half_width_plus_its_power_term():
    """From the estimate's own intervals: se = the Hartung–Knapp half-width / t_{k−1,0.975},
    the prediction's half-width (pi_high − pi_low)/2; the MDE adds t_{k−1,power} · se to the
    latter, so it grows with the power asked for, and is infinite below three tasks."""
    groups = _planted([0.1, 0.3, 0.5, 0.7, 0.9], sd=0.05)
    k = len(groups)
    for power in (0.5, 0.8, 0.95):
        est = verdicts.across_tasks(groups, Thresholds(power=power))
        se = (est.ci_high - est.ci_low) / 2 / stats.t.ppf(0.975, k - 1)
        half = (est.pi_high - est.pi_low) / 2
        assert est.mde == pytest.approx(half + stats.t.ppf(power, k - 1) * se, rel=1e-9)
    assert verdicts.across_mde(2, 0.1, 0.5, 0.05, 0.8) == np.inf


def test_the_block_profile_shows_n_R_the_mass_and_each_solutions_reading():
    """Planted: three learned models of one task, T_RR absent in two, fragile in one."""
    rows = []
    for seed, (n_R, mass, word) in enumerate(
        ((1, 0.0, "absent"), (1, 0.0, "absent"), (4, 0.3, "fragile"))
    ):
        for subset in ("none", "T_RR"):
            rows.append(
                {
                    "task": "sine",
                    "construction": "dense_orthogonal",
                    "n_hidden": 64,
                    "seed": seed,
                    "alpha": 0.9,
                    "subset": subset,
                    "metric": "fvu",
                    "score": 0.01 + (0.5 if word == "fragile" and subset != "none" else 0.0),
                    "delta_score": 0.5 if word == "fragile" and subset != "none" else 0.0,
                    "n_R": n_R,
                    "mass_removed": 0.0 if subset == "none" else mass,
                    "eps_stabilizer": False,
                    "reading": "" if subset == "none" else word,
                    "learned": True,
                }
            )
    profile = profiles.block_profile(pd.DataFrame(rows), 0.9, verdicts.Thresholds())
    row = profile.iloc[0]
    assert row["n_R"] == "1 (1–4)" and row["mass_range"] == "0 (0–0.3)"
    assert row["solutions"] == "absent 2, fragile 1"


@pytest.mark.parametrize("step", [1e-3, -1e-3])
def test_a_block_is_fragile_exactly_when_its_interval_clears_theta(step):
    """Three shares whose 95 % t interval starts at θ + step (derived: mean − t·sd/√3), or ends
    at −θ − step on the other side; a bound moved by 1e-3 changes the verdict."""
    theta = verdicts.Thresholds().threshold
    half = stdtrit(2, 0.975) * 0.1 / np.sqrt(3)  # sd 0.1: the shares m − 0.1, m, m + 0.1
    shares = theta + step + half + np.array([-0.1, 0.0, 0.1])
    call = verdicts.block_verdict(shares, np.ones(3), verdicts.Thresholds()).verdict
    assert call == (verdicts.Verdict.FRAGILE if step > 0 else verdicts.Verdict.UNDERPOWERED)
    mirrored = verdicts.block_verdict(-shares, np.ones(3), verdicts.Thresholds()).verdict
    assert mirrored == (verdicts.Verdict.IMPROVES if step > 0 else verdicts.Verdict.UNDERPOWERED)
