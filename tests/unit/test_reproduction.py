"""The paper's claims read solution by solution, on planted tables whose counts are known."""

import re

import numpy as np
import pandas as pd
import pytest
import readings
from scipy import stats
from test_claims import PAPER_LIKE, copy_rows, neuro_rows

from rnnschur.studies.paper import claims, reproduction
from rnnschur.studies.solutions import reading
from rnnschur.studies.stats import clopper_pearson
from rnnschur.studies.verdicts import Thresholds, Verdict, harm_share

THETA, FLOOR = 0.02, 0.01
WORDS = {"reproduces": 0.8, "does_not": 0.2, "min_models": 3}
CLAIMS = claims.paper_claims(THETA, 10.0)


def with_readings(frame):
    """Each row's reading planted from its own share (an interval of width 0) and mass."""
    share = harm_share(
        "fvu" if frame["metric"].iloc[0] == "fvu" else "accuracy",
        (frame["score"] - frame["delta_score"]).to_numpy(float),
        frame["score"].to_numpy(float),
    )
    frame = frame.assign(harm_low=share, harm_high=share, learned=True)
    frame["reading"] = [
        "" if s == "none" else reading(h, h, m, THETA, FLOOR)
        for s, h, m in zip(frame["subset"], share, frame["mass_removed"], strict=True)
    ]
    return frame


def table(frame):
    out = reproduction.reproduction(frame, CLAIMS, Thresholds(THETA, FLOOR), WORDS)
    return out.set_index("claim_id")


def test_a_block_absent_in_most_solutions_and_destructive_in_the_rest():
    """The 50-seed sine −T_RR: absent in 38 solutions, destroying the output in 12."""
    per_seed = {s: {"T_RR": (0.6 + 0.1 * s if s < 12 else 0.5, np.nan)} for s in range(50)}
    frame = neuro_rows("sine", per_seed)
    absent = (frame["seed"] >= 12) & (frame["subset"] == "T_RR")
    frame.loc[absent, "mass_removed"] = 0.0
    row = table(with_readings(frame)).loc["sine_T_RR_changes_little"]
    assert (row.n_learned, row.n_absent, row.n_tested, row.k) == (50, 38, 12, 0)
    assert row.word == Verdict.DOES_NOT
    assert reproduction.solutions_cell(row) == "0/12 (38 absent)"
    # the median of the 12 tested solutions (0.6, 0.7, ..., 1.7), not of the 38 absent ones
    assert row.ours.startswith("−T_RR ΔFVU 1.15 (0.6–1.7)")


def test_an_ordering_shows_only_beyond_its_tie_margin():
    def frame(gap):
        per_seed = {s: {"T_CR": (0.1 + gap, np.nan), "T_CC": (0.1, np.nan)} for s in range(5)}
        return with_readings(neuro_rows("flip_flop", per_seed))

    assert table(frame(THETA - 1e-3)).loc["flip_flop_T_CR_above_T_CC"].k == 0
    assert table(frame(THETA + 1e-3)).loc["flip_flop_T_CR_above_T_CC"].k == 5


def test_a_block_claim_reads_the_solutions_own_reading():
    per_seed = {0: {"T_CC": (0.3, np.nan)}, 1: {"T_CC": (0.001, np.nan)}}
    frame = with_readings(neuro_rows("flip_flop", per_seed))
    frame.loc[(frame["seed"] == 0) & (frame["subset"] == "T_CC"), "reading"] = "undecided"
    row = table(frame).loc["flip_flop_T_CC_harmful"]
    assert (row.k, row.n_tested, row.n_undecided) == (0, 2, 1)
    frame.loc[(frame["seed"] == 0) & (frame["subset"] == "T_CC"), "reading"] = "fragile"
    assert table(frame).loc["flip_flop_T_CC_harmful"].k == 1


def test_copy_solutions_like_the_papers_reproduce_its_readings():
    frame = with_readings(copy_rows("dense_orthogonal", {s: PAPER_LIKE for s in range(3)}))
    out = table(frame)
    assert out.loc["copy_T_CC_harmless"].word == Verdict.REPRODUCES
    assert out.loc["copy_T_CR_harmful"].word == Verdict.REPRODUCES
    assert out.loc["copy_T_CR_harmful"].paper == "−T_C→R acc 0.639"
    assert out.loc["copy_T_CR_harmful"].ours == "−T_C→R acc 0.639"


