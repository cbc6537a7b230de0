"""Figures from the aggregated tables; each function returns a matplotlib Figure.

Plotting never computes results: it reads the tidy tables written by the aggregation rules.
The figures are drawn on :class:`matplotlib.figure.Figure` objects with an Agg canvas of
their own, never through pyplot's global state, and importing this module chooses no
backend: in a notebook the user's own pyplot figures still show inline, and a returned
figure displays itself. The workflow's scripts choose Agg themselves.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle
from matplotlib.ticker import NullFormatter

from rnnschur import tasks
from rnnschur.ablation import label
from rnnschur.io import atomic_path
from rnnschur.io import text as user_text
from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.schur import COUPLING_BLOCKS as SINGLE_BLOCKS
from rnnschur.studies.paper import reported as paper
from rnnschur.studies.paper.reported import FIG1_ORDER
from rnnschur.studies.verdicts import CHANCE, Verdict, largest_size
from rnnschur.training.constructions import CONSTRUCTIONS

PAPER_STYLE = {"marker": "x", "color": "crimson", "s": 60, "zorder": 5, "label": "paper"}


class ShownFigure(Figure):
    """A matplotlib Figure that shows itself in a notebook, as PNG, whatever backend (none
    chosen, no ``%matplotlib inline``): the figures of this module are these."""

    def _repr_png_(self) -> bytes:
        return png(self)


def subplots(nrows: int = 1, ncols: int = 1, *, figsize, layout=None, **grid):
    """(figure, axes) as :func:`matplotlib.pyplot.subplots` gives them, on a
    :class:`ShownFigure` with an Agg canvas of its own: nothing registered with pyplot, no
    backend chosen."""
    fig = ShownFigure(figsize=figsize, layout=layout)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **grid)


def png(fig: Figure) -> bytes:
    """``fig`` drawn as PNG bytes (a notebook's display, an HTML page's image)."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def _label(subset: str) -> str:
    """The ablation set's name (:func:`rnnschur.ablation.label`), one removed block a line."""
    return label(subset).replace(", ", "\n")


def _jitter(n: int, width: float) -> np.ndarray:
    """Offsets spread evenly over [-width, width] (0 for one point): the points of one category
    side by side, at the same places in every run."""
    return np.linspace(-width, width, n) if n > 1 else np.zeros(n)


def _runs(steps: np.ndarray) -> list[tuple[float, float]]:
    """(first, last) of each run of consecutive integer time steps in ``steps`` (one band per
    run instead of one per step)."""
    steps = np.sort(steps)
    breaks = np.flatnonzero(np.diff(steps) != 1)
    starts = np.concatenate([[0], breaks + 1]).astype(int)
    stops = np.concatenate([breaks, [len(steps) - 1]]).astype(int)
    return [(steps[a], steps[b]) for a, b in zip(starts, stops, strict=True)] if len(steps) else []


