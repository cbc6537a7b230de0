"""The sentences that say what a table shows, on planted tables: every count is the table's."""

import re

import numpy as np
import pandas as pd
import readings

from conftest import long_sentences


def test_claims_reading_counts_each_verdict_the_basis_and_the_paper_agreement():
    """Planted: six claims of the data (2 hold, 1 fails, 1 tie, 1 underpowered, 1 on the
    threshold), two true by construction, one implied; two carry the paper's value, one of
    them outside its interval (the sine S_ΔT of the fifty seeds: 0.58 [−0.6, 1.75] against
    8.8): the sentence names it."""
    verdicts = ["holds", "holds", "fails", "equivalent", "underpowered", "on the threshold"]
    verdicts += ["holds", "holds", "holds", "not run"]
    basis = ["data"] * 6 + ["by construction: normal", "by construction: normal"]
    basis += ["implied by n_R", "data"]
    claims = pd.DataFrame(
        {
            "verdict": verdicts,
            "basis": basis,
            "task": ["sine"] * 10,
            "claim": [f"c{k}" for k in range(10)],
            "n_trained": [3, 3, 3, 3, 50, 50, 3, 3, 3, 0],
            "n_learned": [3, 3, 3, 2, 50, 50, 3, 3, 3, 0],
            "agreement": ["—", "agrees", "—", "—", "differs", "—", "—", "—", "—", "—"],
            "paper_value": [np.nan, 0.05, np.nan, np.nan, 8.8] + [np.nan] * 5,
            "mean": [np.nan, 0.05, np.nan, np.nan, 0.58] + [np.nan] * 5,
            "ci_low": [np.nan, 0.04, np.nan, np.nan, -0.6] + [np.nan] * 5,
            "ci_high": [np.nan, 0.06, np.nan, np.nan, 1.75] + [np.nan] * 5,
        }
    )
    text = readings.claims_reading(claims)
    assert text.startswith(
        "Over the seeds' mean (95 % t interval), of the 6 claims of the data tested, 2 are met "
        "by the whole interval, 1 is contradicted by it, 1 is a tie within its margin, 1 is open "
        "with a detectable effect above θ and 1 is open with its mean near θ. Counted apart, 2 "
        "claims true by construction (2 are met by the whole interval) and 1 claim implied by "
        "another (1 is met by the whole interval)."
    )
    assert (
        "The paper's value lies inside 1 of the 2 reproduced intervals it can be set beside (or "
        "is equal within the paper's stated precision) and outside 1. "
        "Outside: sine c4, 0.58 [-0.6, 1.75] against the paper's 8.8." in text
    )
    # The seed mean's words stay in the table: none is set in the sentence.
    words = ("holds", "hold", "fails", "underpowered", "on the threshold", "agrees", "differs")
    assert not [word for word in words if re.search(rf"\b{word}\b", text)]
    assert "1 claim left out models that did not learn their task (1 model-claims)." in text


def test_many_wide_agreements_get_a_sentence_each():
    """Planted: eight claims whose paper value lies in a wide interval three times off, one of
    them printed as 0.00 (within its precision of 0: no factor): one count sentence, a "Wide:"
    sentence per other claim, one for the near-zero one, none past three lines."""
    n = 8
    claims = pd.DataFrame(
        {
            "verdict": ["holds"] * n,
            "basis": ["data"] * n,
            "task": ["flip_flop"] * n,
            "claim": [
                f"a long claim named ΔFVU(−T_C→R) > ΔFVU(−T_CC) number {k}" for k in range(n)
            ],
            "n_trained": [3] * n,
            "n_learned": [3] * n,
            "agreement": ["agrees"] * n,
            "paper_value": [0.1] * n,
            "mean": [0.3] * n,
            "ci_low": [-0.5] * n,
            "ci_high": [1.1] * n,
        }
    )
    claims.loc[0, ["paper_value", "paper_precision"]] = [0.002, 0.005]  # printed as 0.00
    claims["paper_precision"] = claims["paper_precision"].fillna(0.0005)
    text = readings.claims_reading(claims)
    assert "Of those inside, 7 are more than a factor of 2 off" in text
    assert "1 more meets a paper value within its printed precision of 0" in text
    assert text.count(" Wide: flip-flop a long claim") == n - 1
    assert long_sentences(text) == []


