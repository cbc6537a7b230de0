"""One representative model at a time: its Schur coordinates, its training curve and one
held-out trial of each task under each single-block ablation."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.report.figures.canvas import subplots


def _runs(steps: np.ndarray) -> list[tuple[float, float]]:
    """(first, last) of each run of consecutive integer time steps in ``steps`` (one band per
    run instead of one per step)."""
    steps = np.sort(steps)
    breaks = np.flatnonzero(np.diff(steps) != 1)
    starts = np.concatenate([[0], breaks + 1]).astype(int)
    stops = np.concatenate([breaks, [len(steps) - 1]]).astype(int)
    return [(steps[a], steps[b]) for a, b in zip(starts, stops, strict=True)] if len(steps) else []


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
