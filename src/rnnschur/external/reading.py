"""A user's model, in whichever form :func:`rnnschur.analyse` takes it, read into one
:class:`rnnschur.Network`: the first step of the analysis, after which every step (the held-out
set's check, the verification, the Schur form, the ablations, the analyses) takes that value.

One reader per form, chosen once by :func:`read_network`: a :class:`rnnschur.Network`, a file
(:func:`rnnschur.external.convert.read_model_file`: an ``.npz``, a Keras or Flax file, a torch
state_dict), a dict (arrays W_xh, W_hh, W_hy and any of b_h, b_y, h0, or a state_dict of
tensors or arrays, mapped as :mod:`.convert` maps a file's) or a live ``torch.nn.Module``. The
description a file stores is the Network's ``dynamics`` (the paper's discrete tanh where it
stores none), which a given description then overrides
(:meth:`rnnschur.network.dynamics.Description.over`)."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from rnnschur import io
from rnnschur.external import convert
from rnnschur.external import heldout as heldout_sets
from rnnschur.external.arrays import check_model
from rnnschur.network import WEIGHT_KEYS, Network
from rnnschur.network.dynamics import DISCRETE, Dynamics


@dataclass(frozen=True)
class UserModel:
    """A user's model as read: the ``network``, its default ``name`` in the summary, the live
    torch ``module`` where one was given (None otherwise), whether torch runs it (a module or a
    torch state_dict file: its own forward can run what no description does) and, for a module
    run as it computes, the parameter its forward swaps for W̃(S) (``recurrent``; None: the
    network is rolled out as described)."""

    network: Network
    name: str
    module: object | None = None
    torch: bool = False
    recurrent: str | None = None


def read_network(model, keys=None, recurrent: str | None = None, initial_state=None) -> UserModel:
    """The model read by the reader of its form (:data:`READERS`, :func:`form_of`), with
    ``initial_state`` (h0, an array or an ``.npz`` holding it) among its offsets. ``keys`` maps
    a state_dict's or an ``.npz``'s names (a dict, or ``"W_xh=KEY,..."``); ``recurrent`` names
    the parameter of a module run as it computes."""
    if isinstance(keys, str):
        keys = convert.parse_keys(keys)
    read = READERS[form_of(model, keys)](model, keys, recurrent)
    if initial_state is None or read.network.W_xh is None:
        return read  # a module run as it computes starts as its own forward does
    h0 = heldout_sets.initial_state(initial_state)
    arrays = {**arrays_of(read.network), "h0": h0}
    return replace(read, network=checked(arrays, "initial_state", read.network.dynamics))


def form_of(model, keys: dict | None) -> str:
    """The form of a user's model: ``"module"`` (a live torch module), ``"file"`` (a path),
    ``"network"``, ``"arrays"`` (a dict with W_xh, W_hh, W_hy, no ``keys``) or
    ``"state_dict"`` (any other dict); TypeError for anything else."""
    if all(hasattr(model, a) for a in ("state_dict", "named_parameters", "forward")):
        return "module"
    if isinstance(model, str | os.PathLike):
        return "file"
    if isinstance(model, Network):
        return "network"
    if isinstance(model, dict):
        return "arrays" if keys is None and set(WEIGHT_KEYS) <= set(model) else "state_dict"
    raise TypeError(
        f"model must be a rnnschur.Network, arrays (a dict with W_xh, W_hh, W_hy), a "
        f"state_dict, a file path or a torch.nn.Module; got {type(model).__name__}"
    )


def checked(arrays: dict, where: object, dynamics: Dynamics = DISCRETE) -> Network:
    """The Network of a model's ``arrays`` (W_xh, W_hh, W_hy and any offsets), checked
    (:func:`rnnschur.external.arrays.check_model`, errors naming ``where``)."""
    return Network.from_arrays(check_model(arrays, where), dynamics)


def read_given(network: Network, keys, recurrent) -> UserModel:
    """A :class:`rnnschur.Network`, its arrays checked, its description kept."""
    return UserModel(checked(arrays_of(network), "model", network.dynamics), "model")


def read_arrays(arrays: dict, keys, recurrent) -> UserModel:
    """A dict of the model's arrays by their names (W_xh, W_hh, W_hy and any offsets)."""
    return UserModel(checked(dict(arrays), "model"), "model")


def read_state_dict(state: dict, keys: dict | None, recurrent) -> UserModel:
    """A state_dict held in memory (tensors or arrays), mapped by its layout or ``keys``."""
    return UserModel(Network.from_arrays(convert.state_dict_arrays(state, keys)), "model")


def read_file(path: str | os.PathLike, keys: dict | None, recurrent) -> UserModel:
    """A model file (:func:`rnnschur.external.convert.read_model_file`), described as it stores
    (the paper's discrete tanh where it stores nothing), named by its stem."""
    arrays, stored = convert.read_model_file(path, keys)
    name = Path(Path(path).name.removesuffix(".weights.h5")).stem
    torch = convert.file_format(path) == "torch"
    return UserModel(Network.from_arrays(arrays, stored or DISCRETE), name, None, torch)


def read_module(module, keys: dict | None, recurrent: str | None) -> UserModel:
    """A live torch module: its state_dict's arrays; for a module run as it computes
    (``recurrent``) whose parameters map onto no W_xh, W_hh, W_hy, the Network of its
    parameter ``recurrent`` alone (W_xh and W_hy None): its own forward stands for the rest."""
    name = type(module).__name__
    state = module.state_dict()
    convert.refuse_unreadable(f"torch module {name}", state)
    try:
        network = Network.from_arrays(convert.state_dict_arrays(state, keys, name))
    except io.ArtifactError:
        if recurrent is None:
            raise
        from rnnschur.external import torch_module

        network = Network(None, torch_module.recurrent_matrix(module, recurrent), None)
    return UserModel(network, name, module, True, recurrent)


def arrays_of(network: Network) -> dict:
    """The arrays of a Network: its weights and offsets, those it has (a module run as it
    computes has no W_xh, W_hy)."""
    weights = dict(zip(WEIGHT_KEYS, (network.W_xh, network.W_hh, network.W_hy), strict=True))
    return {k: v for k, v in {**weights, **network.offsets}.items() if v is not None}


READERS = {
    "module": read_module,
    "file": read_file,
    "network": read_given,
    "arrays": read_arrays,
    "state_dict": read_state_dict,
}
"""The reader of each form of a user's model (:func:`form_of`): each takes the model, the key
map and the parameter a module run as it computes swaps (those its form has a use for) and
returns the :class:`UserModel`."""