def test_profile_reading_says_where_each_block_is_fragile():
    rows = []
    for task, verdicts in {
        "a": ("underpowered", "fragile", "harmless"),
        "b": ("empty", "fragile", "fragile"),
        "c": ("harmless", "on the threshold", "too few learned models"),
    }.items():
        for block, verdict in zip(("T_RR", "T_CR", "T_CC"), verdicts, strict=True):
            rows.append(
                {"task": task, "construction": "k", "n_hidden": 8, "subset": block}
                | {"verdict": verdict, "n_learned": 1 if task == "c" else 3, "n_trained": 3}
            )
    text = readings.profile_reading(pd.DataFrame(rows), "tasks")
    assert "−T_C→R is fragile in 2 of 3 tasks (on the threshold in 1)." in text
    assert "−T_RR is harmless in 1 of 3 tasks (underpowered in 1, empty in 1)." in text
    assert "−T_CC is fragile in 1 of 3 tasks (harmless in 1, too few learned models in 1)." in text
    assert "In 1 group some models did not learn their task (c 1/3 learned)" in text


def _profile(rows):
    return pd.DataFrame(
        [
            {"construction": "k", "n_hidden": 64, "n_learned": 5, "n_trained": 5}
            | dict(zip(("task", "subset", "verdict"), r, strict=True))
            for r in rows
        ]
    )


def test_gap_reading_counts_numbers_moved_and_brought_into_range():
    """Planted: two numbers; variation a moves both toward the paper (one into range), b moves
    one away; the full FVU 1e-4 against the paper's 1e-2 is 100× lower, closest a 1e-3."""
    base = {"task": "t", "quantity": "fvu", "subset": "none", "paper_value": 0.01}
    other = {"task": "t", "quantity": "delta_fvu", "subset": "T_CC", "paper_value": 1.0}
    rows = [
        base | {"variation": "paper_config", "mean": 1e-4, "paper_in_range": False},
        base | {"variation": "a", "mean": 1e-3, "paper_in_range": False, "moves": "toward"},
        base | {"variation": "b", "mean": 1e-5, "paper_in_range": False, "moves": "away"},
        other | {"variation": "paper_config", "mean": 0.5, "paper_in_range": True},
        other | {"variation": "a", "mean": 0.9, "paper_in_range": True, "moves": "toward"},
    ]
    gaps = pd.DataFrame(rows)
    gaps["distance"] = [
        abs(np.log10(m / p)) if q == "fvu" else abs(m - p)
        for m, p, q in zip(gaps["mean"], gaps["paper_value"], gaps["quantity"], strict=True)
    ]
    text = readings.gap_reading(gaps)
    assert text.startswith(
        "Of the 2 numbers the paper reports, the paper config's seeds contain 1;"
    )
    assert "for 2 at least one variation moves the mean toward" in text
    assert "for 1 one brings the paper's value within its seeds' range" in text
    assert (
        "the one that moves the most, a, moves 2 of the 2 it applies to toward it and 0 away"
        in (text)
    )
    assert "t 0.0001 against 0.01 (100× lower, closest a 0.001)" in text


def _readings(rows):
    """ablation.csv rows: (seed, subset, reading, learned) at α = 0.9, and one at α = 0.85."""
    frame = pd.DataFrame(rows, columns=["seed", "subset", "reading", "learned"]).assign(alpha=0.9)
    other_alpha = frame.iloc[:1].assign(alpha=0.85, reading="fragile")  # never counted
    return pd.concat([frame, other_alpha], ignore_index=True)


