"""The checked arrays of a tanh RNN trained elsewhere: W_xh (N_h, N_x), W_hh (N_h, N_h),
W_hy (N_y, N_h) and any of b_h (N_h,), b_y (N_y,), h0 (N_h,). NumPy only, so both the torch
conversion (:mod:`rnnschur.external.convert`) and the analysis
(:mod:`rnnschur.external.analysis`) use it.

An ``.npz`` is read as its package wrote it: with this project's names, or PsychRNN's
``model.save`` (:data:`PSYCHRNN_KEYS`), or mapped with ``keys``. Its entries are typed from
their headers, never unpickled: an entry of Python objects that the model does not need (PsychRNN
stores ``dale_ratio=None`` so) is left out with a note, one it needs is refused by name."""

from __future__ import annotations

import os
import warnings
import zipfile
import zlib

import numpy as np

from rnnschur import io
from rnnschur.io import require as _require
from rnnschur.network import OFFSET_KEYS, WEIGHT_KEYS
from rnnschur.network.dynamics import FIELDS

PSYCHRNN_KEYS = {
    "W_xh": "W_in",
    "W_hh": "W_rec",
    "W_hy": "W_out",
    "b_h": "b_rec",
    "b_y": "b_out",
    "h0": "init_state",
}
"""The names PsychRNN's ``model.save`` gives the arrays (psychrnn 1.0, ``RNN.get_weights``):
its *effective* weights, connectivity masks and Dale's law already applied, so its masks,
Dale matrices and optimizer slots are not read."""

PSYCHRNN_LSTM_GATES = ("W_f", "W_i", "W_c", "W_o")
"""The gates' weights PsychRNN's ``LSTM`` model saves beside the ``W_rec`` it never runs
(psychrnn 1.0, ``backend/models/lstm.py``)."""


class AnalysisWarning(UserWarning):
    """A warning of :func:`rnnschur.analyse` to a Python caller: nothing was verified, the full
    model scores far from a working network, or entries of its file were left out."""


NUMERIC_KINDS = "fiu"
"""NumPy dtype kinds the analysis reads: float, signed and unsigned integer. Complex (its
imaginary part would be dropped), bool, string and object arrays are refused."""


LARGEST_ENTRY = 1e150
"""The largest |entry| of a model's arrays the analysis takes: near √(float64's largest)
(1.3e154), beyond which an entry's square overflows."""


def real_array(value, where) -> np.ndarray:
    """``value`` (an array, a nested list of numbers or a torch tensor) as a float64 array;
    :class:`rnnschur.io.ArtifactError` naming ``where`` when it is complex, bool, text or
    anything else that is not real numbers."""
    if hasattr(value, "detach"):  # a torch tensor, without importing torch
        dtype = str(value.dtype).removeprefix("torch.")
        _require(
            where,
            not value.is_complex() and dtype != "bool",
            f"is a {dtype} tensor; the analysis needs real numbers",
        )
        return value.detach().cpu().double().numpy()
    try:
        array = np.asarray(value)
    except ValueError as error:  # ragged nested lists
        raise io.ArtifactError(f"{where}: not an array of numbers ({error})") from None
    _require(
        where,
        array.dtype.kind in NUMERIC_KINDS,
        f"is a {array.dtype} array ({type(value).__name__}); the analysis needs real numbers "
        "(float or integer)",
    )
    return array.astype(np.float64)


