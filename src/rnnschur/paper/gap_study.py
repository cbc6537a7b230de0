"""The gaps to the paper's numbers, attributed: each number under the paper config and under
each variation of the gap study, and whether the variation moves it toward the paper's.

Distances to the paper's value are absolute differences, except for the full-model FVU, which
spans decades and is compared on a log10 scale. A variation moves a number *toward* the paper
where its distance is below 0.8× the paper config's, *away* above 1.25×, else *little change*.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from rnnschur.paper import reported as paper

BASELINE = "paper_config"
PER_TRIAL = "fvu_per_trial"
PER_TRIAL_COLUMNS = {"fvu": "fvu_per_trial", "delta_fvu": "delta_fvu_per_trial"}


def paper_numbers(construction: str = "dense_orthogonal", alpha: float = 0.9) -> pd.DataFrame:
    """The numbers the paper gives (not words) for one construction at one alpha."""
    reported = pd.DataFrame(paper.REPORTED, columns=paper.COLUMNS)
    keep = (
        (reported["construction"] == construction)
        & np.isclose(reported["alpha"], alpha)
        & reported["paper_value"].notna()
    )
    return reported[keep].drop_duplicates(["task", "subset", "quantity"]).reset_index(drop=True)


def distance(value: float, target: float, quantity: str) -> float:
    """|value − target|, on a log10 scale for the full-model FVU."""
    if quantity == "fvu":
        return abs(np.log10(value / target)) if value > 0 and target > 0 else np.nan
    return abs(value - target)


def movement(dist: float, baseline: float) -> str:
    """'toward', 'away' or 'little change' relative to the paper config's distance."""
    if np.isnan(dist) or np.isnan(baseline):
        return "—"
    if dist < 0.8 * baseline:
        return "toward"
    if dist > 1.25 * baseline:
        return "away"
    return "little change"


def _pick(frame: pd.DataFrame, number, column: str) -> pd.DataFrame:
    """(seed, n_hidden, value) of ``column`` for a paper number; empty where the table lacks it
    (an older table without the per-trial FVU, a quantity not computed)."""
    if column not in frame:
        return pd.DataFrame(columns=["seed", "n_hidden", "value"])
    rows = frame[
        (frame["task"] == number.task)
        & (frame["construction"] == number.construction)
        & np.isclose(frame["alpha"], number.alpha)
        & (frame["subset"] == number.subset)
    ]
    if rows.empty:
        return rows
    size = number.paper_n_hidden if (rows["n_hidden"] == number.paper_n_hidden).any() else None
    rows = rows[rows["n_hidden"] == (size or rows["n_hidden"].max())]
    rows = rows.sort_values("seed")[["seed", "n_hidden", column]].rename(columns={column: "value"})
    return rows.dropna(subset=["value"])


def gap_table(
    baseline: pd.DataFrame,
    variations: pd.DataFrame,
    descriptions: dict[str, str],
    seeds: list[int],
) -> pd.DataFrame:
    """One row per (paper number, variation): the paper config (``baseline``: the main ablation
    table, restricted to ``seeds``), the per-trial FVU normaliser of the same models, and every
    variation of ``variations`` (the gap study's ablation rows, column ``variation``) that
    applies to the number's task."""
    baseline = baseline[baseline["seed"].isin(seeds)]
    rows = []
    for number in paper_numbers().itertuples(index=False):
        sources = [(BASELINE, "The paper config of this workflow.", baseline, number.quantity)]
        if number.quantity in PER_TRIAL_COLUMNS:
            words = "The same models; FVU normalised per trial, not pooled over trials."
            sources.append((PER_TRIAL, words, baseline, PER_TRIAL_COLUMNS[number.quantity]))
        for name, description in descriptions.items():
            applies = variations[
                (variations["variation"] == name) & (variations["task"] == number.task)
            ]
            if len(applies):
                sources.append((name, description, applies, number.quantity))
        base_distance = np.nan
        for name, description, frame, column in sources:
            values = _pick(frame, number, column)
            if values.empty:
                continue
            mean = float(values["value"].mean())
            dist = distance(mean, number.paper_value, number.quantity)
            if name == BASELINE:
                base_distance = dist
            low, high = values["value"].min(), values["value"].max()
            rows.append(
                {
                    "task": number.task,
                    "construction": number.construction,
                    "n_hidden": int(values["n_hidden"].iloc[0]),
                    "subset": number.subset,
                    "quantity": number.quantity,
                    "paper_value": number.paper_value,
                    "variation": name,
                    "description": description,
                    "n_seeds": len(values),
                    "mean": mean,
                    "min": low,
                    "max": high,
                    "per_seed": json.dumps(
                        {
                            str(s): round(float(v), 6)
                            for s, v in zip(values["seed"], values["value"], strict=True)
                        }
                    ),
                    "paper_in_range": bool(low <= number.paper_value <= high),
                    "distance": dist,
                    "baseline_distance": base_distance,
                    "moves": "—" if name == BASELINE else movement(dist, base_distance),
                }
            )
    return pd.DataFrame(rows)


def gap_markdown(table: pd.DataFrame) -> str:
    """The gap table as Markdown, one block of rows per paper number."""
    lines = [
        "| number | paper | variation | mean | seeds (range) | paper in range | moves |",
        "|---|---|---|---|---|---|---|",
    ]
    label = {"none": "full", "T_CR": "−T_C→R", "T_RR": "−T_RR", "T_CC": "−T_CC"}
    for r in table.itertuples(index=False):
        subset = label.get(r.subset, "−" + r.subset.replace("+", ", −"))
        values = ", ".join(f"{v:.3g}" for v in json.loads(r.per_seed).values())
        lines.append(
            f"| {r.task} {subset} {r.quantity} | {r.paper_value:.3g} | {r.variation} | "
            f"{r.mean:.3g} | {values} ({r.min:.3g} … {r.max:.3g}) | "
            f"{'yes' if r.paper_in_range else 'no'} | {r.moves} |"
        )
    return "\n".join(lines) + "\n"
