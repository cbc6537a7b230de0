"""What a table says, in sentences generated from it with its numbers (docs/results.md and the
README's blocks): the count behind every statement, so the words cannot outrun the table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.learned import TOO_FEW

BLOCK_NAMES = {"T_RR": "−T_RR", "T_CR": "−T_C→R", "T_CC": "−T_CC"}
VERDICTS = ("fragile", "harmless", "inconclusive", "empty", TOO_FEW)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def claims_reading(claims: pd.DataFrame) -> str:
    """E.g. 'Of the 14 claims tested, 9 hold, 1 fails, 1 is a tie within its margin and 3 are
    inconclusive (the observed spread would need 28, 60 and more than 10⁶ seeds).'"""
    tested = claims[claims["n_trained"] > 0]
    if tested.empty:
        return "No claim of the paper was tested: the run trains none of their tasks."
    counts = tested["verdict"].value_counts()
    parts = []
    for verdict, words in (
        ("holds", ("holds", "hold")),
        ("fails", ("fails", "fail")),
        ("equivalent", ("is a tie within its margin", "are ties within their margins")),
        ("inconclusive", ("is inconclusive", "are inconclusive")),
        (TOO_FEW, ("has too few learned models", "have too few learned models")),
    ):
        n = int(counts.get(verdict, 0))
        if n:
            parts.append(f"{n} {words[0] if n == 1 else words[1]}")
    text = f"Of the {len(tested)} claims tested, " + _join(parts)
    open_ = tested[tested["verdict"] == "inconclusive"]
    if len(open_) and "seeds_needed" in open_:
        needed = [_seeds(v) for v in open_["seeds_needed"]]
        text += f" (at their observed spread they would need {_join(needed)} seeds)"
    unlearned = tested[tested["n_learned"] < tested["n_trained"]]
    text += "."
    if len(unlearned):
        text += (
            f" {_count(len(unlearned), 'claim')} left out models that did not learn their task "
            f"({int((unlearned['n_trained'] - unlearned['n_learned']).sum())} model-claims)."
        )
    return text


def profile_reading(profile: pd.DataFrame, groups: str = "tasks") -> str:
    """Per coupling block, how many ``groups`` (rows of the block profile) call it what, e.g.
    '−T_C→R is fragile in 7 of 8 tasks (inconclusive in 1).', and the groups whose models did
    not learn."""
    sentences = []
    for block, name in BLOCK_NAMES.items():
        rows = profile[profile["subset"] == block]
        if rows.empty:
            continue
        counts = rows["verdict"].value_counts()
        lead = max(("fragile", "harmless"), key=lambda v: counts.get(v, 0))
        rest = [f"{v} in {int(counts[v])}" for v in VERDICTS if v != lead and counts.get(v, 0) > 0]
        sentence = f"{name} is {lead} in {int(counts.get(lead, 0))} of {len(rows)} {groups}"
        sentences.append(sentence + (f" ({', '.join(rest)})." if rest else "."))
    if "n_learned" in profile:
        short = profile[profile["n_learned"] < profile["n_trained"]]
        if len(short):
            groups_short = short.drop_duplicates(["task", "construction", "n_hidden"])
            which = ", ".join(
                f"{r.task} {r.n_learned}/{r.n_trained}" for r in groups_short.itertuples()
            )
            sentences.append(
                f"In {_count(len(groups_short), 'group')} some models did not learn their task "
                f"({which} learned); their verdicts count only those that did."
            )
    return " ".join(sentences)


def _seeds(value: float) -> str:
    if not np.isfinite(value):
        return "more than 10⁶"
    return str(int(value))


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