def test_families_reading_counts_solutions_per_family_and_names_too_few():
    profiles = {
        "discrete tanh": _profile([("a", "T_CR", "fragile"), ("b", "T_CR", "fragile")]),
        "leaky relu": _profile([("a", "T_CR", "fragile"), ("b", "T_CR", "too few learned models")]),
    }
    profiles["leaky relu"].loc[1, "n_learned"] = 0
    ablations = {
        "discrete tanh": _readings(
            [(0, "T_CR", "fragile", True), (1, "T_CR", "stabilizer", True)]
            + [(2, "T_CR", "fragile", False), (0, "T_RR", "absent", True)]
            + [(1, "T_RR", "fragile", True)]
        ),
        "leaky relu": _readings([(0, "T_CR", "undecided", True)]),
    }
    text = readings.families_reading(profiles, ablations)
    # the unlearned solution and the other α are not counted; absent counted apart
    assert (
        "−T_C→R reads fragile in 1 of 2 solutions as discrete tanh (stabilizer 1) and 0 of" in text
    )
    assert "−T_RR reads fragile in 1 of 1 solutions as discrete tanh (1 absent)." in text
    assert "Too few models learned for a verdict (b as leaky relu (0/5) learned)" in text
    one_run = readings.solutions_reading(ablations["discrete tanh"])
    assert "−T_C→R: fragile in 1 of 2 solutions (stabilizer 1)." in one_run
    assert "−T_RR: fragile in 1 of 1 solutions (1 absent)." in one_run
    only_absent = readings.solutions_reading(_readings([(0, "T_CC", "absent", True)]))
    assert only_absent == "−T_CC: absent in all 1 solutions."


def test_scale_reading_gives_learned_n_R_per_size_its_verdicts_left_to_the_table():
    """Planted: N_h 72 (2 of 2 learned, n_R 60 and 62) and 256 (0 of 2 learned: no n_R)."""
    profile = pd.DataFrame(
        [
            {"construction": "d", "n_hidden": n, "subset": b, "verdict": v}
            for n, v in ((72, "fragile"), (256, "too few learned models"))
            for b in ("T_RR", "T_CR", "T_CC")
        ]
    )
    full = pd.DataFrame(
        {
            "construction": ["d"] * 4,
            "n_hidden": [72, 72, 256, 256],
            "learned": [True, True, False, False],
            "n_R": [60, 62, 10, 20],
        }
    )
    text = readings.scale_reading(profile, full)
    assert text.startswith("d: 2/2 and 0/2 models learned at N_h = 72 and 256;")
    assert "n_R of the learned models 61.0, — (the task has 64 dimensions of memory)" in text
    assert "fragile" not in text and "too few" not in text  # the verdicts: in the table


def test_refit_reading_gives_the_share_of_the_harm_recovered():
    """Planted FVUs: full 0.1; −T_CR 1.1 fixed, 0.6 refit (half recovered); −T_CC 0.9 fixed,
    0.1 refit (all); −T_RR loses 0.005 (left out)."""
    rows = [("none", 0.1, 0.1), ("T_CR", 1.1, 0.6), ("T_CC", 0.9, 0.1), ("T_RR", 0.105, 0.1)]
    summary = pd.DataFrame(
        [
            {"task": "t", "construction": "c", "n_hidden": 8, "metric": "fvu"}
            | {"subset": s, "fixed_score": f, "refit_score": r}
            for s, f, r in rows
        ]
    )
    text = readings.refit_reading(summary)
    assert "recovers a median 75% of the harm of the 2 single-block ablations" in text
    assert "least 50%, t c −T_C→R; most 100%, t c −T_CC)" in text  # no share above 100 %
    assert "loses more than 0.01 in none of them" in text  # a table without controls


def test_refit_reading_gives_its_controls_share_beside_it():
    """Planted controls: −T_CR's control loses 0.4 and its refit recovers 0.1 of it (25 %);
    −T_CC's control loses 0.005 (no harm to recover); −T_RR's ablation itself is left out."""
    rows = [
        ("none", 0.1, 0.1, np.nan, np.nan),
        ("T_CR", 1.1, 0.6, 0.5, 0.4),
        ("T_CC", 0.9, 0.1, 0.105, 0.1),
        ("T_RR", 0.105, 0.1, 0.9, 0.1),
    ]
    summary = pd.DataFrame(
        [
            {"task": "t", "construction": "c", "n_hidden": 8, "metric": "fvu", "subset": s}
            | {"fixed_score": f, "refit_score": r}
            | {"control_fixed_score": cf, "control_refit_score": cr}
            for s, f, r, cf, cr in rows
        ]
    )
    text = readings.refit_reading(summary)
    assert "loses more than 0.01 in 1 of them, and a refit recovers a median 25% there" in text


