"""The checked arrays of a tanh RNN trained elsewhere: W_xh (N_h, N_x), W_hh (N_h, N_h),
W_hy (N_y, N_h) and any of b_h (N_h,), b_y (N_y,), h0 (N_h,). NumPy only, so both the torch
conversion (:mod:`rnnschur.external.convert`) and the analysis
(:mod:`rnnschur.external.analysis`) use it."""

from __future__ import annotations

import os

import numpy as np

from rnnschur import io
from rnnschur.io import require as _require
from rnnschur.network import OFFSET_KEYS, WEIGHT_KEYS

NUMERIC_KINDS = "fiu"
"""NumPy dtype kinds the analysis reads: float, signed and unsigned integer. Complex (its
imaginary part would be dropped), bool, string and object arrays are refused."""


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
    io.check_weights(path, W_xh, W_hh, W_hy)
    N_h = W_hh.shape[0]
    expected = {"b_h": (N_h,), "h0": (N_h,), "b_y": (W_hy.shape[0],)}
    for key, shape in expected.items():
        if key in out:
            _require(
                path, out[key].shape == shape, f"{key} has shape {out[key].shape}, expected {shape}"
            )
    for key, value in out.items():
        _require(path, bool(np.all(np.isfinite(value))), f"{key} has NaN or inf entries")
    unknown = set(out) - set(WEIGHT_KEYS) - set(OFFSET_KEYS)
    _require(
        path,
        not unknown,
        f"unknown arrays {sorted(unknown)} (expected {WEIGHT_KEYS + OFFSET_KEYS})",
    )
    return out


def load_npz_model(
    path: str | os.PathLike, keys: dict[str, list[str]] | None = None
) -> dict[str, np.ndarray]:
    """W_xh, W_hh, W_hy and any of b_h, b_y, h0 from an ``.npz`` (never unpickled): its arrays
    of those names, or the arrays ``keys`` maps to them (summed where several are named). The
    0-d arrays that name the network family (:data:`rnnschur.io.DYNAMICS_KEYS`) are read by
    :func:`rnnschur.io.load_dynamics`."""
    names = tuple(k for k in io.npz_keys(path) if k not in io.DYNAMICS_KEYS)
    arrays = io.load_npz(path, names)
    if keys is None:
        return check_model(arrays, path)
    missing = [k for ks in keys.values() for k in ks if k not in arrays]
    _require(
        path,
        not missing,
        f"the key map (keys=...) names {missing}, not in the file (has {list(names)})",
    )
    return check_model({name: sum(arrays[k] for k in ks) for name, ks in keys.items()}, path)