def _reported() -> pd.DataFrame:
    return pd.DataFrame(paper.REPORTED, columns=paper.COLUMNS)


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
            offset = _jitter(len(seeds), 0.2)[k]
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
                    fontsize=8,
                    color="crimson",
                )
        ax.axhline(CHANCE["accuracy"], color="0.55", lw=0.8, ls=":", label="chance (0.5)")
        ax.set_xticks(range(len(FIG1_ORDER)), [_label(s) for s in FIG1_ORDER], fontsize=7)
        ax.tick_params(axis="y", labelsize=9)
        ax.set_title(f"{construction.replace('_', ' ')}, $N_h$ = {size}", fontsize=10)
    for ax in list(axes.flat)[len(constructions) :]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"replay accuracy (α = {alpha:g})", fontsize=9)
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
    fig, axes = subplots(2, len(task_names), figsize=(3.4 * len(task_names), 6.2), squeeze=False)
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
                        fontsize=8,
                        color="0.4",
                        transform=ax.get_xaxis_transform(),
                    )
                if len(values):
                    ax.bar(i, values.median(), color=f"C{i}", alpha=0.4, width=0.6, label="median")
                    ax.scatter(
                        i + _jitter(len(values), 0.15),
                        values,
                        color=f"C{i}",
                        s=10,
                        zorder=3,
                        label="a trained solution",
                    )
                others = rows[quantity][~learned]  # models that did not learn: shown, not counted
                if len(others):
                    ax.scatter(
                        i + _jitter(len(others), 0.15),
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
            ax.set_xticks(range(3), [_label(b) for b in SINGLE_BLOCKS], fontsize=9)
            ax.tick_params(axis="y", labelsize=9)
            ax.set_xlim(-0.6, 2.6)  # room for a slot's label at either end
            ax.axhline(0, color="0.6", lw=0.8)
            if row == 0:
                seeds = task_data.drop_duplicates("seed")
                n_learned = int(seeds["learned"].sum()) if "learned" in seeds else len(seeds)
                learned_of = f", {n_learned}/{len(seeds)} learned" if n_learned < len(seeds) else ""
                name = f"{task.replace('_', ' ')}\n{construction.replace('_', ' ')}"
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
            fontsize=8,
            frameon=False,
        )
    fig.suptitle(f"The neuroscience tasks: single-block ablations (α = {alpha:g})", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def fig_schur_spectra(eigenvalues: pd.DataFrame, abs_T: pd.DataFrame) -> Figure:
    """Per representative model: ordered eigenvalues λ of W_hh in the complex plane with the
    split's boundaries, where the modulus it reads equals ρ and αρ (circles |λ| = ρ(W), αρ(W);
    for a leaky split |1 − a + aλ| = ρ(P), αρ(P), circles about −(1 − a)/a) (R filled, C
    open), and log |T| with the R/C partition drawn."""
    keys = [*MODEL_KEYS]
    models = eigenvalues[keys].drop_duplicates().itertuples(index=False)
    models = list(models)
    fig, axes = subplots(len(models), 2, figsize=(7.2, 3.3 * len(models)), squeeze=False)
    for (ax_ev, ax_T), model in zip(axes, models, strict=True):
        identity = pd.Series(model._asdict())
        ev = eigenvalues[(eigenvalues[keys] == identity).all(axis=1)]
        T = abs_T[(abs_T[keys] == identity).all(axis=1)]
        rho, alpha, a = ev["rho_P"].iloc[0], ev["alpha"].iloc[0], ev["leak"].iloc[0]
        # |1 − a + aλ| = r is the circle of radius r/a about −(1 − a)/a in the λ-plane
        for radius, style in ((rho, "-"), (alpha * rho, "--")):
            centre = (-(1 - a) / a, 0)
            ax_ev.add_patch(Circle(centre, radius / a, fill=False, ls=style, color="0.5"))
        in_R = ev["in_R"].astype(bool)
        ax_ev.scatter(ev.loc[in_R, "real"], ev.loc[in_R, "imag"], s=14, color="C3", label="R")
        ax_ev.scatter(
            ev.loc[~in_R, "real"],
            ev.loc[~in_R, "imag"],
            s=14,
            facecolors="none",
            edgecolors="C0",
            label="C",
        )
        lim = 1.1 * max(ev["modulus_W"].max(), 1e-3)
        ax_ev.set(xlim=(-lim, lim), ylim=(-lim, lim), aspect="equal", xlabel="Re λ", ylabel="Im λ")
        ax_ev.set_title(
            f"{model.task} {model.construction} $N_h$={model.n_hidden} "
            f"seed {model.seed}\n"
            + (f"ρ = {rho:.3f}" if a == 1 else f"ρ(P) = {rho:.3f}, a = {a:g}")
            + f", α = {alpha:g}",
            fontsize=8,
        )
        ax_ev.legend(fontsize=7, loc="upper right")
        n = int(T["i"].max()) + 1
        matrix = np.zeros((n, n))
        matrix[T["i"], T["j"]] = T["abs_T"]
        image = ax_T.imshow(np.log10(matrix + 1e-12), cmap="magma", vmin=-4)
        ax_T.grid(False)
        n_R = int(T["n_R"].iloc[0])
        ax_T.add_patch(Rectangle((-0.5, -0.5), n_R, n_R, fill=False, color="cyan", lw=1))
        ax_T.add_patch(Rectangle((n_R - 0.5, -0.5), n - n_R, n_R, fill=False, color="lime", lw=1))
        ax_T.add_patch(
            Rectangle((n_R - 0.5, n_R - 0.5), n - n_R, n - n_R, fill=False, color="w", lw=1)
        )
        ax_T.set_title(f"log10 |T|: R block ({n_R}) cyan, T_C→R green, C white", fontsize=8)
        fig.colorbar(image, ax=ax_T, fraction=0.046)
    fig.tight_layout()
    return fig


def fig_training_curves(curves: pd.DataFrame) -> Figure:
    """Validation score against training step, one panel per task and construction."""
    panels = list(curves[["task", "construction"]].drop_duplicates().itertuples(index=False))
    cols = min(4, len(panels))
    rows = int(np.ceil(len(panels) / cols))
    fig, axes = subplots(rows, cols, figsize=(3.2 * cols, 2.8 * rows), squeeze=False)
    for ax, (task, construction) in zip(axes.flat, panels, strict=False):
        data = curves[(curves["task"] == task) & (curves["construction"] == construction)]
        for (size, seed), run in data.groupby(["n_hidden", "seed"]):
            ax.plot(run["step"], run["validation_score"], lw=1, label=f"N_h={size} s{seed}")
        metric = data["metric"].iloc[0]
        if metric == "fvu":
            ax.set_yscale("log")
        ax.set(title=f"{task} / {construction}", xlabel="step", ylabel=f"validation {metric}")
        ax.title.set_fontsize(8)
        ax.legend(fontsize=5)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig


def fig_task_rollouts(examples: pd.DataFrame) -> Figure:
    """One held-out trial per task: target (black, dashed) and output (coloured) of the full
    network and of each single-block ablation; grey bands mark unscored steps."""
    task_names = list(dict.fromkeys(examples["task"]))
    variants = list(dict.fromkeys(examples["variant"]))
    fig, axes = subplots(
        len(task_names),
        len(variants),
        figsize=(2.8 * len(variants), 2.3 * len(task_names)),
        squeeze=False,
        sharey="row",
    )
    for row, task in enumerate(task_names):
        trial = examples[(examples["task"] == task) & (examples["trial"] == 0)]
        for col, variant in enumerate(variants):
            ax = axes[row, col]
            data = trial[trial["variant"] == variant]
            for line, d in data.groupby("line"):
                ax.plot(d["time"], d["target"] + 2.5 * line, "k--", lw=1)
                ax.plot(d["time"], d["value"] + 2.5 * line, color=f"C{line}", lw=1.2)
            unscored = data[(data["line"] == 0) & (data["mask"] == 0)]["time"].to_numpy()
            for start, stop in _runs(unscored):
                ax.axvspan(start - 0.5, stop + 0.5, color="0.92", lw=0)
            ax.set_title(f"{task}: {variant}", fontsize=8)
            ax.set_xlabel("time step")
    fig.tight_layout()
    return fig


# Beyond the paper ---------------------------------------------------------------------------

BLOCK_MARKERS = {"T_RR": "o", "T_CR": "s", "T_CC": "^"}


def _construction_colours(frame: pd.DataFrame) -> dict[str, str]:
    """One colour per construction, in the registry's order (the same in every figure)."""
    return {
        name: f"C{i}" for i, name in enumerate(CONSTRUCTIONS) if name in set(frame["construction"])
    }


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
            ax.set_title(f"{task}: {name}\n({dim}), {side} side", fontsize=7)
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
        ax.set_xticks(range(len(order)), [_label(s) for s in order], fontsize=6)
        ax.set_title(f"{task} ($N_h$ = {int(d['n_hidden'].max())})", fontsize=9)
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
            name = "intact" if ablation == "none" else _label(ablation)
            ax.set_title(
                f"{task}: {name} ({n_stable} stable, {int((kinds == 'cycle').sum())} cycles, "
                f"{int((kinds == 'oscillation').sum())} osc.)",
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
        ax.set_title(f"{task}, {construction.iloc[0] if len(construction) else ''}", fontsize=8)
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
            ax.set_title(f"{task}: {_label(block)}, tolerance {tolerance:g}", fontsize=7)
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
            i + _jitter(len(values), 0.25), values["amplification_median"], s=6, color=colour
        )
    axes[2].set_xticks(range(len(order)), [_label(s) for s in order], fontsize=6)
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
        Line2D([], [], color=f"C{i}", label=_label(s).replace("\n", " "))
        for i, s in enumerate(order)
    ]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


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
HARM_SHARE = "harm share (learned part lost)"


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
            ax.scatter(values, k + _jitter(len(values), 0.15), s=16, color="C0", zorder=3)
        ax.set_yticks(range(len(rows)), rows["variation"])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.scatter(rows["mean"], range(len(rows)), marker="|", s=200, color="k", zorder=4)
        ax.axvline(rows["paper_value"].iloc[0], color="crimson", lw=1.2, label="paper")
        if quantity == "fvu":
            ax.set_xscale("log")
            ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels of a narrow range clash
        ax.set_title(f"{task}: {_label(subset).replace(chr(10), ', ')} {quantity}", fontsize=8)
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