def test_subspace_reading_counts_explained_and_the_trials_scored():
    summary = pd.DataFrame(
        {
            "verdict": ["explained", "ablation milder", "explained"],
            "n_models": [3, 3, 3],
            "n_explained": [3, 1, 2],
            "n_trials": [256, 256, 256],
            "n_heldout": [1024, 1024, 1024],
        }
    )
    text = readings.subspace_reading(summary)
    assert text.startswith("In 6 of 9 model-ablations")
    assert "explained 2 and ablation milder 1 of 3." in text
    assert text.endswith("Scored on 256 of the 1024 held-out trials.")


def test_a_harm_near_chance_is_saturated_not_explained():
    """Planted copy rows (full accuracy 0.99): an ablation that loses 0.46 beside a matched
    control that loses 0.45 (both about 94 % of the learned 0.49) is saturated; the same pair at
    0.2 and 0.25 (about half) is explained; in the sentence the saturated count stands apart."""
    from rnnschur.studies.beyond.summaries import subspace_summary, subspace_verdicts

    rows = []
    for seed, (ablation, control) in enumerate(((0.46, 0.45), (0.2, 0.25))):
        base = {"task": "copy", "construction": "dense_default", "n_hidden": 16, "seed": seed}
        base |= {"subset": "T_CR", "subspace": "pc", "dim": 8, "side": "left"}
        base |= {"chance_overlap": 0.5, "relative_norm": 0.1, "draw": 0}
        rows.append(base | {"kind": "ablation", "overlap": 0.4, "harm": ablation})
        rows.append(base | {"kind": "matched", "overlap": 0.4, "harm": control})
        rows[-2]["score"] = rows[-1]["score"] = 0.99 - ablation
        rows[-1]["score"] = 0.99 - control
    verdicts = subspace_verdicts(pd.DataFrame(rows), floor=0.01, ratio=2.0)
    assert verdicts.sort_values("seed")["verdict"].tolist() == ["saturated", "explained"]
    summary = subspace_summary(verdicts)
    assert summary["n_saturated"].sum() == 1 and summary["n_explained"].sum() == 1
    text = readings.subspace_reading(summary)
    assert text.startswith("In 1 of 2 model-ablations")
    assert "In 1 more both are near chance (saturated" in text


def test_the_eigen_against_schur_agreement_is_a_check_not_a_finding():
    summary = pd.DataFrame(
        {
            "task": ["a", "b"],
            "construction": ["k", "k"],
            "n_hidden": [8, 8],
            "kappa_V": [2.0, 50.0],
            "eigen_schur_difference": [1e-15, 5.7e-15],
            "schur_T_CR": [1.0, 2.0],
            "eigen_T_CR": [3.0, 4.0],
        }
    )
    text = readings.basis_reading(summary)
    assert "As a check of the code" in text and "no finding" in text
    assert "differ by at most 5.7e-15" in text