def check_model(model: dict[str, np.ndarray], path) -> dict[str, np.ndarray]:
    """``model`` (float64 copies) if its shapes fit each other and its entries are finite: the
    weights by :func:`rnnschur.io.check_weights` (the workflow's own check), then the
    offsets."""
    for key in WEIGHT_KEYS:
        _require(path, key in model, f"missing {key} (has {sorted(model)})")
    out = {k: real_array(v, f"{path}: {k}") for k, v in model.items() if v is not None}
    W_xh, W_hh, W_hy = (out[k] for k in WEIGHT_KEYS)
    _require(path, W_hh.ndim == 2, f"W_hh {W_hh.shape} is not a matrix")
    _require(path, W_hh.size > 0, f"W_hh is empty {W_hh.shape}: no recurrent network to analyse")
    io.check_weights(path, W_xh, W_hh, W_hy)
    N_h = W_hh.shape[0]
    if "h0" in out and out["h0"].shape == (1, N_h):  # one initial state for a batch (PsychRNN's)
        out["h0"] = out["h0"][0]
    expected = {"b_h": (N_h,), "h0": (N_h,), "b_y": (W_hy.shape[0],)}
    for key, shape in expected.items():
        if key in out:
            _require(
                path, out[key].shape == shape, f"{key} has shape {out[key].shape}, expected {shape}"
            )
    for key, value in out.items():
        _require(path, bool(np.all(np.isfinite(value))), f"{key} has NaN or inf entries")
        largest = float(np.max(np.abs(value), initial=0.0))
        _require(
            path,
            largest <= LARGEST_ENTRY,
            f"{key} has an entry of size {largest:.3g}: beyond {LARGEST_ENTRY:g} its square "
            "overflows, and with it the norms and the Schur form (no trained network has one)",
        )
    unknown = set(out) - set(WEIGHT_KEYS) - set(OFFSET_KEYS)
    _require(
        path,
        not unknown,
        f"unknown arrays {sorted(unknown)} (expected {WEIGHT_KEYS + OFFSET_KEYS})",
    )
    return out


ONE_MATRIX = "the method needs one recurrent matrix W_hh (N_h, N_h), whose Schur form it ablates"
"""Why a gated, stacked or bidirectional network is refused, in every refusal's words."""
GATES = {3: "a GRU", 4: "an LSTM"}
"""A gated cell by the number of recurrent matrices stacked in its ``weight_hh`` (torch's
gate order: r, z, n and i, f, g, o)."""


def refuse_gated(path, name: str, shape: tuple, cell: str | None = None) -> None:
    """:class:`ArtifactError` naming ``path`` where the recurrent weight ``name`` of ``shape``
    stacks a gated cell's matrices ((3 N_h, N_h): a GRU; (4 N_h, N_h): an LSTM; ``cell``, with
    its article, names it where the file does)."""
    if len(shape) != 2 or shape[0] == shape[1] or shape[0] % max(shape[1], 1):
        return
    gates = shape[0] // shape[1]
    cell = cell or GATES.get(gates, "a gated cell")
    raise io.ArtifactError(
        f"{path}: {cell} ({name} {tuple(shape)} holds {gates} recurrent matrices, one per "
        f"gate); refused: {ONE_MATRIX}"
    )


MAX_NPZ_BYTES = 2**30
"""The most a user's ``.npz`` may take once read (1 GiB): a larger file (a zip bomb: a few MB
on disk, gigabytes unpacked) is refused from its entries' headers, before any is loaded."""


def npz_headers(path: str | os.PathLike, keys: tuple[str, ...] | None = None) -> dict:
    """{key: (shape, dtype)} of ``keys`` (every entry where None; those the file lacks left
    out) of an ``.npz``, read from each entry's ``.npy`` header: nothing loaded, nothing
    unpickled; :class:`rnnschur.io.ArtifactError` if it is missing, not an ``.npz`` or
    unreadable."""
    names = io.npz_keys(path)  # the file's own check: missing, truncated, not an .npz
    headers = {}
    try:
        with zipfile.ZipFile(path) as archive:
            for name in names if keys is None else [k for k in keys if k in names]:
                with archive.open(f"{name}.npy") as entry:
                    version = np.lib.format.read_magic(entry)
                    read = (
                        np.lib.format.read_array_header_1_0
                        if version == (1, 0)
                        else np.lib.format.read_array_header_2_0
                    )
                    shape, _, dtype = read(entry)
                    headers[name] = (shape, dtype)
    except (OSError, ValueError, KeyError, EOFError, zlib.error, zipfile.BadZipFile) as error:
        raise io.ArtifactError(f"{path}: unreadable or truncated .npz ({error})") from error
    return headers


