"""The result of one analysis (:class:`Result`) and how it reads: its tables and files, the
warning when the full model is far from a working network, the verdicts' legend, and the
summary in Markdown and as one HTML page."""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rnnschur import io
from rnnschur.ablation import label
from rnnschur.external import (
    FIGURE_NAMES,
    OPTIONAL_NAMES,
    OUTPUT_NAMES,
    SUMMARY_NAMES,
    TABLE_NAMES,
    saving,
)
from rnnschur.external.settings import Settings
from rnnschur.external.verify import Verification
from rnnschur.io import text
from rnnschur.network.catalogue import catalogue_names
from rnnschur.network.dynamics import Dynamics
from rnnschur.schur import OrderedSchur
from rnnschur.studies.verdicts import CHANCE

MISUSE_FVU = 0.5
"""A full-model FVU at or above this is far from a working network."""
MISUSE_ACCURACY_MARGIN = 0.1
"""A full-model sign accuracy within this of chance (0.5) is far from a working network."""


def misuse_warning(
    score: str,
    value: float,
    dynamics: Dynamics,
    network: str | None = None,
    verified: bool = False,
) -> str | None:
    """A warning when the full model, rolled out as ``dynamics`` (or run as ``network``, a
    user's own module), scores far from a working network: then the rollout probably does not
    compute what the model computes, unless it is ``verified`` against the model's own outputs:
    then the model itself is poorly trained, and the warning says so."""
    bad = value >= MISUSE_FVU if score == "fvu" else value <= CHANCE[score] + MISUSE_ACCURACY_MARGIN
    if not bad:
        return None
    if verified:
        return (
            f"WARNING: the model scores {score} = {value:.4g} on this held-out set: far from a "
            "working network. Its rollout is verified against its own outputs, so this is the "
            "model as trained: poorly trained for this task (or scored on another task's "
            "targets). The verdicts below read the little it has learned."
        )
    if network is not None and network.startswith("torch module"):
        return (
            f"WARNING: the full model scores {score} = {value:.4g} when run as the {network}: "
            "far from a working network. The module probably is not built as the trained one: "
            "check its constructor arguments (init_kwargs=..., e.g. dt and tau), its input "
            "layout (time_first=True or not) and its state_dict. The verdicts below describe "
            "the module as built, not your model."
        )
    return (
        f"WARNING: the full model scores {score} = {value:.4g} when rolled out as a "
        f"{network or dynamics.describe() + ' RNN'}: far from a working network. The rollout "
        "probably does not match how the model computes: check the description "
        "(dynamics=..., leak=..., nonlinearity=...), the biases (b_h, b_y; keys=...) and the "
        "initial state (initial_state=...). The verdicts below describe the "
        "rollout, not your model."
    )


VERDICT_LEGEND = (
    "harm share: the part of the learned performance (1 − FVU, or the chance-corrected "
    "accuracy) that removing the block takes away, with its 95 % interval from a bootstrap "
    "over the held-out trials. The verdict is this network's own reading, as the workflow "
    "reads every trained solution: fragile: the interval lies above θ (a fragile functional "
    "direction); stabilizer: within ±θ (harmless, on the harm scale); "
    "improves: below −θ; undecided: the interval straddles θ; absent: the block's removed "
    "Schur mass is below the mass floor (nothing to remove). ε-stabilizer (column eps_stabilizer, "
    "the paper's test): the ablation "
    "changes the outputs by d_D ≤ ε on the held-out set (a candidate approximate invariance "
    "if it removes non-negligible Schur mass)."
)


def description_text(result: Result) -> str:
    """The description as the analysis used it: none on a module split by W_hh's own moduli,
    for the split only (verified or not) on a module split by its propagator."""
    verification, dynamics = result.verification, result.dynamics
    if not verification.description_needed:
        return "none needed (the module runs as it computes; its split by W_hh's own moduli)"
    if verification.found_by == "module":
        checked = (
            "verified against the module's outputs"
            if verification.description_verified
            else "not verified"
        )
        return f"{dynamics.describe()}, for the split only ({checked})"
    return dynamics.describe()


def biases_text(shapes: dict) -> str:
    """The biases the network adds, with the largest |entry| of each, and its initial state."""
    found = shapes.get("biases", {})
    listed = ", ".join(f"{k} (max |·| {v:.2g})" for k, v in found.items())
    if shapes.get("biases_of") == "module":
        return f"biases (the module's own): {listed}" if found else "no bias parameters"
    h0 = "h0 given" if "h0" in shapes.get("offsets", []) else "h0 = 0"
    return f"biases {listed}; {h0}" if found else f"no biases; {h0}"


