"""The figures of the analyses beyond the paper (:data:`rnnschur.studies.beyond.registry.ANALYSES`),
one function ``fig_<analysis>`` each, drawn from that analysis's table."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import NullFormatter

from rnnschur import tasks
from rnnschur.ablation import label
from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.report.figures.canvas import (
    HARM_SHARE,
    jitter,
    subplots,
    subset_label,
    task_label,
)
from rnnschur.schur import COUPLING_BLOCKS as SINGLE_BLOCKS
from rnnschur.studies.paper.reported import FIG1_ORDER
from rnnschur.studies.verdicts import largest_size
from rnnschur.training.constructions import CONSTRUCTIONS

BLOCK_MARKERS = {"T_RR": "o", "T_CR": "s", "T_CC": "^"}


def _construction_colours(frame: pd.DataFrame) -> dict[str, str]:
    """One colour per construction, in the registry's order (the same in every figure)."""
    return {
        name: f"C{i}" for i, name in enumerate(CONSTRUCTIONS) if name in set(frame["construction"])
    }


def harm_label(task: str) -> str:
    """What an ablation's harm is for ``task``: accuracy lost, FVU gained, or, for a task that
    is no generator module's (a NeuroGym task: the choice score), choice lost."""
    names = {"accuracy": "accuracy lost", "fvu": "FVU gained", "choice": "choice lost"}
    return names[tasks.score_of(task)]


