"""What the gap study says, its bottom line first, in sentences with their counts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.text import and_list
from rnnschur.report.page import BLOCK_NAMES
from rnnschur.studies.paper.claims import TASK_NAMES

from .words import _times
from .words import counted as _count


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
        text += f" Full-model FVU, the paper config's against the paper's: {and_list(fvus)}."
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
        + (f" ({and_list(matched)})" if matched else "")
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
        text += f". The most effects matched, {most} each, by {and_list(tops)}"
        for top in tops:  # one sentence each
            text += f". Under {top}: {and_list(counts[top])}"
            short = gaps[(gaps["variation"] == top) & (gaps["n_seeds"] < gaps["n_trained"])]
            short = short.drop_duplicates("task")
            if len(short):
                learned = [
                    f"{r.task} learned in {r.n_seeds} of {r.n_trained}" for r in short.itertuples()
                ]
                text += f" (but {and_list(learned)})"
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
            f"the paper's: {and_list(remaining)}."
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
                + and_list(parts)
                + "."
            )
    ordered = ranking[ranking["fvu_order"] == "yes"]["variation"].tolist()
    text += (
        " The paper's order of full FVUs (sine < flip-flop < context) is kept by "
        + (and_list(ordered) if ordered else "no variation")
        + "."
    )
    copy = gaps[(gaps["task"] == "copy") & gaps["quantity"].isin(["n_R", "accuracy"])]
    copy = copy[(copy["quantity"] == "n_R") | (copy["subset"] == "T_CR")]
    parts = []
    for (_, quantity), rows in copy.groupby(["subset", "quantity"], sort=False):
        name = "n_R" if quantity == "n_R" else "−T_C→R accuracy"
        values = and_list([f"{r.variation} {r.mean:.3g}" for r in rows.itertuples(index=False)])
        parts.append(f"{name} paper {rows['paper_value'].iloc[0]:.3g}, {values}")
    if parts:
        text += f" Copy (Figure 1): {'; '.join(parts)}."
    return bottom_line + "\n\n" + table + "\n\n" + text.strip()
