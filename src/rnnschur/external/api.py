"""``rnnschur.analyse``: the paper's analysis of a network trained elsewhere, from a notebook.

    import rnnschur
    result = rnnschur.analyse("ctrnn.pt", "heldout.npz", description="auto")
    result.verdicts          # the verdict per coupling block (a DataFrame)
    result.plot()            # the ablation profile
    result.save("results/my_ctrnn")

The model may be arrays (a dict with W_xh, W_hh, W_hy and any of b_h, b_y, h0), a state_dict
(tensors or arrays), a file (an ``.npz`` of those arrays, or a torch state_dict), or a live
``torch.nn.Module``. The held-out set may be a file, a dict of arrays or a :class:`Batch`; with
``outputs`` (n, T, N_y), the model's own outputs on ``inputs`` with noise off, or with a module
(whose forward computes them), the full model rolled out as described must reproduce them
(:mod:`rnnschur.external.verify`) before any ablation runs. ``python -m rnnschur analyse`` calls
:func:`analyse`; the workflow runs its per-model rules on the imported model, the same functions
with the same settings, so all three give the same tables.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Callable

from rnnschur.external import analysis as external
from rnnschur.external import heldout as heldout_sets
from rnnschur.external import verify
from rnnschur.external.reading import UserModel, read_network
from rnnschur.external.settings import Settings
from rnnschur.network.dynamics import DESCRIPTION_TYPES, Description, Dynamics, check_types
from rnnschur.settings.schema import memory_warning


def analyse(
    model,
    heldout,
    description: Description | dict | str | Dynamics | verify.Verification | None = None,
    *,
    recurrent: str | None = None,
    keys: dict[str, list[str]] | str | None = None,
    time_first: bool = False,
    initial_state=None,
    fitting=None,
    name: str | None = None,
    tolerance: float = verify.TOLERANCE,
    progress: Callable[[str], None] | None = None,
    **settings,
) -> external.Result:
    """Ordered Schur form, all 8 coupling subsets at every α, the verdict per block, the
    spectrum, the subspace control and (with ``fitting``) the readout refit of one model.

    Parameters
    ----------
    model : a :class:`rnnschur.Network` (its weights, offsets and description), dict of
        arrays, state_dict, path (``.npz`` or torch state_dict) or ``nn.Module``.
    heldout : path, dict of arrays or :class:`rnnschur.tasks.Batch`: ``inputs`` (n, T, N_x),
        ``targets`` (n, T, N_y), optional ``mask`` and ``outputs`` (the model's own, noise off).
    description : how the network computes, a :class:`rnnschur.Description` (dynamics, leak,
        nonlinearity, readout, timing, split) or a dict of its fields; ``"auto"`` (the
        description that reproduces the model's own outputs, its leak found by a
        one-dimensional search), an update's name (``"discrete"``, ``"leaky"``,
        ``"leaky_current"``) or a :class:`rnnschur.network.dynamics.Dynamics`; None (what an
        ``.npz`` stores, else the paper's discrete tanh). A leaky update needs its leak unless
        ``auto`` finds it; a module run as it computes needs a description or its ``split`` named. A
        :class:`~rnnschur.external.verify.Verification` (from
        :func:`rnnschur.external.verify.describe`) is a description found before: checked
        again, how it was found kept.
    recurrent : run the ``nn.Module`` as it computes, this parameter swapped for W̃(S).
    keys : map any layout, ``{"W_xh": ["KEY"], ...}`` or ``"W_xh=KEY,W_hh=KEY,W_hy=KEY"``.
    time_first : the module takes (T, n, N_x) and returns (T, n, N_y).
    initial_state : h0 (N_h,) or an ``.npz`` holding it. fitting : a second set like
        ``heldout`` for the readout refit. name : the model's name in the summary.
    tolerance : the largest relative RMS error of the verification (:data:`TOLERANCE`).
    settings : fields of :class:`rnnschur.external.settings.Settings` (score, alpha, alpha_grid,
        epsilon, mass_floor, threshold, subspace_components, subspace_draws, seed, and
        ``fixed_points=True``: the fixed points, intact and ablated,
        :mod:`rnnschur.studies.fixed_points`; not for a module run as it computes).

    Eleven parameters, not a value object: this is the entry point, and its keywords are the
    command's flags one for one (``--recurrent``, ``--keys``, ``--time-first``, ...); the
    network's description is already one value.

    Returns
    -------
    rnnschur.external.result.Result
        The analysis, in memory: ``verification`` (what was checked against the model's own
        outputs), ``schur`` (the ordered Schur form), the DataFrames ``ablation`` (all 8 subsets
        at every α), ``verdicts`` (per coupling block), ``spectrum``, ``subspace_control``,
        ``readout_refit`` and ``fixed_points`` (None where not run), and ``warning`` (each of
        its lines is also issued as an :class:`rnnschur.external.verify.AnalysisWarning` when
        no ``progress`` is given). ``result.plot()`` draws the profile, ``result.summary()``
        writes it in Markdown, ``result.save(folder)`` writes the files of the command; in a
        notebook ``result`` shows itself as HTML.

    Raises
    ------
    rnnschur.external.verify.RolloutMismatch : the computation that would score the ablations
        (the rollout as described, or the module's own forward) is not the model (its own
        outputs given); nothing is computed beyond the check.
    rnnschur.io.ArtifactError, ValueError, TypeError : bad input, naming the file or argument.
    """
    _check_arguments(locals(), settings)
    warn = progress is None  # a Python caller hears the warnings as Python warnings
    progress = progress or (lambda line: None)

    def say(line: str) -> None:  # what the reading left out, before anything runs
        if warn:
            warnings.warn(line, verify.AnalysisWarning, stacklevel=4)
        else:
            progress(line)

    tolerance = verify.check_tolerance(tolerance)
    found_before = description if isinstance(description, verify.Verification) else None
    if found_before is not None:
        description = Description(found_before.dynamics, split=found_before.split)
    description = Description.of(description)
    settings = _settings({**settings, "split": description.split or "propagator"})
    read = _read(model, keys, recurrent, initial_state, say)
    read = dataclasses.replace(read, name=name or read.name)
    name = read.name
    batch, outputs = heldout_sets.read(heldout, read.network, where="heldout")
    fit = None
    if fitting is not None:
        fit = heldout_sets.read(fitting, read.network, where="fitting")[0]
    for where, given, scored in (("heldout", heldout, batch), ("fitting", fitting, fit)):
        if scored is not None:  # the score is defined on its targets
            named = given if isinstance(given, str | os.PathLike) else where
            heldout_sets.check_targets(scored, settings.score, named)
    run_as, source = None, "held-out outputs"
    if read.module is not None:
        from rnnschur.external import torch_module

        if read.recurrent is not None:  # a torch module run as it computes
            run_as = torch_module.run_as_computed(read, time_first, batch)
        if outputs is None:  # the model's own outputs: its own forward's
            outputs = (
                run_as.outputs
                if run_as is not None
                else torch_module.own_outputs(read.module, batch.inputs, time_first)
            )
            source = verify.MODULE_FORWARD
    own = verify.OwnOutputs(batch.inputs, outputs, source, tolerance, read.torch)
    if run_as is not None:
        # its own forward, with W unchanged, must reproduce the held-out outputs (where the
        # file has them) before it scores any ablation; the description, where given or
        # found, only orders the split
        verification = verify.of_module(read.network, description, own, run_as)
    else:  # the rollout as described against the model's own outputs
        verification = verify.resolve_description(read.network, description, own)
        if found_before is not None:
            verification = dataclasses.replace(verification, found_by=found_before.found_by)
    progress(verification.line())
    network = dataclasses.replace(read.network, dynamics=verification.dynamics)
    result = external.run(network, batch, settings, verification, name, fit, run_as, progress)
    if warn:
        for line in (result.warning or "").splitlines():
            warnings.warn(line, verify.AnalysisWarning, stacklevel=2)
    return result


ARGUMENT_TYPES = {
    "recurrent": (str, type(None)),
    "keys": (str, dict, type(None)),
    "time_first": (bool,),
    "name": (str, type(None)),
    "progress": (Callable, type(None)),
}
"""The types :func:`analyse` accepts for its route arguments (the network's:
:data:`rnnschur.network.dynamics.DESCRIPTION_TYPES`)."""


def _check_arguments(arguments: dict, settings: dict) -> None:
    """TypeError naming the first argument of :func:`analyse` whose type is wrong, or a field
    of the network's description given as a setting."""
    described = [key for key in DESCRIPTION_TYPES if key in settings]
    if described:
        given = ", ".join(f"{key}={settings[key]!r}" for key in described)
        fields = ", ".join(f'"{key}": {settings[key]!r}' for key in described)
        raise TypeError(
            f"analyse() takes the network's description as one value: not {given} but "
            f"description={{{fields}}} (or rnnschur.Description({given}))"
        )
    check_types("analyse()", arguments, ARGUMENT_TYPES)


def _read(model, keys, recurrent, initial_state, say: Callable[[str], None]) -> UserModel:
    """:func:`rnnschur.external.reading.read_network`, what its file's reading left out and
    the memory the analysis will take said (``say``, line by line) before anything runs."""
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always", verify.AnalysisWarning)
        read = read_network(model, keys, recurrent, initial_state)
    lines = [str(note.message) for note in notes]
    if read.network.W_xh is not None:
        lines.append(memory_warning(read.network.n_hidden))
    for line in filter(None, lines):
        say(line)
    return read


def _settings(options: dict) -> Settings:
    fields = Settings.__dataclass_fields__
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise TypeError(f"analyse() got unknown settings {unknown}; settings are {sorted(fields)}")
    grid = options.get("alpha_grid")
    if grid is not None:
        if isinstance(grid, str) or not hasattr(grid, "__iter__"):
            raise TypeError(f"alpha_grid={grid!r}: must be a sequence of numbers")
        options = {**options, "alpha_grid": tuple(grid)}
    return Settings(**options)
