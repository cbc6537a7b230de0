"""The gap table on planted per-seed tables: which variation moves which number, and how far."""

import json

import numpy as np
import pandas as pd
import pytest

from rnnschur.paper import gap_study as gaps


def rows(task, values, variation=None, n_hidden=64, construction="dense_orthogonal"):
    """Ablation rows: ``values`` maps seed → {(subset, column): value}."""
    out = []
    for seed, cells in values.items():
        for subset in {s for s, _ in cells}:
            row = {
                "task": task,
                "construction": construction,
                "n_hidden": n_hidden,
                "seed": seed,
                "alpha": 0.9,
                "subset": subset,
            }
            row |= {column: v for (s, column), v in cells.items() if s == subset}
            if variation:
                row["variation"] = variation
            out.append(row)
    return pd.DataFrame(out)


def sine(fvu, delta_cc, per_trial=None):
    cells = {("none", "fvu"): fvu, ("T_CC", "delta_fvu"): delta_cc}
    if per_trial is not None:
        cells |= {("none", "fvu_per_trial"): per_trial, ("T_CC", "delta_fvu_per_trial"): 0.0}
    return cells


def test_paper_numbers_are_the_papers_values_not_words():
    numbers = gaps.paper_numbers()
    assert numbers["paper_value"].notna().all()
    sine_cc = numbers[(numbers["task"] == "sine") & (numbers["subset"] == "T_CC")]
    assert set(sine_cc["quantity"]) == {"delta_fvu", "s_delta_t"}
    copy_cr = numbers[(numbers["task"] == "copy") & (numbers["subset"] == "T_CR")]
    assert copy_cr["paper_value"].tolist() == [0.639]  # Figure 1's value, once


def test_toward_away_and_the_paper_in_range():
    # Paper: sine full FVU 0.0036, ΔFVU(−T_CC) 2.08.
    baseline = rows("sine", {s: sine(3.6e-5, 1.0, per_trial=3.6e-3) for s in range(3)})
    variations = pd.concat(
        [
            rows("sine", {0: sine(3e-3, 2.0), 1: sine(4e-3, 2.2), 2: sine(3.5e-3, 2.1)}, "near"),
            rows("sine", {s: sine(1e-6, 0.1) for s in range(3)}, "far"),
            rows("flip_flop", {0: sine(1.0, 1.0)}, "other_task"),
        ]
    )
    table = gaps.gap_table(
        baseline, variations, {"near": "n", "far": "f", "other_task": "o"}, [0, 1, 2]
    )
    fvu = table[(table["task"] == "sine") & (table["quantity"] == "fvu")].set_index("variation")
    assert list(fvu.index) == ["paper_config", "fvu_per_trial", "near", "far"]
    # Distances on a log10 scale for the full-model FVU: 2 decades for the paper config.
    assert fvu.loc["paper_config", "distance"] == pytest.approx(2.0)
    assert fvu.loc["fvu_per_trial", "distance"] == pytest.approx(0.0, abs=1e-12)
    assert fvu.loc["near", "moves"] == "toward" and fvu.loc["far", "moves"] == "away"
    assert bool(fvu.loc["near", "paper_in_range"]) and not fvu.loc["far", "paper_in_range"]
    assert json.loads(fvu.loc["near", "per_seed"]) == {"0": 0.003, "1": 0.004, "2": 0.0035}
    delta = table[(table["quantity"] == "delta_fvu") & (table["subset"] == "T_CC")]
    delta = delta[delta["task"] == "sine"].set_index("variation")
    assert delta.loc["near", "distance"] == pytest.approx(abs(2.1 - 2.08))
    assert delta.loc["near", "moves"] == "toward"
    assert delta.loc["fvu_per_trial", "mean"] == 0.0  # the per-trial column, not the pooled one


def test_seeds_outside_the_study_are_left_out_and_little_change_is_named():
    baseline = rows("sine", {s: sine(1e-3, 1.0) for s in range(5)} | {9: sine(1.0, 50.0)})
    same = rows("sine", {s: sine(1e-3, 1.05) for s in range(3)}, "same")
    table = gaps.gap_table(baseline, same, {"same": "s"}, [0, 1, 2, 3, 4])
    base = table[(table["variation"] == "paper_config") & (table["quantity"] == "delta_fvu")]
    assert base["n_seeds"].tolist() == [5] and base["max"].tolist() == [1.0]
    moved = table[(table["variation"] == "same") & (table["quantity"] == "delta_fvu")]
    assert moved["moves"].tolist() == ["little change"]


def test_distance_and_movement_rules():
    assert gaps.distance(0.01, 0.001, "fvu") == pytest.approx(1.0)
    assert np.isnan(gaps.distance(0.0, 0.001, "fvu"))
    assert gaps.distance(0.5, 0.639, "accuracy") == pytest.approx(0.139)
    assert gaps.movement(0.79, 1.0) == "toward"
    assert gaps.movement(1.26, 1.0) == "away"
    assert gaps.movement(1.0, 1.0) == "little change"


