"""The verdicts drawn: a run's block profile (task × coupling block), the coupling atlas
(every network description and N_h) and how each block's harm moves between descriptions, and
one model trained elsewhere's ablation profile."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from rnnschur.ablation import label
from rnnschur.io import text as user_text
from rnnschur.report.figures.canvas import HARM_SHARE, subplots, subset_label
from rnnschur.schur import COUPLING_BLOCKS as SINGLE_BLOCKS
from rnnschur.studies.paper.reported import FIG1_ORDER
from rnnschur.studies.verdicts import Verdict

VERDICT_MARKS = {
    Verdict.FRAGILE: "▲",
    Verdict.HARMLESS: "○",
    Verdict.IMPROVES: "▽",
    Verdict.UNDERPOWERED: "?",
    Verdict.ON_THRESHOLD: "≈",
    Verdict.EMPTY: "–",
    Verdict.TOO_FEW: "✕",
    Verdict.STABILIZER: "○",
    Verdict.UNDECIDED: "?",
    Verdict.ABSENT: "–",
}
"""How a block profile verdict is marked in its heat map cell."""
MARKS_LEGEND = "▲ fragile  ○ harmless  ▽ improves\n? underpowered  ≈ on the threshold  – empty"
ATLAS_LEGEND = "▲ fragile  ○ stabilizers  ? undecided  – absent  ✕ too few learned"
"""The atlas's marks: the word of a row's learned solutions (most of those tested)."""


def fig_block_profile(profile: pd.DataFrame) -> Figure:
    """Task × coupling block heat map of the harm of removing the block (the mean harm share
    over the models that learned: the part of the learned performance removed,
    :mod:`rnnschur.studies.verdicts`), each cell marked with its verdict (:data:`MARKS_LEGEND`); a
    group with too few learned models greyed and marked ✕; one row per task, construction and
    N_h, with n learned / n trained."""
    learned_of = (
        " · " + profile["n_learned"].astype(str) + "/" + profile["n_trained"].astype(str)
        if "n_learned" in profile
        else ""
    )
    profile = profile.assign(
        row=profile["task"]
        + " · "
        + profile["construction"]
        + " · N_h "
        + profile["n_hidden"].astype(str)
        + learned_of
    )
    too_few = profile.set_index(["row", "subset"])["verdict"].eq(Verdict.TOO_FEW)
    rows = list(dict.fromkeys(profile["row"]))
    harm = profile.pivot_table(index="row", columns="subset", values="harm_mean").reindex(
        index=rows, columns=list(SINGLE_BLOCKS)
    )
    verdict = profile.set_index(["row", "subset"])["verdict"]
    width = 3.4 + 0.06 * max(len(r) for r in rows)  # room for the longest row label
    fig, ax = subplots(figsize=(width, 0.45 * len(rows) + 1.4), layout="constrained")
    limit = float(np.nanmax(np.abs(harm.to_numpy()))) if harm.notna().any().any() else 1.0
    image = ax.imshow(harm.to_numpy(), cmap="RdBu_r", vmin=-limit, vmax=limit, aspect="auto")
    for i, row in enumerate(rows):
        for j, block in enumerate(SINGLE_BLOCKS):
            if too_few.get((row, block), False):
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, color="0.82", zorder=2))
                ax.text(j, i, "✕ too few", ha="center", va="center", fontsize=7, zorder=3)
                continue
            mark = VERDICT_MARKS.get(verdict.get((row, block), ""), "")
            value = harm.iloc[i, j]
            text = "" if np.isnan(value) else f"{value:.2g} {mark}"
            dark = not np.isnan(value) and abs(value) > 0.6 * limit
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color="w" if dark else "k")
    ax.set_xticks(range(len(SINGLE_BLOCKS)), [label(b) for b in SINGLE_BLOCKS])
    ax.set_yticks(range(len(rows)), rows)
    ax.grid(False)
    fig.colorbar(image, ax=ax, label=HARM_SHARE)
    ax.set_title(
        f"{MARKS_LEGEND}\n✕ too few learned (rows: learned/trained)",
        fontsize=8,
    )
    return fig


def fig_external_profile(ablation: pd.DataFrame, alpha: float, name: str) -> Figure:
    """The ablation profile of one model trained elsewhere: its score for every subset at
    ``alpha`` (the paper's Figure 1 order), the removed Schur mass written above each bar."""
    rows = ablation[np.isclose(ablation["alpha"], alpha)].set_index("subset").loc[list(FIG1_ORDER)]
    fig, ax = subplots(figsize=(7.5, 3.6))
    x = np.arange(len(rows))
    ax.bar(x, rows["score"], color=["0.4"] + ["C0"] * (len(rows) - 1))
    for k, (value, mass) in enumerate(zip(rows["score"], rows["mass_removed"], strict=True)):
        ax.annotate(f"{mass:.2f}", (k, value), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, [subset_label(s) for s in rows.index], fontsize=7)
    metric = rows["metric"].iloc[0]
    ax.set_ylabel(metric)
    ax.set_title(
        f"{user_text.plot(name)}: {metric} per ablation set, α = {alpha:g} (numbers: ‖ΔT‖/‖T‖)",
        fontsize=9,
    )
    fig.tight_layout()
    return fig


def _atlas_rows(atlas: pd.DataFrame) -> pd.DataFrame:
    """The atlas with a row label per task (and construction, where a task has several)."""
    several = atlas.groupby("task")["construction"].transform("nunique") > 1
    label = atlas["task"].where(~several, atlas["task"] + " · " + atlas["construction"])
    return atlas.assign(row=label)


def fig_atlas(atlas: pd.DataFrame) -> Figure:
    """The coupling atlas: one task × block heat map per network description (columns) and N_h
    (rows) of the harm of removing the block (the median harm share over the learned solutions
    tested; a symmetric log colour scale), each cell marked with the word of its solutions
    (:data:`ATLAS_LEGEND`); a group with too few learned models greyed and marked ✕."""
    atlas = _atlas_rows(atlas)
    descriptions = list(dict.fromkeys(atlas["description"]))
    sizes = sorted(atlas["n_hidden"].unique())
    rows = list(dict.fromkeys(atlas["row"]))
    harms = atlas["harm_median"]
    limit = float(np.nanmax(np.abs(harms))) if harms.notna().any() else 1
    norm = matplotlib.colors.SymLogNorm(
        linthresh=0.01, vmin=-max(limit, 0.02), vmax=max(limit, 0.02)
    )
    fig, axes = subplots(
        len(sizes),
        len(descriptions),
        figsize=(2.3 * len(descriptions) + 2.2, max(0.32 * len(rows) * len(sizes) + 1.6, 3.4)),
        squeeze=False,
        layout="constrained",
    )
    image = None
    for i, size in enumerate(sizes):
        for j, description in enumerate(descriptions):
            ax = axes[i, j]
            part = atlas[(atlas["n_hidden"] == size) & (atlas["description"] == description)]
            cells = part.set_index(["row", "block"])
            harm = part.pivot_table(index="row", columns="block", values="harm_median").reindex(
                index=rows, columns=list(SINGLE_BLOCKS)
            )
            image = ax.imshow(harm.to_numpy(), cmap="RdBu_r", norm=norm, aspect="auto")
            for r, row in enumerate(rows):
                for b, block in enumerate(SINGLE_BLOCKS):
                    if (row, block) not in cells.index:
                        continue
                    call = cells.loc[(row, block), "verdict"]
                    value = harm.iloc[r, b]
                    dark = np.isfinite(value) and abs(float(norm(value)) - 0.5) > 0.3
                    if call == Verdict.TOO_FEW:
                        ax.add_patch(Rectangle((b - 0.5, r - 0.5), 1, 1, color="0.82", zorder=2))
                        dark = False
                    ax.text(
                        b,
                        r,
                        VERDICT_MARKS.get(call, ""),
                        ha="center",
                        va="center",
                        fontsize=7,
                        zorder=3,
                        color="w" if dark else "k",
                    )
            ax.set_xticks(range(len(SINGLE_BLOCKS)), [label(b) for b in SINGLE_BLOCKS], fontsize=7)
            ax.set_yticks(range(len(rows)), rows if j == 0 else [], fontsize=7)
            ax.grid(False)
            ax.set_title(f"{description}, N_h = {size}", fontsize=8)
    bar = fig.colorbar(image, ax=axes, label=HARM_SHARE, shrink=0.8)
    top = float(norm.vmax)
    bar.set_ticks([-top, -0.1, 0.0, 0.1, top] if top > 0.3 else [-top, 0.0, top])
    bar.set_ticklabels([f"{t:.2g}" for t in bar.get_ticks()])
    fig.suptitle(f"{ATLAS_LEGEND} (most of each group's solutions tested)", fontsize=8)
    return fig


def fig_atlas_shift(atlas: pd.DataFrame) -> Figure:
    """How each block's harm moves between network descriptions, paired per task: one panel per
    block (columns) and N_h (rows), the descriptions along x, one line per task joining its
    median harm share under each (a symmetric log axis); a filled marker where its solutions are
    mostly fragile, an open one where mostly stabilizers, a small dot otherwise; groups with
    too few learned models left out."""
    atlas = _atlas_rows(atlas)
    descriptions = list(dict.fromkeys(atlas["description"]))
    sizes = sorted(atlas["n_hidden"].unique())
    rows = list(dict.fromkeys(atlas["row"]))
    colours = dict(
        zip(rows, matplotlib.colormaps["tab20"](np.linspace(0, 1, max(len(rows), 2))), strict=False)
    )
    fig, axes = subplots(
        len(sizes),
        len(SINGLE_BLOCKS),
        figsize=(12, 3.4 * len(sizes) + 0.8),
        squeeze=False,
        sharey=True,
        layout="constrained",
    )
    x = {d: k for k, d in enumerate(descriptions)}
    for i, size in enumerate(sizes):
        for j, block in enumerate(SINGLE_BLOCKS):
            ax = axes[i, j]
            part = atlas[(atlas["n_hidden"] == size) & (atlas["block"] == block)]
            part = part[part["verdict"] != Verdict.TOO_FEW]
            for row, line in part.groupby("row", sort=False):
                line = line.sort_values("description", key=lambda d: d.map(x))
                xs = line["description"].map(x).to_numpy()
                ax.plot(xs, line["harm_median"], color=colours[row], lw=1, alpha=0.8, label=row)
                for xv, yv, call in zip(xs, line["harm_median"], line["verdict"], strict=True):
                    style = {
                        Verdict.FRAGILE: dict(marker="o", ms=5, mfc=colours[row]),
                        Verdict.STABILIZER: dict(marker="o", ms=5, mfc="white"),
                    }.get(call, dict(marker=".", ms=3, mfc=colours[row]))
                    ax.plot([xv], [yv], color=colours[row], ls="none", **style)
            ax.axhline(0, color="0.5", lw=0.6)
            ax.set_yscale("symlog", linthresh=0.01)
            ax.set_xticks(range(len(descriptions)), descriptions, rotation=20, fontsize=7)
            ax.set_title(f"{label(block)}, N_h = {size}", fontsize=9)
            if j == 0:
                ax.set_ylabel(HARM_SHARE.replace(": ", ":\n"))
    handles, names = axes[0, 0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, names, loc="outside right upper", fontsize=7, title="task")
    return fig
