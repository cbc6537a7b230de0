"""The paper's pipeline on one model trained elsewhere, once it is read and verified.

:func:`run` takes the model's :class:`rnnschur.Network` as read
(:func:`rnnschur.external.reading.read_network`; for a torch module run as it computes, its
:class:`~rnnschur.external.torch_module.ModuleRun` beside it), its held-out set and the
:class:`rnnschur.external.verify.Verification` that proves the rollout is the model, and runs in
process the per-model functions of the workflow's rules (the ordered Schur form, all 8 subsets
at every α with the model's own reading, the subspace control, the readout refit and the
spectrum) with the settings and random streams those rules have for the model's task block
``external__<name>``; :func:`assemble` makes the verdict per coupling block and the
:class:`Result`. In the workflow the rules themselves run on the imported model, and
:func:`from_model_files` assembles the same :class:`Result` from their files, so the command and
the workflow write the same tables. Nothing is read or written by :func:`run`:
:func:`rnnschur.analyse` (:mod:`rnnschur.external.api`) reads the model (:mod:`.reading`) and
its held-out set, verifies (:mod:`.verify`) and calls it; :meth:`Result.save` writes the tables,
the profile figure and the summaries.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from rnnschur import io
from rnnschur.ablation import Analysed, Scoring, evaluate_ablations, model_ablations
from rnnschur.external import (
    FIGURE_NAMES,
    OPTIONAL_NAMES,
    OUTPUT_NAMES,
    SUMMARY_NAMES,
    TABLE_NAMES,
    saving,
)
from rnnschur.external.settings import Settings, per_model_settings
from rnnschur.external.summary import misuse_warning, split_operator, summary_html, summary_markdown
from rnnschur.external.task import EXTERNAL, Score
from rnnschur.external.verify import Verification
from rnnschur.io import text
from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.network import Network
from rnnschur.network.dynamics import Dynamics
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur, ordered_real_schur, spectrum_rows
from rnnschur.settings.seeds import job_rng
from rnnschur.studies import fixed_point_study
from rnnschur.studies.beyond import refit, subspace
from rnnschur.studies.solutions import model_reading
from rnnschur.studies.verdicts import harm_share
from rnnschur.tasks import Batch

if TYPE_CHECKING:  # the module route alone imports it
    from rnnschur.external.torch_module import ModuleRun


def block_verdicts(ablation: pd.DataFrame, alpha: float, metric: str) -> pd.DataFrame:
    """Per single coupling block at ``alpha``: removed mass, the score, its change, the harm
    share (the part of the learned performance the removal takes away,
    :func:`rnnschur.studies.verdicts.harm_share`) with its interval over the held-out trials, d_D,
    whether the ablation is an ε-stabiliser (d_D ≤ ε, the ablation table's ``stabilizer``)
    and the verdict: this model's own reading of the removal, as the workflow reads every
    trained solution (the ablation table's ``reading``, :mod:`rnnschur.studies.solutions`):
    *fragile*, *stabilizer*, *improves*, *undecided* or *absent*. The columns that matter stand
    at both ends (the block, the word and the harm share first, its interval and the score's
    change last), where a printed table that pandas cuts short in the middle still shows them."""
    rows = ablation[np.isclose(ablation["alpha"], alpha) & ablation["subset"].isin(COUPLING_BLOCKS)]
    out = rows[["subset", "reading"]].rename(columns={"reading": "verdict"})
    out["harm_share"] = harm_share(metric, rows["score"] - rows["delta_score"], rows["score"])
    middle = ["score", "mass_removed", "n_R", "discrepancy", "stabilizer"]
    out[[*middle, "harm_low", "harm_high", "delta_score"]] = rows[
        [*middle, "harm_low", "harm_high", "delta_score"]
    ]
    return out.reset_index(drop=True)


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


def run(
    network: Network,
    heldout: Batch,
    settings: Settings,
    verification: Verification,
    name: str = "model",
    fitting: Batch | None = None,
    module: ModuleRun | None = None,
    progress: Callable[[str], None] = print,
) -> Result:
    """The paper's pipeline on one ``network``, described as ``verification`` records (its
    ``dynamics``), whose rollout was checked against its own outputs; nothing is written.

    The per-model functions of the workflow's rules, in process: the ordered Schur form (rule
    ``schur``), every ablation with the model's own reading (``ablate``,
    :func:`rnnschur.ablation.model_ablations`), the spectrum (``spectrum``), the subspace
    control (``subspace_control``) and, with a ``fitting`` set, the readout refit
    (``readout_refit``), each with the settings and the random streams those jobs have for the
    model's task block ``external__<name>`` (:func:`per_model_settings`), so that the command
    and the workflow write the same tables; then :func:`assemble`.

    ``module``: a user's own torch module run as it computes
    (:class:`rnnschur.external.torch_module.ModuleRun`); its W_hh is the network analysed, its
    own forward scores every ablation, and the subspace control and the readout refit, which
    need the hidden states of the rollout, are skipped. The α split is the settings'
    (``split``).

    Eight parameters, not a value object: the parts of one analysis, each made once by
    :func:`rnnschur.analyse`, its only caller.
    """
    dynamics = verification.dynamics
    if settings.fixed_points and module is not None:
        raise ValueError(
            "fixed_points=True: the fixed-point search needs the network's equations (the "
            "Jacobian of the described update); a torch module run as it computes has none. "
            "Give its arrays (a state_dict or .npz) with its description instead"
        )
    task = Score(settings.score)
    if module is not None:  # the matrix its forward swaps, nothing else of the mapped arrays
        network = Network(None, module.W_hh, None, dynamics)
    runs_as = f"{dynamics.describe()} RNN" if module is None else module.name
    shapes = shapes_of(network, heldout, None if module is None else module.biases)
    progress(
        f"[1/5] ordered real Schur form of W_hh (N_h = {network.n_hidden}; {runs_as}, "
        f"blocks ordered by the moduli of {split_operator(dynamics, settings.split)})"
    )
    leak = dynamics.split_leak(settings.split)
    schur = ordered_real_schur(network.W_hh, leak=leak)
    eigenvalues, _ = spectrum_rows(schur, settings.alpha)
    progress(f"[2/5] all 8 coupling subsets at alpha = {list(settings.alpha_grid)}")
    blocks = per_model_settings(settings)
    # this network's own reading of each ablation, its bootstrap from the stream of external
    # models (their task blocks', the workflow's instances.expand_external) and seed 0
    solution = model_reading(blocks["verdicts"], settings.n_boot, settings.seed, EXTERNAL, 0)
    analysed = Analysed.scored(network, schur, heldout, task, blocks["ablation"]["fvu_steps"])
    if module is None:
        rows = model_ablations(analysed, settings.alpha_grid, blocks["ablation"], solution)
    else:
        scoring = Scoring.from_config(blocks["ablation"])
        alphas = list(settings.alpha_grid)
        rows = evaluate_ablations(analysed, alphas, scoring, module.forward, solution=solution)
    controls = refits = None
    n_hidden = network.n_hidden
    if module is not None:
        progress("[3/5] subspace control and [4/5] readout refit skipped: a module's own forward")
    else:
        progress("[3/5] subspace control (activity and readout subspaces, matched random controls)")
        rng = job_rng(settings.seed, "subspace_control", EXTERNAL, EXTERNAL, n_hidden, 0)
        controls = pd.DataFrame(subspace.model_rows(analysed, blocks["subspace_control"], rng))
        if fitting is not None:
            progress("[4/5] readout refit (ridge, on the fitting set)")
            rng = job_rng(settings.seed, "readout_refit", EXTERNAL, EXTERNAL, n_hidden, 0)
            refits = pd.DataFrame(refit.model_rows(analysed, fitting, blocks["readout_refit"], rng))
        else:
            progress("[4/5] readout refit skipped (no fitting set given)")
    points = None
    if settings.fixed_points:
        progress(
            "[4/5] fixed points, intact and with each coupling block removed at "
            f"alpha = {settings.alpha:g}"
        )
        study = fixed_point_study.Study(settings.alpha, {})
        points = fixed_point_study.model_rows(network, schur, heldout, "external", study)
        points = pd.DataFrame(points)
    progress("[5/5] tables done")
    return assemble(
        Parts(name, runs_as, verification, settings, schur),
        Tables(pd.DataFrame(rows), pd.DataFrame(eigenvalues), controls, refits, points),
        shapes,
        progress,
    )


@dataclass(frozen=True)
class Parts:
    """What one analysis is of: the model's name, what runs it (a described RNN or a module),
    how its rollout was verified, the settings and its ordered Schur form."""

    name: str
    network: str
    verification: Verification
    settings: Settings
    schur: OrderedSchur


@dataclass(frozen=True)
class Tables:
    """The per-model tables of one analysis, without the workflow's model labels: every
    ablation, the spectrum, the subspace control, the readout refit and the fixed points (None
    where not run)."""

    ablation: pd.DataFrame
    spectrum: pd.DataFrame
    subspace_control: pd.DataFrame | None = None
    readout_refit: pd.DataFrame | None = None
    fixed_points: pd.DataFrame | None = None


def shapes_of(net: Network, heldout: Batch, module_biases: dict[str, float] | None = None) -> dict:
    """The sizes the summary states: N_h, N_x, N_y, the held-out trials and steps, the offsets
    the network adds and its biases (name → largest |entry|): the offsets b_h and b_y of its
    arrays, or a module's own bias parameters (``module_biases``, where it runs as it
    computes), and whose they are ("arrays" or "module")."""
    offsets = net.offsets
    biases = module_biases
    if biases is None:
        biases = {k: float(np.max(np.abs(offsets[k]))) for k in ("b_h", "b_y") if k in offsets}
    return {
        "N_h": int(net.n_hidden),
        "N_x": int(heldout.inputs.shape[2]),
        "N_y": int(heldout.targets.shape[2]),
        "n_trials": int(heldout.inputs.shape[0]),
        "n_steps": int(heldout.inputs.shape[1]),
        "offsets": list(offsets),
        "biases": biases,
        "biases_of": "arrays" if module_biases is None else "module",
    }


def assemble(
    parts: Parts, tables: Tables, shapes: dict, progress: Callable[[str], None] = print
) -> Result:
    """The :class:`Result` of one model's per-model tables (computed in process by :func:`run`,
    or read from the workflow's per-model files by :func:`from_model_files`): the verdict per
    coupling block of its ablation table and the warnings (the verification's, and a full model
    far from a working network)."""
    settings, ablation = parts.settings, tables.ablation.copy()
    ablation.insert(0, "model", parts.name)
    verdicts = block_verdicts(ablation, settings.alpha, settings.score)
    full_score = ablation.loc[ablation["subset"] == "none", "score"].iloc[0]
    dynamics = parts.verification.dynamics
    warnings = [
        parts.verification.warning(),
        misuse_warning(
            settings.score,
            float(full_score),
            dynamics,
            parts.network,
            parts.verification.verified,
        ),
    ]
    warning = "\n".join(w for w in warnings if w) or None
    if warning:
        progress(warning)
    return Result(
        parts.name,
        parts.network,
        dynamics,
        parts.verification,
        settings,
        parts.schur,
        ablation,
        verdicts,
        tables.spectrum,
        tables.subspace_control,
        tables.readout_refit,
        shapes,
        warning,
        tables.fixed_points,
    )


def model_table(path: str | os.PathLike) -> pd.DataFrame:
    """A per-model table of the workflow without its model labels, its numbers read back exactly
    as they were written (pandas 3 reads every float exactly; pandas 2 needs its round-trip
    parser for that)."""
    exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
    return pd.read_csv(path, **exact).drop(columns=[*MODEL_KEYS])


def from_model_files(name: str, files: dict, settings: Settings) -> Result:
    """The analysis of the external model ``name`` from the files the workflow's per-model
    rules wrote of its task block (``files``: ``weights``, ``schur``, ``heldout``, the import's
    ``verification`` record, and the tables ``ablation``, ``spectrum``, ``subspace_control``
    and, where it had a fitting set, ``readout_refit``), with the ``settings`` of the config
    that made them; :func:`assemble`, as the command's :func:`run` does in process."""
    net, schur, heldout = io.load_model(files["weights"], files["schur"], files["heldout"])
    record = io.load_json(files["verification"])
    verification = Verification.from_record(net.dynamics, record)
    refits = files.get("readout_refit")
    tables = Tables(
        model_table(files["ablation"]),
        model_table(files["spectrum"]),
        model_table(files["subspace_control"]),
        model_table(refits) if refits else None,
    )
    return assemble(
        Parts(name, f"{net.dynamics.describe()} RNN", verification, settings, schur),
        tables,
        shapes_of(net, heldout),
        lambda line: None,
    )