def fig_subspace_control(verdicts: pd.DataFrame) -> Figure:
    """Harm (accuracy lost, FVU gained) against overlap with each subspace and side, largest
    N_h: single-block Schur ablations in colour (one point per model), each joined to the mean
    of its overlap-matched controls (grey ×); grey dots at overlap 1 and 0 are the controls
    confined to the subspace and to its complement."""
    data = largest_size(verdicts[verdicts["subset"].isin(SINGLE_BLOCKS)])
    task_names = list(dict.fromkeys(data["task"]))
    panels = list(data[["subspace", "side"]].drop_duplicates().itertuples(index=False))
    colours = _construction_colours(data)
    fig, axes = subplots(
        len(task_names),
        len(panels),
        figsize=(2.6 * len(panels), 2.3 * len(task_names)),
        squeeze=False,
        sharex=True,
    )
    # Overlaps lie in [0, 1]: fixed limits, so that no scatter autoscales the shared x of every
    # panel again (quadratic in the number of panels).
    axes[0, 0].set_xlim(-0.05, 1.05)
    for ax in axes.flat:
        ax.set_autoscalex_on(False)
    for row, task in enumerate(task_names):
        for col, (name, side) in enumerate(panels):
            ax = axes[row, col]
            d = data[(data["task"] == task) & (data["subspace"] == name) & (data["side"] == side)]
            for column, x in (("inside_harm", 1.0), ("complement_harm", 0.0)):
                if column in d:
                    ax.scatter(np.full(len(d), x), d[column], color="0.6", s=6, zorder=1)
            # One artist per kind of mark, not per model (drawing hundreds of artists dominated
            # this figure's time).
            ax.vlines(d["overlap"], d["harm"], d["matched_harm"], color="0.75", lw=0.6, zorder=1.5)
            ax.scatter(d["overlap"], d["matched_harm"], marker="x", color="0.45", s=12, zorder=2)
            for (subset, construction), g in d.groupby(["subset", "construction"], sort=False):
                ax.scatter(
                    g["overlap"],
                    g["harm"],
                    marker=BLOCK_MARKERS[subset],
                    color=colours[construction],
                    s=16,
                    zorder=3,
                )
            ax.axhline(0, color="0.8", lw=0.6)
            dim = f"dim {int(d['dim'].median())}" if len(d) else ""
            ax.set_title(f"{task_label(task)}: {name}\n({dim}), {side} side", fontsize=7)
            if row == len(task_names) - 1:
                ax.set_xlabel("overlap of ΔW")
            if col == 0:
                ax.set_ylabel(harm_label(task))
    handles = [
        Line2D([], [], ls="", marker=m, color="k", label=label(b)) for b, m in BLOCK_MARKERS.items()
    ]
    handles += [Line2D([], [], ls="", marker="o", color=c, label=k) for k, c in colours.items()]
    handles += [Line2D([], [], ls="", marker="x", color="0.45", label="matched control")]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def fig_readout_refit(refit: pd.DataFrame) -> Figure:
    """Held-out score of every ablation with the fixed readout (filled) and a refit ridge
    readout (open), mean over the seeds of the largest N_h, one panel per task."""
    data = largest_size(refit)
    task_names = list(dict.fromkeys(data["task"]))
    colours = _construction_colours(data)
    order = [s for s in FIG1_ORDER if s in set(data["subset"])]
    fig, axes = subplots(1, len(task_names), figsize=(4.2 * len(task_names), 3.4), squeeze=False)
    for ax, task in zip(axes[0], task_names, strict=True):
        d = data[data["task"] == task]
        means = d.groupby(["construction", "subset"])[["fixed_score", "refit_score"]].mean()
        width = 0.8 / len(colours)
        for j, (construction, colour) in enumerate(colours.items()):
            if construction not in means.index.get_level_values(0):
                continue
            m = means.loc[construction].reindex(order)
            x = np.arange(len(order)) + (j - (len(colours) - 1) / 2) * width
            ax.vlines(x, m["fixed_score"], m["refit_score"], color=colour, lw=0.8)
            ax.scatter(x, m["fixed_score"], color=colour, s=14)
            ax.scatter(x, m["refit_score"], facecolor="white", edgecolor=colour, s=14)
        if d["metric"].iloc[0] == "fvu":
            ax.set_yscale("log")
        ax.set_xticks(range(len(order)), [subset_label(s) for s in order], fontsize=6)
        ax.set_title(f"{task_label(task)} ($N_h$ = {int(d['n_hidden'].max())})", fontsize=9)
        ax.set_ylabel(f"held-out {d['metric'].iloc[0]}")
    handles = [Line2D([], [], ls="", marker="o", color=c, label=k) for k, c in colours.items()]
    handles += [
        Line2D([], [], ls="", marker="o", color="0.3", label="fixed readout W_hy"),
        Line2D([], [], ls="", marker="o", mfc="white", color="0.3", label="ridge refit"),
    ]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def _solutions(d: pd.DataFrame) -> list:
    """The seeds of one model drawn in :func:`fig_fixed_points`: the first, and the first other
    whose attractors under zero input (their kinds and periods per ablation) differ from it."""
    shown = d[(d["record"] == "attractor") & (d["condition"] == "zero input")]

    def signature(seed):
        mine = shown[shown["seed"] == seed].drop_duplicates(["ablation", "point"])
        return sorted(zip(mine["ablation"], mine["kind"], mine["period"], strict=True))

    seeds = sorted(d["seed"].unique())
    first = signature(seeds[0])
    return seeds[:1] + [s for s in seeds[1:] if signature(s) != first][:1]


