"""A torch ``state_dict`` as the arrays of :mod:`rnnschur.external.analysis`: a file (read by
:func:`rnnschur.external.torch_module.read_state_dict`, the step that needs torch) or tensors
held in memory (no torch needed).

Three layouts are detected: ``nn.RNN`` (``weight_ih_l0``, ``weight_hh_l0``, ``bias_ih_l0``,
``bias_hh_l0``), the CTRNN of the NeuroGym and Neuromatch tutorials (``input2h.weight/bias``,
``h2h.weight/bias``) and nn4n's CTRNN (``recurrent_layer.input_layer.weight/bias``,
``recurrent_layer.hidden_layer.weight/bias``, its two biases summed), each with an
``nn.Linear`` readout (``fc``, ``h2out``, ``readout``, ``readout_layer``, ``output``,
``linear`` or the one linear map from N_h), and a trained initial state where one parameter
of shape (N_h,) or (1, N_h) named as a state is left that nothing else explains (e.g.
``initial_hiddens_1xd``).
Any other layout is mapped with ``keys``: ``{"W_xh": ["rnn.input2h.weight"], "b_h": ["a.bias",
"b.bias"], ...}`` (a sum where several keys are named), the command's ``--keys
W_xh=KEY,b_h=KEY+KEY,...``; a map that names only some arrays (``keys="h0=NAME"``) extends the
detected layout.
"""

from __future__ import annotations

import os
import re

import numpy as np

from rnnschur.external.arrays import (
    OFFSET_KEYS,
    ONE_MATRIX,
    WEIGHT_KEYS,
    check_model,
    load_npz_model,
    npz_headers,
    real_array,
    refuse_gated,
)
from rnnschur.io import ArtifactError, load_dynamics
from rnnschur.io import require as _require
from rnnschur.network.dynamics import Dynamics

READOUT_NAMES = ("fc", "h2out", "readout", "readout_layer", "output", "decoder", "linear")
"""Readout module names of the tutorial layout, in the order they are looked for."""
LAYOUTS = {
    # layout: (W_xh, W_hh, parts of b_h), each a key suffix after a common prefix
    "nn.RNN": ("weight_ih_l0", "weight_hh_l0", ("bias_ih_l0", "bias_hh_l0")),
    "CTRNN": ("input2h.weight", "h2h.weight", ("input2h.bias", "h2h.bias")),
    "nn4n CTRNN": (
        "input_layer.weight",
        "hidden_layer.weight",
        ("input_layer.bias", "hidden_layer.bias"),
    ),
}


def parse_keys(text: str) -> dict[str, list[str]]:
    """``W_xh=KEY,W_hh=KEY,b_h=KEY+KEY`` → ``{"W_xh": [KEY], ...}`` (the command's --keys)."""
    mapping = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, keys = item.partition("=")
        if name not in WEIGHT_KEYS + OFFSET_KEYS or not keys:
            raise ArtifactError(
                f"item {item!r} of keys=...: expected NAME=KEY[+KEY...] with NAME one of "
                f"{WEIGHT_KEYS + OFFSET_KEYS}"
            )
        mapping[name] = keys.split("+")
    return mapping


def from_state_dict(
    path: str | os.PathLike, keys: dict[str, list[str]] | None = None
) -> dict[str, np.ndarray]:
    """W_xh, W_hh, W_hy and any of b_h, b_y, h0 of a torch ``state_dict`` file: by ``keys``
    when given, else by the detected layout (:data:`LAYOUTS`)."""
    from rnnschur.external.torch_module import read_state_dict  # the route that needs torch

    return state_dict_arrays(read_state_dict(path), keys, path)


def state_dict_arrays(
    state: dict, keys: dict[str, list[str]] | None = None, where: object = "state_dict"
) -> dict[str, np.ndarray]:
    """The model's arrays of a state_dict held in memory (tensors or arrays; ``where`` names
    it in errors), mapped as :func:`from_state_dict` maps a file's."""
    state = {
        k: real_array(v, f"{where}: {k}")
        for k, v in state.items()
        if hasattr(v, "detach") or isinstance(v, np.ndarray)
    }
    mapping = keys or {}
    if not set(WEIGHT_KEYS) <= set(mapping):  # a partial map extends the detected layout
        named = {k for names in mapping.values() for k in names}
        detected = detect_layout(where, {k: v for k, v in state.items() if k not in named})
        mapping = {**detected, **mapping}
    model = {}
    for name, names in mapping.items():
        missing = [k for k in names if k not in state]
        _require(
            where,
            not missing,
            f"the key map (keys=...) names {missing}, not in the file (keys: {sorted(state)})",
        )
        model[name] = sum(state[k] for k in names)
    return check_model(model, where)