def fig_external_profile(ablation: pd.DataFrame, alpha: float, name: str) -> Figure:
    """The ablation profile of one model trained elsewhere: its score for every subset at
    ``alpha`` (the paper's Figure 1 order), the removed Schur mass written above each bar."""
    rows = ablation[np.isclose(ablation["alpha"], alpha)].set_index("subset").loc[list(FIG1_ORDER)]
    fig, ax = subplots(figsize=(7.5, 3.6))
    x = np.arange(len(rows))
    ax.bar(x, rows["score"], color=["0.4"] + ["C0"] * (len(rows) - 1))
    for k, (value, mass) in enumerate(zip(rows["score"], rows["mass_removed"], strict=True)):
        ax.annotate(f"{mass:.2f}", (k, value), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, [_label(s) for s in rows.index], fontsize=7)
    metric = rows["metric"].iloc[0]
    ax.set_ylabel(metric)
    ax.set_title(
        f"{user_text.plot(name)}: {metric} per ablation set, α = {alpha:g} (numbers: ‖ΔT‖/‖T‖)",
        fontsize=9,
    )
    fig.tight_layout()
    return fig


def harm_label(task: str) -> str:
    """What an ablation's harm is for ``task``: accuracy lost, FVU gained, or, for a task that
    is no generator module's (a NeuroGym task: the choice score), choice lost."""
    names = {"accuracy": "accuracy lost", "fvu": "FVU gained", "choice": "choice lost"}
    return names[tasks.score_of(task)]


