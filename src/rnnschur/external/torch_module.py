"""Everything that needs torch outside training: reading a checkpoint, and the method on any
torch module exactly as it computes (the ablation swaps its recurrent matrix for W̃(S) and runs
the module's own forward on the held-out inputs). Imported only on those routes.

For architectures outside the families of :mod:`rnnschur.network.dynamics` (a custom cell, a
nonlinear readout, ...), in the manner of the fixed-point finder of Golub & Sussillo, which accepts
a user's own RNN cell. The module comes as ``FILE.py:CLASS`` or ``package.module:CLASS``
(imported, which runs that code, then built with keyword arguments and given the state_dict)
or as a TorchScript file; ``recurrent`` names the parameter that holds W_hh (N_h, N_h). Its
forward takes the inputs batch-first (n, T, N_x) or time-first (T, n, N_x) and returns the
outputs in the same layout, or a tuple whose first item they are.

Checkpoints as other packages save them are read: a bare state_dict, or one nested under
:data:`NESTS` (nn4n's ``{"model_state_dict": ..., "kwargs": ...}``, Lightning's
``state_dict``, ``model``, ``net``), with the constructor's keyword arguments taken from the
checkpoint where it stores them (:data:`KWARGS_KEYS`).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rnnschur.external.arrays import real_array
from rnnschur.io import ArtifactError
from rnnschur.io import require as _require
from rnnschur.network.dynamics import NONLINEARITIES, Dynamics

NESTS = ("model_state_dict", "state_dict", "model", "net")
"""Keys under which checkpoints nest their state_dict, looked for in this order."""
KWARGS_KEYS = ("kwargs", "init_kwargs", "hyper_parameters")
"""Keys under which checkpoints store the constructor's keyword arguments."""


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint file read: its ``state`` (parameter name → tensor), the ``nesting`` under
    which it was found (``"model_state_dict"``, ``"model/state_dict"``; ``""`` for a bare
    state_dict) and the constructor's ``kwargs`` the file stores (None if it stores none)."""

    state: dict
    nesting: str = ""
    kwargs: dict | None = None


def one_line(error: Exception) -> str:
    """``error``'s message on one line (torch's load errors run to several)."""
    return " ".join(str(error).split())


def _is_state(value) -> bool:
    """True for a state_dict: a non-empty dict of tensors."""
    return (
        isinstance(value, dict) and bool(value) and all(hasattr(v, "numpy") for v in value.values())
    )


def read_checkpoint(path: str | os.PathLike) -> Checkpoint:
    """The state_dict of a torch checkpoint file (``weights_only=True``: no code runs), bare or
    nested under :data:`NESTS` (up to two levels), with any constructor kwargs it stores."""
    try:
        import torch  # here, so that reading an .npz model never loads torch
    except ImportError:
        raise ArtifactError(
            f"{path}: reading a torch state_dict needs torch (pip install 'rnnschur[torch]'), "
            "or give the model's arrays as an .npz"
        ) from None

    if not Path(path).is_file():
        raise ArtifactError(f"{path}: file not found")
    try:
        content = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for a bad file
        raise ArtifactError(f"{path}: not a readable torch state_dict ({error})") from error
    _require(path, isinstance(content, dict), f"holds a {type(content).__name__}, not a state_dict")
    nesting, level, kwargs = [], content, None
    for _ in range(3):
        if _is_state(level):
            return Checkpoint(level, "/".join(nesting), kwargs)
        stored = next((k for k in KWARGS_KEYS if isinstance(level.get(k), dict)), None)
        if stored is not None:
            kwargs = dict(level[stored])
        nest = next((k for k in NESTS if isinstance(level.get(k), dict)), None)
        if nest is None:
            break
        nesting.append(nest)
        level = level[nest]
    tensors = {k: v for k, v in content.items() if hasattr(v, "numpy")}
    _require(
        path,
        bool(tensors),
        f"no state_dict found: neither tensors at the top nor under {list(NESTS)} "
        f"(keys found: {sorted(map(str, content))})",
    )
    return Checkpoint(tensors)


NN4N_DEFAULTS = {"dt": 10, "tau": 100, "activation": "relu"}
"""nn4n's CTRNN defaults (nn4n 1.1, ``CTRNN._build_structures``) for the kwargs a save file
leaves out."""


def stored_description(path: str | os.PathLike) -> Dynamics | None:
    """The network description a checkpoint's stored constructor kwargs give: nn4n's save file
    (``{"model_state_dict", "kwargs"}`` with its ``dims``) is its CTRNN, z_t = (1 − a) z_{t−1}
    + a (W relu(z_{t−1}) + W_in u_t + b), read from relu(z_t) after the update, a = dt/τ (its
    defaults where the kwargs leave them out); None for any other checkpoint or an activation
    outside the catalogue (the description is then given, found or the default)."""
    kwargs = read_checkpoint(path).kwargs
    if not kwargs or "dims" not in kwargs:
        return None
    settings = {**NN4N_DEFAULTS, **{k: kwargs[k] for k in NN4N_DEFAULTS if k in kwargs}}
    if settings["activation"] not in NONLINEARITIES:
        return None
    return Dynamics(
        kind="leaky_current",
        leak=float(settings["dt"]) / float(settings["tau"]),
        nonlinearity=settings["activation"],
    )


