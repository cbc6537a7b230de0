"""The figures of the workflow, declared once: for each, the tables it draws (the arguments of
its function in :mod:`rnnschur.report.figures`), whether it takes the config's α, when a run
draws it and its caption. The workflow derives its figure rules, the targets of ``all``, the
report's captions and the tests" list of figures from :data:`FIGURES` (light: no matplotlib).
The beyond-the-paper figures come from :data:`rnnschur.studies.beyond.registry.ANALYSES`.
"""

from __future__ import annotations

from dataclasses import dataclass

NEEDS = ("models", "copy", "fvu", "gap study", "atlas")
"""When a run draws a figure: it trains any model, the copy task, a task scored by FVU, runs
the gap study, or builds the coupling atlas (config key ``atlas``)."""


@dataclass(frozen=True)
class Figure:
    """One figure: ``tables`` maps each argument of its function to the tidy table it reads
    (``results/tables/<table>.csv``); ``alpha``: it also takes the config's α; ``needs``: one of
    :data:`NEEDS`; ``caption``: the report's caption."""

    tables: dict[str, str]
    caption: str
    needs: str = "models"
    alpha: bool = False

    def __post_init__(self) -> None:
        if self.needs not in NEEDS:
            raise ValueError(f"needs must be one of {NEEDS}, got {self.needs!r}")


FIGURES = {
    "fig1_copy_ablation": Figure(
        tables={"ablation": "by_task/copy/ablation"},  # the copy task's alone
        caption=(
            "Figure 1 reproduced: replay accuracy over 128 lags for each ablation set at the "
            "paper's α, per construction (N_h = 72 where trained). Each coloured point is one "
            "seed; "
            "grey segments join S and S ∪ {T_CC}, so a flat segment means that removing T_CC as "
            "well changes nothing. Red crosses are the paper's values (dense orthogonal and Cayley "
            "only). The dotted line is chance (0.5)."
        ),
        needs="copy",
        alpha=True,
    ),
    "fig2_neuro_ablation": Figure(
        tables={"ablation": "ablation"},
        caption=(
            "Figure 2 reproduced: top row ΔFVU = FVU(W̃) − FVU(W), bottom row S_ΔT = ΔFVU per unit "
            "of removed Schur mass, for the single-block ablations of each neuroscience task; bars "
            "are the mean ± SEM over seeds, points the seeds, red crosses the paper's mean ± SEM. "
            "S_ΔT is missing where the block is empty (nothing removed)."
        ),
        needs="fvu",
        alpha=True,
    ),
    "fig_schur_spectra": Figure(
        tables={"eigenvalues": "spectra", "abs_T": "schur_abs_T"},
        caption=(
            "Ordered real Schur coordinates of one representative model per task and construction "
            "(largest N_h, first seed). Left: eigenvalues with the circles ρ(W) (solid) and αρ(W) "
            "(dashed), R filled, C open. Right: log10 of the magnitudes of T with the R block "
            "(cyan), T_C→R (green) and the C block (white) drawn; everything above the diagonal "
            "blocks is the non-normal coupling N."
        ),
    ),
    "fig_training_curves": Figure(
        tables={"curves": "training_curves"},
        caption=(
            "Validation score during training (a set drawn from each model's own generator) "
            "(replay "
            "accuracy for the copy task, FVU on a log axis for the others), one line per model."
        ),
    ),
    "fig_task_rollouts": Figure(
        tables={"examples": "rollout_examples"},
        caption=(
            "One held-out trial per neuroscience task: the target (dashed black) and the output "
            "(colour, one line per output channel, offset for readability) of the full network and "
            "of each single-block ablation at the paper's α. Grey bands are unscored steps. The "
            "panels show what an ablation breaks: a held state that drifts, a sine that loses its "
            "frequency, a decision of the wrong sign."
        ),
        needs="fvu",
    ),
    "fig_block_profile": Figure(
        tables={"profile": "block_profile"},
        caption=(
            "Block profile of every task: the harm of removing each coupling block (T_RR, T_C→R, "
            "T_CC) at alpha, mean over seeds (accuracy or choice lost, FVU gained; red: harmful), "
            "each cell marked with its verdict from the two-sided t interval over seeds "
            "(▲ fragile, "
            "○ harmless, ? undecided (underpowered or on the threshold), – empty). "
            "Which block matters, task by task: the paper's "
            "“task-restricted”."
        ),
    ),
    "fig_gap_attribution": Figure(
        tables={"gaps": "gap_attribution", "per_seed": "gap_attribution_per_seed"},
        caption=(
            "The gaps to the paper, attributed. One panel per number the paper gives (dense "
            "orthogonal, α = 0.9): each seed's value (points) and the mean (black bar) under this "
            "workflow's paper config, the per-trial FVU normaliser and every variation of the gap "
            "study; the paper's value in red."
        ),
        needs="gap study",
    ),
    "fig_gap_ranking": Figure(
        tables={"ranking": "gap_ranking"},
        caption=(
            "The gap study's variations ranked by their distance to the paper over its Figure 2 "
            "numbers (full-model FVU, ΔFVU and S_ΔT of flip-flop, sine and context, α = 0.9): "
            "the mean over a variation's numbers of abs(log10(seed mean / the paper's value)), in "
            "decades (0: every number equal; 1: every number 10× off; a value of the wrong sign "
            "counts 3). Markers: each task's own distance; white diamond: the ΔFVUs and S_ΔT "
            "alone (a variation stopped at the paper's FVU matches the full FVUs by its rule); "
            "grey tick: the paper config's distance on the same numbers (a variation of fewer "
            "tasks compared like with like)."
        ),
        needs="gap study",
    ),
    "fig_atlas": Figure(
        tables={"atlas": "atlas"},
        caption=(
            "The coupling atlas: for each network description (columns) and N_h (rows), the "
            "harm of removing each coupling block (T_RR, T_C→R, T_CC) at alpha in every task, "
            "mean over the models that learned (accuracy or choice lost, FVU gained; red: "
            "harmful; a symmetric log scale, linear within ±0.01). Marks: the verdict decided "
            "over the whole atlas at its false-discovery rate (Benjamini–Hochberg): ▲ fragile, "
            "○ harmless (the equivalence test), ? undecided (underpowered or on the threshold), "
            "– empty; grey ✕: too few models "
            "learned for a verdict."
        ),
        needs="atlas",
    ),
    "fig_atlas_shift": Figure(
        tables={"atlas": "atlas"},
        caption=(
            "How each block's harm moves between network descriptions, paired per task: one "
            "line per task through its mean harm under each description (a symmetric log axis, "
            "linear within ±0.01); filled marker: fragile, open: harmless, dot: undecided or "
            "empty, at the atlas's false-discovery rate. Groups with too few learned models are "
            "left out."
        ),
        needs="atlas",
    ),
}
