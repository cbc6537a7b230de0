"""Everything that needs torch outside training: reading a state_dict file, and the method on
any torch module exactly as it computes (the ablation swaps its recurrent matrix for W̃(S) and
runs the module's own forward on the held-out inputs). Imported only on those routes.

For architectures outside the families of :mod:`rnnschur.dynamics` (a custom cell, a nonlinear
readout, ...), in the manner of the fixed-point finder of Golub & Sussillo, which accepts a
user's own RNN cell. The module comes as ``FILE.py:CLASS`` (instantiated with keyword arguments,
then given a state_dict) or as a TorchScript file; ``recurrent`` names the parameter that holds
W_hh (N_h, N_h). Its forward takes the inputs batch-first (n, T, N_x) or time-first (T, n, N_x)
and returns the outputs in the same layout, or a tuple whose first item they are.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from rnnschur.io import ArtifactError
from rnnschur.io import require as _require


def read_state_dict(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The tensors of a torch ``state_dict`` file as float64 arrays (``weights_only=True``: no
    code runs)."""
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
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for a bad file
        raise ArtifactError(f"{path}: not a readable torch state_dict ({error})") from error
    _require(path, isinstance(state, dict), f"holds a {type(state).__name__}, not a state_dict")
    return {k: v.detach().double().numpy() for k, v in state.items() if hasattr(v, "numpy")}


def load_module(
    weights: str | os.PathLike,
    module: str | None = None,
    init_kwargs: str | None = None,
):
    """The user's torch module in evaluation mode: ``module`` = ``FILE.py:CLASS`` built with
    ``init_kwargs`` (a JSON object) and loaded with the state_dict ``weights``; or, without
    ``module``, the TorchScript file ``weights``."""
    import torch

    weights = Path(weights)
    _require(weights, weights.is_file(), "file not found")
    if module is None:
        try:
            net = torch.jit.load(str(weights), map_location="cpu")
        except Exception as error:  # torch raises several types for a file it cannot read
            raise ArtifactError(
                f"{weights}: not a TorchScript file ({error}); give --torch-module FILE.py:CLASS "
                "for a state_dict"
            ) from None
        return net.eval()
    file, _, name = module.partition(":")
    _require(file, file.endswith(".py") and bool(name), "expected --torch-module FILE.py:CLASS")
    _require(file, Path(file).is_file(), "file not found")
    spec = importlib.util.spec_from_file_location(Path(file).stem, file)
    code = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(code)
    except Exception as error:  # the user's file may raise anything
        raise ArtifactError(
            f"{file} (--torch-module): fails to import ({type(error).__name__}: {error})"
        ) from None
    _require(file, hasattr(code, name), f"defines no {name!r}")
    try:
        kwargs = json.loads(init_kwargs) if init_kwargs else {}
    except json.JSONDecodeError as error:
        raise ArtifactError(f"--init-kwargs: not a JSON object ({error})") from None
    _require("--init-kwargs", isinstance(kwargs, dict), "must be a JSON object")
    try:
        net = getattr(code, name)(**kwargs)
    except Exception as error:  # a missing or wrong constructor argument, or the user's code
        raise ArtifactError(
            f"{module} (--torch-module) cannot be built with --init-kwargs "
            f"{json.dumps(kwargs)}: {type(error).__name__}: {error}"
        ) from None
    try:
        state = torch.load(weights, map_location="cpu", weights_only=True)
        net.load_state_dict(state)
    except Exception as error:  # a bad file, or a state_dict of another module
        raise ArtifactError(f"{weights}: cannot be loaded into {module} ({error})") from None
    return net.eval()


def recurrent_matrix(net, recurrent: str) -> np.ndarray:
    """The parameter ``recurrent`` of ``net`` as a float64 (N_h, N_h) array."""
    parameters = dict(net.named_parameters())
    _require(
        "--recurrent",
        recurrent in parameters,
        f"the module has no parameter {recurrent!r}; it has {sorted(parameters)}",
    )
    W = parameters[recurrent].detach().double().numpy()
    _require(
        "--recurrent",
        W.ndim == 2 and W.shape[0] == W.shape[1],
        f"{recurrent} has shape {tuple(W.shape)}, not a square recurrent matrix",
    )
    return W


def own_outputs(net, inputs: np.ndarray, batch_first: bool = True) -> np.ndarray:
    """The outputs (n, T, N_y) of ``net``'s own forward on ``inputs`` (n, T, N_x): evaluation
    mode, no gradients, inputs in the dtype of its parameters."""
    import torch

    dtype = next(iter(net.parameters())).dtype
    x = torch.tensor(inputs if batch_first else np.swapaxes(inputs, 0, 1)).to(dtype)
    with torch.no_grad():
        y = net.eval()(x)
    y = (y[0] if isinstance(y, tuple | list) else y).double().numpy()
    return y if batch_first else np.swapaxes(y, 0, 1)


def module_forward(
    net, recurrent: str, batch_first: bool = True
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
                    outputs.append(own_outputs(net, inputs, batch_first))
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
            f"({type(error).__name__}: {error}); batch-first by default, --time-first otherwise"
        ) from None
    _require(
        path,
        outputs.shape == targets.shape,
        f"the module's outputs have shape {outputs.shape}, the targets {targets.shape} "
        "(--time-first for a (T, n, N) forward)",
    )