def detect_layout(path, state: dict[str, np.ndarray]) -> dict[str, list[str]]:
    """The key map of an ``nn.RNN`` or tutorial-CTRNN state_dict; :class:`ArtifactError`
    listing the keys found and a ``--keys`` line to start from when neither fits."""
    refuse_unreadable(path, state)
    for layout, (ih, hh, biases) in LAYOUTS.items():
        found = [k for k in state if k.endswith(hh)]
        if len(found) != 1:
            continue
        prefix = found[0][: -len(hh)]
        W_hh = state[found[0]]
        _require(path, W_hh.ndim == 2, f"{found[0]} has shape {W_hh.shape}: not a matrix")
        _require(path, prefix + ih in state, f"{layout} layout without {prefix + ih}")
        mapping = {"W_xh": [prefix + ih], "W_hh": [found[0]]}
        present = [prefix + b for b in biases if prefix + b in state]
        if present:
            mapping["b_h"] = present
        readout = _readout(state, W_hh.shape[0], exclude={prefix + ih, found[0]})
        _require(
            path,
            readout is not None,
            f"{layout} layout: no nn.Linear readout from N_h = {W_hh.shape[0]} "
            f"(looked for {READOUT_NAMES}); keys: {sorted(state)}",
        )
        mapping["W_hy"] = [readout + "weight"]
        if readout + "bias" in state:
            mapping["b_y"] = [readout + "bias"]
        initial = _initial_state(state, W_hh.shape[0], mapping)
        if initial is not None:
            mapping["h0"] = [initial]
        return mapping
    suggestion = ",".join(f"{n}=<key>" for n in WEIGHT_KEYS) + ",b_h=<key>[+<key>],b_y=<key>"
    raise ArtifactError(
        f"{path}: layout not detected (neither nn.RNN's '*weight_hh_l0' nor a tutorial CTRNN's "
        f"'*h2h.weight'); keys found: {sorted(state)}. Map them with keys=..., e.g. "
        f'keys="{suggestion}"'
    )


def refuse_unreadable(path, state: dict) -> None:
    """:class:`ArtifactError` naming ``path`` and why, where a torch state_dict (a file's or a
    module's) holds a GRU or LSTM, a stacked (multi-layer) or a bidirectional RNN: the layer
    that would be read (``weight_hh_l0``) is not the network."""
    for key, value in state.items():
        if key.endswith(("weight_hh_l0", "weight_hh")):
            refuse_gated(path, key, tuple(value.shape))
    reverse = sorted(k for k in state if k.endswith("weight_hh_l0_reverse"))
    _require(
        path,
        not reverse,
        f"a bidirectional RNN ({reverse[0] if reverse else ''} runs a second recurrent matrix "
        "backwards in time); only the forward direction's weight_hh_l0 would be read; "
        f"refused: {ONE_MATRIX}",
    )
    layers = sorted(k for k in state if re.search(r"weight_hh_l[1-9]\d*$", k))
    first = layers[0].rsplit("_l", 1)[0] + "_l0" if layers else ""
    _require(
        path,
        not layers,
        f"a stacked RNN of {len(layers) + 1} layers ({', '.join([first, *layers])}); only the "
        f"first layer's {first} would be read, not the network; refused: {ONE_MATRIX}",
    )


INITIAL_STATE_WORDS = ("h0", "init", "initial", "state", "hidden")
"""Words of a trained initial state's name (``h0``, ``initial_hiddens_1xd``, ``init_state``):
an unexplained (N_h,) parameter named otherwise (a gain, a time constant) is not taken as one."""


