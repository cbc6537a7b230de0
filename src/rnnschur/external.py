"""The paper's method on an RNN trained elsewhere: import, check, and analyse one model.

A model is W_xh, W_hh, W_hy and optional biases b_h, b_y with an optional initial state h0, of
one network family (:mod:`rnnschur.dynamics`: discrete, leaky or leaky_current; tanh, relu or
softplus; the paper's is discrete tanh). It comes as an ``.npz`` of those arrays (which may name
its family in 0-d arrays) or as a torch ``state_dict`` (``nn.RNN``, the tutorial CTRNN, or any
layout mapped by keys), converted once by :mod:`rnnschur.convert` (the only step that needs
torch; this module never imports it). :func:`analyse` runs the paper's pipeline on it (ordered Schur
form, all 8 subsets at every alpha, the spectrum, the subspace control and, given a fitting set, the
readout refit) and writes its tables, a profile figure and a summary with the paper's verdict per
coupling block. The workflow's rules and ``python -m rnnschur analyse`` both call it, so they write
the same files.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rnnschur import io, metrics, refit, subspace, views
from rnnschur.ablation import evaluate_ablations
from rnnschur.dynamics import DISCRETE, Dynamics
from rnnschur.io import require as _require
from rnnschur.models import OFFSET_KEYS, WEIGHT_KEYS, check_model
from rnnschur.rnn import rollout
from rnnschur.schur import COUPLING_BLOCKS, ordered_real_schur
from rnnschur.tasks import Batch

SCORES = ("fvu", "accuracy")


@dataclass(frozen=True)
class Score:
    """The score of an external model, in the shape the library's evaluators expect of a task:
    ``fvu`` (eq. 7, over the masked entries) or ``accuracy`` (sign accuracy, eq. 6's form)."""

    SCORE: str

    @property
    def HIGHER_IS_BETTER(self) -> bool:
        return self.SCORE == "accuracy"

    def score(self, outputs: np.ndarray, batch: Batch) -> np.ndarray:
        if self.SCORE == "fvu":
            return metrics.fvu(outputs, batch.targets, batch.mask)
        return metrics.replay_accuracy(outputs, batch.targets, batch.mask)


def load_heldout(path: str | os.PathLike, N_x: int, N_y: int) -> Batch:
    """``inputs`` (n, T, N_x), ``targets`` (n, T, N_y) and an optional ``mask`` ((n, T) or
    (n, T, N_y); all ones when absent), checked against the model's N_x and N_y."""
    keys = io.npz_keys(path)
    _require(
        path, {"inputs", "targets"} <= set(keys), f"needs inputs and targets, has {list(keys)}"
    )
    data = io.load_npz(path, keys)
    inputs, targets = data["inputs"].astype(np.float64), data["targets"].astype(np.float64)
    _require(
        path, inputs.ndim == 3 and targets.ndim == 3, "inputs and targets must be (n, T, lines)"
    )
    _require(
        path,
        inputs.shape[2] == N_x,
        f"inputs have {inputs.shape[2]} lines, the model's W_xh takes N_x = {N_x}",
    )
    _require(
        path,
        targets.shape[2] == N_y,
        f"targets have {targets.shape[2]} lines, the model's W_hy gives N_y = {N_y}",
    )
    _require(
        path,
        inputs.shape[:2] == targets.shape[:2],
        f"inputs {inputs.shape} and targets {targets.shape} differ in trials or steps",
    )
    mask = data.get("mask", np.ones(inputs.shape[:2]))
    _require(
        path,
        mask.shape in (inputs.shape[:2], targets.shape),
        f"mask has shape {mask.shape}, expected {inputs.shape[:2]} or {targets.shape}",
    )
    for name, array in (("inputs", inputs), ("targets", targets), ("mask", mask)):
        _require(path, bool(np.all(np.isfinite(array))), f"{name} has NaN or inf entries")
    _require(path, mask.sum() > 0, "the mask selects no step")
    return Batch(inputs, targets, mask.astype(np.float64))


def load_inputs(
    model: dict[str, np.ndarray],
    heldout: str | os.PathLike,
    initial_state: str | os.PathLike | None = None,
    fitting: str | os.PathLike | None = None,
) -> tuple[dict[str, np.ndarray], Batch, Batch | None]:
    """(model with its h0, held-out set, fitting set or None), each read and checked against the
    model; ``initial_state`` is an ``.npz`` holding ``h0``."""
    if initial_state is not None:
        h0 = io.load_npz(initial_state, ("h0",))["h0"]
        model = check_model({**model, "h0": h0}, initial_state)
    N_x, N_y = model["W_xh"].shape[1], model["W_hy"].shape[0]
    fit = load_heldout(fitting, N_x, N_y) if fitting is not None else None
    return model, load_heldout(heldout, N_x, N_y), fit


MISUSE_FVU = 0.5
"""A full-model FVU at or above this is far from a working network."""
MISUSE_ACCURACY_MARGIN = 0.1
"""A full-model sign accuracy within this of chance (0.5) is far from a working network."""


def misuse_warning(
    score: str, value: float, dynamics: Dynamics, network: str | None = None
) -> str | None:
    """A warning when the full model, rolled out as ``dynamics`` (or run as ``network``, a
    user's own module), scores far from a working network: then the rollout probably does not
    compute what the model computes."""
    bad = value >= MISUSE_FVU if score == "fvu" else value <= 0.5 + MISUSE_ACCURACY_MARGIN
    if not bad:
        return None
    return (
        f"WARNING: the full model scores {score} = {value:.4g} when rolled out as a "
        f"{network or dynamics.describe() + ' RNN'}: far from a working network. The rollout "
        "probably does not match how the model computes: check --dynamics, --leak, "
        "--nonlinearity (config keys dynamics, leak, nonlinearity), the biases (b_h, b_y; "
        "--keys) and the initial state (--initial-state). The verdicts below describe the "
        "rollout, not your model."
    )


def block_verdicts(ablation: pd.DataFrame, alpha: float, fragile_effect: float) -> pd.DataFrame:
    """Per single coupling block at ``alpha``: removed mass, the score change, d_D and the
    paper's verdict: *stabiliser* (d_D ≤ ε, the ablation table's ``stabilizer``), *fragile* (the
    score moves by at least ``fragile_effect``), else *neither*; *empty* where the block has no
    entries to remove."""
    rows = ablation[np.isclose(ablation["alpha"], alpha) & ablation["subset"].isin(COUPLING_BLOCKS)]
    out = rows[
        ["subset", "n_R", "mass_removed", "score", "delta_score", "discrepancy", "stabilizer"]
    ].copy()
    out["verdict"] = [
        "empty"
        if m == 0
        else "stabiliser"
        if s
        else "fragile"
        if abs(d) >= fragile_effect
        else "neither"
        for m, s, d in zip(out["mass_removed"], out["stabilizer"], out["delta_score"], strict=True)
    ]
    return out.reset_index(drop=True)


@dataclass(frozen=True)
class Settings:
    """What :func:`analyse` uses (config keys ``external.*``; the command's options)."""

    score: str = "fvu"
    alpha: float = 0.9
    alpha_grid: tuple[float, ...] = (0.85, 0.9, 0.95)
    epsilon: float = 0.01
    mass_floor: float = 0.01
    fragile_effect: float = 0.1
    subspace_components: int = 8
    subspace_draws: int = 2
    seed: int = 2606  # config key base_seed


def output_files(out: str | os.PathLike) -> dict[str, Path]:
    """The files :func:`analyse` writes in the folder ``out``."""
    out = Path(out)
    names = (
        "schur.npz",
        "ablation.csv",
        "spectrum.csv",
        "verdicts.csv",
        "subspace_control.csv",
        "summary.md",
        "summary.html",
        "profile.pdf",
        "profile.png",
    )
    return {name.replace(".", "_"): out / name for name in names}


def analyse(
    model: dict[str, np.ndarray],
    heldout: Batch,
    settings: Settings,
    out: str | os.PathLike,
    name: str = "model",
    fitting: Batch | None = None,
    progress: Callable[[str], None] = print,
    dynamics: Dynamics = DISCRETE,
    module: tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] | None = None,
) -> dict[str, Path]:
    """Run the paper's pipeline on one model of the family ``dynamics`` and write its files in
    ``out`` (see :func:`output_files`, and ``readout_refit.csv`` when ``fitting`` is given).
    When the full model scores far from a working network, :func:`misuse_warning` is printed
    first and heads the summary.

    ``module`` = (its name, ``forward(W_stack, inputs)``): a user's own torch module
    (:mod:`rnnschur.torch_module`) run as it computes; ``model`` then holds W_hh alone, the
    split uses the family's propagator if ``dynamics`` is leaky (W_hh's own moduli otherwise),
    and the subspace control and the readout refit, which need the hidden states, are skipped."""
    if settings.score not in SCORES:
        raise ValueError(f"score must be one of {SCORES}, got {settings.score!r}")
    files = output_files(out)
    score = Score(settings.score)
    W_xh, W_hh, W_hy = (model.get(k) for k in WEIGHT_KEYS)
    offsets = {k: model[k] for k in OFFSET_KEYS if k in model}
    network = f"{dynamics.describe()} RNN" if module is None else module[0]
    progress(
        f"[1/5] ordered real Schur form of W_hh (N_h = {W_hh.shape[0]}; {network}, "
        f"blocks ordered by the moduli of the propagator with a = {dynamics.split_leak:g})"
    )
    schur = ordered_real_schur(W_hh, leak=dynamics.split_leak)
    io.save_schur(files["schur_npz"], schur)
    progress(f"[2/5] all 8 coupling subsets at alpha = {list(settings.alpha_grid)}")
    rows = evaluate_ablations(
        W_xh,
        W_hh,
        W_hy,
        schur,
        list(settings.alpha_grid),
        heldout,
        score,
        settings.epsilon,
        settings.mass_floor,
        offsets,
        dynamics,
        forward=None if module is None else module[1],
    )
    ablation = pd.DataFrame(rows)
    full_score = ablation.loc[ablation["subset"] == "none", "score"].iloc[0]
    warning = misuse_warning(settings.score, float(full_score), dynamics, network)
    if warning:
        progress(warning)
    ablation.insert(0, "model", name)
    io.save_csv(files["ablation_csv"], ablation)
    eigenvalues, _ = views.spectrum_rows(schur, settings.alpha)
    io.save_rows(files["spectrum_csv"], eigenvalues)
    verdicts = block_verdicts(ablation, settings.alpha, settings.fragile_effect)
    io.save_csv(files["verdicts_csv"], verdicts)
    if module is not None:
        progress("[3/5] subspace control and [4/5] readout refit skipped: a module's own forward")
        del files["subspace_control_csv"]
        progress("[5/5] summary and figure")
        return _finish(
            files, name, model, heldout, settings, ablation, verdicts, dynamics, network, warning
        )
    progress("[3/5] subspace control (activity and readout subspaces, matched random controls)")
    _, hidden = rollout(
        W_xh, W_hh, W_hy, heldout.inputs, return_hidden=True, **offsets, dynamics=dynamics
    )
    axes, _ = subspace.principal_axes(hidden)
    spaces = {
        "top_pcs": axes[:, : min(settings.subspace_components, W_hh.shape[0] - 1)],
        "readout": subspace.readout_subspace(W_hy),
    }
    controls = subspace.evaluate_controls(
        W_xh,
        W_hh,
        W_hy,
        schur,
        settings.alpha,
        heldout,
        score,
        spaces,
        settings.subspace_draws,
        np.random.default_rng(settings.seed),
        offsets=offsets,
        dynamics=dynamics,
    )
    io.save_csv(files["subspace_control_csv"], pd.DataFrame(controls))
    if fitting is not None:
        progress("[4/5] readout refit (ridge, on the fitting set)")
        refits = refit.evaluate_refits(
            W_xh,
            W_hh,
            W_hy,
            schur,
            settings.alpha,
            fitting,
            heldout,
            score,
            0.25,
            [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1],
            offsets,
            dynamics,
        )
        files["readout_refit_csv"] = Path(out) / "readout_refit.csv"
        io.save_csv(files["readout_refit_csv"], pd.DataFrame(refits))
    else:
        progress("[4/5] readout refit skipped (no fitting set given)")
    progress("[5/5] summary and figure")
    return _finish(
        files, name, model, heldout, settings, ablation, verdicts, dynamics, network, warning
    )


