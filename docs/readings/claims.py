"""What the claims and the block profiles say, in sentences with their counts (the pages
under docs/results/ and the blocks of README and the docs pages)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.text import and_list
from rnnschur.report.page import BLOCK_NAMES
from rnnschur.studies.paper.claims import TASK_NAMES
from rnnschur.studies.verdicts import BLOCK_VERDICTS as VERDICTS
from rnnschur.studies.verdicts import DECIDED, Verdict, far_agreements

from .words import TOO_FEW
from .words import counted as _count

CLAIM_WORDS = (
    (Verdict.HOLDS, ("is met by the whole interval", "are met by the whole interval")),
    (Verdict.FAILS, ("is contradicted by it", "are contradicted by it")),
    (Verdict.EQUIVALENT, ("is a tie within its margin", "are ties within their margins")),
    (
        Verdict.UNDERPOWERED,
        ("is open with a detectable effect above θ", "are open with detectable effects above θ"),
    ),
    (Verdict.ON_THRESHOLD, ("is open with its mean near θ", "are open with their means near θ")),
    (
        Verdict.EMPTY,
        (
            "removes less than the mass floor",
            "remove less than the mass floor",
        ),
    ),
    (
        Verdict.TOO_FEW,
        ("has fewer learned models than the minimum", "have fewer learned models than the minimum"),
    ),
)
"""A claim's seed-mean verdict as the reading says it (``claims.csv``'s words stay in its
table: the pages set only the glossary's words)."""


def _claim_counts(rows: pd.DataFrame) -> str:
    counts = rows["verdict"].value_counts()
    parts = []
    for verdict, words in CLAIM_WORDS:
        n = int(counts.get(verdict, 0))
        if n:
            parts.append(f"{n} {words[0] if n == 1 else words[1]}")
    return and_list(parts)


def _interval(r) -> str:
    return f"{r.mean:.3g} [{r.ci_low:.3g}, {r.ci_high:.3g}]" if np.isfinite(r.ci_low) else "—"


def claims_reading(claims: pd.DataFrame) -> str:
    """What the claims table says over the seeds' mean (the secondary reading: its words stay
    in the table): the claims of the data by verdict, the claims true by construction or
    implied by another counted apart, and the paper's numbers inside or outside our interval,
    naming each outside, e.g. 'Over the seeds' mean (95 % t interval), of the 13 claims of the
    data tested, 9 are met by the whole interval, 1 is contradicted by it and 3 are open with
    detectable effects above θ. (…). The paper's value lies inside 4 of the 8 reproduced
    intervals it can be set beside and outside 4. Outside: sine S_ΔT(−T_C→R) > S_ΔT(−T_CC),
    0.58 [−0.6, 1.75] against the paper's 8.83 (…).'"""
    tested = claims[claims["n_trained"] > 0]
    if tested.empty:
        return "No claim of the paper was tested: the run trains none of their tasks."
    basis = tested["basis"] if "basis" in tested else pd.Series("data", index=tested.index)
    data = tested[basis == "data"]
    construction = tested[basis.str.startswith("by construction")]
    implied = tested[basis.str.startswith("implied by")]
    text = (
        f"Over the seeds' mean (95 % t interval), of the {_count(len(data), 'claim')} of the "
        f"data tested, {_claim_counts(data)}"
    )
    apart = []
    if len(construction):
        apart.append(
            f"{_count(len(construction), 'claim')} true by construction "
            f"({_claim_counts(construction)})"
        )
    if len(implied):
        apart.append(
            f"{_count(len(implied), 'claim')} implied by another ({_claim_counts(implied)})"
        )
    if apart:
        text += ". Counted apart, " + and_list(apart)
    text += "."
    if "agreement" in tested:
        compared = tested[tested["agreement"].isin([Verdict.AGREES, Verdict.DIFFERS])]
        differs = compared[compared["agreement"] == Verdict.DIFFERS]
        if len(compared):
            text += (
                f" The paper's value lies inside {len(compared) - len(differs)} of the "
                f"{len(compared)} reproduced intervals it can be set beside (or is equal "
                "within the paper's stated precision)"
            )
            if len(differs):
                text += f" and outside {len(differs)}"
            text += "."
            for r in differs.itertuples(index=False):  # one sentence each
                text += (
                    f" Outside: {TASK_NAMES.get(r.task, r.task)} {r.claim}, {_interval(r)} "
                    f"against the paper's {r.paper_value:.3g}."
                )
            far = far_agreements(compared, "mean")
            if len(far):
                text += (
                    f" Of those inside, {len(far)} are more than a factor of 2 off, inside only "
                    "because the interval is wide."
                )
            for r in far.itertuples(index=False):  # one sentence each
                text += (
                    f" Wide: {TASK_NAMES.get(r.task, r.task)} {r.claim}, {_interval(r)} "
                    f"against the paper's {r.paper_value:.3g}."
                )
            precision = compared.get("paper_precision", pd.Series(0.0, index=compared.index))
            near_zero = (compared["agreement"] == Verdict.AGREES) & (
                compared["paper_value"].abs() <= precision.fillna(0.0)
            )
            if near_zero.any():
                n = int(near_zero.sum())
                text += (
                    f" {n} more meet{'s' if n == 1 else ''} a paper value within its "
                    "printed precision of 0 (no factor to be off by)."
                )
    unlearned = tested[tested["n_learned"] < tested["n_trained"]]
    if len(unlearned):
        text += (
            f" {_count(len(unlearned), 'claim')} left out models that did not learn their task "
            f"({int((unlearned['n_trained'] - unlearned['n_learned']).sum())} model-claims)."
        )
    return text


