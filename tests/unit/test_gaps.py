"""The gap table on planted per-seed tables: which variation moves which number, and how far."""

import itertools

import numpy as np
import pandas as pd
import pytest

from rnnschur.studies.paper import gap_study as gaps


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
    assert fvu.loc["near", "per_seed"] == {0: 0.003, 1: 0.004, 2: 0.0035}
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


def test_a_description_that_a_spreadsheet_would_run_is_written_as_text(tmp_path):
    from rnnschur.io import per_seed

    baseline = rows("sine", {0: sine(1e-3, 1.0)})
    planted = '=HYPERLINK("http://x.example","click")'
    variation = rows("sine", {0: sine(1e-3, 1.0)}, "v")
    table = gaps.gap_table(baseline, variation, {"v": planted}, [0])
    ranked = gaps.ranking(table)
    for name, frame in (("gaps.csv", table), ("ranking.csv", ranked)):
        per_seed.save(tmp_path / name, tmp_path / f"values_{name}", frame, ["variation"])
        cells = pd.read_csv(tmp_path / name)["description"]
        assert set(cells[cells.str.contains("HYPERLINK")]) == {"'" + planted}
    assert not any(c.startswith("=") for c in table["description"])


def test_a_gap_study_with_no_learned_model_reads_so():
    """Under the paper config and the variation alike, no model learned its task: the table is
    empty, and each of its readings says that there is no learned model (no KeyError)."""
    baseline = rows("sine", {0: sine(1.0, 1.0)}).assign(learned=False)
    variation = rows("sine", {0: sine(1.0, 1.0)}, "v").assign(learned=False)
    table = gaps.gap_table(baseline, variation, {"v": "d"}, [0])
    assert table.empty
    ranked = gaps.ranking(table)
    assert ranked.empty
    for markdown in (gaps.gap_markdown(table), gaps.ranking_markdown(ranked)):
        assert markdown.startswith("No learned model")


def test_distance_and_movement_rules():
    assert gaps.distance(0.01, 0.001, "fvu") == pytest.approx(1.0)
    assert np.isnan(gaps.distance(0.0, 0.001, "fvu"))
    assert gaps.distance(0.5, 0.639, "accuracy") == pytest.approx(0.139)
    assert gaps.movement(0.79, 1.0) == "toward"
    assert gaps.movement(1.26, 1.0) == "away"
    assert gaps.movement(1.0, 1.0) == "little change"


def planted_gaps(values: dict[str, dict[tuple, list]], learned: dict | None = None) -> pd.DataFrame:
    """Gap rows: ``values`` maps variation → {(task, subset, quantity): per-seed values (a
    number: the same on three seeds)}; the paper's values are 1e-2 for a full FVU and 1.0
    otherwise; ``learned`` maps (variation, task) → models trained (all learned otherwise)."""
    out = []
    for variation, numbers in values.items():
        for (task, subset, quantity), per_seed in numbers.items():
            per_seed = per_seed if isinstance(per_seed, list) else [per_seed] * 3
            paper_value = 1e-2 if quantity == "fvu" else 1.0
            mean = float(np.mean(per_seed))
            out.append(
                {
                    "task": task,
                    "subset": subset,
                    "quantity": quantity,
                    "paper_value": paper_value,
                    "paper_sem": np.nan,
                    "variation": variation,
                    "description": f"about {variation}",
                    "n_seeds": len(per_seed),
                    "n_trained": (learned or {}).get((variation, task), len(per_seed)),
                    "mean": mean,
                    "per_seed": dict(enumerate(per_seed)),
                    "paper_in_range": min(per_seed) <= paper_value <= max(per_seed),
                }
            )
    return pd.DataFrame(out)


FF, SINE, CONTEXT = (
    ("flip_flop", "none", "fvu"),
    ("sine", "none", "fvu"),
    ("context_integration", "none", "fvu"),
)
DELTA = ("sine", "T_CC", "delta_fvu")
DELTA_FF = ("flip_flop", "T_CR", "delta_fvu")
S_SINE = ("sine", "T_CC", "s_delta_t")