def _initial_state(state: dict[str, np.ndarray], N_h: int, mapping: dict) -> str | None:
    """The key of a trained initial state: the one array of shape (N_h,) or (1, N_h) that the
    detected ``mapping`` leaves unexplained and whose name says it is a state
    (:data:`INITIAL_STATE_WORDS`); None where there is none, or several."""
    used = {k for names in mapping.values() for k in names}
    left = [
        k
        for k, v in state.items()
        if k not in used
        and v.shape in ((N_h,), (1, N_h))
        and any(word in k.lower() for word in INITIAL_STATE_WORDS)
    ]
    return left[0] if len(left) == 1 else None


def _readout(state: dict[str, np.ndarray], N_h: int, exclude: set[str]) -> str | None:
    """The prefix (ending in '.') of the nn.Linear readout from N_h units: a known name first,
    else the only linear map from N_h."""
    linear = [
        k[: -len("weight")]
        for k in state
        if k.endswith("weight") and k not in exclude and state[k].ndim == 2
        if state[k].shape[1] == N_h
    ]
    for name in READOUT_NAMES:
        named = [p for p in linear if p.rstrip(".").split(".")[-1] == name]
        if len(named) == 1:
            return named[0]
    return linear[0] if len(linear) == 1 else None


def file_format(path: str | os.PathLike) -> str:
    """How a model file is read, by its name: ``"npz"``, ``"keras"`` (``.keras``,
    ``.weights.h5``), ``"flax"`` (``.msgpack``) or ``"torch"`` (any other)."""
    from rnnschur.external import flax_file, keras_file

    name = str(path)
    for kind, suffixes in (
        ("npz", (".npz",)),
        ("keras", keras_file.SUFFIXES),
        ("flax", flax_file.SUFFIXES),
    ):
        if name.endswith(suffixes):
            return kind
    return "torch"


def load_model_file(
    path: str | os.PathLike, keys: dict[str, list[str]] | None = None
) -> dict[str, np.ndarray]:
    """An ``.npz`` model, a Keras file, Flax bytes or a torch state_dict (:func:`file_format`);
    ``keys`` maps an ``.npz``'s or a state_dict's names (a Keras or Flax file is read by its
    layers)."""
    return read_model_file(path, keys)[0]


def hidden_size(path: str | os.PathLike, keys: dict[str, list[str]] | None = None) -> int:
    """N_h of a model file, as the workflow reads it while it plans: an ``.npz``'s from the
    header of its recurrent matrix (``W_hh``, PsychRNN's ``W_rec`` or what ``keys`` maps to
    W_hh; nothing loaded, the file read whole by the import job), any other file's from its
    arrays (:func:`load_model_file`)."""
    if file_format(path) == "npz":
        headers = npz_headers(path)
        names = (keys or {}).get("W_hh") or [n for n in ("W_hh", "W_rec") if n in headers]
        shapes = [headers[n][0] for n in names if n in headers]
        if shapes and len(shapes[0]) == 2 and shapes[0][0] == shapes[0][1]:
            return int(shapes[0][0])
    return int(load_model_file(path, keys)["W_hh"].shape[0])


def read_model_file(
    path: str | os.PathLike, keys: dict[str, list[str]] | None = None
) -> tuple[dict[str, np.ndarray], Dynamics | None]:
    """A model file's arrays and the network description it stores, read as
    :func:`file_format` says: an ``.npz``'s 0-d arrays (:func:`rnnschur.io.load_dynamics`), a
    Keras file's activation, a checkpoint's constructor kwargs (nn4n's save file:
    :func:`rnnschur.external.torch_module.stored_description`), else None. The one reading of
    a file for the command, :func:`rnnschur.analyse` and the workflow's ``external_import``, so
    that the three roll out the same network."""
    kind = file_format(path)
    if kind == "npz":
        return load_npz_model(path, keys), load_dynamics(path)
    _require(
        path,
        keys is None or kind == "torch",
        f"keys=... maps an .npz's or a torch state_dict's names; a {kind} file is read by its "
        "layers",
    )
    if kind == "keras":
        from rnnschur.external import keras_file

        return keras_file.read(path)
    if kind == "flax":
        from rnnschur.external import flax_file

        return flax_file.read(path), None
    from rnnschur.external.torch_module import stored_description  # reads it with torch

    return from_state_dict(path, keys), stored_description(path)
