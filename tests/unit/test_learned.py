"""Learned or not, decided once: the criterion at its bounds, and a model that did not learn
entering no block verdict and no claim (planted tables)."""

import numpy as np
import pandas as pd
import pytest

from rnnschur.studies import learned
from rnnschur.studies.paper import claim_tests, claims
from rnnschur.studies.profile import block_profile
from rnnschur.studies.verdicts import Thresholds

CRITERION = {"fvu_max": 0.1, "chance_corrected_min": 0.5, "min_models": 3}  # config.yaml's
T = Thresholds()


@pytest.mark.parametrize(
    ("metric", "score", "expected"),
    [
        ("fvu", 0.1, True),  # on the bound
        ("fvu", np.nextafter(0.1, 1), False),  # just outside
        ("fvu", 0.0999, True),  # just inside
        ("fvu", np.nan, False),
        ("accuracy", 0.75, True),  # (0.75 − 1/2) / (1/2) = 0.5, on the bound
        ("accuracy", 0.7499, False),
        ("accuracy", 0.5, False),  # chance
        ("choice", 0.5, True),  # κ is chance-corrected already
        ("choice", 0.4999, False),
        ("choice", 0.0, False),  # a constant answer
    ],
)
def test_the_criterion_at_and_around_its_bounds(metric, score, expected):
    assert learned.has_learned(metric, score, CRITERION) is expected


def rows(task, metric, full_scores, harms, subsets=("T_RR", "T_CR", "T_CC")):
    """A planted ablation table: per seed the full score and one harm for every block."""
    out = []
    sign = 1 if metric == "fvu" else -1
    for seed, (full, harm) in enumerate(zip(full_scores, harms, strict=True)):
        base = dict(task=task, construction="dense_orthogonal", n_hidden=64, seed=seed, alpha=0.9)
        base |= dict(metric=metric, n_R=2, eps_stabilizer=False)
        out.append(base | dict(subset="none", score=full, delta_score=0.0, mass_removed=0.0))
        for subset in subsets:
            out.append(
                base
                | dict(subset=subset, score=full + sign * harm, delta_score=sign * harm)
                | dict(mass_removed=0.2, accuracy=np.nan, fvu=full + harm, delta_fvu=harm)
                | dict(s_delta_t=harm / 0.2)
            )
    return pd.DataFrame(out)


def test_a_model_that_did_not_learn_enters_no_block_verdict():
    # four flip-flop seeds; seed 3 never learned (FVU 0.9) and its ablation "harms" nothing
    table = rows("flip_flop", "fvu", [0.01, 0.02, 0.01, 0.9], [0.5, 0.6, 0.55, -0.5])
    table = learned.mark(table, {"flip_flop": CRITERION})
    assert table.groupby("seed")["learned"].first().tolist() == [True, True, True, False]
    profile = block_profile(table, 0.9, T).set_index("subset")
    assert (profile["n_trained"] == 4).all() and (profile["n_learned"] == 3).all()
    assert profile.loc["T_CR", "delta_mean"] == pytest.approx(0.55)  # seed 3 left out
    shares = [0.5 / 0.99, 0.6 / 0.98, 0.55 / 0.99]  # ΔFVU / (1 − FVU(W)) of seeds 0-2
    assert profile.loc["T_CR", "harm_mean"] == pytest.approx(np.mean(shares))
    assert profile.loc["T_CR", "verdict"] == "fragile"
    # two of them not learned: too few for any verdict, whatever the harms say
    worse = learned.mark(
        rows("flip_flop", "fvu", [0.01, 0.5, 0.01, 0.9], [0.5, 0.6, 0.55, 0.5]),
        {"flip_flop": CRITERION},
    )
    profile = block_profile(worse, 0.9, T).set_index("subset")
    assert set(profile["verdict"]) == {learned.TOO_FEW} and (profile["n_learned"] == 2).all()
    # ... unless the preset asks for fewer
    assert set(block_profile(worse, 0.9, T, min_models=2)["verdict"]) == {"fragile"}


def test_a_model_that_did_not_learn_enters_no_claim():
    """Sine's ΔFVU(−T_CC) and ΔFVU(−T_C→R) > 1: with an unlearned model it is too few."""
    ours = [c for c in claims.paper_claims(0.02, 10) if c.task == "sine"]
    table = rows("sine", "fvu", [0.001, 0.002, 0.95], [2.0, 2.2, 0.01])
    table = learned.mark(table, {"sine": CRITERION})
    result = claim_tests.evaluate_claims(table, ours, T)
    assert (result["n_trained"] == 3).all() and (result["n_learned"] == 2).all()
    assert set(result["verdict"]) == {learned.TOO_FEW}
    kept = claim_tests.evaluate_claims(table, ours, T, min_models=2)
    assert (kept["verdict"] != learned.TOO_FEW).all()
    assert all(set(r) == {0, 1} for r in kept["per_seed"])


def test_the_decision_is_made_once_and_joined():
    table = rows("copy", "accuracy", [0.99, 0.6], [0.1, 0.1])
    models = pd.DataFrame(
        {"task": "copy", "construction": "dense_orthogonal", "n_hidden": 64, "seed": [0, 1]}
    ).assign(learned=[True, False])
    joined = learned.join(table, models)
    assert joined.groupby("seed")["learned"].first().tolist() == [True, False]
    with pytest.raises(ValueError, match="models.csv lacks the models"):
        learned.join(table, models.iloc[:1])