def read_state_dict(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The tensors of a torch checkpoint file's state_dict (:func:`read_checkpoint`) as arrays
    (float64; complex and non-numeric tensors refused, naming them)."""
    return {k: real_array(v, f"{path}: {k}") for k, v in read_checkpoint(path).state.items()}


def load_module(
    weights: str | os.PathLike,
    module: str | None = None,
    init_kwargs: str | None = None,
    progress: Callable[[str], None] = lambda line: None,
):
    """The user's torch module in evaluation mode: ``module`` = ``FILE.py:CLASS`` or
    ``package.module:CLASS`` (imported: its code runs), built with ``init_kwargs`` (a JSON
    object; default the kwargs the checkpoint stores, else none) and loaded with the
    checkpoint ``weights``; or, without ``module``, the TorchScript file ``weights``.
    ``progress`` hears what was read from a nested checkpoint."""
    import torch

    weights = Path(weights)
    _require(weights, weights.is_file(), "file not found")
    if module is None:
        try:
            net = torch.jit.load(str(weights), map_location="cpu")
        except Exception:  # torch raises several types, with pages of text, for a non-script
            raise ArtifactError(
                f"{weights}: not a TorchScript file; give --torch-module FILE.py:CLASS or "
                "package.module:CLASS for a checkpoint"
            ) from None
        net.eval()  # some modules' eval() returns None
        return net
    cls = _module_class(module)
    checkpoint = read_checkpoint(weights)
    if init_kwargs:
        try:
            kwargs = json.loads(init_kwargs)
        except json.JSONDecodeError as error:
            raise ArtifactError(f"--init-kwargs: not a JSON object ({error})") from None
        _require("--init-kwargs", isinstance(kwargs, dict), "must be a JSON object")
        source = "--init-kwargs"
    else:
        kwargs, source = checkpoint.kwargs or {}, f"the kwargs {weights} stores"
    shown = json.dumps(kwargs, default=str)
    if checkpoint.nesting:
        used = (
            f"built with its stored init kwargs {shown}"
            if source != "--init-kwargs"
            else f"built with --init-kwargs {shown} (the kwargs it stores are not used)"
            if checkpoint.kwargs is not None
            else f"built with --init-kwargs {shown}"
        )
        progress(
            f"{weights}: a checkpoint; its state_dict read from {checkpoint.nesting!r}; {used}"
        )
    try:
        net = cls(**kwargs)
    except Exception as error:  # a missing or wrong constructor argument, or the user's code
        raise ArtifactError(
            f"{module} (--torch-module) cannot be built with {source} {shown}: "
            f"{type(error).__name__}: {one_line(error)}"
        ) from None
    try:
        net.load_state_dict(checkpoint.state)
    except Exception as error:  # a state_dict of another module
        raise ArtifactError(
            f"{weights}: cannot be loaded into {module} ({one_line(error)})"
        ) from None
    net.eval()
    return net


def _module_class(module: str):
    """The class ``CLASS`` of ``FILE.py:CLASS`` (the file imported: its code runs) or of
    ``package.module:CLASS`` (imported from the environment)."""
    source, _, name = module.partition(":")
    _require(
        source,
        bool(source) and bool(name),
        "expected --torch-module FILE.py:CLASS or package.module:CLASS",
    )
    if source.endswith(".py"):
        _require(source, Path(source).is_file(), "file not found")
        spec = importlib.util.spec_from_file_location(Path(source).stem, source)
        code = importlib.util.module_from_spec(spec)
        loader = spec.loader.exec_module
    else:
        code, loader = None, None
    try:
        if loader is not None:
            loader(code)
        else:
            code = importlib.import_module(source)
    except Exception as error:  # the user's file may raise anything
        raise ArtifactError(
            f"{source} (--torch-module): fails to import ({type(error).__name__}: {error})"
        ) from None
    _require(source, hasattr(code, name), f"defines no {name!r}")
    return getattr(code, name)


def recurrent_matrix(net, recurrent: str) -> np.ndarray:
    """The parameter ``recurrent`` of ``net`` as a float64 (N_h, N_h) array."""
    parameters = dict(net.named_parameters())
    where = f"recurrent={recurrent}"
    _require(
        where,
        recurrent in parameters,
        f"the module has no parameter {recurrent!r}; it has {sorted(parameters)}",
    )
    W = real_array(parameters[recurrent], where)
    _require(
        where,
        W.ndim == 2 and W.shape[0] == W.shape[1],
        f"{recurrent} has shape {tuple(W.shape)}, not a square recurrent matrix",
    )
    return W


def biases(net, recurrent: str) -> dict[str, float]:
    """The module's bias parameters (named ``*bias*``) and the largest |entry| of each: what
    its forward adds, reported in the summary."""
    return {
        name: float(p.detach().abs().max())
        for name, p in net.named_parameters()
        if "bias" in name.rsplit(".", 1)[-1] and name != recurrent and p.numel()
    }


def own_outputs(net, inputs: np.ndarray, time_first: bool = False) -> np.ndarray:
    """The outputs (n, T, N_y) of ``net``'s own forward on ``inputs`` (n, T, N_x): evaluation
    mode, no gradients, inputs in the dtype of its parameters, given (T, n, N_x) to a
    ``time_first`` module."""
    import torch

    dtype = next(iter(net.parameters())).dtype
    x = torch.tensor(np.swapaxes(inputs, 0, 1) if time_first else inputs).to(dtype)
    net.eval()  # nn4n's eval() returns None: never chain it
    with torch.no_grad():
        y = net(x)
    y = (y[0] if isinstance(y, tuple | list) else y).double().numpy()
    return np.swapaxes(y, 0, 1) if time_first else y


def module_forward(
    net, recurrent: str, time_first: bool = False
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``forward(W_stack, inputs)``: outputs (K, n, T, N_y) of ``net`` with its parameter
    ``recurrent`` set to each W of the stack (K, N_h, N_h) in turn, on inputs (n, T, N_x); the
    parameter is restored afterwards."""
    import torch

    parameter = dict(net.named_parameters())[recurrent]

    def forward(W_stack: np.ndarray, inputs: np.ndarray) -> np.ndarray:
        original = parameter.detach().clone()
        outputs = []
        try:
            with torch.no_grad():
                for W in W_stack.reshape(-1, *W_stack.shape[-2:]):
                    parameter.copy_(torch.from_numpy(W))
                    outputs.append(own_outputs(net, inputs, time_first))
        finally:
            with torch.no_grad():
                parameter.copy_(original)
        return np.stack(outputs).reshape(*W_stack.shape[:-2], *outputs[0].shape)

    return forward


def check_forward(forward, W: np.ndarray, heldout, path) -> None:
    """Run the module once on two held-out trials; :class:`ArtifactError` naming ``path`` if it
    fails or its outputs do not have the targets' shape."""
    inputs, targets = heldout.inputs[:2], heldout.targets[:2]
    try:
        outputs = forward(W[None], inputs)[0]
    except Exception as error:  # the user's code may raise anything
        raise ArtifactError(
            f"{path}: the module's forward failed on held-out inputs of shape {inputs.shape} "
            f"({type(error).__name__}: {error}); batch-first by default, time_first=True "
            "otherwise"
        ) from None
    _require(
        path,
        outputs.shape == targets.shape,
        f"the module's outputs have shape {outputs.shape}, the targets {targets.shape} "
        "(time_first=True for a (T, n, N) forward)",
    )


@dataclass(frozen=True)
class ModuleRun:
    """A torch module run as it computes: its ``name`` in the summary, its recurrent matrix
    ``W_hh`` (the parameter ``recurrent``), ``forward(W_stack, inputs)`` with that parameter
    swapped (:func:`module_forward`), its bias parameters (:func:`biases`), its input layout
    and its own ``outputs`` on the held-out inputs with W unchanged, which
    :func:`rnnschur.external.verify.of_module` checks against the model's own outputs before
    any ablation runs; ``other_layout()``: its outputs with the other input layout (for the
    message where they miss)."""

    name: str
    W_hh: np.ndarray
    forward: Callable[[np.ndarray, np.ndarray], np.ndarray]
    biases: dict[str, float]
    time_first: bool
    outputs: np.ndarray
    other_layout: Callable[[], np.ndarray]


def run_as_computed(read, time_first: bool, batch) -> ModuleRun:
    """The module of ``read`` (a :class:`rnnschur.external.reading.UserModel` with its
    ``recurrent`` parameter) ready to score every ablation as it computes: its forward runs on
    the held-out set (:func:`check_forward`, errors naming the model), and its own outputs
    there, with W unchanged, are kept for the verification."""
    net, recurrent, where = read.module, read.recurrent, read.name
    W_hh = recurrent_matrix(net, recurrent)
    forward = module_forward(net, recurrent, time_first)
    check_forward(forward, W_hh, batch, where)
    outputs = own_outputs(net, batch.inputs, time_first)
    name = f"torch module {type(net).__name__}"

    def other_layout() -> np.ndarray:
        return own_outputs(net, batch.inputs, not time_first)

    return ModuleRun(name, W_hh, forward, biases(net, recurrent), time_first, outputs, other_layout)
