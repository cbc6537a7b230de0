"""The gap study's figures: each number of the paper under every variation, and the
variations ranked by their distance to the paper."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import NullFormatter

from rnnschur.report.figures.canvas import jitter, subplots, subset_label


def fig_gap_attribution(gaps: pd.DataFrame, per_seed: pd.DataFrame) -> Figure:
    """One panel per number of the paper: every seed's value (points, from the long table
    ``per_seed``) and the mean (bar) under the paper config and each variation of the gap
    study; the paper's value as a red line."""
    numbers = list(dict.fromkeys(gaps[["task", "subset", "quantity"]].itertuples(index=False)))
    ncols = 4
    nrows = -(-len(numbers) // ncols)
    fig, axes = subplots(nrows, ncols, figsize=(4.4 * ncols, 2.9 * nrows), squeeze=False)
    for ax, (task, subset, quantity) in zip(axes.flat, numbers, strict=False):
        rows = gaps[
            (gaps["task"] == task) & (gaps["subset"] == subset) & (gaps["quantity"] == quantity)
        ]
        for k, r in enumerate(rows.itertuples(index=False)):
            values = per_seed.loc[
                (per_seed["task"] == task)
                & (per_seed["subset"] == subset)
                & (per_seed["quantity"] == quantity)
                & (per_seed["variation"] == r.variation),
                "value",
            ].to_numpy(float)
            ax.scatter(values, k + jitter(len(values), 0.15), s=16, color="C0", zorder=3)
        ax.set_yticks(range(len(rows)), rows["variation"])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.scatter(rows["mean"], range(len(rows)), marker="|", s=200, color="k", zorder=4)
        ax.axvline(rows["paper_value"].iloc[0], color="crimson", lw=1.2, label="paper")
        if quantity == "fvu":
            ax.set_xscale("log")
            ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels of a narrow range clash
        ax.set_title(
            f"{task}: {subset_label(subset).replace(chr(10), ', ')} {quantity}", fontsize=8
        )
        ax.set_xlabel(quantity)
        ax.set_ylabel("")
        ax.tick_params(axis="y", labelsize=7)
    for ax in axes.flat[len(numbers) :]:
        ax.set_visible(False)
    handles = [
        Line2D([], [], ls="", marker="o", ms=4, color="C0", label="one seed"),
        Line2D([], [], ls="", marker="|", ms=10, color="k", label="mean over seeds"),
        Line2D([], [], color="crimson", lw=1.2, label="the paper's value"),
    ]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=8)
    fig.tight_layout(rect=(0, 0.06 / nrows, 1, 1))
    return fig


def fig_gap_ranking(ranking: pd.DataFrame) -> Figure:
    """The gap study's variations ranked by their distance to the paper over its Figure 2
    effects (bars, mean |log10 ratio| over the ΔFVUs, with the 95 % bootstrap interval over
    seeds), each task's own distance as a marker, the paper config's distance on the same
    numbers as a grey tick and the noise floor of an exact replication as a band."""
    fig, ax = subplots(figsize=(8.0, 0.32 * len(ranking) + 1.6))
    y = np.arange(len(ranking))
    colours = ["0.35" if v == "paper_config" else "C0" for v in ranking["variation"]]
    error = [
        (ranking["distance"] - ranking["distance_low"]).clip(lower=0),
        (ranking["distance_high"] - ranking["distance"]).clip(lower=0),
    ]
    ax.barh(
        y,
        ranking["distance"],
        xerr=error,
        color=colours,
        height=0.6,
        error_kw={"lw": 0.8, "capsize": 2},
        label="ΔFVUs, 95 % bootstrap interval",
    )
    floor, floor_95 = ranking["noise_floor"].iloc[0], ranking["noise_floor_95"].iloc[0]
    if np.isfinite(floor_95):  # undefined with one seed per variation: no band to draw
        label = f"exact replication by chance (≤ {floor_95:.2f})"
        ax.axvspan(0, floor_95, color="0.9", zorder=0, label=label)
        ax.axvline(floor, color="0.6", lw=0.8, ls="--", zorder=0)
    markers = {"flip_flop": "o", "sine": "s", "context_integration": "^"}
    for k, (task, marker) in enumerate(markers.items()):
        ax.scatter(
            ranking[f"distance_{task}"],
            y,
            marker=marker,
            s=22,
            color=f"C{k + 1}",
            zorder=3,
            label=task,
        )
    ax.scatter(
        ranking["paper_config_distance"],
        y,
        marker="|",
        s=140,
        color="0.2",
        zorder=4,
        label="paper config, same numbers",
    )
    ax.set_yticks(y, ranking["variation"], fontsize=7)
    ax.set_ylim(len(ranking) - 0.5, -0.5)
    ax.set_xlabel("distance to the paper's ΔFVUs: mean |log10(reproduced / paper)| (decades)")
    ax.set_title("Gap study: variations ranked by distance to the paper's Figure 2", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside the bars
    fig.tight_layout()
    return fig
