"""The sentences that say what a table shows, on planted tables: every count is the table's."""

import numpy as np
import pandas as pd

from rnnschur import readings


def test_claims_reading_counts_each_verdict_and_the_seeds_needed():
    claims = pd.DataFrame(
        {
            "verdict": ["holds", "holds", "fails", "equivalent", "inconclusive", "inconclusive"]
            + ["not run"],
            "n_trained": [3, 3, 3, 3, 10, 10, 0],
            "n_learned": [3, 3, 3, 2, 10, 10, 0],
            "seeds_needed": [np.nan, np.nan, np.nan, np.nan, 28.0, np.inf, np.nan],
        }
    )
    text = readings.claims_reading(claims)
    assert text.startswith("Of the 6 claims tested, 2 hold, 1 fails, 1 is a tie within its")
    assert (
        "2 are inconclusive (at their observed spread they would need 28 and more than 10⁶" in text
    )
    assert "1 claim left out models that did not learn their task (1 model-claims)." in text


def test_profile_reading_says_where_each_block_is_fragile():
    rows = []
    for task, verdicts in {
        "a": ("inconclusive", "fragile", "harmless"),
        "b": ("empty", "fragile", "fragile"),
        "c": ("harmless", "inconclusive", "too few learned models"),
    }.items():
        for block, verdict in zip(("T_RR", "T_CR", "T_CC"), verdicts, strict=True):
            rows.append(
                {"task": task, "construction": "k", "n_hidden": 8, "subset": block}
                | {"verdict": verdict, "n_learned": 1 if task == "c" else 3, "n_trained": 3}
            )
    text = readings.profile_reading(pd.DataFrame(rows), "tasks")
    assert "−T_C→R is fragile in 2 of 3 tasks (inconclusive in 1)." in text
    assert "−T_RR is harmless in 1 of 3 tasks (inconclusive in 1, empty in 1)." in text
    assert "−T_CC is fragile in 1 of 3 tasks (harmless in 1, too few learned models in 1)." in text
    assert "In 1 group some models did not learn their task (c 1/3 learned)" in text