def test_ranking_by_the_effects_alone_like_with_like():
    """Ranked by the ΔFVUs alone (decades: 0.1 is 1 off, 0.5 is 0.30 off): a stopping rule that
    matches every full FVU (stop) ranks by its effects; S_ΔT, the same ablation again, does
    not count."""
    table = planted_gaps(
        {
            "paper_config": {FF: 1e-4, SINE: 1e-3, CONTEXT: 1e-4, DELTA: 0.1, DELTA_FF: 1.0},
            "near": {FF: 1e-3, SINE: 1e-2, CONTEXT: 1e-1, DELTA: 1.0, DELTA_FF: 0.5},
            "sine_only": {SINE: 1e-2, DELTA: 1.0, S_SINE: 1e3},
            "stop": {FF: 1e-2, SINE: 1e-2, CONTEXT: 1e-2, DELTA: 0.01, DELTA_FF: 1.0},
        }
    )
    ranked = gaps.ranking(table).set_index("variation")
    assert ranked.loc["paper_config", "distance"] == pytest.approx(0.5)
    assert ranked.loc["near", "distance"] == pytest.approx(np.log10(2) / 2)
    assert ranked.loc["sine_only", "distance"] == 0  # its S_ΔT (3 decades off) left out
    assert ranked.loc["sine_only", "all_numbers_distance"] == pytest.approx(1.0)
    assert ranked.loc["sine_only", "paper_config_distance"] == pytest.approx(1.0)  # sine only
    assert ranked.loc["stop", "distance"] == pytest.approx(1.0)
    assert ranked.loc["stop", "all_numbers_distance"] == pytest.approx(0.4)  # 2 of 5 off
    # like with like: the variations with every task first, sine_only (one task) after them
    assert ranked.index.tolist() == ["near", "paper_config", "stop", "sine_only"]
    assert not ranked.loc["sine_only", "all_tasks"] and ranked.loc["near", "all_tasks"]
    assert ranked["rank"].tolist() == [1, 2, 3, 4]
    assert ranked.loc["near", "fvu_order"] == "no" and ranked.loc["sine_only", "fvu_order"] == "—"
    assert ranked.loc["near", "n_in_range"] == 1 and ranked.loc["near", "n_numbers"] == 2
    # no spread over seeds: every interval is its point, the noise floor 0
    assert (ranked["distance_low"] == ranked["distance"]).all()
    assert (ranked["noise_floor"] == 0).all()
    assert gaps.log_distance(0.0, 1.0) == gaps.LOG_CAP
    assert gaps.log_distance(1e9, 1.0) == gaps.LOG_CAP
    markdown = gaps.ranking_markdown(gaps.ranking(table))
    assert "| 4 | sine_only | 0, 1, 2 | sine | 0.00 [0.00, 0.00] | 1.00 | 1.00 |" in markdown
    assert "would land 0.00 decades from the paper by chance" in markdown
    # the partial variations' own ranking is announced between the two groups
    lines = markdown.splitlines()
    at = next(i for i, line in enumerate(lines) if "only some of the Figure 2 tasks" in line)
    assert lines[at - 1].startswith("| 3 | stop") and lines[at + 1].startswith("| 4 | sine_only")
    assert lines[at].count("|") == lines[at + 1].count("|")


def test_the_noise_floor_and_intervals_are_the_seeds_bootstrap():
    """Three seeds 0.5, 1, 2 of one ΔFVU (paper 1): the exact bootstrap distribution of the
    distance of a resampled mean from the seeds' own mean, over all 27 resamples, against the
    2,000 draws; a variation whose seeds straddle the paper's value has an interval from 0."""
    per_seed = [0.5, 1.0, 2.0]
    table = planted_gaps({"paper_config": {DELTA: per_seed}, "wide": {DELTA: [0.9, 1.1, 1.0]}})
    ranked = gaps.ranking(table).set_index("variation")
    mean = np.mean(per_seed)
    exact = np.array(
        [abs(np.log10(np.mean(c) / mean)) for c in itertools.product(per_seed, repeat=3)]
    )
    # the exact distribution is a step function of 27 resamples: the draws' quantiles fall
    # between the exact ones around them
    floor, floor_95 = ranked.loc["wide", ["noise_floor", "noise_floor_95"]]
    assert np.percentile(exact, 35) <= floor <= np.percentile(exact, 65)
    assert np.percentile(exact, 90) <= floor_95 <= np.percentile(exact, 99)
    low, high = ranked.loc["paper_config", ["distance_low", "distance_high"]]
    to_paper = np.array([abs(np.log10(np.mean(c))) for c in itertools.product(per_seed, repeat=3)])
    assert np.percentile(to_paper, 0) <= low <= np.percentile(to_paper, 10)
    assert np.percentile(to_paper, 90) <= high <= np.percentile(to_paper, 100)
    assert ranked.loc["wide", "distance_low"] == pytest.approx(0.0, abs=1e-12)
    # the same draws every time
    again = gaps.ranking(table).set_index("variation")
    assert again.loc["paper_config", "distance_high"] == high


def test_the_conclusion_opens_with_its_bottom_line():
    from readings import gap_conclusion

    table = planted_gaps(
        {
            "paper_config": {FF: 1e-4, SINE: 1e-3, CONTEXT: 1e-4, DELTA: 0.1, DELTA_FF: 1.1},
            "near": {FF: 1.5e-2, SINE: 1e-2, CONTEXT: 1e-1, DELTA: 0.9, DELTA_FF: 1.05},
        },
        learned={("near", "sine"): 5},
    )
    text = gap_conclusion(gaps.ranking(table), table)
    bottom, table, rest = text.split("\n\n")
    assert bottom.startswith(
        "Bottom line: the paper config matches 1 of the paper's 2 Figure 2 effects (ΔFVU) "
        "within a factor 1.25 (flip-flop ΔFVU(−T_C→R) 1.1 against 1), at a distance of 0.52"
    )
    assert "The nearest variation, near (seeds 0, 1, 2), is at 0.03 [0.03, 0.03]" in bottom
    assert "nearer than the paper config beyond the seeds' spread" in bottom
    assert "The most effects matched, 2 each, by near. Under near: " in bottom
    assert "(but sine learned in 3 of 5)." in bottom
    # the numbers of Figure 2 in a table: paper, paper config, the closest and the nearest
    assert "| flip-flop full FVU | 0.01 | 0.0001 | near | 0.015 | 0.015 |" in table.splitlines()
    assert table.splitlines()[0].endswith("| its value | under near |")
    assert "(sine < flip-flop < context) is kept by near." in rest


def test_the_noise_floor_counts_the_paper_own_sampling_error():
    """The same seeds with the paper's SEM at 20 % of its value: an exact replication misses by
    more than with our spread alone."""
    per_seed = [0.9, 1.0, 1.1]
    table = planted_gaps({"paper_config": {DELTA: per_seed}})
    alone = gaps.noise_floor(table)
    with_sem = gaps.noise_floor(table.assign(paper_sem=0.2))
    assert with_sem[0] > alone[0] and with_sem[1] > alone[1]