def paper_reading_comparison(paper_readings: pd.DataFrame, profile: pd.DataFrame) -> str:
    """Our verdict of each block the paper reads (``paper_readings.csv``) beside the paper's
    reading, for its dense orthogonal models at its N_h (``block_profile.csv``; the largest N_h
    trained where a run has not the paper's). A block where they part is named by why: a
    *reversal* (both decided, opposite), *empty* here where the paper reads it harmless ("almost
    none": no mass to remove fits it), *undecided* here, or one the paper's own numbers leave
    undecided through the same rules (``verdict`` of ``paper_readings.csv``)."""
    same, parted = [], {"reversed": [], "empty": [], "undecided here": [], "paper undecided": []}
    for r in paper_readings.itertuples(index=False):
        rows = profile[
            (profile["task"] == r.task)
            & (profile["construction"] == "dense_orthogonal")
            & (profile["subset"] == r.block)
        ]
        if rows.empty:
            continue
        size = 72 if r.task == "copy" else 64
        ours = rows[rows["n_hidden"] == size] if (rows["n_hidden"] == size).any() else rows
        ours = ours.sort_values("n_hidden").iloc[-1]
        name = f"{TASK_NAMES.get(r.task, r.task)} {BLOCK_NAMES[r.block]}"
        if ours["verdict"] == r.paper_reading:
            same.append(name)
            continue
        share = "" if pd.isna(ours["harm_mean"]) else f", share {ours['harm_mean']:.2g}"
        item = f"{name} {ours['verdict']} here{share} (the paper: {r.paper_reading})"
        paper_own = getattr(r, "verdict", r.paper_reading)
        if paper_own not in (Verdict.FRAGILE, Verdict.HARMLESS):
            parted["paper undecided"].append(
                f"{item}, which the paper's own numbers leave {paper_own}"
            )
        elif ours["verdict"] == Verdict.EMPTY and r.paper_reading == Verdict.HARMLESS:
            parted["empty"].append(item)
        elif ours["verdict"] in (Verdict.FRAGILE, Verdict.HARMLESS, Verdict.IMPROVES):
            parted["reversed"].append(item)
        else:
            parted["undecided here"].append(item)
    n_parted = sum(len(v) for v in parted.values())
    if not same and not n_parted:
        return "No block the paper reads was trained here."
    text = (
        f"Against the paper's own readings of its dense orthogonal models: "
        f"{len(same)} of {len(same) + n_parted} blocks get the paper's verdict"
        + (f" ({and_list(same)})" if same else "")
        + "."
    )
    why = {
        "reversed": "reversed (both decided, opposite)",
        "empty": "empty here where the paper reads the block harmless (nothing to remove fits it)",
        "undecided here": "undecided here",
        "paper undecided": "left undecided by the paper's own numbers through the same rules",
    }
    for kind, items in parted.items():
        if items:  # the count, then one sentence each
            text += f" {len(items)} {why[kind]}."
            text += "".join(f" {item[0].upper()}{item[1:]}." for item in items)
    return text


def profile_reading(profile: pd.DataFrame, groups: str = "tasks") -> str:
    """Per coupling block, how many ``groups`` (rows of the block profile) call it what, e.g.
    '−T_C→R is fragile in 7 of 8 tasks (underpowered in 1).', and the groups whose models did
    not learn."""
    sentences = []
    for block, name in BLOCK_NAMES.items():
        rows = profile[profile["subset"] == block]
        if rows.empty:
            continue
        counts = rows["verdict"].value_counts()
        lead = max(DECIDED, key=lambda v: counts.get(v, 0))
        rest = [f"{v} in {int(counts[v])}" for v in VERDICTS if v != lead and counts.get(v, 0) > 0]
        sentence = f"{name} is {lead} in {int(counts.get(lead, 0))} of {len(rows)} {groups}"
        sentences.append(sentence + (f" ({', '.join(rest)})." if rest else "."))
    return " ".join([*sentences, unlearned_sentence(profile)]).strip()


def unlearned_sentence(profile: pd.DataFrame) -> str:
    """The groups of a block profile in which some models did not learn their task ('' where
    every model learned)."""
    if "n_learned" not in profile:
        return ""
    short = profile[profile["n_learned"] < profile["n_trained"]]
    if short.empty:
        return ""
    groups_short = short.drop_duplicates(["task", "construction", "n_hidden"])
    which = ", ".join(f"{r.task} {r.n_learned}/{r.n_trained}" for r in groups_short.itertuples())
    return (
        f"In {_count(len(groups_short), 'group')} some models did not learn their task "
        f"({which} learned); their verdicts count only those that did."
    )