def test_unlearned_solutions_are_not_tested():
    frame = with_readings(copy_rows("dense_orthogonal", {s: PAPER_LIKE for s in range(3)}))
    frame["learned"] = frame["seed"] == 0
    row = table(frame).loc["copy_T_CC_harmless"]
    assert (row.n_trained, row.n_learned, row.n_tested) == (3, 1, 1)
    assert "1 of 3 learned" in reproduction.solutions_cell(row)
    frame["learned"] = False
    assert table(frame).loc["copy_T_CC_harmless"].word == Verdict.UNTESTABLE


@pytest.mark.parametrize(
    ("k", "n", "word"),
    [
        (8, 10, Verdict.REPRODUCES),
        (79, 100, Verdict.PARTLY),
        (21, 100, Verdict.PARTLY),
        (2, 10, Verdict.DOES_NOT),
        (0, 0, Verdict.UNTESTABLE),
        (3, 3, Verdict.REPRODUCES),
        (2, 3, Verdict.PARTLY),
        (2, 2, Verdict.UNTESTABLE),  # fewer than min_models tested: no word
        (1, 1, Verdict.UNTESTABLE),
    ],
)
def test_the_claim_word_at_its_bounds(k, n, word):
    assert reproduction.claim_word(k, n, **WORDS) == word


@pytest.mark.parametrize(("k", "n"), [(0, 3), (3, 3), (1, 3), (12, 50), (0, 50), (50, 50)])
def test_clopper_pearson_equals_scipy_exact_interval(k, n):
    expected = stats.binomtest(k, n).proportion_ci(0.95, method="exact")
    np.testing.assert_allclose(
        clopper_pearson(k, n, 0.05), (expected.low, expected.high), atol=1e-12
    )
    if k == 0:  # derived: the upper bound solves (1 − p)^n = level / 2
        assert clopper_pearson(k, n, 0.05)[1] == pytest.approx(1 - 0.025 ** (1 / n))


def test_the_one_screen_table_names_the_task_and_no_internal_id():
    frame = with_readings(copy_rows("dense_orthogonal", {s: PAPER_LIKE for s in range(3)}))
    frame = pd.concat([frame, with_readings(copy_rows("cayley", {0: PAPER_LIKE}))])
    text = reproduction.reproduction_markdown(table(frame).reset_index(), WORDS, "glossary.md")
    rows = [line for line in text.splitlines() if line.startswith("| copy")]
    assert len(rows) == len(table(frame)) and rows
    assert "dense_orthogonal" not in text and "_n_R_" not in text
    assert "at least 80%" in text
    # the claims no network could fail say so in their row, the implied one by which claim
    marked = {line.split(" | ")[1] for line in rows if "*(" in line}
    basis = {c.claim_id: c.basis for c in CLAIMS}
    assert len(marked) == sum(basis[i] != claims.DATA for i in table(frame).index)
    implied = next(c for c in CLAIMS if c.basis.startswith(claims.IMPLIED))
    source = next(c for c in CLAIMS if c.claim_id == implied.basis.removeprefix(claims.IMPLIED))
    assert f"{implied.words} *(implied by “{source.words}”)*" in marked
    assert "Cayley: every ablation is inert (less than θ of the learned accuracy) *(true by" in text


def planted_table(words, absent=0):
    """A one-screen table of claims with the given words (one solution each, 3 learned)."""
    return pd.DataFrame(
        {
            "claim_id": [f"c{i}" for i in range(len(words))],
            "task": "sine",
            "construction": "dense_orthogonal",
            "n_hidden": 64,
            "claim": [f"claim {i}: words" for i in range(len(words))],
            "paper": "p",
            "ours": "o",
            "meaning": "",
            "n_trained": 3,
            "n_learned": 3,
            "n_absent": absent,
            "n_tested": 3 - absent,
            "n_undecided": 0,
            "k": 0,
            "cp_low": 0.0,
            "cp_high": 1.0,
            "word": words,
        }
    )


