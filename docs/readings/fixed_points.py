"""What the ablations do to the attractors, in sentences with their counts, and its table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.io.text import and_list
from rnnschur.report.page import BLOCK_NAMES
from rnnschur.studies.paper.claims import TASK_NAMES

from .words import counted as _count

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
    """' Of its 96 transitions between attractors (...), −T_C→R keeps 70 (66 correct).' and
    ' Its replay, run on freely, settles on a cycle or an oscillation in 32 of 32 trials; of the
    32 compared, the ablated replay is kept / drifts / ... in, per removal: −T_C→R
    22/2/0/8/0.': what each
    removal breaks, from the zero input rows of :func:`fixed_point_groups` (empty where neither
    was measured)."""
    rows = rows[rows["pairs"] > 0]
    out = ""
    flips = rows[rows["transitions"].notna()]
    if len(flips):
        first = flips.iloc[0]
        each = [
            f"{BLOCK_NAMES[r.block]} keeps {r.transitions_kept:g} "
            f"({r.transitions_correct:g} correct)"
            for r in flips.itertuples()
        ]
        out += (
            f" Of its {first['transitions']:g} transitions between attractors (each pulse from "
            f"each attractor; {first['transitions_correct_intact']:g} correct intact), "
            f"{and_list(each)}."
        )
    replays = rows[rows["replay_trials"].notna()]
    if len(replays):
        first = replays.iloc[0]
        each = [
            f"{BLOCK_NAMES[r.block]} {r.replay_kept:g}/{r.replay_drift:g}/"
            f"{r.replay_changed:g}/{r.replay_collapse:g}/{r.replay_lost:g}"
            for r in replays.itertuples()
        ]
        unsettled = float(np.nan_to_num(first.get("replay_unsettled", 0)))  # NaN: none
        compared = first["replay_trials"] - unsettled
        rest = (
            f" ({unsettled:g} settle on nothing within the free run and are not compared)"
            if unsettled > 0
            else ""
        )
        out += (
            f" Its replay, run on freely, settles on a cycle or an oscillation in "
            f"{first['replay_periodic']:g} of {first['replay_trials']:g} trials{rest}; of the "
            f"{compared:g} compared, the ablated replay is kept / drifts / changes / collapses / "
            f"is lost in, per removal: {', '.join(each)}."
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
                    text += f"; a removal creates one in {and_list(created)}"
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
            sentence += f" A refit readout recovers {and_list(recovered)} harm."
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
        refit_cell = "no refit" if not refit else "—" if share is None else f"{share:.0%}"
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
            else f"{r.transitions_kept:g} of {r.transitions:g} ({r.transitions_correct:g} correct; "
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
            f"{transitions} | {replay} | {refit_cell} |"
        )
    return "\n".join(lines)