def test_the_paper_readings_beside_ours_name_every_block_that_parts_and_why():
    papers = pd.DataFrame(
        {
            "task": ["copy", "flip_flop", "flip_flop", "sine", "context_integration"],
            "block": ["T_CR", "T_CC", "T_RR", "T_CC", "T_CR"],
            "paper_reading": ["fragile", "fragile", "harmless", "fragile", "fragile"],
            "verdict": ["fragile", "fragile", "harmless", "fragile", "underpowered"],
        }
    )
    profile = pd.DataFrame(
        {
            "task": ["copy", "copy", "flip_flop", "flip_flop", "sine", "context_integration"],
            "construction": "dense_orthogonal",
            "n_hidden": [56, 72, 64, 64, 64, 64],
            "subset": ["T_CR", "T_CR", "T_CC", "T_RR", "T_CC", "T_CR"],
            "verdict": ["harmless", "fragile", "harmless", "empty", "underpowered", "harmless"],
            "harm_mean": [0.0, 0.9, 0.0041, 0.0003, 0.5, 0.01],
        }
    )
    text = readings.paper_reading_comparison(papers, profile)
    assert text.startswith(
        "Against the paper's own readings of its dense orthogonal models: 1 of 5 blocks get "
        "the paper's verdict (copy −T_C→R)."  # N_h 72 read, not 56
    )
    assert (
        " 1 reversed (both decided, opposite). Flip-flop −T_CC harmless here, share 0.0041 " in text
    )
    assert " 1 empty here where the paper reads the block harmless" in text
    assert ". Flip-flop −T_RR empty here, share 0.0003 (the paper: harmless)." in text
    assert " 1 undecided here. Sine −T_CC underpowered here" in text
    assert (
        "Context −T_C→R harmless here, share 0.01 (the paper: fragile), which the paper's own "
        "numbers leave underpowered." in text
    )


def fate(seed, condition, ablation, n_stable, moved=0, lost=0, new=0, amplitude=np.nan):
    """One planted row of fixed_points_fates.csv (model t/c/8)."""
    cued = 0.1 if condition.startswith("cue") else np.nan
    return {
        "task": "t", "construction": "c", "n_hidden": 8, "seed": seed, "condition": condition,
        "ablation": ablation, "n_stable": n_stable, "moved": moved, "lost": lost, "new": new,
        "amplitude": amplitude, "frequency": 0.1 if amplitude > 0.1 else np.nan,
        "cued_frequency": cued,
    }  # fmt: skip


def test_fixed_point_reading_counts_fates_per_solution_where_there_are_points():
    """Planted: under zero input seed 0 holds 4 stable points, seed 1 none; −T_C→R moves seed
    0's, −T_CC loses them. Under two cues nothing is stable; both oscillate intact, −T_C→R
    stops one oscillation and creates a stable point there."""
    rows = []
    for seed, points in ((0, 4), (1, 0)):
        rows.append(fate(seed, "zero input", "none", points))
        rows.append(fate(seed, "zero input", "T_RR", points))
        rows.append(fate(seed, "zero input", "T_CR", points, moved=int(points > 0)))
        rows.append(fate(seed, "zero input", "T_CC", 0, lost=int(points > 0)))
        for cue in ("cue 0.5", "cue 1"):
            stops = seed == 0 and cue == "cue 1"
            rows.append(fate(seed, cue, "none", 0, amplitude=1.0))
            rows.append(fate(seed, cue, "T_RR", 0, amplitude=1.0))
            rows.append(fate(seed, cue, "T_CR", int(stops), new=int(stops),
                             amplitude=0.0 if stops else 1.0))  # fmt: skip
            rows.append(fate(seed, cue, "T_CC", 0, amplitude=1.0))
    groups = readings.fixed_point_groups(pd.DataFrame(rows), [("t", "c", 8)])
    zero = groups[groups["inputs"] == "zero input"].set_index("block")
    assert zero.loc["T_CR", ["pairs", "with_points", "all_kept", "moved", "lost"]].tolist() == [
        2, 1, 0, 1, 0,
    ]  # fmt: skip
    assert zero.loc["T_CC", ["all_kept", "moved", "lost"]].tolist() == [0, 0, 1]
    assert zero.loc["T_RR", "all_kept"] == 1  # seed 1 has nothing to keep: not counted
    assert zero.loc["T_RR", "stable_intact"] == 2 and zero.loc["T_RR", "stable_where"] == 4
    cues = groups[groups["inputs"] == "cues"].set_index("block")
    assert cues.loc["T_CR", ["pairs", "oscillating_intact", "oscillating", "new"]].tolist() == [
        4, 4, 3, 1,
    ]  # fmt: skip
    text = readings.fixed_point_reading(groups, {("t", "c", 8, "T_CR"): 0.25})
    assert text.startswith(
        "T, c (N_h = 8): under zero input, stable points in 1 of its 2 solutions"
    )
    assert "(a median 4 there)" in text
    assert "; −T_RR keeps them all in 1; −T_C→R moves some in 1; −T_CC loses some in 1" in text
    assert "no stable point in any of its 4 (solution, cue) pairs" in text
    assert "a removal creates one in −T_C→R in 1" in text
    assert (
        "oscillating intact in 4 of 4, with −T_RR removed in 4 of 4, with −T_C→R removed in 3 of 4"
        in text
    )
    assert text.endswith("A refit readout recovers 25% of −T_C→R's harm.")
    table = readings.fixed_point_table(groups, {("t", "c", 8, "T_CR"): 0.25})
    assert (
        "| t, c (N_h = 8) | 2 cues | −T_C→R | 0 → 0 | — | 1 of 4 | 4 of 4 → 3 of 4 | 0.00 | — | "
        "— | — | — | 25% |" in table  # a table without the attractors' columns
    )
    # a block absent in a solution (its removal takes less than the mass floor) is counted apart
    absent = frozenset(
        {("t", "c", 8, 0, "T_CR"), ("t", "c", 8, 0, "T_CC"), ("t", "c", 8, 1, "T_CC")}
    )
    groups = readings.fixed_point_groups(pd.DataFrame(rows), [("t", "c", 8)], absent)
    zero = groups[groups["inputs"] == "zero input"].set_index("block")
    assert zero.loc["T_CR", ["pairs", "absent", "tested", "moved"]].tolist() == [1, 1, 0, 0]
    assert zero.loc["T_CC", ["pairs", "absent"]].tolist() == [0, 2]
    assert zero.loc["T_RR", "with_points"] == 1  # the intact network's own count
    text = readings.fixed_point_reading(groups, {})
    assert "−T_C→R has nothing to keep (absent in 1)" in text
    assert "−T_CC is absent in every solution" in text
    table = readings.fixed_point_table(groups, {})
    assert "| t, c (N_h = 8) | zero input | −T_CC | 2 → — | absent in all 2 |" in table