def test_the_lead_counts_apart_the_claims_no_network_could_fail():
    R, D = Verdict.REPRODUCES, Verdict.DOES_NOT
    table = planted_table([R, R, R, D]).assign(basis=["data", "by construction", "implied", "data"])
    text = readings.lead({"3 seeds": table})
    assert text.startswith(
        "Of the 4 claims read at 3 seeds, 3 reproduce (2 of them true by construction or "
        "implied by another claim) and 1 does not reproduce."
    )


def test_table1_claims_quote_table1_and_the_others_their_first_mention():
    by_id = {c.claim_id: c for c in CLAIMS}
    table1 = by_id["table1_dense_orthogonal_scores_constant"]
    assert reproduction.printed_value(table1, "T_CR", "accuracy") == "0.634"  # Table 1
    assert reproduction.printed_value(by_id["copy_T_CR_harmful"], "T_CR", "accuracy") == "0.639"
    assert reproduction.printed_value(by_id["sine_T_RR_changes_little"], "T_RR", "delta_fvu") == (
        "little"
    )


def test_the_lead_counts_each_runs_words_and_names_what_never_reproduces():
    R, P, D, U = Verdict.REPRODUCES, Verdict.PARTLY, Verdict.DOES_NOT, Verdict.UNTESTABLE
    three = planted_table([R, D, D, U])
    fifty = planted_table([R, P, D, U])
    text = readings.lead({"3 seeds": three, "50 seeds": fifty})
    assert text.startswith(
        "Of the 4 claims read at 3 seeds, 1 reproduces, 2 do not reproduce and 1 is untestable."
    )
    assert "Of the 4 claims read at 50 seeds, 1 reproduces, 1 reproduces partly, 1 does not" in text
    # c2 does not reproduce in either run; c1 reproduces partly at 50 seeds; c3 is untestable
    assert "No run reproduces sine's “claim 2”." in text
    assert "absent" not in text
    assert len(re.findall(r"\. ", text)) + 1 <= 5
    absent = readings.lead({"50 seeds": planted_table([D], absent=2)})
    assert (
        "Absent (below the mass floor): the block in 2 of 3 solutions for sine's “claim 0”"
        in absent
    )


def test_side_by_side_keeps_a_group_of_columns_per_run():
    R, D = Verdict.REPRODUCES, Verdict.DOES_NOT
    text = readings.side_by_side({"a": planted_table([R, D]), "b": planted_table([D])})
    lines = text.splitlines()
    assert lines[0].count("|") == 3 + 3 * 2 + 1
    assert lines[2].endswith("**reproduces** | o | 0/3 | **does not reproduce** |")
    assert lines[3].endswith("**does not reproduce** | — | — | — |")


def test_what_the_harm_means_is_the_median_functional_score_of_the_claims_ablations():
    per_seed = {s: {"T_CR": (0.5, np.nan), "T_CC": (0.01, np.nan)} for s in range(3)}
    frame = with_readings(neuro_rows("flip_flop", per_seed))
    bits = {"none": 1.0, "T_CR": 0.7, "T_CC": 0.99}
    frame["functional_score"] = "bit accuracy"
    frame["functional"] = [
        bits.get(s, np.nan) + 0.01 * seed
        for s, seed in zip(frame["subset"], frame["seed"], strict=True)
    ]
    row = table(frame).loc["flip_flop_T_CR_above_T_CC"]
    assert row.meaning == "bit accuracy: full 1.01, −T_C→R 0.71, −T_CC 1"
    assert table(with_readings(copy_rows("cayley", {0: PAPER_LIKE}))).iloc[0].meaning == ""


def basis_rows(task, construction, n_hidden, readings):
    """basis_dependence_models rows at one tolerance: ``readings`` maps seed → {block: word}."""
    return pd.DataFrame(
        [
            {"task": task, "construction": construction, "n_hidden": n_hidden, "seed": seed}
            | {"tolerance": 1e-3, "block": block, "reading": word}
            for seed, blocks in readings.items()
            for block, word in blocks.items()
        ]
    )