def npz_kinds(path: str | os.PathLike) -> dict[str, str]:
    """Each entry of an ``.npz`` with its dtype's kind ('f', 'i', 'O', ...), from its header."""
    return {name: dtype.kind for name, (_, dtype) in npz_headers(path).items()}


def load_npz(path: str | os.PathLike, keys: tuple[str, ...]) -> dict[str, np.ndarray]:
    """:func:`rnnschur.io.load_npz` of a user's file, refused first where ``keys`` would take
    more than :data:`MAX_NPZ_BYTES` once read (their headers' shapes and dtypes)."""
    size = sum(
        int(np.prod(shape, dtype=np.float64)) * dtype.itemsize
        for shape, dtype in npz_headers(path, keys).values()
    )
    if size > MAX_NPZ_BYTES:
        raise io.ArtifactError(
            f"{path}: its arrays would take {size / 2**30:.3g} GiB once read (their headers), "
            f"more than the {MAX_NPZ_BYTES / 2**30:g} GiB a model or held-out file may hold; "
            "refused"
        )
    return io.load_npz(path, keys)


def load_npz_model(
    path: str | os.PathLike, keys: dict[str, list[str]] | None = None
) -> dict[str, np.ndarray]:
    """W_xh, W_hh, W_hy and any of b_h, b_y, h0 from an ``.npz`` (never unpickled): its arrays
    of those names, PsychRNN's (:data:`PSYCHRNN_KEYS`, detected by ``W_in``, ``W_rec`` and
    ``W_out``), or the arrays ``keys`` maps to them (summed where several are named). The
    entries a map leaves out are named in an :class:`AnalysisWarning`; an entry of Python
    objects is refused where the model needs it. The 0-d arrays that name the network family
    (:data:`rnnschur.network.dynamics.FIELDS`) are read by :func:`rnnschur.io.load_dynamics`."""
    kinds = {k: v for k, v in npz_kinds(path).items() if k not in FIELDS}
    names = list(kinds)
    layout = "the key map (keys=...)"
    given = keys or {}
    gates = [k for k in PSYCHRNN_LSTM_GATES if k in names]
    _require(
        path,
        not gates or keys is not None,
        f"PsychRNN's LSTM (its gates' weights {', '.join(gates)}; its W_rec is not what it "
        f"runs); refused: {ONE_MATRIX}",
    )
    if {"W_in", "W_rec", "W_out"} <= set(names) and "W_hh" not in names:
        own = {ours: [theirs] for ours, theirs in PSYCHRNN_KEYS.items() if theirs in names}
        layout = "PsychRNN's model.save" if keys is None else layout
    else:
        own = {k: [k] for k in (*WEIGHT_KEYS, *OFFSET_KEYS) if k in names}
    if keys is not None or layout != "the key map (keys=...)":
        named = {k for ks in given.values() for k in ks}  # a partial map extends the layout
        keys = {**{o: ks for o, ks in own.items() if not set(ks) & named}, **given}
    if keys is not None:
        missing = [k for ks in keys.values() for k in ks if k not in kinds]
        _require(path, not missing, f"{layout} names {missing}, not in the file (has {names})")
    wanted = names if keys is None else sorted({k for ks in keys.values() for k in ks})
    objects = [k for k in wanted if kinds[k] == "O"]
    _require(
        path,
        not objects,
        f"entry {objects[0] if objects else ''!r} holds pickled Python objects; refused "
        "(arrays of numbers only)",
    )
    if keys is None:  # refused from the headers, before anything is loaded
        unknown = set(wanted) - set(WEIGHT_KEYS) - set(OFFSET_KEYS)
        _require(
            path,
            not unknown,
            f"unknown arrays {sorted(unknown)} (expected {WEIGHT_KEYS + OFFSET_KEYS})",
        )
    left_out = [k for k in names if k not in wanted]
    if left_out:
        warnings.warn(
            f"{path}: read as {layout}; not read: {', '.join(left_out)}",
            AnalysisWarning,
            stacklevel=2,
        )
    arrays = load_npz(path, tuple(wanted))
    if keys is None:
        return check_model(arrays, path)
    return check_model({name: sum(arrays[k] for k in ks) for name, ks in keys.items()}, path)
