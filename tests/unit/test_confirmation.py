"""The preregistered confirmation on planted tables: each outcome, the interval check and the
refusals (rnnschur.studies.paper.confirmation)."""

import numpy as np
import pandas as pd
import pytest
from readings import confirmation_lead

from rnnschur.studies.paper.confirmation import confirm, confirmation_markdown

LEVEL = 0.05


def fresh_row(claim_id, k, n, word, absent=0):
    """A fresh run's reproduction row; the exact interval of k = n (or k = 0) planted from its
    closed form: (α/2)^(1/n) is the lower end at k = n, 1 − (α/2)^(1/n) the upper at k = 0."""
    if n == 0:
        low = high = np.nan
    elif k == n:
        low, high = (LEVEL / 2) ** (1 / n), 1.0
    elif k == 0:
        low, high = 0.0, 1 - (LEVEL / 2) ** (1 / n)
    else:
        raise ValueError("plant k = 0 or k = n only")
    return {
        "claim_id": claim_id,
        "task": "copy",
        "construction": "dense_orthogonal",
        "n_hidden": 72,
        "claim": f"claim {claim_id}",
        "n_trained": n + absent,
        "n_learned": n + absent,
        "n_absent": absent,
        "n_tested": n,
        "n_undecided": 0,
        "k": k,
        "cp_low": low,
        "cp_high": high,
        "word": word,
    }


PREDICTIONS = pd.DataFrame(
    [
        # predicted 8/10 reproduces; fresh 10/10 reproduces, interval [0.025^0.1 = 0.69, 1]
        {"claim_id": "a", "predicted": "reproduces", "k": 8, "n": 10, "n_absent": 0},
        # predicted 5/10 partly; fresh 10/10 reproduces: another word, 0.5 below 0.69
        {"claim_id": "b", "predicted": "partly", "k": 5, "n": 10, "n_absent": 0},
        # predicted 0/12 does not reproduce; every fresh solution absent
        {"claim_id": "c", "predicted": "does not reproduce", "k": 0, "n": 12, "n_absent": 38},
        # predicted 4/50 does not reproduce; fresh 0/10 does not reproduce: 0.08 inside [0, 0.31]
        {"claim_id": "d", "predicted": "does not reproduce", "k": 4, "n": 50, "n_absent": 0},
    ]
)
FRESH = pd.DataFrame(
    [
        fresh_row("a", 10, 10, "reproduces"),
        fresh_row("b", 10, 10, "reproduces"),
        fresh_row("c", 0, 0, "untestable", absent=10),
        fresh_row("d", 0, 10, "does not reproduce"),
        fresh_row("e", 10, 10, "reproduces"),  # read, not predicted: not judged
    ]
)


def test_each_outcome_and_whether_the_predicted_fraction_lies_in_the_fresh_interval():
    table = confirm(PREDICTIONS, FRESH).set_index("claim_id")
    assert list(table.index) == ["a", "b", "c", "d"]
    assert table.loc["a", "outcome"] == "confirmed"
    assert table.loc["b", "outcome"] == "not confirmed"
    assert table.loc["c", "outcome"] == "untestable"
    assert table.loc["d", "outcome"] == "confirmed"
    assert table.loc["a", "consistent"] == True  # noqa: E712 (an object column)
    assert table.loc["b", "consistent"] == False  # noqa: E712
    assert pd.isna(table.loc["c", "consistent"])
    assert table.loc["d", "consistent"] == True  # noqa: E712
    assert table.loc["b", "predicted_k"] == 5 and table.loc["c", "predicted_absent"] == 38


def test_the_fraction_on_the_interval_edge_is_inside_and_just_beyond_it_is_not():
    n = 10
    edge = (LEVEL / 2) ** (1 / n)  # the fresh 10/10 interval's lower end
    for k_pred, inside in (
        (10, True),
        (7, True),
        (6, False),
    ):  # 1 = the upper end; 0.7 ≥ 0.6915 > 0.6
        predictions = pd.DataFrame(
            [{"claim_id": "a", "predicted": "reproduces", "k": k_pred, "n": n, "n_absent": 0}]
        )
        row = confirm(predictions, FRESH).iloc[0]
        assert (k_pred / n >= edge) == inside
        assert bool(row["consistent"]) == inside