def test_solutions_whose_t_rr_or_t_cc_reading_hangs_on_an_order_are_named():
    frame = with_readings(copy_rows("dense_orthogonal", {s: PAPER_LIKE for s in range(3)}))
    planted = {0: {"T_RR": "basis-dependent", "T_CC": "—"}, 1: {"T_RR": "—", "T_CC": "—"}}
    planted[2] = {"T_RR": "—", "T_CC": "basis-dependent"}
    basis = basis_rows("copy", "dense_orthogonal", 72, planted)
    out = reproduction.reproduction(frame, CLAIMS, Thresholds(THETA, FLOOR), WORDS, basis)
    out = out.set_index("claim_id")
    # "between" reads −T_RR and −T_CC: seeds 0 and 2; "harmless" reads −T_CC alone: seed 2;
    # −T_C→R does not hang on an order inside R or C: none
    assert out.loc["copy_T_RR_between", "n_basis_dependent"] == 2
    assert out.loc["copy_T_CC_harmless", "n_basis_dependent"] == 1
    assert out.loc["copy_T_CR_harmful", "n_basis_dependent"] == 0
    # the count is beside k/n, and k/n itself reads the canonical order
    row = out.loc["copy_T_RR_between"]
    assert reproduction.solutions_cell(row) == f"{row.k}/3 (2 basis-dependent)"
    # another model's rows are not this claim's
    other = basis_rows("copy", "dense_orthogonal", 64, planted)
    unchecked = reproduction.reproduction(frame, CLAIMS, Thresholds(THETA, FLOOR), WORDS, other)
    unchecked = unchecked.set_index("claim_id").loc["copy_T_RR_between"]
    assert (unchecked.n_basis_dependent, unchecked.n_basis_checked) == (0, 0)
    # some solutions checked: the count says of how many
    part = basis[basis["seed"] == 0]
    partly = reproduction.reproduction(frame, CLAIMS, Thresholds(THETA, FLOOR), WORDS, part)
    row = partly.set_index("claim_id").loc["copy_T_RR_between"]
    assert reproduction.solutions_cell(row) == f"{row.k}/3 (1 basis-dependent of 1 checked)"
    # not checked: none counted for the claims that read T_RR or T_CC, and no name beside k/n
    plain = table(frame)
    assert not plain["basis_checked"].any() and out["basis_checked"].all()
    assert plain.loc["copy_T_RR_between", "n_basis_checked"] == 0
    assert plain.loc["copy_T_CR_harmful", "n_basis_checked"] == 3
    assert "basis" not in reproduction.solutions_cell(plain.loc["copy_T_RR_between"])
    text = reproduction.reproduction_markdown(out.reset_index(), WORDS, "g", 0.05, 1e-3)
    assert "within 0.001·ρ" in text and "(2 basis-dependent)" in text


def test_per_task_counts_what_reproduces_and_names_what_does_not():
    """Planted one-screen rows: copy 2 of 3 reproduce (one by construction; two are few enough
    to name), one partly with a block absent in 2; sine two partly, named together."""
    rows = [
        ("copy", "a: words", "reproduces", "data", 3, 3, 0),
        ("copy", "b (paper)", "reproduces", "by construction", 3, 3, 0),
        ("copy", "c", "partly", "data", 1, 2, 2),
        ("sine", "d", "partly", "data", 5, 10, 0),
        ("sine", "e", "partly", "data", 6, 10, 0),
    ]
    table = pd.DataFrame(
        rows, columns=["task", "claim", "word", "basis", "k", "n_tested", "n_absent"]
    ).assign(block="T_RR")
    text = readings.per_task(table, "10 seeds")
    assert text.splitlines() == [
        "**Per task, at 10 seeds:**",
        "- **copy**: 2 of 3 claims reproduce (1 by construction or implied): “a” (3/3) and “b” "
        "(3/3); partly: “c” (1/2, T_RR absent in 2).",
        "- **sine**: 0 of 2 claims reproduce; partly: “d” (5/10) and “e” (6/10).",
    ]


