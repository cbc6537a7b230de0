"""The paper's two figures: Figure 1 (the copy task's replay accuracy per ablation set) and
Figure 2 (the neuroscience tasks' single-block ablations), each with the paper's numbers
marked."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from rnnschur.report.figures.canvas import jitter, subplots, subset_label, task_label
from rnnschur.schur import COUPLING_BLOCKS as SINGLE_BLOCKS
from rnnschur.studies.paper import reported as paper
from rnnschur.studies.paper.reported import FIG1_ORDER
from rnnschur.studies.verdicts import CHANCE, Verdict

PAPER_STYLE = {"marker": "x", "color": "crimson", "s": 60, "zorder": 5, "label": "paper"}


def _reported() -> pd.DataFrame:
    return pd.DataFrame(paper.REPORTED, columns=paper.COLUMNS)


def _blocks(subset: str) -> str:
    """Figure 1's short name of an ablation set: "full", or its removed blocks one a line without
    their "−T_" ("RR", "C→R", "CC"; the axis says so), so that seven sets fit a panel at 9 pt."""
    return "\n".join(b.removeprefix("−T_") for b in subset_label(subset).split("\n"))


def fig1_copy_ablation(ablation: pd.DataFrame, alpha: float) -> Figure:
    """Replay accuracy per ablation set, one panel per construction on a 2 × 2 grid (the paper's
    N_h where trained, else the largest): every trained solution a dot (open where it did not
    learn the task, ``learned`` column), grey segments join S and S ∪ {T_CC}; every number the
    paper prints marked (its Figure 1 ×, its Table 1 +, where the two differ); chance (0.5) a
    labelled line; one legend for the figure."""
    copy = ablation[(ablation["task"] == "copy") & np.isclose(ablation["alpha"], alpha)]
    constructions = list(dict.fromkeys(copy["construction"]))
    cols = min(2, len(constructions))
    rows = int(np.ceil(len(constructions) / cols))
    fig, axes = subplots(
        rows, cols, figsize=(4.2 * cols, 3.3 * rows + 0.6), sharey=True, squeeze=False
    )
    reported = _reported()
    reported = reported[(reported["task"] == "copy") & (reported["quantity"] == "accuracy")]
    x = {s: i for i, s in enumerate(FIG1_ORDER)}
    for ax, construction in zip(axes.flat, constructions, strict=False):
        data = copy[copy["construction"] == construction]
        size = 72 if (data["n_hidden"] == 72).any() else int(data["n_hidden"].max())
        data = data[data["n_hidden"] == size]
        seeds = sorted(data["seed"].unique())
        for k, seed in enumerate(seeds):
            model = data[data["seed"] == seed]
            acc = model.set_index("subset")["accuracy"]
            learned = bool(model["learned"].iloc[0]) if "learned" in model else True
            offset = jitter(len(seeds), 0.2)[k]
            for subset in ("none", "T_RR", "T_CR", "T_RR+T_CR"):
                with_cc = "T_CC" if subset == "none" else f"{subset}+T_CC"
                ax.plot(
                    [x[subset] + offset, x[with_cc] + offset],
                    [acc[subset], acc[with_cc]],
                    color="0.75",
                    lw=0.8,
                    zorder=1,
                )
            ax.scatter(
                [x[s] + offset for s in FIG1_ORDER],
                [acc[s] for s in FIG1_ORDER],
                s=14,
                zorder=3,
                label="a trained solution" if learned else "not learned",
                **(
                    {"color": "C0"}
                    if learned
                    else {"facecolors": "none", "edgecolors": "0.45", "linewidths": 0.8}
                ),
            )
        mine = reported[reported["construction"] == construction].dropna(subset=["paper_value"])
        figure1 = mine[mine["paper_note"].str.startswith("Figure 1")]
        table1 = mine[mine["paper_note"].str.startswith("Table 1")].drop_duplicates("subset")
        if len(figure1):
            ax.scatter([x[s] for s in figure1["subset"]], figure1["paper_value"], **PAPER_STYLE)
        printed = dict(zip(figure1["subset"], figure1["paper_value"], strict=True))
        differs = [printed.get(s) != v for s, v in table1[["subset", "paper_value"]].to_numpy()]
        table1 = table1[differs]
        if len(table1):
            ax.scatter(
                [x[s] for s in table1["subset"]],
                table1["paper_value"],
                marker="+",
                color="crimson",
                s=70,
                zorder=5,
                label="paper, Table 1",
            )
            for s, v in zip(table1["subset"], table1["paper_value"], strict=True):
                ax.annotate(
                    f"{v:g}",
                    (x[s], v),
                    xytext=(8, 4),
                    textcoords="offset points",
                    fontsize=9,
                    color="crimson",
                )
        ax.axhline(CHANCE["accuracy"], color="0.55", lw=0.8, ls=":", label="chance (0.5)")
        ax.set_xticks(range(len(FIG1_ORDER)), [_blocks(s) for s in FIG1_ORDER], fontsize=9)
        ax.tick_params(axis="y", labelsize=9)
        ax.set_title(f"{construction.replace('_', ' ')}, $N_h$ = {size}", fontsize=10)
    for ax in list(axes.flat)[len(constructions) :]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"replay accuracy (α = {alpha:g})", fontsize=9)
    for ax in axes[-1, :]:
        ax.set_xlabel("blocks T_… removed", fontsize=9)
    handles = {}
    for ax in axes.flat:
        for handle, text in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault("paper, Figure 1" if text == "paper" else text, handle)
    fig.legend(
        list(handles.values()),
        list(handles),
        loc="lower center",
        ncol=len(handles),
        fontsize=9,
        frameon=False,
    )
    fig.suptitle(f"Copy task: replay accuracy after each ablation set (α = {alpha:g})", fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def fig2_neuro_ablation(ablation: pd.DataFrame, alpha: float) -> Figure:
    """Top row ΔFVU, bottom row S_ΔT, one column per task scored by FVU, on a log axis (linear
    near zero: an ablation may lower the FVU); single-block ablations, the median over the
    solutions that learned their task as a bar with every solution shown (those that did not as
    open grey circles, counted in the title); the paper's means ± SEM ×; on the ΔFVU row the
    full-model FVU, ours (median, dashed) and the paper's (dotted), as lines: a ΔFVU below them is
    small against what the network gets wrong already. A block that every solution holds
    under the mass floor (zero mass included: its reading) is marked absent."""
    data = ablation[(ablation["metric"] == "fvu") & np.isclose(ablation["alpha"], alpha)]
    full = data[data["subset"] == "none"]
    data = data[data["subset"].isin(SINGLE_BLOCKS)]
    task_names = list(dict.fromkeys(data["task"]))
    reported = _reported()
    fig, axes = subplots(2, len(task_names), figsize=(2.8 * len(task_names), 6.4), squeeze=False)
    for col, task in enumerate(task_names):
        task_data = data[data["task"] == task]
        size = 64 if (task_data["n_hidden"] == 64).any() else int(task_data["n_hidden"].max())
        construction = task_data["construction"].iloc[0]
        chosen = (task_data["n_hidden"] == size) & (task_data["construction"] == construction)
        task_data = task_data[chosen]
        for row, quantity in enumerate(("delta_fvu", "s_delta_t")):
            ax = axes[row, col]
            ax.set_yscale("symlog", linthresh=1e-4)
            for i, block in enumerate(SINGLE_BLOCKS):
                rows = task_data[task_data["subset"] == block].dropna(subset=[quantity])
                learned = rows["learned"].astype(bool) if "learned" in rows else rows[quantity] > -1
                values = rows[quantity][learned]
                removed = task_data.loc[task_data["subset"] == block, "mass_removed"]
                nothing = rows.empty or (len(removed) and (removed == 0).all())
                if nothing or ("reading" in rows and (rows["reading"] == Verdict.ABSENT).all()):
                    # under the mass floor in every solution (zero mass too): no block to read;
                    # what was removed, if anything, is still drawn
                    ax.text(
                        i,
                        0.93,
                        Verdict.ABSENT,
                        ha="center",
                        va="top",
                        fontsize=9,
                        color="0.4",
                        transform=ax.get_xaxis_transform(),
                    )
                if len(values):
                    ax.bar(i, values.median(), color=f"C{i}", alpha=0.4, width=0.6, label="median")
                    ax.scatter(
                        i + jitter(len(values), 0.15),
                        values,
                        color=f"C{i}",
                        s=10,
                        zorder=3,
                        label="a trained solution",
                    )
                others = rows[quantity][~learned]  # models that did not learn: shown, not counted
                if len(others):
                    ax.scatter(
                        i + jitter(len(others), 0.15),
                        others,
                        facecolors="none",
                        edgecolors="0.5",
                        s=14,
                        zorder=3,
                        label="not learned",
                    )
                ref = reported[
                    (reported["task"] == task)
                    & (reported["subset"] == block)
                    & (reported["quantity"] == quantity)
                ].dropna(subset=["paper_value"])
                if len(ref):
                    ax.errorbar(
                        i + 0.3,
                        ref["paper_value"].iloc[0],
                        yerr=ref["paper_sem"].iloc[0],
                        fmt="x",
                        color="crimson",
                        capsize=3,
                        label="paper (mean ± SEM)",
                    )
            if row == 0:
                ours = full[
                    (full["task"] == task)
                    & (full["n_hidden"] == size)
                    & (full["construction"] == construction)
                ]
                ours = ours[ours["learned"].astype(bool)] if "learned" in ours else ours
                if len(ours):
                    ax.axhline(
                        ours["fvu"].median(),
                        color="0.3",
                        lw=0.9,
                        ls="--",
                        label="full-model FVU, ours (median)",
                    )
                theirs = reported[
                    (reported["task"] == task)
                    & (reported["subset"] == "none")
                    & (reported["quantity"] == "fvu")
                ].dropna(subset=["paper_value"])
                if len(theirs):
                    ax.axhline(
                        theirs["paper_value"].iloc[0],
                        color="crimson",
                        lw=0.9,
                        ls=":",
                        label="full-model FVU, paper",
                    )
            ax.set_xticks(range(3), [subset_label(b) for b in SINGLE_BLOCKS], fontsize=9)
            ax.tick_params(axis="y", labelsize=9)
            ax.set_xlim(-0.6, 2.6)  # room for a slot's label at either end
            ax.axhline(0, color="0.6", lw=0.8)
            if row == 0:
                seeds = task_data.drop_duplicates("seed")
                n_learned = int(seeds["learned"].sum()) if "learned" in seeds else len(seeds)
                learned_of = f"\n{n_learned}/{len(seeds)} learned" if n_learned < len(seeds) else ""
                name = f"{task_label(task)}\n{construction.replace('_', ' ')}"
                ax.set_title(f"{name}, $N_h$ = {size}{learned_of}", fontsize=9)
            if col == 0:
                ax.set_ylabel(
                    "ΔFVU" if quantity == "delta_fvu" else "$S_{ΔT}$ = ΔFVU / removed mass",
                    fontsize=9,
                )
    handles = {}
    for ax in axes.flat:
        for handle, text in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(text, handle)
    if handles:
        fig.legend(
            list(handles.values()),
            list(handles),
            loc="lower center",
            ncol=min(len(handles), 3),
            fontsize=9,
            frameon=False,
        )
    fig.suptitle(f"The neuroscience tasks: single-block ablations (α = {alpha:g})", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
