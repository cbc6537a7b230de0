"""Claims logic on planted per-seed tables whose verdicts are known by construction."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rnnschur.ablation import SUBSETS, subset_name
from rnnschur.paper import claims

SUBSET_NAMES = [subset_name(s) for s in SUBSETS]


def copy_rows(construction, per_seed, n_R=60, alphas=(0.85, 0.9, 0.95), n_hidden=72):
    """Ablation rows of the copy task: ``per_seed`` maps seed → {subset: accuracy} (missing
    subsets score like the full model); the same at every alpha unless given per alpha."""
    rows = []
    for seed, accuracy in per_seed.items():
        for alpha in alphas:
            for subset in SUBSET_NAMES:
                acc = accuracy.get((subset, alpha), accuracy.get(subset, accuracy["none"]))
                rows.append(
                    {
                        "task": "copy",
                        "construction": construction,
                        "n_hidden": n_hidden,
                        "seed": seed,
                        "alpha": alpha,
                        "subset": subset,
                        "n_R": n_R if not callable(n_R) else n_R(seed, alpha),
                        "accuracy": acc,
                        "delta_fvu": np.nan,
                        "s_delta_t": np.nan,
                    }
                )
    return pd.DataFrame(rows)


def neuro_rows(task, per_seed):
    """``per_seed`` maps seed → {subset: (delta_fvu, s_delta_t)}."""
    rows = []
    for seed, values in per_seed.items():
        for subset in SUBSET_NAMES:
            d, s = values.get(subset, (0.0, np.nan))
            rows.append(
                {
                    "task": task,
                    "construction": "dense_orthogonal",
                    "n_hidden": 64,
                    "seed": seed,
                    "alpha": 0.9,
                    "subset": subset,
                    "n_R": 2,
                    "accuracy": np.nan,
                    "delta_fvu": d,
                    "s_delta_t": s,
                }
            )
    return pd.DataFrame(rows)


def verdicts(frame, **kw):
    settings = {"tolerance_accuracy": 0.02, "much_greater": 10.0} | kw
    table = claims.evaluate_claims(frame, claims.paper_claims(**settings), level=0.05)
    return table.set_index("claim_id")


PAPER_LIKE = {"none": 1.0, "T_CC": 1.0, "T_RR": 0.876, "T_RR+T_CC": 0.875, "T_CR": 0.639}
PAPER_LIKE |= {"T_CR+T_CC": 0.639, "T_RR+T_CR": 0.624, "T_RR+T_CR+T_CC": 0.624}


def jitter(accuracy, shift):
    return {k: v + shift for k, v in accuracy.items()}


def test_paper_like_copy_models_make_every_copy_claim_hold():
    frame = pd.concat(
        [
            copy_rows("dense_orthogonal", {s: jitter(PAPER_LIKE, 0.001 * s) for s in range(3)}),
            copy_rows("cayley", {s: {"none": 0.995 + 0.001 * s} for s in range(3)}, n_R=68),
        ]
    )
    table = verdicts(frame)
    copy_claims = [c for c in table.index if c.startswith(("copy", "table1"))]
    assert len(copy_claims) == 9
    assert (table.loc[copy_claims, "verdict"] == "holds").all(), table.loc[copy_claims]
    assert (table.loc[copy_claims, "n_agree"] == 3).all()
    # The neuroscience claims have no models here.
    assert (table.loc[table.index.difference(copy_claims), "verdict"] == "not run").all()
    row = table.loc["copy_T_CR_harmful"]
    # Planted: acc(full) − acc(−T_C→R) = 1 − 0.639 = 0.361 for every seed.
    np.testing.assert_allclose(list(json.loads(row["per_seed"]).values()), [0.361] * 3)
    assert row["sign_test_p"] == pytest.approx(1 / 8)  # 3 of 3 seeds: 0.5³


def test_a_harmful_T_CC_fails_and_a_mixed_one_is_inconclusive():
    harmful = {s: jitter(PAPER_LIKE, 0.001 * s) | {"T_CC": 0.8 + 0.01 * s} for s in range(3)}
    table = verdicts(copy_rows("dense_orthogonal", harmful))
    assert table.loc["copy_T_CC_harmless", "verdict"] == "fails"
    assert table.loc["copy_T_CC_harmless", "n_agree"] == 0
    # −T_RR (0.876) is no longer above −T_CC (0.80): "between" fails on every seed.
    assert table.loc["copy_T_RR_between", "verdict"] == "fails"
    mixed = {0: PAPER_LIKE, 1: PAPER_LIKE | {"T_CC": 0.9}, 2: PAPER_LIKE}
    table = verdicts(copy_rows("dense_orthogonal", mixed))
    row = table.loc["copy_T_CC_harmless"]
    assert row["verdict"] == "inconclusive" and row["n_agree"] == 2
    # The interval is derived by hand: values 0, −0.1, 0; mean −1/30, sd 0.0577.
    values = np.array([0.0, -0.1, 0.0])
    half = stats.t.ppf(0.975, 2) * values.std(ddof=1) / np.sqrt(3)
    assert row["ci_low"] == pytest.approx(values.mean() - half)
    assert row["ci_high"] == pytest.approx(values.mean() + half)


def test_table1_claims_see_a_change_of_n_R_and_of_scores_across_alpha():
    per_seed = {s: PAPER_LIKE | {("T_CR", 0.95): 0.5} for s in range(3)}
    frame = copy_rows("dense_orthogonal", per_seed, n_R=lambda seed, alpha: 60 + (alpha > 0.9))
    table = verdicts(frame)
    assert table.loc["table1_dense_orthogonal_n_R_constant", "verdict"] == "fails"
    assert table.loc["table1_dense_orthogonal_n_R_constant", "mean"] == 1
    assert table.loc["table1_dense_orthogonal_scores_constant", "verdict"] == "fails"
    assert table.loc["table1_dense_orthogonal_scores_constant", "mean"] == pytest.approx(0.139)


def test_neuroscience_claims_follow_the_planted_orderings():
    flip = neuro_rows(
        "flip_flop",
        {s: {"T_CR": (0.1 + 0.01 * s, 1), "T_CC": (0.05, 1), "T_RR": (0.001, 1)} for s in range(3)},
    )
    sine = neuro_rows(
        "sine",
        {s: {"T_CC": (2.0 + 0.1 * s, 12.0), "T_CR": (1.7, 21.0 + s)} for s in range(3)},
    )
    # Context: the paper's order in one seed of three, the other order in two.
    context = neuro_rows(
        "context_integration",
        {0: {"T_CC": (0.9, 1), "T_CR": (0.4, 1)}, 1: {"T_CC": (0.5, 1), "T_CR": (0.9, 1)}}
        | {2: {"T_CC": (0.6, 1), "T_CR": (0.8, 1)}},
    )
    table = verdicts(pd.concat([flip, sine, context]))
    assert table.loc["flip_flop_T_CR_above_T_CC", "verdict"] == "holds"
    # 0.05 vs 10 × 0.001: holds; with ΔFVU(−T_RR) = 0.01, 10× is 0.1 > 0.05: fails.
    assert table.loc["flip_flop_T_CC_much_above_T_RR", "verdict"] == "holds"
    assert verdicts(pd.concat([flip, sine]), much_greater=60.0).loc[
        "flip_flop_T_CC_much_above_T_RR", "verdict"
    ] in ("fails", "inconclusive")
    assert table.loc["sine_both_destroy", "verdict"] == "holds"
    assert table.loc["sine_S_T_CR_above_T_CC", "verdict"] == "holds"
    row = table.loc["context_T_CC_above_T_CR"]
    assert row["n_agree"] == 1 and row["verdict"] == "inconclusive"


def test_verdict_rules_at_their_edges():
    assert claims.verdict(0.1, 0.2, "greater", 0.0) == "holds"
    assert claims.verdict(-0.2, -0.1, "greater", 0.0) == "fails"
    assert claims.verdict(-0.1, 0.1, "greater", 0.0) == "inconclusive"
    assert claims.verdict(-0.01, 0.01, "within", 0.02) == "holds"
    assert claims.verdict(0.03, 0.05, "within", 0.02) == "fails"
    assert claims.verdict(-0.05, -0.03, "within", 0.02) == "fails"
    assert claims.verdict(0.0, 0.03, "within", 0.02) == "inconclusive"
    assert claims.verdict(np.nan, np.nan, "greater", 0.0) == "inconclusive"
    assert np.isnan(claims.t_interval(np.array([0.3]), 0.05)[0])  # one seed: no interval
    assert claims.t_interval(np.array([0.3, 0.3, 0.3]), 0.05) == (0.3, 0.3)
    assert claims.sign_test(3, 3) == pytest.approx(0.125)
    assert claims.sign_test(0, 3) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="kind"):
        claims.verdict(0.0, 1.0, "less", 0.0)


@pytest.mark.parametrize("n", range(1, 15))
def test_sign_test_and_interval_equal_scipy_stats(n):
    """The exact integer tail equals scipy.stats' binomial survival function bit for bit at every
    count of seeds up to 14 (beyond, scipy's is off by an ulp: P(X ≥ 8 | n = 15) is 0.5 exactly),
    and the t quantile is scipy.stats' Student t one."""
    for n_agree in range(n + 1):
        assert claims.sign_test(n_agree, n) == float(stats.binom.sf(n_agree - 1, n, 0.5))
    assert claims.sign_test(8, 15) == 0.5
    values = np.random.default_rng(n).normal(size=n + 1)
    half = stats.t.ppf(0.975, n) * np.std(values, ddof=1) / np.sqrt(n + 1)
    assert claims.t_interval(values, 0.05) == (np.mean(values) - half, np.mean(values) + half)


def test_claims_use_the_paper_size_or_the_largest_trained():
    frame = copy_rows("dense_orthogonal", {0: PAPER_LIKE, 1: PAPER_LIKE}, n_hidden=16)
    frame = pd.concat([frame, copy_rows("dense_orthogonal", {0: PAPER_LIKE}, n_hidden=8)])
    row = verdicts(frame).loc["copy_T_CR_harmful"]
    assert row["n_hidden"] == 16 and row["n_seeds"] == 2


def test_block_profile_verdicts_on_planted_harms():
    from rnnschur.paper.claims import block_profile

    planted = {  # (task, metric, block): delta_score per seed, mass removed
        ("flip_flop", "fvu", "T_CR"): ([0.5, 0.6, 0.7], 0.2),  # interval [0.35, 0.85]
        ("flip_flop", "fvu", "T_CC"): ([0.01, 0.02, 0.0], 0.1),  # [−0.015, 0.035]
        ("flip_flop", "fvu", "T_RR"): ([0.0, 0.5, 1.0], 0.1),  # [−0.74, 1.74]
        ("copy", "accuracy", "T_CR"): ([-0.3, -0.35, -0.4], 0.3),  # harm = accuracy lost
        ("copy", "accuracy", "T_CC"): ([0.0, 0.0, 0.0], 0.0),  # no mass in the block
    }
    rows = [
        {
            "task": task,
            "construction": "dense_orthogonal",
            "n_hidden": 8,
            "seed": seed,
            "alpha": alpha,
            "subset": block,
            "metric": metric,
            "delta_score": delta[seed] if alpha == 0.9 else 9.0,  # other alphas are ignored
            "mass_removed": mass,
            "stabilizer": seed == 0,
        }
        for (task, metric, block), (delta, mass) in planted.items()
        for seed in range(3)
        for alpha in (0.85, 0.9)
    ]
    profile = block_profile(pd.DataFrame(rows), 0.9, 0.05, 0.1).set_index(["task", "subset"])
    assert profile["verdict"].to_dict() == {
        ("flip_flop", "T_CR"): "fragile",
        ("flip_flop", "T_CC"): "harmless",
        ("flip_flop", "T_RR"): "inconclusive",
        ("copy", "T_CR"): "fragile",
        ("copy", "T_CC"): "empty",
    }
    half = 4.302652729911275 * 0.1 / np.sqrt(3)  # t(0.975, 2) · sd / √n
    assert profile.loc[("flip_flop", "T_CR"), "ci_low"] == pytest.approx(0.6 - half)
    assert profile.loc[("copy", "T_CR"), "harm_mean"] == pytest.approx(0.35)
    assert (profile["n_stabilizer"] == 1).all() and (profile["n_seeds"] == 3).all()


def test_claims_per_variation_keep_each_variations_own_seeds():
    """The flip-flop claim ΔFVU(−T_C→R) > ΔFVU(−T_CC) holds in the paper config's planted rows
    and fails in a variation's; a variation that does not train the copy task leaves its copy
    claims out."""
    ours = claims.paper_claims(0.02, 10.0)
    strong = {s: {"T_CR": (1.0 + 0.01 * s, np.nan), "T_CC": (0.01, np.nan)} for s in range(3)}
    weak = {s: {"T_CR": (0.01, np.nan), "T_CC": (1.0 + 0.01 * s, np.nan)} for s in range(3)}
    paper = neuro_rows("flip_flop", strong)
    variation = neuro_rows("flip_flop", weak).assign(variation="noisy")
    table = claims.claims_per_variation(paper, variation, ours, 0.05)
    assert set(table["variation"]) == {"paper_config", "noisy"}
    assert not table["task"].eq("copy").any()
    ff = table[table["claim_id"] == "flip_flop_T_CR_above_T_CC"]
    assert len(ff) == 2
    verdicts = dict(zip(ff["variation"], ff["verdict"], strict=True))
    assert verdicts == {"paper_config": "holds", "noisy": "fails"}
    markdown = claims.claims_grid_markdown(table, "variation")
    assert "| paper_config | noisy |" in markdown and "3/3 holds | 0/3 fails |" in markdown


def test_claims_by_size_test_every_size_on_its_own_models():
    """−T_CC is planted harmless at N_h = 72 and harmful at N_h = 256: the paper-size claims
    table sees only 72, the by-size table both, with their own verdicts; a size without the
    claim's construction leaves that claim out."""
    harmless = {s: jitter(PAPER_LIKE, 0.001 * s) for s in range(3)}
    harmful = {s: jitter(PAPER_LIKE, 0.001 * s) | {"T_CC": 0.7 + 0.01 * s} for s in range(3)}
    frame = pd.concat(
        [
            copy_rows("dense_orthogonal", harmless, n_hidden=72),
            copy_rows("dense_orthogonal", harmful, n_hidden=256),
            copy_rows("cayley", {s: {"none": 0.995} for s in range(2)}, n_R=68, n_hidden=128),
        ]
    )
    ours = claims.paper_claims(0.02, 10.0)
    assert verdicts(frame).loc["copy_T_CC_harmless", "n_hidden"] == 72
    table = claims.claims_by_size(frame, ours, 0.05)
    cc = table[table["claim_id"] == "copy_T_CC_harmless"].set_index("n_hidden")
    assert cc["verdict"].to_dict() == {72: "holds", 256: "fails"}
    assert cc.loc[256, "n_agree"] == 0 and cc.loc[72, "n_agree"] == 3
    assert set(table["n_hidden"]) == {72, 128, 256}
    assert not table["task"].ne("copy").any()  # no neuroscience model: no neuroscience claim
    cayley = table[table["construction"] == "cayley"]
    assert set(cayley["n_hidden"]) == {128} and (cayley["n_seeds"] == 2).all()
    markdown = claims.claims_grid_markdown(table, "n_hidden")
    assert "| claim | N_h = 72 | N_h = 128 | N_h = 256 |" in markdown
    cc_line = next(line for line in markdown.splitlines() if "T_CC is harmless" in line)
    assert cc_line.endswith("| 3/3 holds | — | 0/3 fails |")


def test_tost_at_and_around_its_margin():
    """Planted values whose mean and spread put the 90 % interval just inside, on and just
    outside ±margin; the p-value against scipy's one-sided t tests."""
    base = np.array([-1.0, 0.0, 1.0])  # mean 0, sd 1, se 1/√3
    t95 = stats.t.ppf(0.95, 2)
    half = t95 / np.sqrt(3)  # the 90 % interval is ±half
    assert claims.tost(base, half * 1.0001, 0.05) < 0.05
    assert claims.tost(base, half * 0.9999, 0.05) > 0.05
    assert claims.tost(base, half, 0.05) == pytest.approx(0.05, rel=1e-9)
    shifted = base * 0.1 + 0.3  # mean 0.3, sd 0.1
    low = stats.ttest_1samp(shifted, -0.5, alternative="greater").pvalue
    high = stats.ttest_1samp(shifted, 0.5, alternative="less").pvalue
    assert claims.tost(shifted, 0.5, 0.05) == pytest.approx(max(low, high), rel=1e-12)
    assert claims.tost(np.array([0.1, 0.1]), 0.2, 0.05) == 0.0
    assert np.isnan(claims.tost(np.array([0.1]), 0.2, 0.05))


def test_an_ordering_that_is_a_tie_is_equivalent_not_inconclusive():
    assert claims.claim_verdict(-0.1, 0.1, 0.01, "greater", 0.0, 0.05) == claims.EQUIVALENT
    assert claims.claim_verdict(-0.1, 0.1, 0.2, "greater", 0.0, 0.05) == "inconclusive"
    assert claims.claim_verdict(0.1, 0.2, 0.01, "greater", 0.0, 0.05) == "holds"
    assert claims.claim_verdict(-0.01, 0.01, 0.04, "within", 0.02, 0.05) == "holds"
    assert claims.claim_verdict(-0.01, 0.03, 0.06, "within", 0.02, 0.05) == "inconclusive"
    assert claims.claim_verdict(0.03, 0.05, 0.9, "within", 0.02, 0.05) == "fails"


def test_seeds_needed_is_the_least_n_whose_interval_clears_the_bound():
    """Planted: mean 1, sd 2 (three seeds); the least n with t_{n−1, 0.975}·2/√n < 1, found
    here by counting, and no n for a mean on the bound."""
    values = np.array([-1.0, 1.0, 3.0])
    expected = next(n for n in range(2, 10_000) if stats.t.ppf(0.975, n - 1) * 2 / np.sqrt(n) < 1)
    assert claims.seeds_needed(values, "greater", 0.0, 0.05) == expected
    assert claims.seeds_needed(values, "greater", 1.0, 0.05) == np.inf  # mean on the bound
    # a tie: |mean| 0.1 inside the margin 0.5, sd 1: the 90 % interval must fit in ±0.4
    tie = np.array([-0.9, 0.1, 1.1])
    expected_tie = next(
        n for n in range(2, 10_000) if stats.t.ppf(0.95, n - 1) * 1 / np.sqrt(n) < 0.4
    )
    assert claims.seeds_needed(tie, "greater", 0.0, 0.05, margin=0.5) == expected_tie


def test_the_paper_value_of_an_ordering_is_checked_against_the_interval():
    ours = {c.claim_id: c for c in claims.paper_claims(0.02, 10.0)}
    assert ours["sine_S_T_CR_above_T_CC"].paper_value == pytest.approx(21.1 - 12.3)
    assert ours["flip_flop_T_CR_above_T_CC"].paper_value == pytest.approx(0.0945 - 0.0496)
    assert np.isnan(ours["flip_flop_T_CC_much_above_T_RR"].paper_value)


def test_claims_markdown_names_untested_claims_below_and_gives_seeds_needed():
    """Planted: the copy claims hold on 3 paper-like seeds; −T_C→R harmful becomes inconclusive
    when one seed barely drops (its row gives the seeds its spread would need); the 5 Figure 2
    claims have no models: one line below the table, no rows, no 'nan'."""
    per_seed = {s: jitter(PAPER_LIKE, 0.001 * s) for s in range(3)}
    per_seed[2] = per_seed[2] | {"T_CR": 0.99, "T_CR+T_CC": 0.99}
    frame = pd.concat(
        [
            copy_rows("dense_orthogonal", per_seed),
            copy_rows("cayley", {s: {"none": 0.995 + 0.001 * s} for s in range(3)}, n_R=68),
        ]
    )
    table = claims.evaluate_claims(frame, claims.paper_claims(0.02, 10.0), level=0.05).reset_index(
        drop=True
    )
    text = claims.claims_markdown(table)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "claim |" not in line]
    assert len(rows) == 9 and "nan" not in text and "| 72 |" in text
    assert text.rstrip().endswith(
        "Not tested here (5 claims): this run trains no flip_flop, sine, context_integration model."
    )
    harmful = next(line for line in rows if line.startswith("| −T_C→R is harmful"))
    row = table[table["claim_id"] == "copy_T_CR_harmful"].iloc[0]
    assert row["verdict"] == "inconclusive"
    assert harmful.endswith(f"| **inconclusive** | {int(row['seeds_needed'])} |")
    assert harmful.split(" | ")[8] == "—"  # the paper states this claim in words, no number
    sine = claims.claims_markdown(
        verdicts(
            neuro_rows("sine", {s: {"T_CC": (1.5, 2.0), "T_CR": (2.0, 9.0)} for s in range(3)})
        ).reset_index()
    )
    assert "| 1.73 (no) |" in sine  # min(ΔFVU) is 1.5 on every seed: 1.73 lies outside
