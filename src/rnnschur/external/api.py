"""``rnnschur.analyse``: the paper's analysis of a network trained elsewhere, from a notebook.

    import rnnschur
    result = rnnschur.analyse("ctrnn.pt", "heldout.npz", dynamics="auto")
    result.verdicts          # the verdict per coupling block (a DataFrame)
    result.plot()            # the ablation profile
    result.save("results/my_ctrnn")

The model may be arrays (a dict with W_xh, W_hh, W_hy and any of b_h, b_y, h0), a state_dict
(tensors or arrays), a file (an ``.npz`` of those arrays, or a torch state_dict), or a live
``torch.nn.Module``. The held-out set may be a file, a dict of arrays or a :class:`Batch`; with
``outputs`` (n, T, N_y), the model's own outputs on ``inputs`` with noise off, or with a module
(whose forward computes them), the full model rolled out as described must reproduce them
(:mod:`rnnschur.external.verify`) before any ablation runs. ``python -m rnnschur analyse`` and the
workflow's ``external`` rules call :func:`analyse`, so all three give the same tables.
"""

from __future__ import annotations

import numbers
import os
import warnings
from collections.abc import Callable
from pathlib import Path

from rnnschur import io
from rnnschur.dynamics import Dynamics
from rnnschur.external import analysis as external
from rnnschur.external import convert, verify
from rnnschur.external import heldout as heldout_sets
from rnnschur.external.arrays import check_model, load_npz_model