def fig_fixed_points(table: pd.DataFrame) -> Figure:
    """One model per task (the paper's dense orthogonal construction, else the first listed, at
    the largest N_h), its first seed and, where another solution's attractors differ, that one
    too (:func:`_solutions`), a row each: held-out trajectories (grey) in the intact network's
    top two principal components and the attractors under zero input; stable points filled,
    saddles as crosses, unstable open, cycles as their states joined (diamonds), oscillations
    as their orbit (a line); one column for the intact network and one per coupling block
    removed, each with its own trajectories and attractors
    (:func:`rnnschur.studies.fixed_point_study.model_rows`)."""
    data = largest_size(table)
    panels = []
    for task in dict.fromkeys(data["task"]):
        d = data[data["task"] == task]
        constructions = list(dict.fromkeys(d["construction"]))
        construction = (
            "dense_orthogonal" if "dense_orthogonal" in constructions else constructions[0]
        )
        d = d[d["construction"] == construction]
        panels += [(task, construction, d[d["seed"] == seed]) for seed in _solutions(d)]
    columns = ["none", *SINGLE_BLOCKS]
    fig, axes = subplots(
        len(panels), len(columns), figsize=(2.6 * len(columns), 2.4 * len(panels)),
        squeeze=False,
    )  # fmt: skip
    # imported here: the module's own imports count in every figure's code fingerprint
    from matplotlib.collections import LineCollection

    markers = {"stable": ("o", "C3"), "saddle": ("x", "C0"), "unstable": ("o", "white")}
    for row, (task, construction, d) in zip(axes, panels, strict=True):
        paths = d[d["record"] == "trajectory"]
        points = d[(d["record"] == "point") & (d["condition"] == "zero input")]
        limits = d[(d["record"] == "attractor") & (d["condition"] == "zero input")]
        for ax, ablation in zip(row, columns, strict=True):
            own = paths[paths["ablation"] == ablation]
            own = own if len(own) else paths[paths["ablation"] == "none"]  # an older table
            # every trajectory in one artist: a line per trial drew most of this figure's time
            lines = [t[["pc1", "pc2"]].to_numpy() for _, t in own.groupby("trial")]
            ax.add_collection(LineCollection(lines, colors="0.75", lw=0.5))
            ax.autoscale_view()
            here = points[points["ablation"] == ablation]
            for stability, (marker, colour) in markers.items():
                p = here[here["stability"] == stability]
                ax.scatter(
                    p["pc1"], p["pc2"], marker=marker, s=22, zorder=3,
                    color=colour, edgecolors="C3" if colour == "white" else None, lw=0.8,
                )  # fmt: skip
            mine = limits[limits["ablation"] == ablation]
            for _, limit in mine[mine["kind"].isin(["cycle", "oscillation"])].groupby("point"):
                xy = limit.sort_values("t")[["pc1", "pc2"]].to_numpy()
                if limit["kind"].iloc[0] == "cycle":
                    closed = np.vstack([xy, xy[:1]])
                    ax.plot(*closed.T, color="C2", lw=0.7, ls="--", marker="D", ms=3, zorder=4)
                else:
                    ax.plot(*np.vstack([xy, xy[:1]]).T, color="C1", lw=0.9, zorder=4)
            n_stable = int((here["stability"] == "stable").sum())
            kinds = mine.drop_duplicates("point")["kind"]
            name = "intact" if ablation == "none" else subset_label(ablation)
            cycles, oscillations = (int((kinds == k).sum()) for k in ("cycle", "oscillation"))
            ax.set_title(
                f"{task_label(task)}: {name} ({n_stable} stable, {cycles} cycles, "
                f"{oscillations} osc.)",
                fontsize=6,
            )
            ax.tick_params(labelsize=6)
        seed = int(d["seed"].iloc[0])
        row[0].set_ylabel(
            f"PC 2 ({construction}, $N_h$ = {int(d['n_hidden'].max())}, seed {seed})", fontsize=6
        )
    for ax in axes[-1]:
        ax.set_xlabel("PC 1", fontsize=7)
    handles = [
        Line2D([], [], ls="", marker="o", color="C3", label="stable"),
        Line2D([], [], ls="", marker="x", color="C0", label="saddle"),
        Line2D([], [], ls="", marker="o", mfc="white", color="C3", label="unstable"),
        Line2D([], [], ls="--", marker="D", ms=3, color="C2", label="cycle"),
        Line2D([], [], color="C1", label="oscillation"),
        Line2D([], [], color="0.75", label="held-out trajectories (this network)"),
    ]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def fig_dose_response(curves: pd.DataFrame) -> Figure:
    """Harm share against the fraction ε of each block removed, one panel per task: per block
    (colour) the mean over seeds of the paper's dense orthogonal construction (else the first
    the registry lists) at the largest N_h, and the 5–95 %
    band of its matched random perturbations (same colour, light) with their mean dashed
    (:func:`rnnschur.studies.beyond.dose_response.curves`)."""
    data = largest_size(curves)
    preferred = {c: k for k, c in enumerate(dict.fromkeys(["dense_orthogonal", *CONSTRUCTIONS]))}
    rank = data["construction"].map(preferred).fillna(len(preferred))
    first = rank.groupby(data["task"]).transform("min")
    data = data[rank == first]
    task_names = list(dict.fromkeys(data["task"])) or ["(no model)"]
    cols = min(4, len(task_names))
    rows = -(-len(task_names) // cols)
    fig, axes = subplots(
        rows,
        cols,
        figsize=(3.2 * cols, 2.5 * rows + 0.6),
        squeeze=False,
        sharex=True,
        layout="constrained",
    )
    for ax in axes.flat[len(task_names) :]:
        ax.set_visible(False)
    for ax, task in zip(axes.flat, task_names, strict=False):
        for k, block in enumerate(SINGLE_BLOCKS):
            d = data[(data["task"] == task) & (data["block"] == block)]
            if d.empty:
                continue
            mean = d.groupby("epsilon")[
                ["harm", "control_harm", "control_low", "control_high"]
            ].mean()
            x, colour = mean.index.to_numpy(), f"C{k}"
            ax.fill_between(
                x, mean["control_low"], mean["control_high"], color=colour, alpha=0.15, lw=0
            )
            ax.plot(x, mean["control_harm"], color=colour, ls="--", lw=0.8)
            ax.plot(x, mean["harm"], color=colour, marker="o", ms=3)
        ax.axhline(0, color="0.6", lw=0.5)
        construction = data.loc[data["task"] == task, "construction"]
        ax.set_title(
            f"{task_label(task)}, {construction.iloc[0] if len(construction) else ''}", fontsize=8
        )
    for ax in axes[:, 0]:
        ax.set_ylabel(HARM_SHARE, fontsize=8)
    for ax in axes[-1, :]:
        ax.set_xlabel("fraction ε removed", fontsize=8)
    handles = [Line2D([], [], color=f"C{k}", marker="o", ms=3, label=label(b)) for k, b in
               enumerate(SINGLE_BLOCKS)]  # fmt: skip
    handles += [
        Line2D([], [], color="0.4", ls="--", label="random, same norm (mean)"),
        Rectangle((0, 0), 1, 1, color="0.4", alpha=0.15, label="random, 5–95 %"),
    ]
    # five entries in a row where the panels are wide enough, else two a row (one panel)
    ncols = 5 if cols >= 3 else 2 * cols
    fig.legend(handles=handles, loc="outside lower center", ncols=ncols, fontsize=8, frameon=False)
    return fig


def fig_basis_dependence(models: pd.DataFrame) -> Figure:
    """Per task and block (T_RR, T_CC), one column per tolerance: each learned model (in the
    table's order: construction, N_h, seed) its harm share in the canonical order (dot) and its
    range over the orders (bar); basis-dependent ones (the table's ``reading``) in red."""
    present = models[models["reading"] != "absent"]
    panels = list(dict.fromkeys(zip(present["task"], present["block"], strict=True))) or [("", "")]
    tolerances = sorted(models["tolerance"].unique())
    fig, axes = subplots(
        len(panels), max(len(tolerances), 1), figsize=(3.6 * len(tolerances), 2.2 * len(panels)),
        squeeze=False, layout="constrained",
    )  # fmt: skip
    for row, (task, block) in enumerate(panels):
        for col, tolerance in enumerate(tolerances):
            ax = axes[row][col]
            d = present[
                (present["task"] == task)
                & (present["block"] == block)
                & (present["tolerance"] == tolerance)
            ].reset_index(drop=True)
            colour = np.where(d["reading"] == "basis-dependent", "tab:red", "0.3")
            x = np.arange(len(d))
            ax.vlines(x, d["harm_low"], d["harm_high"], color=colour, lw=2)
            ax.scatter(x, d["harm"], color=colour, s=10, zorder=3)
            ax.set_xticks([])
            ax.set_title(
                f"{task_label(task)}: {subset_label(block)}, tolerance {tolerance:g}", fontsize=7
            )
            ax.set(ylabel="harm share", xlabel="learned models (construction, N_h, seed)")
    return fig


def fig_basis_sensitivity(basis: pd.DataFrame) -> Figure:
    """(a) κ(V) against Henrici's departure from normality, one point per model; (b) the
    amplification of a 1e-8 perturbation of W through the −T_{C→R} ablation in eigen against
    Schur coordinates (median over draws); (c) the Schur route's amplification per subset;
    (d) the difference of the two routes at W against κ(V)."""
    model = basis.drop_duplicates([*MODEL_KEYS])
    colours = _construction_colours(basis)
    tasks_seen = list(dict.fromkeys(basis["task"]))  # any number of tasks: markers repeat
    markers = {task: "osD^vP*Xph<>"[k % 12] for k, task in enumerate(tasks_seen)}
    fig, axes = subplots(1, 4, figsize=(15, 3.6))

    def scatter(ax, frame, x, y):
        for (task, construction), d in frame.groupby(["task", "construction"]):
            ax.scatter(
                d[x], d[y], marker=markers[task], color=colours[construction], s=14, alpha=0.8
            )

    scatter(axes[0], model, "henrici", "kappa_V")
    axes[0].set(xlabel="Henrici departure dep(W)/‖W‖_F", ylabel="κ(V)", yscale="log")
    routes = basis[basis["subset"] == "T_CR"].pivot_table(
        index=[*MODEL_KEYS],
        columns="route",
        values="amplification_median",
    )
    scatter(axes[1], routes.reset_index(), "schur", "eigen")
    top = max(np.nanmax(routes.to_numpy()) * 2, 20.0)  # at least two decades: major ticks only
    axes[1].plot([0.5, top], [0.5, top], color="0.7", lw=0.8)
    axes[1].set(xlim=(0.5, top), ylim=(0.5, top))
    axes[1].xaxis.set_minor_formatter(NullFormatter())
    axes[1].yaxis.set_minor_formatter(NullFormatter())
    axes[1].set(
        xscale="log",
        yscale="log",
        xlabel="amplification, Schur route (−T_C→R)",
        ylabel="amplification, eigen route (−T_C→R)",
    )
    schur = basis[basis["route"] == "schur"]
    order = [s for s in FIG1_ORDER if s in set(schur["subset"])]
    for i, subset in enumerate(order):
        values = schur[schur["subset"] == subset]
        colour = values["construction"].map(colours)
        axes[2].scatter(
            i + jitter(len(values), 0.25), values["amplification_median"], s=6, color=colour
        )
    axes[2].set_xticks(range(len(order)), [subset_label(s) for s in order], fontsize=6)
    axes[2].set(yscale="log", ylabel="amplification, Schur route")
    scatter(axes[3], model, "kappa_V", "eigen_schur_difference")
    axes[3].set(
        xscale="log",
        yscale="log",
        xlabel="κ(V)",
        ylabel="‖W̃_eigen − W̃_Schur‖_F / ‖W‖_F",
    )
    handles = [Line2D([], [], ls="", marker=m, color="k", label=t) for t, m in markers.items()]
    handles += [Line2D([], [], ls="", marker="o", color=c, label=k) for k, c in colours.items()]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7)
    for ax, letter in zip(axes, "abcd", strict=True):
        ax.set_title(f"({letter})", loc="left", fontsize=9)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def fig_checkpoint_ablation(checkpoints: pd.DataFrame) -> Figure:
    """Held-out score of every ablation set against the training step of the checkpoint, one
    panel per task and construction (largest N_h, one line per seed)."""
    data = largest_size(checkpoints)
    panels = list(data[["task", "construction"]].drop_duplicates().itertuples(index=False))
    order = [s for s in FIG1_ORDER if s in set(data["subset"])]
    cols = min(4, len(panels))
    rows = int(np.ceil(len(panels) / cols))
    fig, axes = subplots(rows, cols, figsize=(3.4 * cols, 2.9 * rows), squeeze=False)
    for ax, (task, construction) in zip(axes.flat, panels, strict=False):
        d = data[(data["task"] == task) & (data["construction"] == construction)]
        for i, subset in enumerate(order):
            for _, run in d[d["subset"] == subset].groupby("seed"):
                run = run.drop_duplicates("step").sort_values("step")
                ax.plot(
                    run["step"], run["score"], marker=".", ms=3, lw=0.9, color=f"C{i}", alpha=0.8
                )
        if d["metric"].iloc[0] == "fvu":
            ax.set_yscale("log")
        ax.set(xlabel="training step", ylabel=f"held-out {d['metric'].iloc[0]}")
        ax.set_title(f"{task}\n{construction} ($N_h$ = {int(d['n_hidden'].max())})", fontsize=8)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    handles = [
        Line2D([], [], color=f"C{i}", label=subset_label(s).replace("\n", " "))
        for i, s in enumerate(order)
    ]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
