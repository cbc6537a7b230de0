"""The preregistered confirmation: the published readings of the paper's claims, judged on
solutions trained from seeds no run had used (docs/preregistration.md).

The predictions (``docs/predictions.csv``) hold, per claim, the word and the counts k, n of the
exploratory run; the fresh run's :func:`rnnschur.studies.paper.reproduction.reproduction` table
holds the same claims read on the new solutions by the same rules. Per claim:

- *confirmed*: the fresh word is a word (enough fresh solutions tested,
  :func:`rnnschur.studies.paper.reproduction.claim_word`) and the predicted one;
- *not confirmed*: the fresh word is a word and differs;
- *untestable*: the fresh word is *untestable* (fewer fresh solutions tested than a word needs).

Beside it, not changing it: whether the exploratory fraction k/n lies inside the fresh
solutions' exact (Clopper–Pearson) interval (column ``consistent``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.text import table_lines
from rnnschur.studies.paper.reproduction import solutions_cell, task_cell
from rnnschur.studies.verdicts import Verdict

PREDICTION_COLUMNS = ("claim_id", "predicted", "k", "n", "n_absent")
"""The columns of a predictions file that the confirmation reads."""


def confirm(predictions: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    """One row per predicted claim (module docstring): the fresh run's reading of it (task,
    model, claim, k/n, interval, word), the prediction (word, k, n, absent) and the
    ``outcome``; ``consistent`` says whether the predicted fraction lies in the fresh interval
    (NaN where either n is 0). A predicted claim the fresh run did not read is refused."""
    missing = [c for c in PREDICTION_COLUMNS if c not in predictions]
    if missing:
        raise ValueError(f"the predictions lack the columns {missing}")
    rows = fresh.set_index("claim_id")
    unread = sorted(set(predictions["claim_id"]) - set(rows.index))
    if unread:
        raise ValueError(f"the fresh run did not read the predicted claims {unread}")
    out = []
    for p in predictions.itertuples(index=False):
        r = rows.loc[p.claim_id]
        if r["word"] == Verdict.UNTESTABLE:  # fewer tested than a word needs
            outcome = Verdict.UNTESTABLE
        else:
            outcome = Verdict.CONFIRMED if r["word"] == p.predicted else Verdict.NOT_CONFIRMED
        share = p.k / p.n if p.n else np.nan
        inside = bool(r["cp_low"] <= share <= r["cp_high"])
        out.append(
            {
                **{key: r[key] for key in ("task", "construction", "n_hidden", "claim")},
                "basis": r.get("basis", "data"),
                "claim_id": p.claim_id,
                "predicted": p.predicted,
                "predicted_k": p.k,
                "predicted_n": p.n,
                "predicted_absent": p.n_absent,
                **{
                    key: r[key]
                    for key in (
                        "n_trained",
                        "n_learned",
                        "n_absent",
                        "n_tested",
                        "n_undecided",
                        "k",
                        "cp_low",
                        "cp_high",
                        "word",
                    )
                },
                # judged only where both words are words: an untestable interval holds anything
                "consistent": inside if p.n and outcome != Verdict.UNTESTABLE else np.nan,
                "outcome": outcome,
            }
        )
    return pd.DataFrame(out)


def confirmation_markdown(table: pd.DataFrame, level: float = 0.05) -> str:
    """The confirmation table: per claim the task and model, the claim, the prediction (word,
    k/n), the fresh solutions' k/n, interval and word, whether the predicted fraction lies in
    it, and the outcome; a line of counts above it."""
    counts = table["outcome"].value_counts()
    said = ", ".join(
        f"{counts.get(word, 0)} {word}"
        for word in (Verdict.CONFIRMED, Verdict.NOT_CONFIRMED, Verdict.UNTESTABLE)
    )
    lines = [
        f"Of {len(table)} predicted claims: {said}.",
        "",
    ]
    header = [
        "task, model",
        "claim",
        "predicted (solutions showing it)",
        "fresh solutions showing it",
        f"{1 - level:.0%} interval of k/n",
        "fresh word",
        "predicted fraction inside",
        "outcome",
    ]
    rows = []
    for r in table.itertuples(index=False):
        fresh = solutions_cell(r)
        # three digits: an upper end of 0.9975 is not 1, which the inside column reads
        interval = "—" if np.isnan(r.cp_low) else f"{r.cp_low:.3f}–{r.cp_high:.3f}"
        absent = f", {r.predicted_absent} absent" if r.predicted_absent else ""
        inside = "—" if pd.isna(r.consistent) else ("yes" if r.consistent else "no")
        predicted = f"{r.predicted} ({r.predicted_k}/{r.predicted_n}{absent})"
        rows.append(
            [task_cell(r), r.claim, predicted, fresh, interval, r.word, inside, f"**{r.outcome}**"]
        )
    return "\n".join(lines + table_lines(header, rows)) + "\n"


CLAIM_WORDS = (Verdict.REPRODUCES, Verdict.PARTLY, Verdict.DOES_NOT)
"""The claim words from the paper's side to the other."""
