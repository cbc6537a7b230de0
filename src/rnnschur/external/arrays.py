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


def check_model(model: dict[str, np.ndarray], path) -> dict[str, np.ndarray]:
    """``model`` (float64 copies) if its shapes fit each other and its entries are finite: the
    weights by :func:`rnnschur.io.check_weights` (the workflow's own check), then the
    offsets."""
    for key in WEIGHT_KEYS:
        _require(path, key in model, f"missing {key} (has {sorted(model)})")
    out = {k: np.asarray(v, dtype=np.float64) for k, v in model.items() if v is not None}
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
    _require(path, not missing, f"--keys names {missing}, not in the file (has {list(names)})")
    return check_model({name: sum(arrays[k] for k in ks) for name, ks in keys.items()}, path)