def test_fixed_point_table_counts_attractors_transitions_and_replay_orbits():
    """Planted: two flip-flop solutions, intact 8 attractors each (2 of them cycles), 48
    transitions each landing right; −T_C→R keeps 40 and 30 of them (right in 36 and 30) and
    loses a cycle in one; two copy solutions replaying 16 trials each, −T_C→R keeps 10 and 12,
    drifts 2 and 0, collapses 4 and 4."""
    base = {"n_stable": 6, "moved": 0, "lost": 0, "new": 0, "amplitude": np.nan,
            "frequency": np.nan, "cued_frequency": np.nan, "construction": "c", "n_hidden": 8,
            "condition": "zero input", "n_cycles": 2, "n_oscillations": 0}  # fmt: skip
    rows = []
    for seed, (kept, right, lost) in enumerate([(40, 36, 1), (30, 30, 0)]):
        flip = base | {"task": "flip_flop", "seed": seed, "transitions": 48,
                       "transitions_correct_intact": 48}  # fmt: skip
        rows.append(flip | {"ablation": "none", "n_attractors": 8, "attractors_moved": 0,
                            "attractors_lost": 0, "transitions_kept": 48,
                            "transitions_correct": 48})  # fmt: skip
        rows.append(flip | {"ablation": "T_CR", "n_attractors": 8 - lost, "attractors_moved": 0,
                            "attractors_lost": lost, "transitions_kept": kept,
                            "transitions_correct": right})  # fmt: skip
    for seed, (kept, drift, collapse) in enumerate([(10, 2, 4), (12, 0, 4)]):
        copy = base | {"task": "copy", "seed": seed, "n_attractors": 3, "attractors_moved": 0,
                       "attractors_lost": 0, "replay_trials": 16, "replay_periodic": 16,
                       "replay_changed": 0}  # fmt: skip
        rows.append(copy | {"ablation": "none", "replay_kept": 16, "replay_drift": 0,
                            "replay_collapse": 0, "replay_lost": 0})  # fmt: skip
        rows.append(copy | {"ablation": "T_CR", "replay_kept": kept, "replay_drift": drift,
                            "replay_collapse": collapse, "replay_lost": 16 - kept - drift -
                            collapse})  # fmt: skip
    groups = readings.fixed_point_groups(
        pd.DataFrame(rows), [("flip_flop", "c", 8), ("copy", "c", 8)]
    )
    table = readings.fixed_point_table(groups, {})
    assert (
        "| 8 (2 cycles, 0 oscillations) → 7.5 | 1 / 1 of 2 | 70 of 96 (66 correct; intact 96) | — |"
        in table
    )
    assert (
        "| 3 (2 cycles, 0 oscillations) → 3 | 2 / 0 of 2 | — | 22 / 2 / 0 / 8 / 0 of 32 (32 "
        in table
    )
    text = readings.fixed_point_reading(groups, {})
    assert (
        "Of its 96 transitions between attractors (each pulse from each attractor; 96 correct "
        "intact), −T_C→R keeps 70 (66 correct)." in text
    )
    assert (
        "Its replay, run on freely, settles on a cycle or an oscillation in 32 of 32 trials; of "
        "the 32 compared, the ablated replay is kept / drifts / changes / collapses / is lost "
        "in, per removal: −T_C→R 22/2/0/8/0." in text
    )
    fates = pd.DataFrame(rows)
    fates = fates.assign(replay_periodic=fates["replay_periodic"] - 3, replay_unsettled=3)
    groups = readings.fixed_point_groups(fates, [("flip_flop", "c", 8), ("copy", "c", 8)])
    text = readings.fixed_point_reading(groups, {})  # the trials that settle on nothing, named
    assert (
        "in 26 of 32 trials (6 settle on nothing within the free run and are not compared); of "
        "the 26 compared" in text
    )