def _finish(files, name, model, heldout, settings, ablation, verdicts, dynamics, network, warning):
    """The summary (headed by the misuse warning, if any) and the profile figure."""
    summary = summary_markdown(
        name, model, heldout, settings, ablation, verdicts, dynamics, network
    )
    if warning:
        summary = f"> **{warning}**\n\n{summary}"
    io.save_text(files["summary_md"], summary)
    io.save_text(files["summary_html"], summary_html(name, settings, ablation, verdicts))
    from rnnschur import figures

    figures.save(
        figures.fig_external_profile(ablation, settings.alpha, name),
        [files["profile_pdf"], files["profile_png"]],
    )
    return files


def summary_markdown(
    name, model, heldout, settings, ablation, verdicts, dynamics=DISCRETE, network=None
) -> str:
    """A summary to paste into a lab notebook: the model, its full score, the R/C split and the
    verdict per coupling block in the paper's terms."""
    full = ablation[
        (ablation["subset"] == "none") & np.isclose(ablation["alpha"], settings.alpha)
    ].iloc[0]
    N_h, N_x, N_y = model["W_hh"].shape[0], heldout.inputs.shape[2], heldout.targets.shape[2]
    offsets = [k for k in OFFSET_KEYS if k in model]
    split_operator = (
        "W_hh" if dynamics.split_leak == 1 else f"(1 − a) I + a W_hh, a = {dynamics.leak:g}"
    )
    lines = [
        f"# {name}: Schur-coordinate ablations",
        "",
        f"- {network or dynamics.describe() + ' RNN'}, N_h = {N_h}, N_x = {N_x}, N_y = {N_y}; "
        f"{', '.join(offsets) if offsets else 'no biases, h0 = 0'}",
        f"- held-out set: {heldout.inputs.shape[0]} trials of {heldout.inputs.shape[1]} steps",
        f"- full model: {settings.score} = {full['score']:.4g}; at α = {settings.alpha:g}, "
        f"n_R = {int(full['n_R'])} dimensions in the dominant sector R (split by the moduli "
        f"of {split_operator})",
        f"- ε = {settings.epsilon:g} (d_D, mean squared output difference); fragile: the score "
        f"moves by ≥ {settings.fragile_effect:g}",
        "",
        "| block | removed mass ‖ΔT‖/‖T‖ | score | change | d_D | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for r in verdicts.itertuples(index=False):
        lines.append(
            f"| −{r.subset.replace('T_CR', 'T_C→R')} | {r.mass_removed:.3g} | {r.score:.4g} | "
            f"{r.delta_score:+.3g} | {r.discrepancy:.3g} | {r.verdict} |"
        )
    lines += [
        "",
        "stabiliser: an ε-stabiliser on the held-out set (a candidate approximate invariance "
        "if it removes non-negligible mass); fragile: a fragile functional direction; empty: "
        "the block has no entries at this α. All 8 subsets at every α: `ablation.csv`.",
        "",
    ]
    return "\n".join(lines)


def summary_html(name, settings, ablation, verdicts) -> str:
    """The summary as a self-contained HTML page (the verdicts and the full ablation table)."""
    return (
        f"<!doctype html><meta charset='utf-8'><title>{name}</title>"
        f"<h1>{name}: Schur-coordinate ablations (α = {settings.alpha:g})</h1>"
        f"<h2>Verdict per coupling block</h2>{verdicts.to_html(index=False)}"
        f"<h2>All subsets and α</h2>{ablation.to_html(index=False)}"
        f"<p>settings: {json.dumps(dataclasses.asdict(settings))}</p>"
    )
