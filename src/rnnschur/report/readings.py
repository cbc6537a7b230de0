"""What a table says, in sentences generated from it with its numbers (docs/results.md and the
blocks of the README and the docs pages): the count behind every statement, so the words
cannot outrun the table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.ablation import label
from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.schur import COUPLING_BLOCKS
from rnnschur.studies.verdicts import BLOCK_VERDICTS as VERDICTS
from rnnschur.studies.verdicts import DECIDED, Verdict, far_agreements
from rnnschur.tasks import INSTANCE

TOO_FEW = Verdict.TOO_FEW
BLOCK_NAMES = {block: label(block) for block in COUPLING_BLOCKS}
TASK_NAMES = {"flip_flop": "flip-flop", "context_integration": "context"}


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


CLAIM_WORDS = (
    (Verdict.HOLDS, ("holds", "hold")),
    (Verdict.FAILS, ("fails", "fail")),
    (Verdict.EQUIVALENT, ("is a tie within its margin", "are ties within their margins")),
    (Verdict.UNDERPOWERED, ("is underpowered", "are underpowered")),
    (Verdict.ON_THRESHOLD, ("is on the threshold", "are on the threshold")),
    (
        Verdict.EMPTY,
        (
            "is empty (its block holds less than the mass floor)",
            "are empty (their blocks hold less than the mass floor)",
        ),
    ),
    (Verdict.TOO_FEW, ("has too few learned models", "have too few learned models")),
)


def _claim_counts(rows: pd.DataFrame) -> str:
    counts = rows["verdict"].value_counts()
    parts = []
    for verdict, words in CLAIM_WORDS:
        n = int(counts.get(verdict, 0))
        if n:
            parts.append(f"{n} {words[0] if n == 1 else words[1]}")
    return _join(parts)


def _interval(r) -> str:
    return f"{r.mean:.3g} [{r.ci_low:.3g}, {r.ci_high:.3g}]" if np.isfinite(r.ci_low) else "—"


def claims_reading(claims: pd.DataFrame) -> str:
    """What the claims table says: the claims of the data by verdict, the claims true by
    construction or implied by another counted apart, and the agreement with the paper's
    numbers, naming each that differs, e.g. 'Of the 13 claims of the data tested, 9 hold, 1
    fails and 3 are underpowered; 3 more are true by construction and 1 is implied by another
    claim. The paper's value agrees with 4 of the 8 reproduced values it can be set beside
    and differs from 4: sine S_ΔT(−T_C→R) > S_ΔT(−T_CC) 0.58 [−0.6, 1.75] against the paper's
    8.83 (…).'"""
    tested = claims[claims["n_trained"] > 0]
    if tested.empty:
        return "No claim of the paper was tested: the run trains none of their tasks."
    basis = tested["basis"] if "basis" in tested else pd.Series("data", index=tested.index)
    data = tested[basis == "data"]
    construction = tested[basis.str.startswith("by construction")]
    implied = tested[basis.str.startswith("implied by")]
    text = f"Of the {_count(len(data), 'claim')} of the data tested, {_claim_counts(data)}"
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
        text += "; counted apart, " + _join(apart)
    text += "."
    if "agreement" in tested:
        compared = tested[tested["agreement"].isin([Verdict.AGREES, Verdict.DIFFERS])]
        differs = compared[compared["agreement"] == Verdict.DIFFERS]
        if len(compared):
            text += (
                f" The paper's value agrees with {len(compared) - len(differs)} of the "
                f"{len(compared)} reproduced values it can be set beside (inside their interval "
                "or equal within the paper's stated precision)"
            )
            if len(differs):
                text += f" and differs from {len(differs)}"
            text += "."
            for r in differs.itertuples(index=False):  # one sentence each
                text += (
                    f" Differs: {TASK_NAMES.get(r.task, r.task)} {r.claim}, {_interval(r)} "
                    f"against the paper's {r.paper_value:.3g}."
                )
            far = far_agreements(compared, "mean")
            if len(far):
                text += (
                    f" Of the agreements, {len(far)} are more than a factor of 2 off, agreeing "
                    "only because the interval is wide."
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
                    f" {n} more agree{'s' if n == 1 else ''} with a paper value within its "
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
        + (f" ({_join(same)})" if same else "")
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


def _times(ratio: float) -> str:
    """A ratio to two significant digits, without an exponent (99, 7.7, 120)."""
    return format(float(f"{ratio:.2g}"), "g")


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def gap_reading(gaps: pd.DataFrame) -> str:
    """What the gap study shows (``gap_attribution.csv``): how many of the paper's numbers the
    paper config's seeds contain, how many a variation moves toward the paper or brings within
    its seeds' range, the variation that moves the most, and per task the full-model FVU
    against the paper's with the closest variation."""
    keys = ["task", "subset", "quantity"]
    base = gaps[gaps["variation"] == "paper_config"]
    others = gaps[gaps["variation"] != "paper_config"]
    n = len(base)
    toward = others[others["moves"] == "toward"]
    inside = toward[toward["paper_in_range"].astype(bool)]
    text = (
        f"Of the {n} numbers the paper reports, the paper config's seeds contain "
        f"{int(base['paper_in_range'].astype(bool).sum())}; for "
        f"{toward[keys].drop_duplicates().shape[0]} at least one variation moves the mean toward "
        f"the paper, and for {inside[keys].drop_duplicates().shape[0]} one brings the paper's "
        "value within its seeds' range."
    )
    if len(others):
        counts = others.groupby("variation", sort=False)["moves"].value_counts().unstack()
        counts = counts.reindex(columns=["toward", "away"]).fillna(0).astype(int)
        best = counts.sort_values(["toward", "away"], ascending=[False, True]).index[0]
        applies = int((others["variation"] == best).sum())
        text += (
            f" No variation moves every number toward the paper: the one that moves the most, "
            f"{best}, moves {counts.loc[best, 'toward']} of the {applies} it applies to toward "
            f"it and {counts.loc[best, 'away']} away."
        )
    fvus = []
    for r in base[base["quantity"] == "fvu"].itertuples(index=False):
        ratio = r.paper_value / r.mean
        words = f"{_times(ratio)}× lower" if ratio >= 1 else f"{_times(1 / ratio)}× higher"
        rivals = others[(others["task"] == r.task) & (others["quantity"] == "fvu")]
        rivals = rivals[rivals["subset"] == r.subset]
        closest = ""
        if len(rivals):
            c = rivals.loc[rivals["distance"].idxmin()]
            closest = f", closest {c['variation']} {c['mean']:.3g}"
        fvus.append(f"{r.task} {r.mean:.3g} against {r.paper_value:.3g} ({words}{closest})")
    if fvus:
        text += f" Full-model FVU, the paper config's against the paper's: {_join(fvus)}."
    return text


def _off(value: float, target: float) -> str:
    """'2.9× higher', '99× lower', 'equal' or 'of the wrong sign' against ``target``."""
    if not value > 0:
        return "of the wrong sign"
    ratio = value / target
    if _times(ratio) == "1":
        return "equal to two digits"
    return f"{_times(ratio)}× higher" if ratio > 1 else f"{_times(1 / ratio)}× lower"


def _number_name(task: str, subset: str, quantity: str) -> str:
    """E.g. 'sine S_ΔT(−T_C→R)', 'flip-flop full FVU'."""
    quantity_names = {"fvu": "FVU", "delta_fvu": "ΔFVU", "s_delta_t": "S_ΔT"}
    name = TASK_NAMES.get(task, task)
    if subset == "none":
        return f"{name} full {quantity_names.get(quantity, quantity)}"
    return f"{name} {quantity_names.get(quantity, quantity)}({BLOCK_NAMES.get(subset, subset)})"


MATCH = 1.25
"""A reproduced number within this factor of the paper's counts as matching it (a bottom line
sentence; the ranking itself is by distance)."""


def _matches(gaps: pd.DataFrame, variation: str) -> list[str]:
    """The Figure 2 effects a variation's mean matches within :data:`MATCH` of the paper's."""
    from rnnschur.studies.paper.gap_study import EFFECTS, FIGURE2_TASKS

    rows = gaps[
        (gaps["variation"] == variation)
        & gaps["task"].isin(FIGURE2_TASKS)
        & gaps["quantity"].isin(EFFECTS)
    ]
    return [
        f"{_number_name(r.task, r.subset, r.quantity)} {r.mean:.3g} against {r.paper_value:.3g}"
        for r in rows.itertuples(index=False)
        if r.mean > 0 and abs(np.log10(r.mean / r.paper_value)) <= np.log10(MATCH)
    ]


def gap_bottom_line(ranking: pd.DataFrame, gaps: pd.DataFrame) -> str:
    """The gap study's answer in one paragraph, first: how many Figure 2 effects the paper
    config matches and which stay off, whether the nearest variation is nearer than the seeds'
    noise allows to tell, and the variation that matches the most effects (with its tasks whose
    models did not all learn). Without the paper config's row (a run of some variations only),
    a sentence that says so."""
    from rnnschur.studies.paper.gap_study import BASELINE, EFFECTS, FIGURE2_TASKS

    if not (ranking["variation"] == BASELINE).any():
        return (
            f"Bottom line: none here, the run has no {BASELINE} row to measure the variations "
            "against (config gap_study.run)."
        )
    base = ranking[ranking["variation"] == BASELINE].iloc[0]
    effects = gaps[
        (gaps["variation"] == BASELINE)
        & gaps["task"].isin(FIGURE2_TASKS)
        & gaps["quantity"].isin(EFFECTS)
    ]
    matched = _matches(gaps, BASELINE)
    best = ranking.iloc[0]
    text = (
        f"Bottom line: the paper config matches {len(matched)} of the paper's "
        f"{len(effects)} Figure 2 effects (ΔFVU) within a factor {MATCH:g}"
        + (f" ({_join(matched)})" if matched else "")
        + f", at a distance of {base['distance']:.2f} decades "
        f"[{base['distance_low']:.2f}, {base['distance_high']:.2f}] against the "
        f"{base['noise_floor']:.2f} (95 % ≤ {base['noise_floor_95']:.2f}) by which an exact "
        "replication would miss by chance"
    )
    if best["variation"] != BASELINE:
        overlap = best["distance_high"] >= base["distance_low"]
        text += (
            f". The nearest variation, {best['variation']} (seeds {best['seeds']}), is at "
            f"{best['distance']:.2f} [{best['distance_low']:.2f}, {best['distance_high']:.2f}]"
            + (
                ": its interval overlaps the paper config's, so no variation is shown nearer"
                if overlap
                else ": nearer than the paper config beyond the seeds' spread"
            )
        )
    counts = {v: _matches(gaps, v) for v in ranking["variation"] if v != BASELINE}
    most = max((len(c) for c in counts.values()), default=0)
    if most > len(matched):
        tops = [v for v in ranking["variation"] if len(counts.get(v, [])) == most]
        text += f". The most effects matched, {most} each, by {_join(tops)}"
        for top in tops:  # one sentence each
            text += f". Under {top}: {_join(counts[top])}"
            short = gaps[(gaps["variation"] == top) & (gaps["n_seeds"] < gaps["n_trained"])]
            short = short.drop_duplicates("task")
            if len(short):
                learned = [
                    f"{r.task} learned in {r.n_seeds} of {r.n_trained}" for r in short.itertuples()
                ]
                text += f" (but {_join(learned)})"
    return text + "."


def gap_conclusion(ranking: pd.DataFrame, gaps: pd.DataFrame) -> str:
    """The gap study's answer, from ``gap_ranking.csv`` and ``gap_attribution.csv``: its bottom
    line (:func:`gap_bottom_line`); a table of the numbers of Figure 2, each with the paper's
    value, the paper config's, the variation that comes closest and the nearest variation's;
    then in short sentences the numbers no variation brings within a factor of 2, how the
    nearest variations move, whether any keeps the paper's order of full FVUs, and the copy
    task's n_R and −T_C→R accuracy under each variation of it."""
    from rnnschur.studies.paper.gap_study import BASELINE, FIGURE2_TASKS

    base = ranking[ranking["variation"] == BASELINE]
    if ranking.empty or base.empty:
        return "The gap study did not run."
    best = ranking.iloc[0]
    nearest = best["variation"] if best["variation"] != BASELINE else None
    bottom_line = gap_bottom_line(ranking, gaps)
    figure2 = gaps[gaps["task"].isin(FIGURE2_TASKS)]
    header = ["number", "paper", "paper config", "closest variation", "its value"]
    header += [f"under {nearest}"] if nearest else []
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    remaining, far_under_nearest, n_nearest = [], 0, 0
    for (task, subset, quantity), rows in figure2.groupby(
        ["task", "subset", "quantity"], sort=False
    ):
        name = _number_name(task, subset, quantity)
        paper_value = rows["paper_value"].iloc[0]
        ratio = np.abs(np.log10(rows["mean"].where(rows["mean"] > 0) / paper_value))
        own = rows[rows["variation"] == BASELINE]["mean"]
        cells = [name, f"{paper_value:.3g}", f"{own.iloc[0]:.3g}" if len(own) else "—"]
        if ratio.isna().all():
            remaining.append(name)
            cells += ["—", "—"]
        else:
            c = rows.loc[ratio.idxmin()]
            cells += [str(c["variation"]), f"{c['mean']:.3g}"]
            if ratio.min() > np.log10(2):
                remaining.append(f"{name} ({_off(c['mean'], paper_value)} at best)")
        if nearest:
            under = rows[rows["variation"] == nearest]["mean"]
            if len(under):
                value = float(under.iloc[0])
                n_nearest += 1
                within = value > 0 and abs(np.log10(value / paper_value)) <= np.log10(2)
                far_under_nearest += not within
                cells.append(f"{value:.3g}" + ("" if within else f" ({_off(value, paper_value)})"))
            else:
                cells.append("—")
        lines.append("| " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    if remaining:
        text = (
            f"No variation brings {_count(len(remaining), 'number')} within a factor of 2 of "
            f"the paper's: {_join(remaining)}."
        )
    else:
        n_variations = figure2["variation"].nunique() - 1
        text = (
            "Every number comes within a factor of 2 of the paper's under some variation: the "
            f"best of {n_variations} variations for each number, not one variation for all."
        )
    if nearest:
        text += (
            f" Under {nearest} itself, {_count(far_under_nearest, 'number')} of {n_nearest} "
            "stay more than a factor of 2 from the paper's (the table's last column)."
        )
    if "moves" in gaps:
        parts = []
        for r in ranking.head(6).itertuples(index=False):
            if r.variation == BASELINE:
                continue
            rows = figure2[figure2["variation"] == r.variation]
            toward = int((rows["moves"] == "toward").sum())
            away = int((rows["moves"] == "away").sum())
            parts.append(f"{r.variation} {toward} toward and {away} away")
        if parts:
            text += (
                " Of its numbers, each of the nearest moves (against the paper config): "
                + _join(parts)
                + "."
            )
    ordered = ranking[ranking["fvu_order"] == "yes"]["variation"].tolist()
    text += (
        " The paper's order of full FVUs (sine < flip-flop < context) is kept by "
        + (_join(ordered) if ordered else "no variation")
        + "."
    )
    copy = gaps[(gaps["task"] == "copy") & gaps["quantity"].isin(["n_R", "accuracy"])]
    copy = copy[(copy["quantity"] == "n_R") | (copy["subset"] == "T_CR")]
    parts = []
    for (_, quantity), rows in copy.groupby(["subset", "quantity"], sort=False):
        name = "n_R" if quantity == "n_R" else "−T_C→R accuracy"
        values = _join([f"{r.variation} {r.mean:.3g}" for r in rows.itertuples(index=False)])
        parts.append(f"{name} paper {rows['paper_value'].iloc[0]:.3g}, {values}")
    if parts:
        text += f" Copy (Figure 1): {'; '.join(parts)}."
    return bottom_line + "\n\n" + table + "\n\n" + text.strip()


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
            sentences.append(f"{name} reads fragile in {_join(parts)}.")
    short = []
    for family, profile in profiles.items():
        rows = profile[profile["verdict"] == TOO_FEW].drop_duplicates("task")
        short += [f"{r.task} as {family} ({r.n_learned}/{r.n_trained})" for r in rows.itertuples()]
    if short:
        sentences.append(
            f"Too few models learned for a verdict ({_join(short)} learned): those cells say so."
        )
    return " ".join(sentences)


def scale_reading(profile: pd.DataFrame, full: pd.DataFrame, memory: int = 64) -> str:
    """Per construction of the scale study: models learned, n_R (mean over the learned models,
    against the task's ``memory`` = s·d dimensions), then in a sentence of its own each block's
    verdict, at each N_h (``profile``: block_profile.csv; ``full``: the full model's ablation
    rows at α, with a ``learned`` column)."""
    sentences = []
    for construction, rows in profile.groupby("construction", sort=True):
        sizes = sorted(rows["n_hidden"].unique())
        at = "at N_h = " + _join([str(int(s)) for s in sizes])
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
        blocks = []
        for block, name in BLOCK_NAMES.items():
            verdicts = [
                rows[(rows["n_hidden"] == s) & (rows["subset"] == block)]["verdict"].iloc[0]
                for s in sizes
            ]
            blocks.append(f"{name} {', '.join(verdicts)}")
        sentences.append(
            f"{construction}: {_join(learned)} models learned {at}; n_R of the learned models "
            f"{', '.join(n_R)} (the task has {memory} dimensions of memory)."
        )
        sentences.append(f"Its verdicts per N_h: {'; '.join(blocks)}.")
    return " ".join(sentences)


def subspace_reading(summary: pd.DataFrame) -> str:
    """How often a random perturbation of the same norm and overlap explains an ablation's harm
    (``subspace_control_summary.csv``), per verdict, and on how many held-out trials."""
    n = int(summary["n_models"].sum())
    explained = int(summary["n_explained"].sum())
    saturated = int(summary["n_saturated"].sum()) if "n_saturated" in summary else 0
    rows = summary["verdict"].value_counts()
    text = (
        f"In {explained} of {n} model-ablations (block, subspace and side) an overlap-matched "
        "random perturbation of the same norm does as much harm, within the ratio (not both "
        "near chance): there the ablation's effect is as large as where it perturbs predicts."
    )
    if saturated:
        text += (
            f" In {saturated} more both are near chance (saturated: each takes at least "
            "80 % of the learned performance), where the harm cannot tell where a perturbation "
            "lies, only that it is large."
        )
    text += (
        " By row (the verdict of most seeds): "
        + _join([f"{v} {int(rows[v])}" for v in rows.index])
        + f" of {len(summary)}."
    )
    if "n_trials" in summary:
        trials, heldout = int(summary["n_trials"].min()), int(summary["n_heldout"].max())
        text += f" Scored on {trials} of the {heldout} held-out trials."
    return text


def refit_shares(summary: pd.DataFrame, control: bool = False) -> dict[tuple, float]:
    """Per (task, construction, N_h, block) of ``readout_refit_summary.csv``, the share of a
    single-block ablation's harm that a refit readout recovers: (fixed − refit) / (fixed − full)
    for an FVU, the same with the signs of an accuracy; only where the fixed readout loses more
    than 0.01 (below, there is no harm to recover). ``control``: the same of each ablation's
    control (a removal of its norm from the other blocks)."""
    fixed, refit = (
        ("control_fixed_score", "control_refit_score")
        if control
        else (
            "fixed_score",
            "refit_score",
        )
    )
    shares = {}
    keys = ["task", "construction", "n_hidden"]
    for (task, construction, size), rows in summary.groupby(keys, sort=False):
        full = rows[rows["subset"] == "none"]
        if full.empty or fixed not in rows:
            continue
        sign = 1.0 if rows["metric"].iloc[0] == "fvu" else -1.0
        base = float(full["fixed_score"].iloc[0])
        for r in rows[rows["subset"].isin(list(BLOCK_NAMES))].to_dict("records"):
            lost = sign * (r[fixed] - base)
            if lost > 0.01:
                shares[(task, construction, size, r["subset"])] = (
                    sign * (r[fixed] - r[refit]) / lost
                )
    return shares


def refit_reading(summary: pd.DataFrame) -> str:
    """How much of each single-block ablation's harm a refit readout recovers
    (:func:`refit_shares` of ``readout_refit_summary.csv``), and of its control's."""
    shares = refit_shares(summary)
    if not shares:
        return "No single-block ablation loses more than 0.01 with the fixed readout."
    parts = [(v, f"{t} {c} {BLOCK_NAMES[b]}") for (t, c, _, b), v in shares.items()]
    values = np.array(list(shares.values()))
    low, high = min(parts), max(parts)
    controls = {k: v for k, v in refit_shares(summary, control=True).items() if k in shares}
    return (
        f"A readout refit on the ablated network recovers a median {np.median(values):.0%} of "
        f"the harm of the {len(values)} single-block ablations that lose more than 0.01 "
        f"(least {low[0]:.0%}, {low[1]}; most {high[0]:.0%}, {high[1]})."
        + (
            " Above 100 %, the refit ablated network beats the full one's fixed readout."
            if high[0] > 1
            else ""
        )
        + (
            f" Its control, the same norm removed from the other blocks, loses more than 0.01 in "
            f"{len(controls)} of them, and a refit recovers a median "
            f"{np.median(list(controls.values())):.0%} there."
            if controls
            else " Its control, the same norm removed from the other blocks, loses more than "
            "0.01 in none of them."
        )
        + " What a refit does not recover is lost from the state itself, not only from the "
        "readout's alignment."
    )


ZERO_INPUT = "zero input"
"""The input condition every task has (``rnnschur.studies.fixed_points``); the others are cues."""


def fixed_point_groups(
    fates: pd.DataFrame, models: list[tuple], absent: frozenset = frozenset()
) -> pd.DataFrame:
    """Per model of ``models`` ((task, construction, N_h)), inputs (zero input, or the task's
    cues together) and block removed, over the learned solutions' ``fixed_points_fates.csv``
    rows, counted per (solution, input) pair. Of the intact networks: their pairs
    (``intact_pairs``), those with a stable point (``with_points``; ``stable_where``: their
    median number), the median number of stable points (``stable_intact``) and, for the sine
    task, the pairs oscillating (``oscillating_intact``). Of each removal, on the pairs whose
    block is present (``absent``: a set of (task, construction, N_h, seed, block) whose removal
    takes less than the mass floor and so changes nothing; ``absent`` counts those solutions):
    ``pairs``, the median number of stable points, the pairs with points where it keeps all,
    moves one or more, loses one or more (of ``tested``: the present pairs with points), the
    pairs with a new stable point, and for the sine
    task the pairs still oscillating and the median relative frequency error of those; the
    attractors beyond the points (:func:`_attractor_counts`; "—" in a table without them)."""
    from rnnschur.studies.beyond.summaries import OSCILLATING
    from rnnschur.studies.fixed_point_study import ATTRACTOR_COLUMNS

    # a table written before the attractors were counted reads "—" in their columns
    fates = fates.reindex(columns=list(dict.fromkeys([*fates.columns, *ATTRACTOR_COLUMNS])))
    keys = [*MODEL_KEYS, "condition"]
    rows = []
    for task, construction, size in models:
        mine = fates[
            (fates["task"] == task)
            & (fates["construction"] == construction)
            & (fates["n_hidden"] == size)
        ]
        for inputs, part in mine.groupby(mine["condition"] != ZERO_INPUT, sort=True):
            intact = part[part["ablation"] == "none"].set_index(keys)
            points = intact["n_stable"] > 0
            cued = intact["cued_frequency"].notna().any()
            common = {
                "task": task,
                "construction": construction,
                "n_hidden": size,
                "inputs": "cues" if inputs else ZERO_INPUT,
                "conditions": part["condition"].nunique(),
                "intact_pairs": len(intact),
                "with_points": int(points.sum()),
                "stable_intact": float(intact["n_stable"].median()),
                "stable_where": float(intact["n_stable"][points].median()) if points.any() else 0.0,
                "oscillating_intact": int((intact["amplitude"] > OSCILLATING).sum())
                if cued
                else np.nan,
                "attractors_intact": float(intact["n_attractors"].median()),
                "cycles_intact": float(intact["n_cycles"].median()),
                "oscillations_intact": float(intact["n_oscillations"].median()),
                "transitions_correct_intact": intact["transitions_correct_intact"].sum(min_count=1),
                "replay_periodic": intact["replay_periodic"].sum(min_count=1),
            }
            for block in BLOCK_NAMES:
                ablated = part[part["ablation"] == block]
                model = (task, construction, size)
                gone = ablated["seed"].map(lambda s, m=model, b=block: (*m, s, b) in absent)
                ablated = ablated[~gone.astype(bool)].set_index(keys)
                has = intact.loc[ablated.index, "n_stable"] > 0
                oscillates = ablated["amplitude"] > OSCILLATING
                error = (ablated["frequency"] - ablated["cued_frequency"]).abs() / ablated[
                    "cued_frequency"
                ]
                rows.append(
                    common
                    | {
                        "block": block,
                        "absent": int(part.loc[part["ablation"] == block, "seed"][gone].nunique()),
                        "pairs": len(ablated),
                        "stable": float(ablated["n_stable"].median()) if len(ablated) else np.nan,
                        "all_kept": int(
                            (has & (ablated["moved"] == 0) & (ablated["lost"] == 0)).sum()
                        ),
                        "tested": int(has.sum()),
                        "moved": int((has & (ablated["moved"] > 0)).sum()),
                        "lost": int((has & (ablated["lost"] > 0)).sum()),
                        "new": int((ablated["new"] > 0).sum()),
                        "oscillating": int(oscillates.sum()) if cued else np.nan,
                        "frequency_error": float(error[oscillates].median())
                        if cued and oscillates.any()
                        else np.nan,
                    }
                    | _attractor_counts(ablated)
                )
    return pd.DataFrame(rows)


def _attractor_counts(ablated: pd.DataFrame) -> dict:
    """Of one removal's (solution, input) pairs (their ``fate`` rows): the median number of
    attractors (points, cycles, oscillations; :mod:`rnnschur.studies.attractors`), the pairs whose
    removal keeps them all or loses one, and summed over the pairs the flip-flop's transitions
    (kept, of all, landing where the task says) and the copy task's replay orbits (of all,
    kept, drifted in phase, changed, collapsed to a point, lost)."""
    has = ablated["n_attractors"].notna()
    return {
        "attractors": float(ablated["n_attractors"].median()) if has.any() else np.nan,
        "attractors_all_kept": int(
            (has & (ablated["attractors_moved"] == 0) & (ablated["attractors_lost"] == 0)).sum()
        ),
        "attractors_lost": int((ablated["attractors_lost"] > 0).sum()),
    } | {
        k: ablated[k].sum(min_count=1)
        for k in (
            "transitions", "transitions_kept", "transitions_correct", "replay_trials",
            "replay_kept", "replay_drift", "replay_changed", "replay_collapse", "replay_lost",
            "replay_unsettled",
        )
    }  # fmt: skip


def _breaks(rows: pd.DataFrame) -> str:
    """' Of its 96 transitions between attractors (...), −T_C→R keeps 70 (66 right).' and ' Its
    replay, run on freely, settles on a cycle or an oscillation in 32 of 32 trials; kept /
    shifted in phase / collapsed to a point / other, per removal: −T_C→R 22/2/8/0.': what each
    removal breaks, from the zero input rows of :func:`fixed_point_groups` (empty where neither
    was measured)."""
    rows = rows[rows["pairs"] > 0]
    out = ""
    flips = rows[rows["transitions"].notna()]
    if len(flips):
        first = flips.iloc[0]
        each = [
            f"{BLOCK_NAMES[r.block]} keeps {r.transitions_kept:g} ({r.transitions_correct:g} right)"
            for r in flips.itertuples()
        ]
        out += (
            f" Of its {first['transitions']:g} transitions between attractors (each pulse from "
            f"each attractor; {first['transitions_correct_intact']:g} land right intact), "
            f"{_join(each)}."
        )
    replays = rows[rows["replay_trials"].notna()]
    if len(replays):
        first = replays.iloc[0]
        each = [
            f"{BLOCK_NAMES[r.block]} {r.replay_kept:g}/{r.replay_drift:g}/"
            f"{r.replay_collapse:g}/{r.replay_changed + r.replay_lost:g}"
            for r in replays.itertuples()
        ]
        out += (
            f" Its replay, run on freely, settles on a cycle or an oscillation in "
            f"{first['replay_periodic']:g} of {first['replay_trials']:g} trials; kept / shifted "
            f"in phase / collapsed to a point / other, per removal: {', '.join(each)}."
        )
    return out


def _model_name(task: str, construction: str, size: int) -> str:
    """'flip-flop, dense orthogonal (N_h = 64)'."""
    return f"{TASK_NAMES.get(task, task)}, {construction.replace('_', ' ')} (N_h = {size})"


def _pairs(n: int, conditions: int) -> str:
    """'3 solutions' under one input, '15 (solution, cue) pairs' under several."""
    return _count(n, "solution") if conditions == 1 else f"{n} (solution, cue) pairs"


def _fates(r) -> str:
    """'−T_C→R keeps them all in 1 and moves some in 2 (absent in 1)': the counts of one
    removal that are not 0."""
    if r.pairs == 0:
        return f"{BLOCK_NAMES[r.block]} is absent in every solution"
    counts = [("keeps them all", r.all_kept), ("moves some", r.moved), ("loses some", r.lost)]
    said = [f"{words} in {n}" for words, n in counts if n] or ["has nothing to keep"]
    absent = f" (absent in {r.absent})" if r.absent else ""
    return f"{BLOCK_NAMES[r.block]} " + " and ".join(said) + absent


def fixed_point_reading(groups: pd.DataFrame, refit: dict[tuple, float]) -> str:
    """Per model of :func:`fixed_point_groups`, in sentences: how many stable points its
    solutions hold under each input, what each block's removal does to them (kept, moved,
    lost, new) or to the sine task's oscillation, what it breaks (the flip-flop's transitions,
    the copy task's replay orbits: :func:`_breaks`), beside the share of the block's harm a
    refit readout recovers (``refit``: :func:`refit_shares`)."""
    out = []
    for (task, construction, size), model in groups.groupby(
        ["task", "construction", "n_hidden"], sort=False
    ):
        name = _model_name(task, construction, size)
        name = name[0].upper() + name[1:]
        parts = []
        for inputs, rows in model.groupby("inputs", sort=False):
            first = rows.iloc[0]
            n, conditions = int(first["intact_pairs"]), int(first["conditions"])
            where = "under zero input" if inputs == ZERO_INPUT else f"under its {conditions} cues"
            if first["with_points"] == 0:
                created = [f"{BLOCK_NAMES[r.block]} in {r.new}" for r in rows.itertuples() if r.new]
                text = f"{where}, no stable point in any of its {_pairs(n, conditions)}"
                if created:
                    text += f"; a removal creates one in {_join(created)}"
            else:
                text = (
                    f"{where}, stable points in {first['with_points']} of its "
                    f"{_pairs(n, conditions)} (a median {first['stable_where']:g} there); "
                    + "; ".join(_fates(r) for r in rows.itertuples())
                )
            if not np.isnan(first["oscillating_intact"]):
                text += f"; oscillating intact in {int(first['oscillating_intact'])} of {n}, "
                text += ", ".join(
                    f"with {BLOCK_NAMES[r.block]} removed in {int(r.oscillating)} of {r.pairs}"
                    for r in rows.itertuples()
                    if r.pairs
                )
            parts.append(text)
        recovered = [
            f"{refit[(task, construction, size, block)]:.0%} of {BLOCK_NAMES[block]}'s"
            for block in BLOCK_NAMES
            if (task, construction, size, block) in refit
        ]
        sentence = f"{name}: " + "; ".join(parts) + "."
        sentence += _breaks(model[model["inputs"] == ZERO_INPUT])
        if recovered:
            sentence += f" A refit readout recovers {_join(recovered)} harm."
        out.append(sentence)
    return " ".join(out)


def fixed_point_table(groups: pd.DataFrame, refit: dict[tuple, float]) -> str:
    """:func:`fixed_point_groups` as a Markdown table, one row per model, inputs and block,
    with the refit readout's recovered share of the block's harm."""
    lines = [
        "| task, model | inputs | removed | stable points, intact → ablated (median) | with "
        "stable points: all kept / moved / lost | new stable point | oscillating, intact → "
        "ablated | frequency error | attractors, intact → ablated (median) | attractors: all "
        "kept / lost some | flip-flop transitions kept | copy replay orbits: kept / drift / "
        "changed / collapse / lost | refit recovers |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in groups.itertuples(index=False):
        name = _model_name(r.task, r.construction, r.n_hidden)
        fates = f"{r.all_kept} / {r.moved} / {r.lost} of {r.tested}" if r.tested else "—"
        if r.pairs == 0:
            fates = f"absent in all {r.absent}"
        elif r.absent:
            fates += f" ({r.absent} absent)"
        oscillating = (
            "—"
            if np.isnan(r.oscillating_intact)
            else f"{r.oscillating_intact:g} of {r.intact_pairs} → {r.oscillating:g} of {r.pairs}"
        )
        error = "—" if np.isnan(r.frequency_error) else f"{r.frequency_error:.2f}"
        share = refit.get((r.task, r.construction, r.n_hidden, r.block))
        inputs = ZERO_INPUT if r.inputs == ZERO_INPUT else f"{r.conditions} cues"
        attractors = (
            "—"
            if np.isnan(r.attractors)
            else f"{r.attractors_intact:g} ({r.cycles_intact:g} cycles, "
            f"{r.oscillations_intact:g} oscillations) → {r.attractors:g}"
        )
        kept = (
            "—"
            if np.isnan(r.attractors)
            else f"{r.attractors_all_kept} / {r.attractors_lost} of {r.pairs}"
        )
        transitions = (
            "—"
            if np.isnan(r.transitions)
            else f"{r.transitions_kept:g} of {r.transitions:g} ({r.transitions_correct:g} right; "
            f"intact {r.transitions_correct_intact:g})"
        )
        replay = (
            "—"
            if np.isnan(r.replay_trials)
            else " / ".join(
                f"{getattr(r, f'replay_{o}'):g}"
                for o in ("kept", "drift", "changed", "collapse", "lost")
            )
            + f" of {r.replay_trials:g} ({r.replay_periodic:g} periodic intact"
            + (f", {r.replay_unsettled:g} not settled)" if r.replay_unsettled else ")")
        )
        lines.append(
            f"| {name} | {inputs} | {BLOCK_NAMES[r.block]} | {r.stable_intact:g} → "
            f"{'—' if np.isnan(r.stable) else f'{r.stable:g}'} | "
            f"{fates} | {r.new} of {r.pairs} | {oscillating} | {error} | {attractors} | {kept} | "
            f"{transitions} | {replay} | {'—' if share is None else f'{share:.0%}'} |"
        )
    return "\n".join(lines)


def basis_reading(summary: pd.DataFrame) -> str:
    """Schur against eigen coordinates (``basis_sensitivity_summary.csv``): the range of κ(V),
    the largest eigen-vs-Schur difference, the −T_C→R amplification through either basis."""
    where = summary.assign(name=summary["task"] + " " + summary["construction"])
    lo, hi = where.loc[where["kappa_V"].idxmin()], where.loc[where["kappa_V"].idxmax()]
    return (
        f"The eigenvector matrix's condition number κ(V) (median over seeds) runs from "
        f"{lo['kappa_V']:.3g} ({lo['name']}, N_h = {int(lo['n_hidden'])}) to {hi['kappa_V']:.3g} "
        f"({hi['name']}, N_h = {int(hi['n_hidden'])}). As a check of the code (the two routes "
        "build the same W̃ by construction, so this is no finding), the ablations through "
        f"eigen and Schur coordinates differ by at most "
        f"{summary['eigen_schur_difference'].max():.2g}; "
        f"−T_C→R amplifies a perturbation by {summary['schur_T_CR'].min():.3g}–"
        f"{summary['schur_T_CR'].max():.3g} through Schur coordinates against "
        f"{summary['eigen_T_CR'].min():.3g}–{summary['eigen_T_CR'].max():.3g} through eigen ones."
    )


def basis_dependence_reading(summary: pd.DataFrame) -> str:
    """What ``basis_dependence_summary.csv`` says at each task's largest N_h, per tolerance:
    where a T_RR or T_CC reading is basis-dependent (k of the solutions where the block is
    present, and the largest spread), and where no reading is."""
    from rnnschur.studies.verdicts import largest_size

    out = []
    for tolerance, rows in largest_size(summary).groupby("tolerance", sort=True):
        moved = rows[rows["n_basis_dependent"] > 0]
        parts = [
            f"{TASK_NAMES.get(r.task, r.task)} {r.construction} {BLOCK_NAMES[r.block]} in "
            f"{r.n_basis_dependent} of {r.n_models - r.n_absent} (spread up to {r.spread_max:.2g})"
            for r in moved.itertuples(index=False)
        ]
        where = f"With the moduli within {tolerance:g} ρ of each other taken as equal"
        if parts:
            out.append(f"{where}, a reading is basis-dependent in: {'; '.join(parts)}.")
        else:
            out.append(f"{where}, no T_RR or T_CC reading is basis-dependent.")
    return " ".join(out) + (
        " A basis-dependent reading depends on an order of the Schur modes that nothing in "
        "the network fixes: read it as one of several equally valid answers."
    )


def checkpoint_reading(summary: pd.DataFrame) -> str:
    """When training stops (``checkpoint_ablation_summary.csv``): per task and construction,
    each block's score at the first milestone checkpoint and at the kept (best) one."""
    sentences = []
    for (task, construction), rows in summary.groupby(["task", "construction"], sort=False):
        first = rows[rows["selection"] == "milestone"].head(1)
        best = rows[rows["selection"] == "best"].head(1)
        if first.empty or best.empty:
            continue
        f, b = first.iloc[0], best.iloc[0]
        blocks = [f"{BLOCK_NAMES[k]} {f[k]:.3g} → {b[k]:.3g}" for k in BLOCK_NAMES if k in summary]
        sentences.append(
            f"{task} {construction}: full {f['none']:.3g} at step {f['step']:.0f} (milestone "
            f"{f['selection_value']:g}) → {b['none']:.3g} at step {b['step']:.0f} (best); "
            + ", ".join(blocks)
            + "."
        )
    return (
        "Scores of the full and each ablated model, at the first milestone checkpoint → at the "
        "kept one: " + " ".join(sentences)
    )


def _task_label(task: str, construction: str, constructions: set[str]) -> str:
    """A task's name, with its construction where the atlas trains it with more than one."""
    return f"{task} ({construction})" if len(constructions) > 1 else task


CHANGES_SHOWN = 3
"""At most this many changed words (or tasks) are named in a sentence; more are counted."""


ATLAS_WORDS = (
    Verdict.FRAGILE,
    Verdict.STABILIZER,
    Verdict.UNDECIDED,
    Verdict.ABSENT,
    Verdict.TOO_FEW,
)
"""A row of the atlas's words, in the order the sentences count them."""
ROW_DECIDED = (Verdict.FRAGILE, Verdict.STABILIZER)
"""The words of a row whose solutions mostly read alike."""
ACROSS_WORDS = (
    Verdict.UNIVERSAL,
    Verdict.HARMLESS_ACROSS,
    Verdict.TASK_RESTRICTED,
    Verdict.UNDECIDED,
)
"""The words across tasks the sentences name, in order (*too few tasks* is left out)."""


def atlas_reading(atlas: pd.DataFrame, across: pd.DataFrame, tasks: pd.DataFrame) -> str:
    """What the coupling atlas (``atlas.csv``, its rows read solution by solution) says, in
    sentences with their counts: per block its words' tally over the groups and, from the task
    restriction (``across``, :func:`rnnschur.studies.restriction.restriction`, and its per-task
    counts ``tasks``, :func:`rnnschur.studies.restriction.task_readings`: each task's solutions
    counted, one family per description), the descriptions under which it is *universal*, *harmless
    across tasks*, *task-restricted* (naming the tasks mostly stabilizers, each with its counts) or
    *undecided*; the dose-response study's verdicts; how often a word changes between the
    first description and each other one, and between the sizes, for the same task; the groups
    whose models did not learn. A group is one task, construction, description and N_h."""
    if atlas.empty:
        return "The atlas has no rows: the run trained no model."
    out = []
    decided = atlas["verdict"].isin(ROW_DECIDED)
    out.append(
        f"Read solution by solution: {int(decided.sum())} of the {len(atlas)} rows are fragile "
        "or stabilizer (at least the config's share of their tested solutions read so)."
    )
    constructions = {t: set(rows["construction"]) for t, rows in atlas.groupby("task", sort=False)}
    atlas = atlas.assign(
        label=[
            _task_label(t, c, constructions[t])
            for t, c in zip(atlas["task"], atlas["construction"], strict=True)
        ]
    )
    for block, name in BLOCK_NAMES.items():
        rows = atlas[atlas["block"] == block]
        if rows.empty:
            continue
        counts = rows["verdict"].value_counts()
        tally = _join([f"{v} in {int(counts[v])}" for v in ATLAS_WORDS if counts.get(v, 0) > 0])
        sentence = f"{name}: {tally} of its {len(rows)} groups."
        words = _restriction_words(across[across["subset"] == block], tasks)
        out.append(sentence + (f" Across tasks, {words}." if words else ""))
    if "special" in atlas:  # the dose-response study's verdict of each row, counted
        parts = []
        for block, name in BLOCK_NAMES.items():
            counts = atlas.loc[atlas["block"] == block, "special"].value_counts()
            if len(counts):
                tally = ", ".join(f"{v} in {int(n)}" for v, n in counts.items())
                parts.append(f"{name} {tally} of {int(counts.sum())} groups")
        symmetric = int((atlas["special"] == Verdict.SYMMETRY).sum())
        out.append(
            "Special? The dose-response study sets each block against a removal of other "
            "couplings of its size: "
            + " ".join(f"{part}." for part in parts)
            + f" {symmetric or 'No'} group{'' if symmetric == 1 else 's'} a symmetry direction."
        )
    out += _atlas_changes(atlas, "description", "under", "as")
    out += _atlas_changes(atlas, "n_hidden", "at N_h =", "at N_h =")
    short = atlas[atlas["verdict"] == TOO_FEW].drop_duplicates(["label", "description", "n_hidden"])
    if len(short):
        which = [
            f"{r.label} · {r.description} · N_h {r.n_hidden} ({r.n_learned}/{r.n_trained})"
            for r in short.itertuples()
        ]
        n_groups = atlas.drop_duplicates(["label", "description", "n_hidden"]).shape[0]
        out.append(
            f"Too few models learned for a verdict in {len(short)} of the {n_groups} groups "
            f"({_join(which)} learned): their cells say so and enter no count above."
        )
    return "\n\n".join(out) + "\n"


def _restriction_words(across: pd.DataFrame, tasks: pd.DataFrame) -> str:
    """One block's words across tasks (the task restriction's, per description), each with
    the descriptions it holds under (with the construction where there are several); a
    task-restricted one names its tasks whose solutions are mostly stabilizers, each with its
    count from ``tasks`` (:func:`rnnschur.studies.restriction.task_readings`: stabilizers of the
    solutions tested, and those where the block is absent), and counts the tasks mostly
    fragile. Families of fewer than two tasks tested are left out."""
    kinds = across["construction"].nunique() > 1
    counts = tasks.set_index(["family", "construction", "subset", "task"])
    parts = []
    for word in ACROSS_WORDS:
        named = []
        for r in across[across["word"] == word].itertuples():
            name = (r.family or "the tasks as configured") + (
                f" ({r.construction})" if kinds else ""
            )
            if word == Verdict.TASK_RESTRICTED:
                stabilizers = []
                for task in r.stabilizer_in.split():
                    c = counts.loc[(r.family, r.construction, r.subset, task)]
                    absent = f", {c.n_absent} absent" if c.n_absent else ""
                    stabilizers.append(
                        f"{task.partition(INSTANCE)[0]} ({c.stabilizer} of {c.n_tested} "
                        f"tested{absent})"
                    )
                more = len(stabilizers) - CHANGES_SHOWN
                shown = stabilizers[:CHANGES_SHOWN] + ([f"{more} more"] if more > 0 else [])
                n_fragile = len(r.fragile_in.split())
                name += (
                    f" (mostly stabilizers: {_join(shown)}; mostly fragile: {n_fragile} "
                    f"task{'' if n_fragile == 1 else 's'})"
                )
            named.append(name)
        if named:
            parts.append(f"{word} under {_join(named)}")
    return "; ".join(parts)


def _atlas_changes(atlas: pd.DataFrame, column: str, before: str, after: str) -> list[str]:
    """Per value of ``column`` after the first (a description's key, or an N_h): for how many
    (task, block, other keys) fragile or stabilizer under both the word is the same as under
    the first value, which changed, and how many are so under one of the two only."""
    values = list(dict.fromkeys(atlas[column]))
    if len(values) < 2:
        return []
    others = [c for c in ("label", "description", "n_hidden") if c != column]
    decided = atlas[atlas["verdict"].isin(ROW_DECIDED)]
    first = decided[decided[column] == values[0]].set_index(others + ["block"])["verdict"]
    sentences = []
    for value in values[1:]:
        now = decided[decided[column] == value].set_index(others + ["block"])["verdict"]
        both = first.index.intersection(now.index)
        if len(both) == 0:
            sentences.append(
                f"No row is fragile or stabilizer both {before} {values[0]} and {after} {value}."
            )
            continue
        changed = [k for k in both if first[k] != now[k]]
        text = (
            f"{after.capitalize()} {value} against {values[0]}: {len(both) - len(changed)} of "
            f"the {len(both)} rows fragile or stabilizer under both keep their word, "
            f"{len(changed)} change"
        )
        if changed:
            shown = [f"{k[0]} {BLOCK_NAMES[k[-1]]} {first[k]} → {now[k]}" for k in changed]
            more = len(changed) - CHANGES_SHOWN
            text += (
                f" ({', '.join(shown[:CHANGES_SHOWN])}{f' and {more} more' if more > 0 else ''})"
            )
        kinds = set(first[both]) | set(now[both])
        if len(kinds) == 1:  # agreement where nothing else was decided compares little
            text += f", every one {kinds.pop()} under both"
        only_first = len(first.index.difference(now.index))
        only_now = len(now.index.difference(first.index))
        text += (
            f"; {only_first + only_now} more are so under one only ({only_first} {before} "
            f"{values[0]}, {only_now} {after} {value})"
        )
        sentences.append(text + ".")
    return sentences


DOSE_ORDER = (Verdict.LOAD_BEARING, Verdict.SYMMETRY, Verdict.MILDER, Verdict.LIKE_ANY)
DOSE_NAMED = 4
"""At most this many groups of one verdict are named in the sentence; more are counted."""


def _group_name(r) -> str:
    """'sine dense_orthogonal N_h = 64 −T_C→R': one group of a dose-response summary."""
    task = TASK_NAMES.get(r.task, r.task)
    return f"{task} {r.construction} N_h = {r.n_hidden} {BLOCK_NAMES[r.block]}"


def _operator_sentence(summary: pd.DataFrame) -> str:
    """How the groups whose block does more harm than the other couplings of its Frobenius norm
    fare against the other couplings of its operator norm (``excess_other_couplings_operator``,
    reported beside the verdict, not judged; a low-rank block has the larger operator norm of
    the two): in how many those do as much or more, naming them, and how the largest excess
    changes. Groups whose block is absent or whose models are too few are left out."""
    column = "excess_other_couplings_operator"
    if column not in summary:
        return ""
    judged = summary[~summary["verdict"].isin([Verdict.EMPTY, Verdict.TOO_FEW])]
    ahead = judged[judged["excess_other_couplings"] > 0]
    if ahead.empty:
        return ""
    lost = ahead[ahead[column] <= 0]
    top = ahead.loc[ahead["excess_other_couplings"].idxmax()]
    text = (
        f" Matched in operator norm instead of Frobenius norm (reported, not judged), the other "
        f"couplings do at least as much harm as the block in {len(lost)} of the {len(ahead)} "
        "groups whose block does more harm than those of its Frobenius norm"
    )
    if 0 < len(lost) <= DOSE_NAMED:
        text += " (" + _join([_group_name(r) for r in lost.itertuples()]) + ")"
    return text + (
        f"; the largest excess over the Frobenius-matched ones, {_group_name(top)}'s, is "
        f"{top['excess_other_couplings']:+.2g} and {top[column]:+.2g} over the "
        "operator-matched ones."
    )


def dose_reading(summary: pd.DataFrame) -> str:
    """What the dose-response summary says (``dose_response_summary.csv``): how many block
    groups are load-bearing, a symmetry direction, milder than or like any perturbation of
    their size, naming each group of a verdict (at most :data:`DOSE_NAMED`, else counted by
    task); how many no test decides, and why; where the block's full removal and its controls
    both take at least 80 % of the learned performance (saturated), where a verdict rests on
    the smaller doses; and how the blocks fare against the control matched in operator
    norm."""
    if summary.empty:
        return "No model learned its task: no block was judged against random perturbations."
    counts = summary["verdict"].value_counts()
    decided = [f"{v} {int(counts[v])}" for v in DOSE_ORDER if counts.get(v, 0)]
    others = [f"{v} {int(counts[v])}" for v in counts.index if v not in DOSE_ORDER]
    text = (
        f"Of {_count(len(summary), 'block group')} (task, network, N_h and block): "
        + (_join(decided) if decided else "none is decided")
        + (f"; the rest: {_join(others)}" if others else "")
        + ". Each is judged on its excess harm over random perturbations of the same norm, "
        "tested at every dose ε over the seeds against ±θ."
    )
    named = []
    for verdict in DOSE_ORDER:
        rows = summary[summary["verdict"] == verdict]
        if 0 < len(rows) <= DOSE_NAMED:
            items = [
                f"{TASK_NAMES.get(r.task, r.task)} {r.construction} N_h = {r.n_hidden} "
                f"{BLOCK_NAMES[r.block]} ({r.excess_mean:+.2g} "
                f"[{r.excess_ci_low:.2g}, {r.excess_ci_high:.2g}])"
                for r in rows.itertuples()
            ]
            named.append(f"{verdict}: " + _join(items))
        elif len(rows):  # a long list goes in the table; the sentence counts it by task
            tasks = rows["task"].value_counts()
            by_task = [f"{TASK_NAMES.get(t, t)} {int(n)}" for t, n in tasks.items()]
            named.append(f"{verdict}, by task: " + _join(by_task) + " (rows in the table)")
    for sentence in named:  # one sentence per verdict
        text += " " + sentence[0].upper() + sentence[1:] + "."
    text += _operator_sentence(summary)
    saturated = summary[(summary["harm_at_full"] >= 0.8) & (summary["control_harm_at_full"] >= 0.8)]
    if len(saturated):
        judged = int(saturated["verdict"].isin(DOSE_ORDER).sum())
        text += (
            f" In {_count(len(saturated), 'group')} the full removal and its controls both take "
            f"at least 80 % of the learned performance (saturated at full removal); {judged} of "
            "them have a verdict, which rests on the smaller doses."
        )
    return text