def test_basis_dependence_reading_names_where_the_order_moves_a_reading():
    rows = [
        {"task": "copy", "construction": "dense_orthogonal", "n_hidden": 72, "tolerance": t,
         "block": b, "n_models": 3, "n_absent": a, "n_basis_dependent": k, "spread_max": m}
        for t, b, a, k, m in (
            (1e-6, "T_RR", 0, 0, 0.0), (1e-6, "T_CC", 0, 0, 0.0),
            (1e-3, "T_RR", 0, 2, 0.031), (1e-3, "T_CC", 1, 0, 0.001),
        )
    ]  # fmt: skip
    smaller = dict(rows[-1], n_hidden=56, block="T_CC", n_absent=0, n_basis_dependent=3)
    rows.append(smaller | {"spread_max": 0.5})
    text = readings.basis_dependence_reading(pd.DataFrame(rows))
    assert text.startswith(
        "With the moduli within 1e-06 ρ of each other taken as equal, no T_RR or T_CC reading "
        "is basis-dependent. With the moduli within 0.001 ρ of each other taken as equal, a "
        "reading is basis-dependent in: copy dense_orthogonal −T_RR in 2 of 3 (spread up to 0.031)."
    )
    assert "N_h" not in text and "0.5" not in text  # N_h = 56 is not the largest: not read


def test_the_fresh_basis_line_counts_each_claim_with_basis_dependent_solutions():
    """Planted: of three claims, two have basis-dependent fresh solutions (3 of 10, 1 of 1):
    both named with their counts, in README's few words where it has them; a run that did not
    check says so; none dependent says none."""
    table = pd.DataFrame(
        {
            "claim_id": ["a", "b", "c"],
            "task": ["copy", "sine", "flip_flop"],
            "claim": ["A long claim: its rule", "B claim (note)", "C claim"],
            "basis_checked": [True, True, True],
            "n_basis_checked": [10, 1, 10],
            "n_basis_dependent": [3, 1, 0],
        }
    )
    line = readings.fresh_basis_line(table, {"a": "A short"})
    assert "copy A short (3/10) and sine B claim (1/1); none elsewhere." in line
    assert "flip-flop" not in line and long_sentences(line) == []
    none = readings.fresh_basis_line(table.assign(n_basis_dependent=0), {})
    assert none.endswith("(checked after the preregistration): none.")
    unchecked = readings.fresh_basis_line(table.assign(basis_checked=False), {})
    assert unchecked == "These fresh solutions were not checked for basis dependence."
