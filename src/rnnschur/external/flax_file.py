"""A Flax network's parameters as ``flax.serialization.to_bytes`` writes them (msgpack), read
with the ``msgpack`` package alone (neither JAX nor Flax is needed): one ``SimpleCell`` (linen:
``i`` and ``h``; nnx: ``dense_i`` and ``dense_h``) and a ``Dense`` (nnx ``Linear``) readout.

Flax computes in the x·W convention: h_t = φ(x_t K_i + b_i + h_{t−1} K_h), y_t = h_t K + b,
so W_xh = K_iᵀ, W_hh = K_hᵀ, W_hy = Kᵀ, b_h = b_i, b_y = b: the paper's discrete update, φ
the cell's ``activation_fn`` (tanh by default), which the parameters do not store (given, or
found by ``"auto"``). Arrays are encoded as Flax encodes them (msgpack extension 1: shape,
dtype name, bytes); nothing is unpickled.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from rnnschur import io
from rnnschur.external.arrays import MAX_NPZ_BYTES, ONE_MATRIX, check_model, refuse_gated
from rnnschur.io import require as _require

SUFFIXES = (".msgpack",)
"""The files read here: ``open(path, "wb").write(flax.serialization.to_bytes(params))``."""
NDARRAY, NPSCALAR = 1, 3
"""Flax's msgpack extension codes for an array and a NumPy scalar (``_MsgpackExtType``)."""
CELLS = (("i", "h"), ("dense_i", "dense_h"))
"""A SimpleCell's input and recurrent ``Dense`` by name: linen's, then nnx's."""
GATED = {"an LSTM": {"hi", "hf", "hg", "ho"}, "a GRU": {"hr", "hz", "hn"}}
"""Flax's gated cells by the recurrent ``Dense`` layers they hold (linen and nnx)."""


def _array(code: int, data: bytes) -> np.ndarray:
    """An array from Flax's msgpack extension (shape, dtype name, C-order bytes)."""
    import msgpack

    if code not in (NDARRAY, NPSCALAR):
        raise ValueError(f"msgpack extension {code}: not an array of real numbers")
    shape, dtype, buffer = msgpack.unpackb(data, raw=True)
    return np.frombuffer(buffer, dtype=np.dtype(dtype.decode())).reshape(shape)


def _leaves(tree, prefix: tuple = ()) -> dict[tuple, np.ndarray]:
    """{path: array} of a nested dict of arrays."""
    if isinstance(tree, np.ndarray):
        return {prefix: tree}
    _require(
        "/".join(prefix) or "the file",
        isinstance(tree, dict) and "__msgpack_chunked_array__" not in tree,
        "not a tree of arrays (or an array over 1 GiB, stored in chunks)",
    )
    return {p: a for k, v in tree.items() for p, a in _leaves(v, (*prefix, str(k))).items()}


def read(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """W_xh, W_hh, W_hy and any of b_h, b_y of a Flax parameter file (:data:`SUFFIXES`);
    :class:`rnnschur.io.ArtifactError` naming the file where it is not one ``SimpleCell`` and
    a ``Dense`` readout (an LSTM, a GRU, two cells: stacked or bidirectional, refused saying
    why)."""
    path = Path(path)
    _require(path, path.is_file(), "file not found")
    size = path.stat().st_size
    _require(path, size <= MAX_NPZ_BYTES, f"holds {size / 2**30:.3g} GiB; refused")
    try:
        import msgpack
    except ImportError:
        raise io.ArtifactError(
            f"{path}: reading Flax bytes needs msgpack (pip install 'rnnschur[flax]')"
        ) from None
    try:
        tree = msgpack.unpackb(path.read_bytes(), ext_hook=_array, raw=False)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise io.ArtifactError(f"{path}: not Flax's msgpack bytes ({error})") from error
    try:
        leaves = _leaves(tree)
    except io.ArtifactError as error:
        raise io.ArtifactError(f"{path}: {error}") from None
    return _arrays(path, leaves)


def _arrays(path, leaves: dict[tuple, np.ndarray]) -> dict[str, np.ndarray]:
    """The model's arrays from the file's leaves: the one SimpleCell and the Dense from its
    N_h units."""
    layers = {}  # a Dense's path → its {"kernel": ..., "bias": ...}
    for key, value in leaves.items():
        layers.setdefault(key[:-1], {})[key[-1]] = value
    parents = {key[:-1] for key in layers}
    for parent in sorted(parents):
        names = {key[-1] for key in layers if key[:-1] == parent}
        where = "/".join(parent)
        for cell, gates in GATED.items():
            _require(
                path,
                not gates <= names,
                f"{cell} cell ({where}: {', '.join(sorted(gates))}); refused: {ONE_MATRIX}",
            )
    cells = [
        (parent, i, h)
        for parent in sorted(parents)
        for i, h in CELLS
        if (*parent, i) in layers and (*parent, h) in layers
    ]
    _require(
        path, bool(cells), f"no SimpleCell (i and h, or dense_i and dense_h): {sorted(leaves)}"
    )
    names = ["/".join(parent) for parent, _, _ in cells]
    _require(
        path,
        len(cells) == 1,
        f"{len(cells)} recurrent cells ({', '.join(names)}): a stacked or bidirectional RNN; "
        f"only {names[0]} would be read, not the network; refused: {ONE_MATRIX}",
    )
    parent, i, h = cells[0]
    recurrent = layers[(*parent, h)]["kernel"]
    refuse_gated(path, f"{names[0]}/{h}/kernel", recurrent.shape[::-1])
    N_h = recurrent.shape[0]
    readouts = [
        key
        for key, layer in layers.items()
        if key[:-1] != parent and layer.get("kernel", np.empty(0)).ndim == 2
        if layer["kernel"].shape[0] == N_h
    ]
    _require(
        path,
        len(readouts) == 1,
        f"one Dense readout from N_h = {N_h} expected, found "
        f"{['/'.join(k) for k in readouts] or 'none'}",
    )
    readout = layers[readouts[0]]
    model = {
        "W_xh": layers[(*parent, i)]["kernel"].T,
        "W_hh": recurrent.T,
        "W_hy": readout["kernel"].T,
    }
    for ours, layer in (("b_h", layers[(*parent, i)]), ("b_y", readout)):
        if "bias" in layer:
            model[ours] = layer["bias"]
    return check_model(model, path)
