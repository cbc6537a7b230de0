"""A user's model, in whichever form :func:`rnnschur.analyse` takes it, read into one
:class:`rnnschur.Network`: the first step of the analysis, after which every step (the held-out
set's check, the verification, the Schur form, the ablations, the analyses) takes that value.

The forms: a :class:`rnnschur.Network`, a dict of arrays (W_xh, W_hh, W_hy and any of b_h,
b_y, h0), a state_dict (tensors or arrays, mapped as :mod:`.convert` maps a file's), a file
(:func:`rnnschur.external.convert.read_model_file`: an ``.npz``, a Keras or Flax file, a torch
state_dict) or a live ``torch.nn.Module``. The description a file stores is the Network's
``dynamics`` (the paper's discrete tanh where it stores none), which a given description then
overrides (:meth:`rnnschur.network.dynamics.Description.over`)."""

from __future__ import annotations

import os
from pathlib import Path

from rnnschur import io
from rnnschur.external import convert
from rnnschur.external import heldout as heldout_sets
from rnnschur.external.arrays import check_model
from rnnschur.network import WEIGHT_KEYS, Network
from rnnschur.network.dynamics import DISCRETE


def read_network(model, keys=None, recurrent: str | None = None, initial_state=None):
    """(the model as one :class:`Network`, the live torch module or None, a default name).

    ``keys`` maps a state_dict's or an ``.npz``'s names (a dict, or ``"W_xh=KEY,..."``);
    ``initial_state`` (h0, an array or an ``.npz`` holding it) joins the arrays. A module run
    as it computes (``recurrent``) whose parameters map onto no W_xh, W_hh, W_hy is the
    Network of its parameter ``recurrent`` alone (W_xh and W_hy None): its own forward stands
    for the rest."""
    if isinstance(keys, str):
        keys = convert.parse_keys(keys)
    is_module = all(hasattr(model, a) for a in ("state_dict", "named_parameters", "forward"))
    module = model if is_module else None
    arrays, stored, name = _arrays(model, module, keys, recurrent)
    if arrays is None:  # a module run as it computes, its arrays unknown
        from rnnschur.external import torch_module

        return Network(None, torch_module.recurrent_matrix(module, recurrent), None), module, name
    if initial_state is not None:
        h0 = heldout_sets.initial_state(initial_state)
        arrays = check_model({**arrays, "h0": h0}, "initial_state")
    return Network.from_arrays(arrays, stored or DISCRETE), module, name


def _arrays(model, module, keys, recurrent):
    """(the model's checked arrays or None, the description its file stores or None, a default
    name)."""
    if module is not None:
        name = type(module).__name__
        convert.refuse_unreadable(f"torch module {name}", module.state_dict())
        try:
            return convert.from_arrays(module.state_dict(), keys, name), None, name
        except io.ArtifactError:
            if recurrent is None:
                raise
            return None, None, name  # run as it computes, its arrays unknown
    if isinstance(model, str | os.PathLike):
        path = Path(model)
        name = Path(path.name.removesuffix(".weights.h5")).stem
        return (*convert.read_model_file(path, keys), name)
    if isinstance(model, Network):  # the one network value: its arrays and its description
        weights = (model.W_xh, model.W_hh, model.W_hy)
        arrays = {**dict(zip(WEIGHT_KEYS, weights, strict=True)), **model.offsets}
        given = {key: value for key, value in arrays.items() if value is not None}
        return check_model(given, "model"), model.dynamics, "model"
    if isinstance(model, dict):
        if keys is None and {"W_xh", "W_hh", "W_hy"} <= set(model):
            return check_model(dict(model), "model"), None, "model"
        return convert.from_arrays(model, keys, "state_dict"), None, "model"
    raise TypeError(
        f"model must be a rnnschur.Network, arrays (a dict with W_xh, W_hh, W_hy), a "
        f"state_dict, a file path or a torch.nn.Module; got {type(model).__name__}"
    )