def _split_rule(schur: OrderedSchur, alpha: float) -> str:
    """The R/C rule with its numbers: '|λ| ≥ α ρ(W) = 0.9 × 1.02' or, for a leaky split,
    '|1 − a + aλ| ≥ α ρ(P) = 0.9 × 0.998'."""
    modulus, rho = ("|λ|", "ρ(W)") if schur.leak == 1 else ("|1 − a + aλ|", "ρ(P)")
    return f"{modulus} ≥ α {rho} = {alpha:g} × {schur.spectral_radius:.4g}"


def split_operator(dynamics: Dynamics, split: str) -> str:
    if dynamics.split_leak(split) == 1:
        return "W_hh"
    return f"(1 − a) I + a W_hh, a = {dynamics.leak:g}"


def summary_markdown(result: Result) -> str:
    """A summary to paste into a lab notebook: whether the rollout is the model, the model, its
    full score, the R/C split and the verdict per coupling block in the paper's terms."""
    settings, shapes, dynamics = result.settings, result.shapes, result.dynamics
    full = result.ablation[
        (result.ablation["subset"] == "none") & np.isclose(result.ablation["alpha"], settings.alpha)
    ].iloc[0]
    module = result.verification.found_by == "module"
    named = "" if module else " = ".join(catalogue_names(dynamics))
    description = description_text(result)
    lines = [
        f"# {text.markdown(result.name)}: Schur-coordinate ablations",
        "",
        f"**{result.verification.line()}.**",
        "",
    ]
    for warning in (result.warning or "").splitlines():
        lines += [f"> **{warning}**", ""]
    lines += [
        f"- {result.network}{f' (catalogue: {named})' if named else ''}, N_h = {shapes['N_h']}, "
        f"N_x = {shapes['N_x']}, N_y = {shapes['N_y']}; {biases_text(shapes)}",
        f"- description: {description}",
        f"- held-out set: {shapes['n_trials']} trials of {shapes['n_steps']} steps",
        f"- full model: {settings.score} = {full['score']:.4g}; at α = {settings.alpha:g}, "
        f"n_R = {int(full['n_R'])} dimensions in the dominant sector R: "
        f"{_split_rule(result.schur, settings.alpha)} (split by the moduli of "
        f"{split_operator(dynamics, settings.split)}; spectrum.csv: modulus_P, rho_P)",
        f"- ε = {settings.epsilon:g} (d_D, mean squared output difference); θ = "
        f"{settings.threshold:g} (the harm share); absent: removed mass below "
        f"{settings.mass_floor:g}",
        "",
        "| block | removed mass ‖ΔT‖/‖T‖ | score | change | harm share [95 % interval] | d_D | "
        "ε-stabilizer | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in result.verdicts.itertuples(index=False):
        lines.append(
            f"| {label(r.subset)} | {r.mass_removed:.3g} | {r.score:.4g} | "
            f"{r.delta_score:+.3g} | {r.harm_share:.3g} [{r.harm_low:.3g}, {r.harm_high:.3g}] | "
            f"{r.discrepancy:.3g} | {'yes' if r.eps_stabilizer else 'no'} | {r.verdict} |"
        )
    lines += ["", VERDICT_LEGEND + " All 8 subsets at every α: `ablation.csv`.", ""]
    if result.fixed_points is not None:
        lines += fixed_point_lines(result.fixed_points)
    return "\n".join(lines)


def fixed_point_lines(table: pd.DataFrame) -> list[str]:
    """The fixed-point study's counts (``fate`` records of
    :func:`rnnschur.studies.fixed_point_study.model_rows`) as Markdown: per input condition and
    ablation, the stable points and saddles, and how many of the intact network's stable points each
    removal keeps, moves (same readout signs), loses; then its attractors (points, cycles,
    oscillations,
    :mod:`rnnschur.studies.attractors`) and what each removal does to them, with the orbits that did
    not settle."""
    lines = [
        "## Fixed points (`fixed_points.csv`)",
        "",
        "| condition | network | stable | saddles | slow | kept | moved | lost | new | attractors "
        "| cycles | oscillations | not settled | attractors kept | moved | lost | new |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    fates = table[table["record"] == "fate"]
    for r in fates.itertuples(index=False):
        network = "intact" if r.ablation == "none" else label(r.ablation)
        counts = [
            r.n_stable, r.n_saddle, r.n_slow, r.kept, r.moved, r.lost, r.new, r.n_attractors,
            r.n_cycles, r.n_oscillations, r.n_unsettled, r.attractors_kept, r.attractors_moved,
            r.attractors_lost, r.attractors_new,
        ]  # fmt: skip
        lines.append(
            f"| {r.condition} | {network} | " + " | ".join(f"{int(c)}" for c in counts) + " |"
        )
    return [*lines, ""]


def summary_html(result: Result, png_base64: str, page: bool = True) -> str:
    """The summary as one self-contained HTML page (``page``; else the fragment a notebook
    shows): the description, the verification line, the profile figure and the verdicts with
    their legend."""
    settings = result.settings
    verdicts = result.verdicts.rename(columns={"subset": "block"}).assign(
        block=lambda f: f["block"].map(label)
    )
    state = "ok" if result.verification.verified else "warn"
    warning = "".join(
        f"<p class='warn' style='color:#a00'>{html.escape(w)}</p>"
        for w in (result.warning or "").splitlines()
    )
    head = (
        "<!doctype html><meta charset='utf-8'>"
        f"<title>{html.escape(result.name)}: Schur-coordinate ablations</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "td,th{padding:0 .6em;text-align:right}.ok{color:#075}.warn{color:#a00}"
        "img{max-width:100%}</style>"
        if page
        else ""
    )
    colour = {"ok": "#075", "warn": "#a00"}
    return (
        head + f"<h1>{html.escape(result.name)}: Schur-coordinate ablations</h1>"
        f"<p class='{state}' style='color:{colour[state]}'>"
        f"<b>{html.escape(result.verification.line())}.</b></p>{warning}"
        f"<p>{html.escape(result.network)}; description: {html.escape(description_text(result))}; "
        f"N_h = {result.shapes['N_h']}; split by the moduli of "
        f"{html.escape(split_operator(result.dynamics, settings.split))}; α = {settings.alpha:g}, "
        f"ε = {settings.epsilon:g}, θ = {settings.threshold:g} (harm share); score "
        f"{settings.score} on {result.shapes['n_trials']} held-out trials.</p>"
        f"<img alt='ablation profile' src='data:image/png;base64,{png_base64}'>"
        "<h2>Verdict per coupling block</h2>"
        + verdicts.to_html(index=False, float_format=lambda v: f"{v:.4g}", na_rep="—")
        + f"<p>{html.escape(VERDICT_LEGEND)} All 8 subsets at every α are in ablation.csv.</p>"
    )


def output_files(out: str | os.PathLike, names: tuple[str, ...] = OUTPUT_NAMES) -> dict[str, Path]:
    """The files of ``names`` (default all that :meth:`Result.save` writes for a model's own
    rollout) in the folder ``out``, keyed by name with ``.`` as ``_``."""
    return {name.replace(".", "_"): Path(out) / name for name in names}


@dataclass(frozen=True, repr=False)
class Result:
    """The paper's analysis of one model: its description and how the rollout was verified,
    the ordered Schur form and, as DataFrames, the ablation of all 8 subsets at every α, the
    verdict per coupling block, the spectrum, the subspace control and the readout refit (None
    where not run). Files only on :meth:`save`; :meth:`plot` draws the profile. In a notebook
    it displays as HTML (the verification line, the profile, the verdicts and the ablation
    table's head); its text form is one line (no Q, no T)."""

    name: str
    network: str
    dynamics: Dynamics
    verification: Verification
    settings: Settings
    schur: OrderedSchur
    ablation: pd.DataFrame
    verdicts: pd.DataFrame
    spectrum: pd.DataFrame
    subspace_control: pd.DataFrame | None
    readout_refit: pd.DataFrame | None
    shapes: dict
    warning: str | None = None
    fixed_points: pd.DataFrame | None = None

    def summary(self) -> str:
        """The summary in Markdown (the verification line first)."""
        return summary_markdown(self)

    def __repr__(self) -> str:
        state = "verified" if self.verification.verified else "NOT verified"
        return (
            f"<rnnschur Result {self.name!r}: {self.network}, N_h = {self.shapes['N_h']}, "
            f"{state}; {len(self.ablation)} ablation rows; verdicts "
            + ", ".join(f"{r.subset} {r.verdict}" for r in self.verdicts.itertuples())
            + ">"
        )

    def _repr_html_(self) -> str:
        """The notebook's display: :func:`summary_html`'s body, with the ablation table's head."""
        from rnnschur.report import figures

        png = base64.b64encode(figures.png(self.plot())).decode("ascii")
        head = self.ablation[np.isclose(self.ablation["alpha"], self.settings.alpha)]
        return summary_html(self, png, page=False) + (
            f"<h3>ablation.csv at α = {self.settings.alpha:g} (of {len(self.ablation)} rows)</h3>"
            + head.to_html(index=False, float_format=lambda v: f"{v:.4g}", na_rep="—")
        )

    def plot(self):
        """The ablation profile at the settings' α as a matplotlib figure."""
        from rnnschur.report import figures

        return figures.fig_external_profile(self.ablation, self.settings.alpha, self.name)

    def save(self, out: str | os.PathLike, force: bool = False) -> dict[str, Path]:
        """Write every table, the Schur form, the profile and the summaries into ``out``: the
        workflow's three jobs of one external model (:meth:`save_tables`, :meth:`save_profile`,
        :meth:`save_summary`) in one call.

        A folder that already holds files of this analysis is refused (:class:`FileExistsError`
        naming them) unless ``force``; then they are all replaced, so no file of an earlier
        model is left beside the new ones. Written whole or not at all, whatever signal
        arrives (:mod:`rnnschur.external.saving`): every file is first written into a hidden
        folder inside ``out``, then the set is swapped into place; a failure, Ctrl-C or SIGTERM
        before that leaves ``out`` as it was, and the next save undoes what a SIGKILL left."""
        out = Path(out).expanduser()
        saving.refuse_earlier_results(out, force)
        out.mkdir(parents=True, exist_ok=True)
        with saving.terminate_as_exit():
            staging = saving.staging_folder(out)
            try:
                files = self.save_tables(staging)
                files |= self.save_profile(staging)
                files |= self.save_summary(staging)
                return saving.replace_outputs(out, files, force)
            finally:
                shutil.rmtree(staging, ignore_errors=True)

    def save_tables(self, out: str | os.PathLike) -> dict[str, Path]:
        """The computed part: the Schur form, every table, the verification record and
        ``analysis.json`` (what :meth:`load` needs to rebuild this result)."""
        files = output_files(out, TABLE_NAMES)
        if self.subspace_control is None:
            del files["subspace_control_csv"]
        io.save_schur(files["schur_npz"], self.schur)
        # a name a spreadsheet would run as a formula (=, +, -, @ first) is written as text
        io.save_csv(files["ablation_csv"], self.ablation.assign(model=text.csv_cell(self.name)))
        io.save_csv(files["spectrum_csv"], self.spectrum)
        io.save_csv(files["verdicts_csv"], self.verdicts)
        if self.subspace_control is not None:
            io.save_csv(files["subspace_control_csv"], self.subspace_control)
        optional = output_files(out, OPTIONAL_NAMES)
        for key, table in (
            ("readout_refit_csv", self.readout_refit),
            ("fixed_points_csv", self.fixed_points),
        ):
            if table is not None:
                files[key] = optional[key]
                io.save_csv(files[key], table)
        io.save_json(files["verification_json"], self.verification.as_dict())
        record = {
            "name": self.name,
            "network": self.network,
            "dynamics": self.dynamics.as_dict(),
            "settings": dataclasses.asdict(self.settings),
            "shapes": self.shapes,
            "warning": self.warning,
            "verification": self.verification.record(),
        }
        io.save_json(files["analysis_json"], record)
        return files

    def save_profile(self, out: str | os.PathLike) -> dict[str, Path]:
        """The profile figure (:meth:`plot`) as PDF and PNG."""
        from rnnschur.report import figures

        files = output_files(out, FIGURE_NAMES)
        figures.save(self.plot(), [files["profile_pdf"], files["profile_png"]])
        return files

    def save_summary(self, out: str | os.PathLike) -> dict[str, Path]:
        """The summaries: Markdown, and one HTML page that embeds ``profile.png`` (written by
        :meth:`save_profile`)."""
        files = output_files(out, SUMMARY_NAMES)
        io.save_text(files["summary_md"], self.summary())
        png = base64.b64encode((Path(out) / "profile.png").read_bytes()).decode("ascii")
        io.save_text(files["summary_html"], summary_html(self, png))
        return files

    @classmethod
    def load(cls, out: str | os.PathLike, weights: str | os.PathLike) -> Result:
        """The result :meth:`save_tables` wrote into ``out``, its Schur form checked against the
        model's W_hh (``weights``: the model's ``.npz``)."""
        out = Path(out)
        record = json.loads((out / "analysis.json").read_text())
        dynamics = Dynamics.from_config(record["dynamics"])
        settings = record["settings"]
        settings = Settings(**{**settings, "alpha_grid": tuple(settings["alpha_grid"])})

        def table(name: str) -> pd.DataFrame | None:
            path = out / name
            if not path.is_file():
                return None
            try:
                return pd.read_csv(path)
            except pd.errors.EmptyDataError:  # a table without rows (no block had mass)
                return pd.DataFrame()

        W_hh = io.load_npz(weights, ("W_hh",))["W_hh"]
        return cls(
            record["name"],
            record["network"],
            dynamics,
            Verification.from_record(dynamics, record["verification"]),
            settings,
            io.load_schur(out / "schur.npz", W_hh),
            table("ablation.csv").assign(model=record["name"]),
            table("verdicts.csv"),
            table("spectrum.csv"),
            table("subspace_control.csv"),
            table("readout_refit.csv"),
            record["shapes"],
            record["warning"],
            table("fixed_points.csv"),
        )