def planted_gaps(means: dict[str, dict[tuple, float]]) -> pd.DataFrame:
    """Gap rows: ``means`` maps variation → {(task, subset, quantity): seed mean}; the paper's
    values are 1e-2 for a full FVU and 1.0 otherwise, in range where the mean equals it."""
    out = []
    for variation, numbers in means.items():
        for (task, subset, quantity), mean in numbers.items():
            paper_value = 1e-2 if quantity == "fvu" else 1.0
            out.append(
                {
                    "task": task,
                    "subset": subset,
                    "quantity": quantity,
                    "paper_value": paper_value,
                    "variation": variation,
                    "description": f"about {variation}",
                    "mean": mean,
                    "paper_in_range": mean == paper_value,
                }
            )
    return pd.DataFrame(out)


FF, SINE, CONTEXT = (
    ("flip_flop", "none", "fvu"),
    ("sine", "none", "fvu"),
    ("context_integration", "none", "fvu"),
)
DELTA = ("sine", "T_CC", "delta_fvu")


def test_ranking_by_decades_from_the_paper_like_with_like():
    table = planted_gaps(
        {
            "paper_config": {FF: 1e-4, SINE: 1e-3, CONTEXT: 1e-4, DELTA: 0.1},  # 2, 1, 2, 1
            "near": {FF: 1e-2, SINE: 1e-2, CONTEXT: 1e-1, DELTA: -0.5},  # 0, 0, 1, capped 3
            "sine_only": {SINE: 1e-2, DELTA: 1.0},  # 0, 0
            "ordered": {FF: 1e-3, SINE: 1e-4, CONTEXT: 1e-2, DELTA: 10.0},  # 1, 2, 0, 1
        }
    )
    ranked = gaps.ranking(table).set_index("variation")
    assert ranked.loc["paper_config", "distance"] == pytest.approx(1.5)
    assert ranked.loc["near", "distance"] == pytest.approx(1.0)
    assert ranked.loc["sine_only", "distance"] == 0
    assert ranked.loc["sine_only", "paper_config_distance"] == pytest.approx(1.0)  # sine only
    assert ranked.loc["sine_only", "tasks"] == "sine"
    assert np.isnan(ranked.loc["sine_only", "distance_flip_flop"])
    assert ranked.loc["ordered", "distance_sine"] == pytest.approx(1.5)
    assert ranked["rank"].tolist() == [1, 2, 3, 4]
    assert ranked.index.tolist() == ["sine_only", "near", "ordered", "paper_config"]
    assert ranked.loc["ordered", "fvu_order"] == "yes"  # sine < flip-flop < context
    assert ranked.loc["near", "fvu_order"] == "no"  # flip-flop = sine
    assert ranked.loc["sine_only", "fvu_order"] == "—"
    assert ranked.loc["near", "n_in_range"] == 2
    assert gaps.log_distance(0.0, 1.0) == gaps.LOG_CAP
    assert gaps.log_distance(1e9, 1.0) == gaps.LOG_CAP
    markdown = gaps.ranking_markdown(gaps.ranking(table))
    assert "| 1 | sine_only | sine | 0.00 | 1.00 | 0.00 (1.00) | — | 0.00 | — | 2/2 |" in markdown
    # the effects alone (ΔFVU, S_ΔT): a full FVU matched by a stopping rule does not count
    assert ranked.loc["near", "effects_distance"] == gaps.LOG_CAP
    assert ranked.loc["near", "paper_config_effects_distance"] == pytest.approx(1.0)


def test_the_conclusion_names_the_nearest_and_what_remains():
    from rnnschur.report.readings import gap_conclusion

    table = planted_gaps(
        {
            "paper_config": {FF: 1e-4, SINE: 1e-3, CONTEXT: 1e-4, DELTA: 0.1},
            "near": {FF: 1.5e-2, SINE: 1e-2, CONTEXT: 1e-1, DELTA: -0.5},
        }
    )
    text = gap_conclusion(gaps.ranking(table), table)
    assert "the nearest variation is near at 1.04" in text
    assert "against the paper config's 1.50 (a factor 32)" in text
    assert "1 of the 1 others come nearer" in text
    assert "flip-flop full FVU 0.015 under near (paper 0.01; paper config 0.0001)" in text
    assert "sine ΔFVU(−T_CC) 0.1, the paper config's own (paper 1)" in text
    # context: 10× at best (both 1e-4 and 1e-1 are a decade or more off); ΔFVU 10× off
    assert "No variation brings 2 numbers within a factor of 2" in text
    assert "context full FVU (10× higher at best)" in text
    assert "(sine < flip-flop < context) is kept by near." in text
    assert (
        "Under near itself, 2 numbers of 4 stay more than a factor of 2 from the paper's: "
        "context full FVU 0.1 (the paper's 0.01: 10× higher) and sine ΔFVU(−T_CC) -0.5 (the "
        "paper's 1: of the wrong sign)."
    ) in text  # 0.01 < 0.015 < 0.1
