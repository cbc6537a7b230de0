"""The paper's pipeline on one model trained elsewhere, once it is read and verified.

:func:`run` takes the model's arrays (or, for a torch module run as it computes, its W_hh and
forward), its held-out set, its description and the :class:`rnnschur.external.verify.Verification`
that proves the rollout is the model, and runs in process the per-model functions of the
workflow's rules (the ordered Schur form, all 8 subsets at every α with the model's own reading,
the spectrum, the subspace control and the readout refit) with the settings and random streams
those rules have for the model's task block ``external__<name>``; :func:`assemble` makes the
verdict per coupling block and the :class:`Result`. In the workflow the rules themselves run on
the imported model, and :func:`from_model_files` assembles the same :class:`Result` from their
files, so the command and the workflow write the same tables. Nothing is read or written by
:func:`run`: :func:`rnnschur.analyse` (:mod:`rnnschur.external.api`) reads the files, converts a
state_dict (:mod:`.convert`), verifies (:mod:`.verify`) and calls it; :meth:`Result.save` writes
the tables, the profile figure and the summaries.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import math
import numbers
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rnnschur import io
from rnnschur.ablation import Analysed, Scoring, evaluate_ablations, label, model_ablations
from rnnschur.external import (
    FIGURE_NAMES,
    OPTIONAL_NAMES,
    OUTPUT_NAMES,
    SUMMARY_NAMES,
    TABLE_NAMES,
    saving,
)
from rnnschur.external.task import EXTERNAL, SCORES, Score
from rnnschur.external.verify import Verification
from rnnschur.io import text
from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.network import Network
from rnnschur.network.dynamics import SPLITS, Dynamics, catalogue_names
from rnnschur.report import views
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur, check_alpha, ordered_real_schur
from rnnschur.settings.schema import default, out_of_bounds
from rnnschur.settings.seeds import job_rng
from rnnschur.studies import fixed_point_study
from rnnschur.studies.beyond import refit, subspace
from rnnschur.studies.solutions import model_reading
from rnnschur.studies.verdicts import CHANCE, harm_share
from rnnschur.tasks import Batch

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


def block_verdicts(ablation: pd.DataFrame, alpha: float, metric: str) -> pd.DataFrame:
    """Per single coupling block at ``alpha``: removed mass, the score, its change, the harm
    share (the part of the learned performance the removal takes away,
    :func:`rnnschur.studies.verdicts.harm_share`) with its interval over the held-out trials, d_D,
    whether the ablation is an ε-stabiliser (d_D ≤ ε, the ablation table's ``stabilizer``)
    and the verdict: this model's own reading of the removal, as the workflow reads every
    trained solution (the ablation table's ``reading``, :mod:`rnnschur.ablation.solutions`):
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


def _from_schema(key: str):
    """A :class:`Settings` field whose default is the schema's for config key ``key``, read
    when a Settings is made (:func:`rnnschur.settings.schema.default`)."""
    return dataclasses.field(default_factory=lambda: default(key), metadata={"key": key})


@dataclass(frozen=True)
class Settings:
    """What :func:`analyse` uses: the command's options; each default the config schema's for
    the same key (:func:`rnnschur.settings.schema.default`), as a workflow run reads it."""

    score: str = "fvu"
    alpha: float = _from_schema("alpha")
    alpha_grid: tuple[float, ...] = _from_schema("alpha_grid")
    epsilon: float = _from_schema("ablation.epsilon")
    mass_floor: float = _from_schema("ablation.mass_floor")
    threshold: float = _from_schema("verdicts.threshold")
    level: float = _from_schema("verdicts.level")
    n_boot: int = _from_schema("solutions.bootstrap")
    subspace_components: int = _from_schema("subspace_control.n_components")
    subspace_draws: int = _from_schema("subspace_control.n_draws")
    subspace_trials: int = _from_schema("subspace_control.n_trials")
    subspace_variance: float = _from_schema("subspace_control.variance")
    seed: int = _from_schema("base_seed")
    split: str = _from_schema("schur_split")
    validation_fraction: float = _from_schema("readout_refit.validation_fraction")
    ridge_grid: tuple[float, ...] = _from_schema("readout_refit.ridge_grid")
    fixed_points: bool = (
        False  # the fixed-point study (rnnschur.studies.fixed_points), intact and ablated
    )

    def __post_init__(self) -> None:
        if self.score not in SCORES:
            raise ValueError(f"score={self.score!r}: must be one of {SCORES}")
        numbers = {
            "alpha": self.alpha,
            "epsilon": self.epsilon,
            "mass_floor": self.mass_floor,
            "threshold": self.threshold,
        }
        numbers |= {f"alpha_grid[{i}]": a for i, a in enumerate(self.alpha_grid)}
        numbers |= {f"ridge_grid[{i}]": lam for i, lam in enumerate(self.ridge_grid)}
        for name, value in numbers.items():
            if not _real(value) or not math.isfinite(value) or value < 0:
                raise TypeError(f"{name}={value!r}: must be a finite number ≥ 0")
        counts = {
            "subspace_components": self.subspace_components,
            "subspace_draws": self.subspace_draws,
            "subspace_trials": self.subspace_trials,
            "n_boot": self.n_boot,
            "seed": self.seed,
        }
        for name, value in counts.items():
            if not isinstance(value, int | np.integer) or isinstance(value, bool) or value < 0:
                raise TypeError(f"{name}={value!r}: must be a whole number ≥ 0")
        if self.split not in SPLITS:
            raise ValueError(f"split={self.split!r}: must be one of {SPLITS}")
        for field in dataclasses.fields(self):  # the config's bounds, from its schema
            if "key" in field.metadata and field.name != "seed":
                value = getattr(self, field.name)
                if (reason := out_of_bounds(field.metadata["key"], value)) is not None:
                    raise ValueError(f"{field.name}={value!r}: {reason}")
        check_alpha(self.alpha, self.alpha_grid)
        if len(set(self.alpha_grid)) < len(self.alpha_grid):
            repeated = sorted({a for a in self.alpha_grid if list(self.alpha_grid).count(a) > 1})
            raise ValueError(f"alpha_grid={list(self.alpha_grid)}: α {repeated} given twice")
        for name in ("level", "subspace_variance"):
            value = getattr(self, name)
            if not (_real(value) and 0 < value < 1):
                raise ValueError(f"{name}={value!r}: must lie in (0, 1)")
        if not (_real(self.validation_fraction) and 0 < self.validation_fraction < 1):
            fraction = self.validation_fraction
            raise ValueError(f"validation_fraction={fraction!r}: must lie in (0, 1)")
        if not self.ridge_grid:
            raise ValueError("ridge_grid=(): give at least one ridge strength")
        if not isinstance(self.fixed_points, bool):
            raise TypeError(f"fixed_points={self.fixed_points!r}: must be True or False")


def _real(value) -> bool:
    """True for a real number (not a bool, a string or None)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def output_files(out: str | os.PathLike, names: tuple[str, ...] = OUTPUT_NAMES) -> dict[str, Path]:
    """The files of ``names`` (default all that :meth:`Result.save` writes for a model's own
    rollout) in the folder ``out``, keyed by name with ``.`` as ``_``."""
    return {name.replace(".", "_"): Path(out) / name for name in names}


VERDICT_LEGEND = (
    "harm share: the part of the learned performance (1 − FVU, or the chance-corrected "
    "accuracy) that removing the block takes away, with its 95 % interval from a bootstrap "
    "over the held-out trials. The verdict is this network's own reading, as the workflow "
    "reads every trained solution: fragile: the interval lies above θ (a fragile functional "
    "direction); stabilizer: within ±θ (the paper's ε-stabilizer, on the harm scale); "
    "improves: below −θ; undecided: the interval straddles θ; absent: the block's removed "
    "Schur mass is below the mass floor (nothing to remove). ε-stabiliser (d_D): the ablation "
    "changes the outputs by d_D ≤ ε on the held-out set (a candidate approximate invariance "
    "if it removes non-negligible Schur mass)."
)


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


def per_model_settings(settings: Settings) -> dict:
    """The settings of the per-model functions, as the workflow's jobs of an external model read
    them from the config (config ``ablation`` scored on the model's own mask, ``verdicts``,
    ``subspace_control``, ``readout_refit``): the same numbers make the same tables."""
    ablation = {
        "epsilon": settings.epsilon,
        "mass_floor": settings.mass_floor,
        "fvu_steps": "masked",
    }
    return {
        "ablation": ablation,
        "verdicts": {"threshold": settings.threshold, "level": settings.level},
        "subspace_control": {
            "n_components": settings.subspace_components,
            "n_draws": settings.subspace_draws,
            "n_trials": settings.subspace_trials,
            "variance": settings.subspace_variance,
            "alpha": settings.alpha,
            "ablation": ablation,
        },
        "readout_refit": {
            "alpha": settings.alpha,
            "ablation": ablation,
            "validation_fraction": settings.validation_fraction,
            "ridge_grid": list(settings.ridge_grid),
        },
    }


def run(
    model: dict[str, np.ndarray],
    heldout: Batch,
    settings: Settings,
    verification: Verification,
    name: str = "model",
    fitting: Batch | None = None,
    module: tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] | None = None,
    progress: Callable[[str], None] = print,
    biases: dict[str, float] | None = None,
) -> Result:
    """The paper's pipeline on one model described as ``verification`` records (its
    ``dynamics``), whose rollout was checked against its own outputs; nothing is written.

    The per-model functions of the workflow's rules, in process: the ordered Schur form (rule
    ``schur``), every ablation with the model's own reading (``ablate``,
    :func:`rnnschur.ablation.model_ablations`), the spectrum (``spectrum``), the subspace
    control (``subspace_control``) and, with a ``fitting`` set, the readout refit
    (``readout_refit``), each with the settings and the random streams those jobs have for the
    model's task block ``external__<name>`` (:func:`per_model_settings`), so that the command
    and the workflow write the same tables; then :func:`assemble`.

    ``module`` = (its name, ``forward(W_stack, inputs)``): a user's own torch module
    (:mod:`rnnschur.external.torch_module`) run as it computes; ``model`` then holds W_hh alone
    (or all its arrays), and the subspace control and the readout refit, which need the hidden
    states of the rollout, are skipped, and ``biases`` names the module's bias parameters
    (name → largest |entry|) for the summary. The α split is the settings' (``split``).

    Nine parameters, not a value object: the parts of one analysis, each made once by
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
    net = Network.from_arrays(model, dynamics)
    network = f"{dynamics.describe()} RNN" if module is None else module[0]
    progress(
        f"[1/5] ordered real Schur form of W_hh (N_h = {net.n_hidden}; {network}, "
        f"blocks ordered by the moduli of {_split_operator(dynamics, settings.split)})"
    )
    schur = ordered_real_schur(net.W_hh, leak=dynamics.split_leak(settings.split))
    progress(f"[2/5] all 8 coupling subsets at alpha = {list(settings.alpha_grid)}")
    blocks = per_model_settings(settings)
    # this network's own reading of each ablation, its bootstrap from the stream of external
    # models (their task blocks', the workflow's instances.expand_external) and seed 0
    solution = model_reading(blocks["verdicts"], settings.n_boot, settings.seed, EXTERNAL, 0)
    analysed = Analysed.scored(net, schur, heldout, task, blocks["ablation"]["fvu_steps"])
    if module is None:
        rows = model_ablations(analysed, settings.alpha_grid, blocks["ablation"], solution)
    else:
        scoring = Scoring.from_config(blocks["ablation"])
        alphas = list(settings.alpha_grid)
        rows = evaluate_ablations(analysed, alphas, scoring, module[1], solution=solution)
    controls = refits = None
    if module is not None:
        progress("[3/5] subspace control and [4/5] readout refit skipped: a module's own forward")
    else:
        progress("[3/5] subspace control (activity and readout subspaces, matched random controls)")
        rng = job_rng(settings.seed, "subspace_control", EXTERNAL, EXTERNAL, net.n_hidden, 0)
        controls = pd.DataFrame(subspace.model_rows(analysed, blocks["subspace_control"], rng))
        if fitting is not None:
            progress("[4/5] readout refit (ridge, on the fitting set)")
            rng = job_rng(settings.seed, "readout_refit", EXTERNAL, EXTERNAL, net.n_hidden, 0)
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
        points = pd.DataFrame(fixed_point_study.model_rows(net, schur, heldout, "external", study))
    progress("[5/5] tables done")
    if biases is None:
        biases = {k: float(np.max(np.abs(model[k]))) for k in ("b_h", "b_y") if k in model}
    eigenvalues, _ = views.spectrum_rows(schur, settings.alpha)
    return assemble(
        Parts(name, network, verification, settings, schur),
        Tables(pd.DataFrame(rows), pd.DataFrame(eigenvalues), controls, refits, points),
        shapes_of(net, heldout, biases, "module" if module is not None else "arrays"),
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


def shapes_of(net: Network, heldout: Batch, biases: dict[str, float], of: str) -> dict:
    """The sizes the summary states: N_h, N_x, N_y, the held-out trials and steps, the offsets
    the network adds, its ``biases`` (name → largest |entry|) and whose they are (``of``:
    "arrays" or "module")."""
    return {
        "N_h": int(net.n_hidden),
        "N_x": int(heldout.inputs.shape[2]),
        "N_y": int(heldout.targets.shape[2]),
        "n_trials": int(heldout.inputs.shape[0]),
        "n_steps": int(heldout.inputs.shape[1]),
        "offsets": list(net.offsets),
        "biases": biases,
        "biases_of": of,
    }


def assemble(
    parts: Parts, tables: Tables, shapes: dict, progress: Callable[[str], None] = print
) -> Result:
    """The :class:`Result` of one model's per-model tables (computed in process by :func:`run`,
    or read from the workflow's per-model files by :func:`from_model_files`): the verdict per
    coupling block of its ablation table and the warnings (the verification's, and a full model
    far from a working network)."""
    settings, ablation = parts.settings, tables.ablation.copy()
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
    ablation.insert(0, "model", parts.name)
    return Result(
        parts.name,
        parts.network,
        dynamics,
        parts.verification,
        settings,
        parts.schur,
        ablation,
        block_verdicts(ablation, settings.alpha, settings.score),
        tables.spectrum,
        tables.subspace_control,
        tables.readout_refit,
        shapes,
        warning,
        tables.fixed_points,
    )


"""The labels a per-model table of the workflow carries first (:func:`rnnschur.io.labelled`)."""


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
    offsets = net.offsets
    biases = {k: float(np.max(np.abs(offsets[k]))) for k in ("b_h", "b_y") if k in offsets}
    return assemble(
        Parts(name, f"{net.dynamics.describe()} RNN", verification, settings, schur),
        tables,
        shapes_of(net, heldout, biases, "arrays"),
        lambda line: None,
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


def _split_operator(dynamics: Dynamics, split: str) -> str:
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
        f"{_split_operator(dynamics, settings.split)}; spectrum.csv: modulus_P, rho_P)",
        f"- ε = {settings.epsilon:g} (d_D, mean squared output difference); θ = "
        f"{settings.threshold:g} (the harm share); absent: removed mass below "
        f"{settings.mass_floor:g}",
        "",
        "| block | removed mass ‖ΔT‖/‖T‖ | score | change | harm share [95 % interval] | d_D | "
        "ε-stabiliser | verdict |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in result.verdicts.itertuples(index=False):
        lines.append(
            f"| {label(r.subset)} | {r.mass_removed:.3g} | {r.score:.4g} | "
            f"{r.delta_score:+.3g} | {r.harm_share:.3g} [{r.harm_low:.3g}, {r.harm_high:.3g}] | "
            f"{r.discrepancy:.3g} | {'yes' if r.stabilizer else 'no'} | {r.verdict} |"
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
        f"{html.escape(_split_operator(result.dynamics, settings.split))}; α = {settings.alpha:g}, "
        f"ε = {settings.epsilon:g}, θ = {settings.threshold:g} (harm share); score "
        f"{settings.score} on {result.shapes['n_trials']} held-out trials.</p>"
        f"<img alt='ablation profile' src='data:image/png;base64,{png_base64}'>"
        "<h2>Verdict per coupling block</h2>"
        + verdicts.to_html(index=False, float_format=lambda v: f"{v:.4g}", na_rep="—")
        + f"<p>{html.escape(VERDICT_LEGEND)} All 8 subsets at every α are in ablation.csv.</p>"
    )