def test_the_markdown_counts_the_outcomes_and_shows_each_claim():
    text = confirmation_markdown(confirm(PREDICTIONS, FRESH), LEVEL)
    assert text.splitlines()[0] == (
        "Of 4 predicted claims: 2 confirmed, 1 not confirmed, 1 untestable."
    )
    row_b = next(line for line in text.splitlines() if "claim b" in line)
    assert "partly (5/10)" in row_b and "**not confirmed**" in row_b and "| no |" in row_b
    row_c = next(line for line in text.splitlines() if "claim c" in line)
    assert "(0/12, 38 absent)" in row_c and "0/0 (10 absent)" in row_c


def test_a_predicted_claim_the_run_did_not_read_is_refused_by_name():
    predictions = pd.concat(
        [
            PREDICTIONS,
            pd.DataFrame([{"claim_id": "z", "predicted": "partly", "k": 1, "n": 2, "n_absent": 0}]),
        ]
    )
    with pytest.raises(ValueError, match=r"\['z'\]"):
        confirm(predictions, FRESH)
    with pytest.raises(ValueError, match="predicted"):
        confirm(PREDICTIONS.drop(columns="predicted"), FRESH)


def test_a_predictions_file_that_cannot_serve_is_refused_naming_the_key(tmp_path):
    from config_checks import ConfigError, check_predictions

    check_predictions(None)
    good = tmp_path / "predictions.csv"
    PREDICTIONS.to_csv(good, index=False)
    check_predictions(str(good))
    with pytest.raises(ConfigError, match="confirmation.predictions.*cannot be read"):
        check_predictions(str(tmp_path / "missing.csv"))
    bad = tmp_path / "bad.csv"
    PREDICTIONS.drop(columns="n_absent").to_csv(bad, index=False)
    with pytest.raises(ConfigError, match=r"confirmation.predictions.*\['n_absent'\]"):
        check_predictions(str(bad))


def test_the_published_predictions_name_every_claim_once_with_a_word():
    from pathlib import Path

    from rnnschur.studies.paper.claims import paper_claims
    from rnnschur.studies.verdicts import Verdict

    path = Path(__file__).parents[2] / "docs" / "predictions.csv"
    predictions = pd.read_csv(path)
    ids = {c.claim_id for c in paper_claims(0.02, 10)}
    assert set(predictions["claim_id"]) == ids and predictions["claim_id"].is_unique
    words = {Verdict.REPRODUCES, Verdict.PARTLY, Verdict.DOES_NOT, Verdict.UNTESTABLE}
    assert set(predictions["predicted"]) <= words
    assert (predictions["k"] <= predictions["n"]).all()


def test_the_lead_counts_what_held_and_names_what_did_not():
    table = confirm(PREDICTIONS, FRESH)
    text = confirmation_lead(table, "[the preregistration](p.md)")
    assert text.startswith(
        "**Confirmed on seeds no run had used** ([the preregistration](p.md), written before "
        "they were trained): 2 of 4 predicted words are confirmed on the fresh solutions, "
        "2 of the 4 claims that rest on data"
    )
    assert "copy's “claim b” (reproduces, 10/10; predicted partly, 5/10: nearer the paper)" in text
    assert "; 1 untestable (too few fresh solutions tested)." in text
    # a, d inside; b outside; c untestable: not judged
    assert "exact interval for 2 of 3 claims (0 of the 1 not confirmed)" in text
    by_construction = confirm(
        PREDICTIONS, FRESH.assign(basis=["data", "data", "data", "by construction", "data"])
    )
    assert "on the fresh solutions, 1 of the 3 claims that rest on data" in confirmation_lead(
        by_construction, "p"
    )


def test_a_fresh_word_from_fewer_solutions_than_a_word_needs_is_untestable():
    """One fresh solution tested (9 absent) reads untestable at min_models 3: the outcome is
    untestable, not a confirmation of a predicted 'does not reproduce' from 0/1."""
    predictions = pd.DataFrame(
        [{"claim_id": "f", "predicted": "does not reproduce", "k": 0, "n": 12, "n_absent": 38}]
    )
    fresh = pd.DataFrame([fresh_row("f", 0, 1, "untestable", absent=9)])
    row = confirm(predictions, fresh).set_index("claim_id").loc["f"]
    assert row["outcome"] == "untestable"
    assert pd.isna(row["consistent"])  # the interval of 0/1 (0–0.975) holds nearly anything