def analyse(
    model,
    heldout,
    dynamics: str | Dynamics | None = None,
    *,
    leak: float | None = None,
    nonlinearity: str | None = None,
    readout: str | None = None,
    timing: str | None = None,
    split: str | None = None,
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
    model : dict of arrays, state_dict, path (``.npz`` or torch state_dict) or ``nn.Module``.
    heldout : path, dict of arrays or :class:`rnnschur.tasks.Batch`: ``inputs`` (n, T, N_x),
        ``targets`` (n, T, N_y), optional ``mask`` and ``outputs`` (the model's own, noise off).
    dynamics : ``"discrete"``, ``"leaky"``, ``"leaky_current"``, a
        :class:`rnnschur.dynamics.Dynamics`, ``"auto"`` (the description that reproduces the
        model's own outputs, its leak found by a one-dimensional search) or None (what an
        ``.npz`` stores, else the paper's discrete tanh).
    leak, nonlinearity, readout, timing : the rest of the description (a leaky update needs
        its leak unless ``auto`` finds it).
    split : ``"propagator"`` (order and split a leaky network's blocks by |1 − a + aλ|) or
        ``"weights"`` (W_hh's own |λ|); a module run as it computes needs one of them named,
        or a description.
    recurrent : run the ``nn.Module`` as it computes, this parameter swapped for W̃(S).
    keys : map any layout, ``{"W_xh": ["KEY"], ...}`` or ``"W_xh=KEY,W_hh=KEY,W_hy=KEY"``.
    time_first : the module takes (T, n, N_x) and returns (T, n, N_y).
    initial_state : h0 (N_h,) or an ``.npz`` holding it. fitting : a second set like
        ``heldout`` for the readout refit. name : the model's name in the summary.
    tolerance : the largest relative RMS error of the verification (:data:`TOLERANCE`).
    settings : fields of :class:`rnnschur.external.analysis.Settings` (score, alpha, alpha_grid,
        epsilon, mass_floor, threshold, subspace_components, subspace_draws, seed).

    Returns
    -------
    rnnschur.external.analysis.Result
        The analysis, in memory: ``verification`` (what was checked against the model's own
        outputs), ``schur`` (the ordered Schur form), the DataFrames ``ablation`` (all 8 subsets
        at every α), ``verdicts`` (per coupling block), ``spectrum``, ``subspace_control`` and
        ``readout_refit`` (None where not run), and ``warning`` (each of its lines is also
        issued as an :class:`rnnschur.external.verify.AnalysisWarning` when no ``progress`` is
        given). ``result.plot()`` draws the profile, ``result.summary()`` writes it in
        Markdown, ``result.save(folder)`` writes the files of the command; in a notebook
        ``result`` shows itself as HTML.

    Raises
    ------
    rnnschur.external.verify.RolloutMismatch : the computation that would score the ablations
        (the rollout as described, or the module's own forward) is not the model (its own
        outputs given); nothing is computed beyond the check.
    rnnschur.io.ArtifactError, ValueError, TypeError : bad input, naming the file or argument.
    """
    _check_arguments(locals())
    warn = progress is None  # a Python caller hears the warnings as Python warnings
    progress = progress or (lambda line: None)
    tolerance = verify.check_tolerance(tolerance)
    settings = _settings({**settings, "split": split or "propagator"})
    if isinstance(keys, str):
        keys = convert.parse_keys(keys)
    module = _as_module(model)
    arrays, stored, default_name = _arrays(model, module, keys, recurrent)
    if initial_state is not None and arrays is not None:
        arrays = check_model(
            {**arrays, "h0": heldout_sets.initial_state(initial_state)}, "initial_state"
        )
    batch, outputs = heldout_sets.read(heldout, arrays, where="heldout")
    fit = heldout_sets.read(fitting, arrays, where="fitting")[0] if fitting is not None else None
    asked = verify.Asked(dynamics, leak, nonlinearity, readout, timing, split)
    if module is None or recurrent is None:
        source = "held-out outputs"
        if module is not None and outputs is None:
            from rnnschur.external import torch_module

            outputs = torch_module.own_outputs(module, batch.inputs, time_first)
            source = "the module's own forward"
        description, verification = verify.resolve_description(
            arrays, stored, batch, outputs, source, tolerance, False, asked
        )
        progress(verification.line())
        result = external.run(
            arrays,
            batch,
            settings,
            description,
            verification,
            name or default_name,
            fit,
            None,
            progress,
        )
    else:  # a torch module run as it computes: its own forward, with W unchanged, must
        # reproduce the held-out outputs (where the file has them) before it scores any
        # ablation; the description, where given or found, only orders the split
        from rnnschur.external import torch_module

        W_hh = torch_module.recurrent_matrix(module, recurrent)
        forward = torch_module.module_forward(module, recurrent, time_first)
        torch_module.check_forward(forward, W_hh, batch, name or default_name)
        error, largest = torch_module.verify_module(module, batch, outputs, time_first, tolerance)
        source = "held-out outputs"
        if outputs is None:
            outputs = torch_module.own_outputs(module, batch.inputs, time_first)
            source = "the module's own forward"
        description, checked = verify.resolve_description(
            arrays, None, batch, outputs, source, tolerance, True, asked
        )
        verification = verify.Verification(
            description,
            error,
            largest,
            tolerance,
            len(batch.inputs) if error is not None else 0,
            "held-out outputs" if error is not None else "none",
            "module",
            asked.split or "propagator",
            None if checked.found_by == "module" else checked.error,
        )
        progress(verification.line())
        result = external.run(
            {"W_hh": W_hh},
            batch,
            settings,
            description,
            verification,
            name or default_name,
            None,
            (f"torch module {type(module).__name__}", forward),
            progress,
            biases=torch_module.biases(module, recurrent),
        )
    if warn:
        for line in (result.warning or "").splitlines():
            warnings.warn(line, verify.AnalysisWarning, stacklevel=2)
    return result


ARGUMENT_TYPES = {
    "dynamics": (str, Dynamics, type(None)),
    "leak": (numbers.Real, type(None)),
    "nonlinearity": (str, type(None)),
    "readout": (str, type(None)),
    "timing": (str, type(None)),
    "split": (str, type(None)),
    "recurrent": (str, type(None)),
    "keys": (str, dict, type(None)),
    "time_first": (bool,),
    "name": (str, type(None)),
    "progress": (Callable, type(None)),
}
"""The types :func:`analyse` accepts for its description and route arguments."""


def _check_arguments(arguments: dict) -> None:
    """TypeError naming the first argument of :func:`analyse` whose type is wrong."""
    for argument, types in ARGUMENT_TYPES.items():
        value = arguments[argument]
        wrong = isinstance(value, bool) and bool not in types
        if wrong or not isinstance(value, types):
            expected = " or ".join(
                "None" if t is type(None) else "a number" if t is numbers.Real else t.__name__
                for t in types
            )
            raise TypeError(
                f"analyse(): {argument}={value!r} is a {type(value).__name__}; expected {expected}"
            )
    if arguments["leak"] is not None and arguments["leak"] != arguments["leak"]:
        raise ValueError("analyse(): leak=nan; the leak a = dt/τ lies in (0, 1]")


def _settings(options: dict) -> external.Settings:
    fields = external.Settings.__dataclass_fields__
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise TypeError(f"analyse() got unknown settings {unknown}; settings are {sorted(fields)}")
    grid = options.get("alpha_grid")
    if grid is not None:
        if isinstance(grid, str) or not hasattr(grid, "__iter__"):
            raise TypeError(f"alpha_grid={grid!r}: must be a sequence of numbers")
        options = {**options, "alpha_grid": tuple(grid)}
    return external.Settings(**options)


def _as_module(model):
    """``model`` if it is a live torch module (without importing torch), else None."""
    is_module = all(hasattr(model, a) for a in ("state_dict", "named_parameters", "forward"))
    return model if is_module else None


def _arrays(model, module, keys, recurrent):
    """(the model's arrays or None, the description its file stores or None, a default name)."""
    if module is not None:
        name = type(module).__name__
        try:
            return convert.from_arrays(module.state_dict(), keys, name), None, name
        except io.ArtifactError:
            if recurrent is None:
                raise
            return None, None, name  # run as it computes, its arrays unknown
    if isinstance(model, str | os.PathLike):
        path = Path(model)
        if str(path).endswith(".npz"):
            return load_npz_model(path, keys), io.load_dynamics(path), path.stem
        return convert.from_state_dict(path, keys), None, path.stem
    if isinstance(model, dict):
        if keys is None and {"W_xh", "W_hh", "W_hy"} <= set(model):
            return check_model(dict(model), "model"), None, "model"
        return convert.from_arrays(model, keys, "state_dict"), None, "model"
    raise TypeError(
        f"model must be arrays (a dict with W_xh, W_hh, W_hy), a state_dict, a file path or a "
        f"torch.nn.Module; got {type(model).__name__}"
    )
