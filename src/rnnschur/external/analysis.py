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

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from rnnschur import io
from rnnschur.ablation import Analysed, Scoring, evaluate_ablations, model_ablations
from rnnschur.external.result import Result, misuse_warning, split_operator
from rnnschur.external.settings import Settings, per_model_settings
from rnnschur.external.task import EXTERNAL, Score
from rnnschur.external.verify import Verification
from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.network import Network
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
    whether the ablation is an ε-stabilizer (d_D ≤ ε, the ablation table's ``eps_stabilizer``)
    and the verdict: this model's own reading of the removal, as the workflow reads every
    trained solution (the ablation table's ``reading``, :mod:`rnnschur.studies.solutions`):
    *fragile*, *stabilizer*, *improves*, *undecided* or *absent*. The columns that matter stand
    at both ends (the block, the word and the harm share first, its interval and the score's
    change last), where a printed table that pandas cuts short in the middle still shows them."""
    rows = ablation[np.isclose(ablation["alpha"], alpha) & ablation["subset"].isin(COUPLING_BLOCKS)]
    out = rows[["subset", "reading"]].rename(columns={"reading": "verdict"})
    out["harm_share"] = harm_share(metric, rows["score"] - rows["delta_score"], rows["score"])
    middle = ["score", "mass_removed", "n_R", "discrepancy", "eps_stabilizer"]
    out[[*middle, "harm_low", "harm_high", "delta_score"]] = rows[
        [*middle, "harm_low", "harm_high", "delta_score"]
    ]
    return out.reset_index(drop=True)


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
