"""A Keras model as Keras 3 saves it, read with h5py and json (Keras itself is not needed): a
``.keras`` file (a zip of ``config.json`` and ``model.weights.h5``) or its ``.weights.h5``
alone, of a ``Sequential`` or functional model of one ``SimpleRNN`` (``return_sequences``)
and a ``Dense`` readout.

Keras computes in the x·W convention: h_t = φ(x_t K + h_{t−1} U + b), y_t = h_t V + c, with
K (N_x, N_h) the ``kernel``, U (N_h, N_h) the ``recurrent_kernel`` and V (N_h, N_y) the
``Dense`` kernel. This project's layout is W x: W_xh = Kᵀ, W_hh = Uᵀ, W_hy = Vᵀ, b_h = b,
b_y = c, the paper's discrete update with φ the layer's ``activation`` (tanh or relu), which a
``.keras`` file's config names (a ``.weights.h5`` holds no activation: it is given or found).
"""

from __future__ import annotations

import io as bytes_io
import json
import os
import zipfile
from pathlib import Path

import numpy as np

from rnnschur import io
from rnnschur.external.arrays import MAX_NPZ_BYTES, ONE_MATRIX, check_model, refuse_gated
from rnnschur.io import require as _require
from rnnschur.network.dynamics import NONLINEARITIES, Dynamics

SUFFIXES = (".keras", ".weights.h5")
"""The files read here: a whole model, or its weights alone."""
GATED = {"LSTM": "an LSTM", "GRU": "a GRU"}
"""Keras's gated recurrent layers by class name, and the group name of their weights."""
RECURRENT = ("SimpleRNN", "LSTM", "GRU", "Bidirectional", "RNN", "ConvLSTM1D", "ConvLSTM2D")
"""Keras's recurrent layers: one of them must be a ``SimpleRNN``, and the only one."""
READ = ("InputLayer", "SimpleRNN", "Dense", "Dropout")
"""The layers a model may have (dropout is off in inference)."""


def _h5py(path):
    try:
        import h5py
    except ImportError:
        raise io.ArtifactError(
            f"{path}: reading a Keras file needs h5py (pip install 'rnnschur[keras]')"
        ) from None
    return h5py


def read(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], Dynamics | None]:
    """(W_xh, W_hh, W_hy and any of b_h, b_y; the description a ``.keras`` file's config
    names, None for ``.weights.h5``). :class:`rnnschur.io.ArtifactError` naming the file
    where it is not one ``SimpleRNN`` and a ``Dense`` readout (an LSTM, a GRU, a stacked or a
    bidirectional RNN is refused saying why)."""
    path = Path(path)
    _require(path, path.is_file(), "file not found")
    h5py = _h5py(path)
    dynamics = None
    try:
        if str(path).endswith(".keras"):
            with zipfile.ZipFile(path) as archive:
                sizes = {i.filename: i.file_size for i in archive.infolist()}
                _require(
                    path,
                    {"config.json", "model.weights.h5"} <= set(sizes),
                    f"holds {sorted(sizes)}, not a Keras 3 model (config.json, model.weights.h5)",
                )
                _require(
                    path,
                    sum(sizes.values()) <= MAX_NPZ_BYTES,
                    f"would take {sum(sizes.values()) / 2**30:.3g} GiB unpacked; refused",
                )
                dynamics = _description(path, json.loads(archive.read("config.json")))
                weights = bytes_io.BytesIO(archive.read("model.weights.h5"))
        else:
            weights = path
        with h5py.File(weights, "r") as h5:
            return _arrays(path, h5), dynamics
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        if isinstance(error, io.ArtifactError):
            raise
        raise io.ArtifactError(f"{path}: not a readable Keras file ({error})") from error


def _layers(config: dict) -> list[dict]:
    """The layers of a ``Sequential`` or functional model's config (each with ``class_name``
    and ``config``)."""
    return list(config.get("config", {}).get("layers", []))