def test_a_word_from_fewer_solutions_than_min_models_is_untestable():
    """Three learned sine solutions, T_RR present in one only: 0/1 is no word at min_models 3,
    a word at min_models 1."""
    per_seed = {s: {"T_RR": (0.9, np.nan)} for s in range(3)}
    frame = neuro_rows("sine", per_seed)
    frame.loc[(frame["seed"] > 0) & (frame["subset"] == "T_RR"), "mass_removed"] = 0.0
    frame = with_readings(frame)
    row = table(frame).loc["sine_T_RR_changes_little"]
    assert (row.n_tested, row.k, row.word) == (1, 0, Verdict.UNTESTABLE)
    one = reproduction.reproduction(
        frame, CLAIMS, Thresholds(THETA, FLOOR), WORDS | {"min_models": 1}
    )
    assert one.set_index("claim_id").loc["sine_T_RR_changes_little", "word"] == Verdict.DOES_NOT


def planted_intervals(frame, harm, mass):
    """``frame`` with every T_RR row's harm interval [harm, harm] and mass planted."""
    frame = with_readings(frame)
    rr = frame["subset"] == "T_RR"
    frame.loc[rr, ["harm_low", "harm_high", "mass_removed"]] = [harm, harm, mass]
    return frame


def test_the_words_move_with_theta_and_the_mass_floor_where_planted():
    """Sine −T_RR planted with a harm share of 0.015 in four solutions, holding 0.007 of the
    mass: absent at the floor 0.01 (untestable); at the floor 0.005 tested and within θ = 0.02
    (reproduces); at θ = 0.01 fragile (does not reproduce); the other claims keep their word."""
    per_seed = {
        s: {"T_RR": (0.015, np.nan), "T_CC": (2.0, np.nan), "T_CR": (1.5, np.nan)} for s in range(4)
    }
    frame = planted_intervals(neuro_rows("sine", per_seed), 0.015, 0.007)
    ablation = frame.drop(columns="reading").assign(reading="stale")  # re-read, not reused
    moved = reproduction.word_sensitivity(
        ablation.assign(reading=frame["reading"]),
        lambda theta: claims.paper_claims(theta, 10.0),
        Thresholds(THETA, FLOOR),
        WORDS,
    ).set_index("claim_id")
    row = moved.loc["sine_T_RR_changes_little"]
    assert row["as configured"] == Verdict.UNTESTABLE
    assert row["mass floor = 0.005"] == Verdict.REPRODUCES
    assert row["mass floor = 0.02"] == Verdict.UNTESTABLE
    assert row["θ = 0.01"] == Verdict.UNTESTABLE  # still absent at the configured floor
    assert row["moves"]
    assert not moved.drop(index="sine_T_RR_changes_little")["moves"].any()
    # at the floor 0.005, θ halved as well: fragile (0.015 > 0.01), the claim fails
    t = Thresholds(THETA / 2, FLOOR / 2)
    again = reproduction.reproduction(
        reproduction.reread(ablation, t.threshold, t.mass_floor),
        claims.paper_claims(t.threshold, 10.0),
        t,
        WORDS,
    ).set_index("claim_id")
    assert again.loc["sine_T_RR_changes_little", "word"] == Verdict.DOES_NOT


def test_reread_makes_each_reading_again_and_keeps_the_intact_rows():
    frame = planted_intervals(neuro_rows("sine", {0: {"T_RR": (0.015, np.nan)}}), 0.015, 0.007)
    again = reproduction.reread(frame.assign(reading="stale"), 0.01, 0.005)
    by = again.set_index("subset")["reading"]
    assert by["T_RR"] == Verdict.FRAGILE and by["none"] == "stale"
    assert reproduction.reread(frame, 0.02, 0.01).set_index("subset").loc["T_RR", "reading"] == (
        Verdict.ABSENT
    )


def test_a_run_of_no_model_a_claim_is_about_has_an_empty_sensitivity_table():
    """The atlas trains none of the paper's models: no claim, no row, and no error."""
    frame = with_readings(neuro_rows("sine", {0: {"T_RR": (0.1, np.nan)}}))
    frame = frame.assign(task="other_task")
    moved = reproduction.word_sensitivity(
        frame, lambda theta: claims.paper_claims(theta, 10.0), Thresholds(THETA, FLOOR), WORDS
    )
    assert moved.empty and {"task", "claim_id", "moves"} <= set(moved.columns)