REPRODUCIBLE = {"pdf": {"CreationDate": None}}
"""Metadata that would make two drawings of one figure differ, left out (a PDF's date)."""


def save(fig: Figure, paths: list[str]) -> None:
    """Save ``fig`` to each path (format from the suffix), atomically.

    The layout is done once, here: a figure that keeps its layout engine is laid out again, in a
    full draw of its own, before every format is drawn (twice the drawing for two formats)."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
        fig.set_layout_engine(None)
    for path in paths:
        kind = str(path).rsplit(".", 1)[1]
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=kind, metadata=REPRODUCIBLE.get(kind))


def text_clashes(fig: Figure, tolerance: float = 1.0) -> list[str]:
    """Every pair of visible, non-empty texts of ``fig`` (titles, labels, tick labels, legends,
    annotations) whose boxes overlap by more than ``tolerance`` pixels, and every text that
    leaves the canvas, as it is drawn at its size after :func:`save`'s layout; [] for a figure
    that reads on its own."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    canvas = fig.bbox
    texts = list(fig.texts)
    for legend in fig.legends:
        texts += [*legend.get_texts(), legend.get_title()]
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison and not ax.texts and not ax.get_title():
            continue
        texts += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        if ax.get_legend() is not None:
            texts += [*ax.get_legend().get_texts(), ax.get_legend().get_title()]
        if not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            texts.append(axis.label)
            low, high = sorted(axis.get_view_interval())
            span = (high - low) or 1.0
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                # a tick outside the view is not drawn (its label neither)
                if low - 1e-9 * span <= tick.get_loc() <= high + 1e-9 * span:
                    texts += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    boxes = []
    for text in texts:
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.width == 0 or box.height == 0:
            continue
        boxes.append((text.get_text().strip(), box))
    out = []
    for name, box in boxes:
        if (
            box.x0 < canvas.x0 - tolerance
            or box.y0 < canvas.y0 - tolerance
            or box.x1 > canvas.x1 + tolerance
            or box.y1 > canvas.y1 + tolerance
        ):
            out.append(f"{name!r} leaves the canvas")
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if width > tolerance and height > tolerance:
                out.append(f"{a!r} overlaps {b!r}")
    return out


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
