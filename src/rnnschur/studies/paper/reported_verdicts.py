"""The paper's own numbers run through the verdict rules (:func:`paper_readings`): does the
harm-share scale, at θ, read each of them as the paper reads it, and does the raw score change?
The check behind θ's choice (:mod:`rnnschur.studies.verdicts`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.ablation import label
from rnnschur.io.text import table_lines
from rnnschur.studies.paper import reported as paper
from rnnschur.studies.verdicts import Thresholds, block_verdict, point_verdict

PAPER_SEEDS = 3
"""The seeds behind each of the paper's Figure 2 means."""
RAW_THRESHOLD = 0.1
"""The threshold of the raw score change that decided fragile and harmless before the verdicts
had one scale (an FVU, an accuracy and a κ alike): the comparison column of
:func:`paper_readings`."""


def _planted_seeds(mean: float, sem: float) -> np.ndarray:
    """Three values with the paper's mean and SEM (mean + SEM·√3·(−1, 0, 1)), or the mean alone
    where it gives no SEM (a single controller, or words)."""
    if not np.isfinite(sem):
        return np.array([mean])
    return mean + sem * np.sqrt(PAPER_SEEDS) * np.array([-1.0, 0.0, 1.0])


def paper_readings(thresholds: Thresholds) -> pd.DataFrame:
    """The paper's own numbers run through the verdict rules: per single-block ablation that
    the paper reads (:data:`rnnschur.studies.paper.reported.READINGS`), its raw Δ and SEM, its harm
    share, the verdict on the harm-share scale (three seeds with the paper's mean and SEM where
    it gives them, :func:`rnnschur.studies.verdicts.block_verdict`; else the share alone,
    :func:`rnnschur.studies.verdicts.point_verdict`), the verdict the raw change at
    :data:`RAW_THRESHOLD` gives by the same rules, and the paper's reading. A word ("almost
    none", "little") enters as a share of 0. The paper gives no removed mass: every block
    counts as holding some."""
    raw_thresholds = Thresholds(
        RAW_THRESHOLD, thresholds.mass_floor, thresholds.level, thresholds.power
    )
    rows = []
    for task, subset, reading, where in paper.READINGS:
        if task == "copy":
            full = paper.reported_value("copy", "none", "accuracy")
            raw = full - paper.reported_value("copy", subset, "accuracy")
            sem = np.nan
        else:
            raw = paper.reported_value(task, subset, "delta_fvu")
            sem = paper.reported_sem(task, subset, "delta_fvu")
        raw = 0.0 if np.isnan(raw) else raw  # words: "almost none", "little"
        scale = raw / paper.reported_share(task, subset) if raw else 1.0
        calls = []
        for values, t in (
            (_planted_seeds(raw, sem) / scale, thresholds),
            (_planted_seeds(raw, sem), raw_thresholds),
        ):
            if len(values) > 1:
                calls.append(block_verdict(values, np.ones(len(values)), t).verdict)
            else:
                calls.append(point_verdict(float(values[0]), 1.0, t))
        rows.append(
            {
                "task": task,
                "block": subset,
                "paper_delta": raw,
                "paper_sem": sem,
                "harm_share": raw / scale,
                "verdict": calls[0],
                "verdict_raw": calls[1],
                "paper_reading": reading,
                "where": where,
                "agrees": calls[0] == reading,
            }
        )
    return pd.DataFrame(rows)


def paper_readings_markdown(table: pd.DataFrame, thresholds: Thresholds) -> str:
    """The paper's numbers through the rules, as Markdown, with a sentence that counts."""
    same = int(table["agrees"].sum())
    raw_same = int((table["verdict_raw"] == table["paper_reading"]).sum())
    lines = [
        f"The paper's own numbers, run through the verdict rules: on the harm-share scale "
        f"(θ = {thresholds.threshold:g}) {same} of {len(table)} verdicts are the paper's own "
        f"readings; on the raw score change at {RAW_THRESHOLD:g} (an FVU and an accuracy "
        f"alike) {raw_same} of {len(table)}.",
        "",
    ]
    header = ["task", "block", "paper's Δ", "SEM", "harm share", "verdict"]
    header += [f"raw Δ at {RAW_THRESHOLD:g}", "the paper reads", "where"]
    rows = [
        [
            r.task,
            label(r.block),
            f"{r.paper_delta:.3g}",
            "—" if np.isnan(r.paper_sem) else f"{r.paper_sem:.3g}",
            f"{r.harm_share:.3g}",
            f"**{r.verdict}**",
            r.verdict_raw,
            r.paper_reading,
            r.where,
        ]
        for r in table.itertuples(index=False)
    ]
    return "\n".join(lines + table_lines(header, rows)) + "\n"
