"""Figures from the aggregated tables; each function returns a matplotlib Figure.

Plotting never computes results: it reads the tidy tables written by the aggregation rules.
The figures are drawn on :class:`matplotlib.figure.Figure` objects with an Agg canvas of
their own, never through pyplot's global state, and importing this package chooses no
backend: in a notebook the user's own pyplot figures still show inline, and a returned
figure displays itself. The workflow's scripts choose Agg themselves.

One module per group of figures (:data:`MODULES`); this package imports none of them until a
name of it is asked for (``figures.fig1_copy_ablation`` imports :mod:`.paper` alone), so that a
figure's job imports only what that figure draws.
"""

from __future__ import annotations

import importlib

MODULES = {
    "canvas": (
        "ShownFigure",
        "subplots",
        "png",
        "save",
        "subset_label",
        "task_label",
        "jitter",
        "REPRODUCIBLE",
        "HARM_SHARE",
    ),
    "paper": ("fig1_copy_ablation", "fig2_neuro_ablation", "PAPER_STYLE"),
    "models": ("fig_schur_spectra", "fig_training_curves", "fig_task_rollouts"),
    "profiles": (
        "fig_block_profile",
        "fig_atlas",
        "fig_atlas_shift",
        "fig_external_profile",
        "VERDICT_MARKS",
        "MARKS_LEGEND",
        "ATLAS_LEGEND",
    ),
    "gap": ("fig_gap_attribution", "fig_gap_ranking"),
    "beyond": (
        "fig_subspace_control",
        "fig_readout_refit",
        "fig_fixed_points",
        "fig_dose_response",
        "fig_basis_dependence",
        "fig_basis_sensitivity",
        "fig_checkpoint_ablation",
        "harm_label",
        "BLOCK_MARKERS",
    ),
    "clashes": ("text_clashes",),
}
"""The package's modules (under ``rnnschur.report.figures``) and the public names of each."""
WHERE = {name: f"{__name__}.{module}" for module, names in MODULES.items() for name in names}
"""The module that defines each public name (the workflow's code fingerprint of a figure)."""


def __getattr__(name: str):
    """A public name of one of :data:`MODULES`, its module imported on first use."""
    if name not in WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(WHERE[name]), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *WHERE])