def _description(path, config: dict) -> Dynamics:
    """The description the config gives: the discrete update, φ the ``SimpleRNN``'s
    activation; refused where a layer is not one of :data:`READ` or the model is not one
    ``SimpleRNN`` returning its sequence and a linear ``Dense``."""
    layers = _layers(config)
    names = [layer.get("class_name") for layer in layers]
    for name in names:
        if name in GATED:
            raise io.ArtifactError(f"{path}: {GATED[name]} layer; refused: {ONE_MATRIX}")
    _require(
        path,
        "Bidirectional" not in names,
        "a Bidirectional layer (a second recurrent matrix runs backwards in time); refused: "
        + ONE_MATRIX,
    )
    rnns = [n for n in names if n in RECURRENT]
    _require(
        path,
        len(rnns) <= 1,
        f"a stacked RNN of {len(rnns)} layers ({', '.join(rnns)}); only the first would be "
        f"read, not the network; refused: {ONE_MATRIX}",
    )
    other = [n for n in names if n not in READ]
    _require(path, not other, f"layers {other}: a model of one SimpleRNN and a Dense is read")
    _require(path, rnns == ["SimpleRNN"], f"no SimpleRNN layer (layers: {names})")
    _require(path, names.count("Dense") == 1, f"one Dense readout expected (layers: {names})")
    rnn = layers[names.index("SimpleRNN")]["config"]
    dense = layers[names.index("Dense")]["config"]
    _require(
        path,
        rnn.get("return_sequences") and not rnn.get("go_backwards"),
        "the SimpleRNN must return its sequence (return_sequences=True), forwards in time",
    )
    _require(
        path,
        dense.get("activation") in (None, "linear"),
        f"the Dense readout's activation is {dense.get('activation')!r}; a linear one is read",
    )
    activation = rnn.get("activation")
    _require(
        path,
        activation in NONLINEARITIES,
        f"the SimpleRNN's activation is {activation!r}; one of {NONLINEARITIES} is read",
    )
    return Dynamics(nonlinearity=activation)


def _groups(path, h5) -> dict[str, object]:
    """Each layer's weights group of a Keras 3 weights file, by its name
    (``layers/simple_rnn``, ``layers/dense``, ...)."""
    _require(path, "layers" in h5, "no 'layers' group: not a Keras 3 weights file")
    return {f"layers/{name}": group for name, group in h5["layers"].items()}


def _values(group) -> list[np.ndarray]:
    """The arrays of a ``vars`` group in their index order (kernel, then bias)."""
    if "vars" not in group:
        return []
    variables = group["vars"]
    size = sum(v.size * v.dtype.itemsize for v in variables.values())
    _require(group.name, size <= MAX_NPZ_BYTES, f"would take {size / 2**30:.3g} GiB; refused")
    return [np.asarray(variables[k]) for k in sorted(variables, key=int)]


def _arrays(path, h5) -> dict[str, np.ndarray]:
    groups = _groups(path, h5)
    for name, group in groups.items():
        kind = name.split("/")[-1].rstrip("_0123456789").upper()
        if "cell" in group and kind in GATED:
            shape = _values(group["cell"])[1].shape[::-1]  # (k N_h, N_h) as torch lays it
            refuse_gated(path, f"{name}/cell recurrent_kernel", shape, GATED[kind])
        _require(
            path,
            "forward_layer" not in group and "backward_layer" not in group,
            f"{name} is a Bidirectional layer (a second recurrent matrix runs backwards in "
            f"time); refused: {ONE_MATRIX}",
        )
    cells = sorted(name for name, group in groups.items() if "cell" in group)
    _require(path, bool(cells), f"no recurrent layer (groups {sorted(groups)})")
    _require(
        path,
        len(cells) == 1,
        f"a stacked RNN of {len(cells)} layers ({', '.join(cells)}); only {cells[0]} would be "
        f"read, not the network; refused: {ONE_MATRIX}",
    )
    cell = _values(groups[cells[0]]["cell"])
    _require(path, len(cell) in (2, 3), f"{cells[0]}: {len(cell)} arrays, a SimpleRNN has 2 or 3")
    refuse_gated(path, f"{cells[0]}/cell recurrent_kernel", cell[1].shape[::-1])
    N_h = cell[1].shape[0]
    dense = [
        name
        for name, group in groups.items()
        if name not in cells and (v := _values(group)) and v[0].ndim == 2 and v[0].shape[0] == N_h
    ]
    _require(
        path,
        len(dense) == 1,
        f"one Dense readout from N_h = {N_h} expected, found {dense or 'none'}",
    )
    readout = _values(groups[dense[0]])
    model = {"W_xh": cell[0].T, "W_hh": cell[1].T, "W_hy": readout[0].T}
    if len(cell) == 3:
        model["b_h"] = cell[2]
    if len(readout) == 2:
        model["b_y"] = readout[1]
    return check_model(model, path)