def learned_readings(ablation: pd.DataFrame, block: str, alpha: float = 0.9) -> pd.Series:
    """The ``reading`` of removing ``block`` in each learned solution of ``ablation``
    (ablation.csv rows) at ``alpha``."""
    rows = ablation[
        (ablation["subset"] == block)
        & np.isclose(ablation["alpha"], alpha)
        & ablation["learned"].astype(bool)
    ]
    return rows["reading"]


def _rest(counts: pd.Series, lead: str) -> str:
    """' (stabilizer 3, undecided 1; 6 absent)': the readings of ``counts`` other than
    ``lead``, the absent ones apart; '' where there are none."""
    others = [f"{w} {int(n)}" for w, n in counts.items() if w not in (lead, Verdict.ABSENT) and n]
    absent = int(counts.get(Verdict.ABSENT, 0))
    rest = "; ".join(filter(None, [", ".join(others), f"{absent} absent" if absent else ""]))
    return f" ({rest})" if rest else ""


def solutions_reading(ablation: pd.DataFrame, alpha: float = 0.9) -> str:
    """Per coupling block, how the learned solutions of one run read it (ablation.csv's
    ``reading``), counted over the solutions where the block is present, the most common
    reading first and the absent ones apart, e.g. '−T_RR: fragile in 9 of 15 solutions
    (undecided 3, stabilizer 3; 24 absent).'"""
    sentences = []
    for block, name in BLOCK_NAMES.items():
        counts = learned_readings(ablation, block, alpha).value_counts()
        absent = int(counts.get(Verdict.ABSENT, 0))
        present = counts.drop(Verdict.ABSENT, errors="ignore")
        if present.empty:
            if absent:
                sentences.append(f"{name}: absent in all {absent} solutions.")
            continue
        lead = present.index[0]
        text = f"{name}: {lead} in {int(present.iloc[0])} of {int(present.sum())} solutions"
        sentences.append(text + _rest(counts, lead) + ".")
    return " ".join(sentences)


def families_reading(
    profiles: dict[str, pd.DataFrame], ablations: dict[str, pd.DataFrame], alpha: float = 0.9
) -> str:
    """Per coupling block, how many learned solutions of each network family read it fragile
    (``ablations``: ``{family: ablation.csv rows}``, their ``reading`` at ``alpha``; the
    solutions where the block is absent counted apart, the other readings named), e.g. '−T_RR
    reads fragile in 10 of 14 solutions as leaky tanh (stabilizer 3, undecided 1; 6 absent).',
    and the groups with too few
    learned models (``profiles``: ``{family: block profile}``)."""
    sentences = []
    for block, name in BLOCK_NAMES.items():
        parts = []
        for family, ablation in ablations.items():
            rows = learned_readings(ablation, block, alpha)
            if rows.empty:
                continue
            counts = rows.value_counts()
            present = len(rows) - int(counts.get(Verdict.ABSENT, 0))
            fragile = int(counts.get(Verdict.FRAGILE, 0))
            parts.append(f"{fragile} of {present} solutions as {family}" + _rest(counts, "fragile"))
        if parts:
            sentences.append(f"{name} reads fragile in {and_list(parts)}.")
    short = []
    for family, profile in profiles.items():
        rows = profile[profile["verdict"] == TOO_FEW].drop_duplicates("task")
        short += [f"{r.task} as {family} ({r.n_learned}/{r.n_trained})" for r in rows.itertuples()]
    if short:
        sentences.append(
            f"Too few models learned for a verdict ({and_list(short)} learned): those cells say so."
        )
    return " ".join(sentences)


def scale_reading(profile: pd.DataFrame, full: pd.DataFrame, memory: int = 64) -> str:
    """Per construction of the scale study: models learned and n_R (mean over the learned
    models, against the task's ``memory`` = s·d dimensions) at each N_h (``profile``:
    block_profile.csv; ``full``: the full model's ablation rows at α, with a ``learned``
    column); each block's seed-mean verdict per N_h stays in the table below it."""
    sentences = []
    for construction, rows in profile.groupby("construction", sort=True):
        sizes = sorted(rows["n_hidden"].unique())
        at = "at N_h = " + and_list([str(int(s)) for s in sizes])
        models = full[full["construction"] == construction]
        learned = [
            f"{int(models[models['n_hidden'] == s]['learned'].sum())}/"
            f"{int((models['n_hidden'] == s).sum())}"
            for s in sizes
        ]
        n_R = []
        for s in sizes:
            kept = models[(models["n_hidden"] == s) & models["learned"].astype(bool)]["n_R"]
            n_R.append(f"{kept.mean():.1f}" if len(kept) else "—")
        sentences.append(
            f"{construction}: {and_list(learned)} models learned {at}; n_R of the learned models "
            f"{', '.join(n_R)} (the task has {memory} dimensions of memory)."
        )
    return " ".join(sentences)
