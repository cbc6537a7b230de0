"""Claims logic on planted per-seed tables whose verdicts are known by construction."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rnnschur.ablation import SUBSETS, subset_name
from rnnschur.studies.paper import claim_tables, claim_tests, claims
from rnnschur.studies.verdicts import Thresholds

SUBSET_NAMES = [subset_name(s) for s in SUBSETS]


def copy_rows(construction, per_seed, n_R=60, alphas=(0.85, 0.9, 0.95), n_hidden=72):
    """Ablation rows of the copy task: ``per_seed`` maps seed → {subset: accuracy} (missing
    subsets score like the full model); the same at every alpha unless given per alpha."""
    rows = []
    for seed, accuracy in per_seed.items():
        for alpha in alphas:
            for subset in SUBSET_NAMES:
                acc = accuracy.get((subset, alpha), accuracy.get(subset, accuracy["none"]))
                full = accuracy.get(("none", alpha), accuracy["none"])
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
                        "metric": "accuracy",
                        "score": acc,
                        "delta_score": acc - full,
                        "mass_removed": 0.0 if subset == "none" else 0.1,
                        "delta_fvu": np.nan,
                        "s_delta_t": np.nan,
                    }
                )
    return pd.DataFrame(rows)


def neuro_rows(task, per_seed, full_fvu=0.0):
    """``per_seed`` maps seed → {subset: (delta_fvu, s_delta_t)}; the full model's FVU is
    ``full_fvu`` (0: the harm share is the ΔFVU itself), the removed mass ΔFVU / S_ΔT (0.1
    where S_ΔT is not given)."""
    rows = []
    for seed, values in per_seed.items():
        for subset in SUBSET_NAMES:
            d, s = values.get(subset, (0.0, np.nan))
            mass = d / s if np.isfinite(s) and s else 0.1
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
                    "metric": "fvu",
                    "score": full_fvu + d,
                    "delta_score": d,
                    "mass_removed": 0.0 if subset == "none" else mass,
                    "delta_fvu": d,
                    "s_delta_t": s,
                }
            )
    return pd.DataFrame(rows)


THRESHOLDS = Thresholds()  # θ = 0.02 on the harm-share scale, level 0.05


def verdicts(frame, **kw):
    settings = {"theta": 0.02, "much_greater": 10.0} | kw
    table = claim_tests.evaluate_claims(frame, claims.paper_claims(**settings), THRESHOLDS)
    return table.set_index("claim_id")


PAPER_LIKE = {"none": 1.0, "T_CC": 1.0, "T_RR": 0.876, "T_RR+T_CC": 0.875, "T_CR": 0.639}
PAPER_LIKE |= {"T_CR+T_CC": 0.639, "T_RR+T_CR": 0.624, "T_RR+T_CR+T_CC": 0.624}


def jitter(accuracy, shift):
    return {k: v + shift for k, v in accuracy.items()}


def share(full, ablated):
    """The harm share of a sign accuracy, by hand: (full − ablated) / (full − 1/2)."""
    return (full - ablated) / (full - 0.5)


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
    expected = [share(1.0 + 0.001 * s, 0.639 + 0.001 * s) for s in range(3)]
    np.testing.assert_allclose(list(row["per_seed"].values()), expected, atol=1e-6)
    seed_range = (row["seed_min"], row["seed_max"])
    assert seed_range == pytest.approx((min(expected), max(expected)), abs=1e-6)
    assert row["sign_test_p"] == pytest.approx(1 / 8)  # 3 of 3 seeds: 0.5³
    # the ledger: the Cayley claims are true by construction, n_R constant implies the scores
    basis = table.loc[copy_claims, "basis"]
    assert basis.str.startswith("by construction").sum() == 2  # inert, scores constant
    assert basis.loc["copy_cayley_inert"].startswith("by construction")
    assert basis.loc["table1_cayley_n_R_constant"] == "data"  # normality fixes no n_R
    assert (
        basis.loc["table1_dense_orthogonal_scores_constant"]
        == "implied by table1_dense_orthogonal_n_R_constant"
    )
    # the paper's 0.722 (1 − 0.639 over 1 − 1/2) lies in the planted seeds' interval
    assert row["paper_value"] == pytest.approx(0.722) and row["agreement"] == "agrees"


def test_a_harmful_T_CC_fails_and_a_mixed_one_is_undecided():
    harmful = {s: jitter(PAPER_LIKE, 0.001 * s) | {"T_CC": 0.8 + 0.01 * s} for s in range(3)}
    table = verdicts(copy_rows("dense_orthogonal", harmful))
    assert table.loc["copy_T_CC_harmless", "verdict"] == "fails"
    assert table.loc["copy_T_CC_harmless", "n_agree"] == 0
    # −T_RR (0.876) is no longer above −T_CC (0.80): "between" fails on every seed.
    assert table.loc["copy_T_RR_between", "verdict"] == "fails"
    mixed = {0: PAPER_LIKE, 1: PAPER_LIKE | {"T_CC": 0.9}, 2: PAPER_LIKE}
    table = verdicts(copy_rows("dense_orthogonal", mixed))
    row = table.loc["copy_T_CC_harmless"]
    assert row["n_agree"] == 2
    # The interval by hand: shares 0, 0.2, 0; its minimum detectable effect exceeds θ.
    values = np.array([0.0, share(1.0, 0.9), 0.0])
    half = stats.t.ppf(0.975, 2) * values.std(ddof=1) / np.sqrt(3)
    assert row["ci_low"] == pytest.approx(values.mean() - half)
    assert row["ci_high"] == pytest.approx(values.mean() + half)
    mde = (stats.t.ppf(0.975, 2) + stats.t.ppf(0.8, 2)) * values.std(ddof=1) / np.sqrt(3)
    assert row["mde"] == pytest.approx(mde) and mde > 0.02
    assert row["verdict"] == "underpowered"


def test_table1_claims_see_a_change_of_n_R_and_of_scores_across_alpha():
    per_seed = {s: PAPER_LIKE | {("T_CR", 0.95): 0.5} for s in range(3)}
    frame = copy_rows("dense_orthogonal", per_seed, n_R=lambda seed, alpha: 60 + (alpha > 0.9))
    table = verdicts(frame)
    assert table.loc["table1_dense_orthogonal_n_R_constant", "verdict"] == "fails"
    assert table.loc["table1_dense_orthogonal_n_R_constant", "mean"] == 1
    assert table.loc["table1_dense_orthogonal_scores_constant", "verdict"] == "fails"
    spread = share(1.0, 0.5) - share(1.0, 0.639)
    assert table.loc["table1_dense_orthogonal_scores_constant", "mean"] == pytest.approx(spread)


def test_neuroscience_claims_follow_the_planted_orderings():
    flip = neuro_rows(
        "flip_flop",
        # S_ΔT 0.01 for −T_RR: a removed mass of 0.1, above the floor
        {
            s: {"T_CR": (0.1 + 0.01 * s, 1), "T_CC": (0.05, 1), "T_RR": (0.001, 0.01)}
            for s in range(3)
        },
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
    # 0.05 vs 10 × 0.001: holds; 60 × 0.001 = 0.06 > 0.05 on every seed: fails.
    assert table.loc["flip_flop_T_CC_much_above_T_RR", "verdict"] == "holds"
    assert (
        verdicts(pd.concat([flip, sine]), much_greater=60.0).loc[
            "flip_flop_T_CC_much_above_T_RR", "verdict"
        ]
        == "fails"
    )
    assert table.loc["sine_both_destroy", "verdict"] == "holds"
    assert table.loc["sine_S_T_CR_above_T_CC", "verdict"] == "holds"
    assert table.loc["sine_T_CC_above_T_CR", "verdict"] == "holds"
    assert table.loc["sine_T_RR_changes_little", "verdict"] == "holds"  # −T_RR planted at 0
    row = table.loc["context_T_CC_above_T_CR"]
    assert row["n_agree"] == 1 and row["verdict"] == "underpowered"


def test_a_full_fvu_scales_the_harm_share():
    """The same ΔFVU is a larger share of a worse model's learned variance: ΔFVU 0.015 is a
    share of 0.015 at FVU 0 (harmless at θ = 0.02 … within its test) but 0.03 at FVU 0.5."""
    rows = {s: {"T_RR": (0.015 + 0.0001 * s, np.nan)} for s in range(3)}
    good = verdicts(neuro_rows("sine", rows)).loc["sine_T_RR_changes_little"]
    worse = verdicts(neuro_rows("sine", rows, full_fvu=0.5)).loc["sine_T_RR_changes_little"]
    assert good["mean"] == pytest.approx(0.0151) and good["verdict"] == "holds"
    assert worse["mean"] == pytest.approx(0.0302) and worse["verdict"] == "fails"


def _claim(kind, bound, margin=None):
    return claims.Claim(
        "c", "s", "w", "copy", "dense_orthogonal", 72, "x", None, kind, bound, margin
    )


def test_claim_verdict_rules_at_their_edges():
    """Planted values around each bound (three seeds, spread ±1e-3): the interval's ends and
    the equivalence test move the verdict across the bound; what neither decides says why."""
    t = THRESHOLDS
    spread = np.array([-1.0, 0.0, 1.0]) * 1e-3
    half = stats.t.ppf(0.975, 2) * 1e-3 / np.sqrt(3)
    greater = _claim("greater", 0.0, margin=0.02)
    assert claim_tests.claim_verdict(half + 1e-4 + spread, greater, t) == "holds"
    assert claim_tests.claim_verdict(-half - 1e-4 + spread, greater, t) == "fails"
    assert claim_tests.claim_verdict(spread, greater, t) == "equivalent"  # a tie within 0.02
    wide = np.array([-0.3, 0.0, 0.3])
    assert claim_tests.claim_verdict(wide, greater, t) == "underpowered"
    no_margin = _claim("greater", 0.0)
    assert claim_tests.claim_verdict(spread, no_margin, t) == "on the threshold"  # MDE < θ
    within = _claim("within", 0.02)
    equal_half = stats.t.ppf(0.95, 2) * 1e-3 / np.sqrt(3)
    assert claim_tests.claim_verdict(0.02 - equal_half - 1e-4 + spread, within, t) == "holds"
    assert claim_tests.claim_verdict(0.02 + half + 1e-4 + spread, within, t) == "fails"
    assert claim_tests.claim_verdict(0.02 + spread, within, t) == "on the threshold"
    with pytest.raises(ValueError, match="kind"):
        claim_tests.claim_verdict(spread, _claim("less", 0.0), t)
    # an exact claim (n_R the same at every α): one seed that breaks it decides
    exact = _claim("within", 0.0)
    assert claim_tests.claim_verdict(np.array([0.0, 0.0, 0.0]), exact, t) == "holds"
    assert claim_tests.claim_verdict(np.array([0.0, 1.0, 0.0]), exact, t) == "fails"


@pytest.mark.parametrize("n", range(1, 15))
def test_sign_test_equals_scipy_stats(n):
    """The exact integer tail equals scipy.stats' binomial survival function bit for bit at every
    count of seeds up to 14 (beyond, scipy's is off by an ulp: P(X ≥ 8 | n = 15) is 0.5
    exactly)."""
    for n_agree in range(n + 1):
        assert claim_tests.sign_test(n_agree, n) == float(stats.binom.sf(n_agree - 1, n, 0.5))
    assert claim_tests.sign_test(8, 15) == 0.5
    assert claim_tests.sign_test(3, 3) == pytest.approx(0.125)


def test_claims_use_the_paper_size_or_the_largest_trained():
    frame = copy_rows("dense_orthogonal", {0: PAPER_LIKE, 1: PAPER_LIKE}, n_hidden=16)
    frame = pd.concat([frame, copy_rows("dense_orthogonal", {0: PAPER_LIKE}, n_hidden=8)])
    row = verdicts(frame).loc["copy_T_CR_harmful"]
    assert row["n_hidden"] == 16 and row["n_seeds"] == 2


def test_block_profile_verdicts_on_planted_harms():
    from rnnschur.studies.profile import block_profile

    planted = {  # (task, metric, block): delta_score per seed, mass removed
        ("flip_flop", "fvu", "T_CR"): ([0.5, 0.6, 0.7], 0.2),  # share = ΔFVU at FVU 0
        ("flip_flop", "fvu", "T_CC"): ([0.001, 0.002, 0.0], 0.1),  # within ±0.02
        ("flip_flop", "fvu", "T_RR"): ([0.0, 0.5, 1.0], 0.1),  # wide: underpowered
        ("copy", "accuracy", "T_CR"): ([-0.3, -0.35, -0.4], 0.3),  # accuracy lost, from 1.0
        ("copy", "accuracy", "T_CC"): ([0.0, 0.0, 0.0], 0.0),  # no mass in the block
        ("copy", "accuracy", "T_RR"): ([0.0, 0.0, 0.0], 0.005),  # mass below the floor
    }
    full = {"fvu": 0.0, "accuracy": 1.0}
    rows = [
        {
            "task": task,
            "construction": "dense_orthogonal",
            "n_hidden": 8,
            "seed": seed,
            "alpha": alpha,
            "subset": block,
            "metric": metric,
            "score": full[metric] + (delta[seed] if alpha == 0.9 else 9.0),
            "delta_score": delta[seed] if alpha == 0.9 else 9.0,  # other alphas are ignored
            "mass_removed": mass,
            "eps_stabilizer": seed == 0,
        }
        for (task, metric, block), (delta, mass) in planted.items()
        for seed in range(3)
        for alpha in (0.85, 0.9)
    ]
    profile = block_profile(pd.DataFrame(rows), 0.9, THRESHOLDS).set_index(["task", "subset"])
    assert profile["verdict"].to_dict() == {
        ("flip_flop", "T_CR"): "fragile",
        ("flip_flop", "T_CC"): "harmless",
        ("flip_flop", "T_RR"): "underpowered",
        ("copy", "T_CR"): "fragile",
        ("copy", "T_CC"): "empty",
        ("copy", "T_RR"): "empty",
    }
    half = 4.302652729911275 * 0.1 / np.sqrt(3)  # t(0.975, 2) · sd / √n
    assert profile.loc[("flip_flop", "T_CR"), "ci_low"] == pytest.approx(0.6 - half)
    # the copy task: 0.35 accuracy lost of the 0.5 learned is a share of 0.7
    assert profile.loc[("copy", "T_CR"), "delta_mean"] == pytest.approx(0.35)
    assert profile.loc[("copy", "T_CR"), "harm_mean"] == pytest.approx(0.7)
    assert (profile["n_eps_stabilizer"] == 1).all() and (profile["n_seeds"] == 3).all()


def test_claims_per_variation_keep_each_variations_own_seeds():
    """The flip-flop claim ΔFVU(−T_C→R) > ΔFVU(−T_CC) holds in the paper config's planted rows
    and fails in a variation's; a variation that does not train the copy task leaves its copy
    claims out."""
    ours = claims.paper_claims(0.02, 10.0)
    strong = {s: {"T_CR": (1.0 + 0.01 * s, np.nan), "T_CC": (0.01, np.nan)} for s in range(3)}
    weak = {s: {"T_CR": (0.01, np.nan), "T_CC": (1.0 + 0.01 * s, np.nan)} for s in range(3)}
    paper = neuro_rows("flip_flop", strong)
    variation = neuro_rows("flip_flop", weak).assign(variation="noisy")
    table = claim_tests.claims_per_variation(paper, variation, ours, THRESHOLDS)
    assert set(table["variation"]) == {"paper_config", "noisy"}
    assert not table["task"].eq("copy").any()
    ff = table[table["claim_id"] == "flip_flop_T_CR_above_T_CC"]
    assert len(ff) == 2
    calls = dict(zip(ff["variation"], ff["verdict"], strict=True))
    assert calls == {"paper_config": "holds", "noisy": "fails"}
    markdown = claim_tables.claims_grid_markdown(table, "variation")
    assert "| paper_config | noisy |" in markdown and "3/3 holds | 0/3 fails |" in markdown
    assert "| basis |" not in markdown  # the gap study's grid: no ledger column
    assert "| basis |" not in claim_tables.claims_grid_markdown(table, "variation", basis=True)


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
    table = claim_tests.claims_by_size(frame, ours, THRESHOLDS)
    cc = table[table["claim_id"] == "copy_T_CC_harmless"].set_index("n_hidden")
    assert cc["verdict"].to_dict() == {72: "holds", 256: "fails"}
    assert cc.loc[256, "n_agree"] == 0 and cc.loc[72, "n_agree"] == 3
    assert set(table["n_hidden"]) == {72, 128, 256}
    assert not table["task"].ne("copy").any()  # no neuroscience model: no neuroscience claim
    cayley = table[table["construction"] == "cayley"]
    assert set(cayley["n_hidden"]) == {128} and (cayley["n_seeds"] == 2).all()
    markdown = claim_tables.claims_grid_markdown(table, "n_hidden", basis=True)
    assert "| claim | basis | N_h = 72 | N_h = 128 | N_h = 256 |" in markdown
    cc_line = next(line for line in markdown.splitlines() if "T_CC is harmless" in line)
    assert cc_line.endswith("| data | 3/3 holds | — | 0/3 fails |")
    # the Cayley claims are true by construction (W normal), marked as the claims table does
    inert = next(line for line in markdown.splitlines() if line.startswith("| Cayley: every"))
    assert "| by construction | — | 2/2 " in inert


def test_the_paper_values_are_on_the_harm_share_scale():
    ours = {c.claim_id: c for c in claims.paper_claims(0.02, 10.0)}
    assert ours["sine_S_T_CR_above_T_CC"].paper_value == pytest.approx((21.1 - 12.3) / 0.9964)
    assert ours["flip_flop_T_CR_above_T_CC"].paper_value == pytest.approx(
        (0.0945 - 0.0496) / 0.9952
    )
    assert ours["sine_T_CC_above_T_CR"].paper_value == pytest.approx((2.08 - 1.73) / 0.9964)
    assert ours["copy_adding_T_CC_changes_little"].paper_value == pytest.approx(0.002)
    assert np.isnan(ours["flip_flop_T_CC_much_above_T_RR"].paper_value)
    assert np.isnan(ours["sine_T_RR_changes_little"].paper_value)


def test_claims_markdown_names_untested_claims_and_the_paper_agreement():
    """Planted: the copy claims hold on 3 paper-like seeds; −T_C→R harmful is undecided when one
    seed barely drops (its MDE shown, the paper's 0.722 inside the wide interval); the 8 Figure 2
    claims have no models: one line below the table, no rows, no 'nan'; the by-construction
    claims say why below it."""
    per_seed = {s: jitter(PAPER_LIKE, 0.001 * s) for s in range(3)}
    per_seed[2] = per_seed[2] | {"T_CR": 0.99, "T_CR+T_CC": 0.99}
    frame = pd.concat(
        [
            copy_rows("dense_orthogonal", per_seed),
            copy_rows("cayley", {s: {"none": 0.995 + 0.001 * s} for s in range(3)}, n_R=68),
        ]
    )
    table = claim_tests.evaluate_claims(frame, claims.paper_claims(0.02, 10.0), THRESHOLDS)
    text = claim_tables.claims_markdown(table)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "claim |" not in line]
    assert len(rows) == 9 and "nan" not in text and "| 72 |" in text
    assert "Not tested here (8 claims): this run trains no flip-flop, sine, context model." in text
    assert "- Cayley: every ablation is inert (less than θ of the learned accuracy): by " in text
    assert "implied by «Dense orthogonal: n_R is the same for α = 0.85, 0.9, 0.95»" in text
    assert "table1_" not in text and "| copy | −T_CC is harmless" in text
    harmful = next(line for line in rows if line.startswith("| copy | −T_C→R is harmful"))
    row = table[table["claim_id"] == "copy_T_CR_harmful"].iloc[0]
    assert row["verdict"] == "underpowered"
    assert harmful.endswith("| 0.722: agrees | 0.125 | **underpowered** |")
    assert f"| {row['mde']:.2g} |" in harmful
    sine = claim_tables.claims_markdown(
        verdicts(
            neuro_rows("sine", {s: {"T_CC": (1.5, 2.0), "T_CR": (2.0, 9.0)} for s in range(3)})
        ).reset_index()
    )
    # min(share) is 1.5 on every seed: the paper's 1.74 lies outside, 0.86× of it
    assert "| 1.74: differs (0.86×) |" in sine


def test_the_ledger_counts_the_seeds_whose_reading_is_basis_dependent():
    """The ablation table's flag planted on three paper-like copy seeds: seed 0's T_RR and
    seed 2's T_CC basis-dependent, seed 1 checked and not. A claim reading T_RR counts 1 of 3,
    one printing T_RR+T_CC counts 2, −T_C→R 0 of 3 (it reads neither); the Markdown says so
    beside the verdict with the rule below. Without a flag (no check ran) nothing is counted."""
    frame = copy_rows("dense_orthogonal", {s: jitter(PAPER_LIKE, 0.001 * s) for s in range(3)})
    checked = np.isclose(frame["alpha"], 0.9) & frame["subset"].isin(["T_RR", "T_CC"])
    frame["basis_dependent"] = pd.Series(pd.NA, index=frame.index, dtype="boolean")
    frame.loc[checked, "basis_dependent"] = False
    for seed, block in ((0, "T_RR"), (2, "T_CC")):
        frame.loc[
            checked & (frame["seed"] == seed) & (frame["subset"] == block), "basis_dependent"
        ] = True
    table = claim_tests.evaluate_claims(frame, claims.paper_claims(0.02, 10.0), THRESHOLDS)
    by = table.set_index("claim_id")
    assert by.loc["copy_T_RR_between", ["n_basis_dependent", "n_basis_checked"]].tolist() == [2, 3]
    assert by.loc["copy_T_CC_harmless", "n_basis_dependent"] == 1
    assert by.loc["copy_T_CR_harmful", ["n_basis_dependent", "n_basis_checked"]].tolist() == [0, 3]
    text = claim_tables.claims_markdown(table, 0.01)
    line = next(r for r in text.splitlines() if r.startswith("| copy | −T_CC is harmless"))
    assert line.endswith(" (1 of 3 seeds basis-dependent) |")
    assert "within 0.01·ρ of each other" in text and "did not check" not in text
    harmful = next(r for r in text.splitlines() if r.startswith("| copy | −T_C→R is harmful"))
    assert "basis-dependent" not in harmful
    plain = claim_tests.evaluate_claims(
        frame.drop(columns="basis_dependent"), claims.paper_claims(0.02, 10.0), THRESHOLDS
    )
    assert (plain["n_basis_dependent"] == 0).all() and (plain["n_basis_checked"] == 0).all()
    text = claim_tables.claims_markdown(plain, 0.01)
    assert "(1 of 3 seeds basis-dependent)" not in text
    assert "This run did not check the basis dependence" in text


def test_a_claim_about_an_empty_block_is_empty_not_true():
    """Sine −T_RR 'changes little': where T_RR holds no mass (R one mode), the claim says
    nothing and is empty; with mass and no harm it holds."""
    rows = neuro_rows("sine", {s: {"T_CC": (2.0, 12.0), "T_CR": (1.7, 21.0)} for s in range(3)})
    empty = rows.assign(mass_removed=np.where(rows["subset"] == "T_RR", 0.0, rows["mass_removed"]))
    assert verdicts(empty).loc["sine_T_RR_changes_little", "verdict"] == "empty"
    assert verdicts(rows).loc["sine_T_RR_changes_little", "verdict"] == "holds"


def test_a_consequence_counts_apart_only_where_its_premise_holds():
    """At N_h = 72 every seed's n_R is the same at each α (the premise holds): "accuracies do
    not change with α" is implied by it. At N_h = 128 n_R moves with α (the premise fails):
    there it is a claim of the data."""
    steady = {s: jitter(PAPER_LIKE, 0.001 * s) for s in range(3)}
    frame = pd.concat(
        [
            copy_rows("dense_orthogonal", steady, n_hidden=72),
            copy_rows("dense_orthogonal", steady, n_R=lambda s, a: 60 + int(a > 0.9), n_hidden=128),
        ]
    )
    table = claim_tests.claims_by_size(frame, claims.paper_claims(0.02, 10.0), THRESHOLDS)
    by = table.set_index(["claim_id", "n_hidden"])
    premise, consequence = (
        "table1_dense_orthogonal_n_R_constant",
        "table1_dense_orthogonal_scores_constant",
    )
    assert by.loc[(premise, 72), "verdict"] == "holds"
    assert by.loc[(premise, 128), "verdict"] == "fails"
    assert by.loc[(consequence, 72), "basis"] == f"implied by {premise}"
    assert by.loc[(consequence, 128), "basis"] == "data"
    lines = claim_tables.claims_grid_markdown(table, "n_hidden", basis=True).splitlines()
    rows = [k for k, line in enumerate(lines) if "accuracies do not change with α" in line]
    assert len(rows) == 2 and rows[1] == rows[0] + 1  # one claim, two bases, side by side
    assert "| implied by " in lines[rows[0]] and "| data | — |" in lines[rows[1]]


def test_a_paper_value_that_differs_from_our_mean_but_lies_among_our_seeds_says_so():
    """The paper's one copy controller (0.722) against seeds 0.61, 0.95, 1.03: the mean's
    interval misses it, a seed's range holds it."""
    row = pd.Series(
        {
            "paper_value": 0.722,
            "agreement": "differs",
            "paper_factor": 1.2,
            "seed_min": min(seeds := [0.61, 0.95, 1.03]),
            "seed_max": max(seeds),
        }
    )
    cell = claim_tables.paper_cell(row)
    assert cell == "0.722: differs (1.2×), within our seeds' range"
    outside = row.copy()
    outside["seed_min"], outside["seed_max"] = 0.8, 0.95
    assert claim_tables.paper_cell(outside) == "0.722: differs (1.2×)"


def test_basis_blocks_cover_every_block_a_statistic_reads():
    """Cayley's 'every ablation is inert' reads every set, Table 1's scores read −T_CC across
    α: both can hang on an order inside R or C; −T_C→R harmful reads neither T_RR nor T_CC."""
    ledger = {c.claim_id: c for c in claims.paper_claims(0.02, 10.0)}
    assert claim_tests.basis_blocks(ledger["copy_cayley_inert"]) == {"T_RR", "T_CC"}
    assert claim_tests.basis_blocks(ledger["table1_dense_orthogonal_scores_constant"]) == {"T_CC"}
    assert claim_tests.basis_blocks(ledger["copy_T_CR_harmful"]) == set()
