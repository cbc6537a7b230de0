"""A user's held-out set: ``inputs`` (n, T, N_x), ``targets`` (n, T, N_y), an optional
``mask`` and the model's own ``outputs`` on the inputs (noise off), from a file, a dict of
arrays or a :class:`rnnschur.tasks.Batch`, each checked against the model."""

from __future__ import annotations

import math
import os

import numpy as np

from rnnschur import io
from rnnschur.external.arrays import load_npz, real_array
from rnnschur.io import require as _require
from rnnschur.network import Network
from rnnschur.tasks import Batch


def load_heldout(path: str | os.PathLike, N_x: int, N_y: int) -> Batch:
    """``inputs`` (n, T, N_x), ``targets`` (n, T, N_y) and an optional ``mask`` ((n, T) or
    (n, T, N_y); all ones when absent), checked against the model's N_x and N_y."""
    keys = io.npz_keys(path)
    _require(
        path, {"inputs", "targets"} <= set(keys), f"needs inputs and targets, has {list(keys)}"
    )
    data = load_npz(path, tuple(k for k in keys if k in ("inputs", "targets", "mask")))
    return heldout_batch(data, N_x, N_y, path)


def heldout_batch(data: dict, N_x: int, N_y: int, where: object = "heldout") -> Batch:
    """The held-out set of the arrays ``data`` (``inputs``, ``targets``, optional ``mask``),
    checked as :func:`load_heldout` checks a file's; ``where`` names it in errors."""
    _require(
        where, {"inputs", "targets"} <= set(data), f"needs inputs and targets, has {list(data)}"
    )
    inputs = real_array(data["inputs"], f"{where}: inputs")
    targets = real_array(data["targets"], f"{where}: targets")
    _require(
        where, inputs.ndim == 3 and targets.ndim == 3, "inputs and targets must be (n, T, lines)"
    )
    _require(
        where,
        inputs.shape[2] == N_x,
        f"inputs have {inputs.shape[2]} lines, the model's W_xh takes N_x = {N_x}",
    )
    _require(
        where,
        targets.shape[2] == N_y,
        f"targets have {targets.shape[2]} lines, the model's W_hy gives N_y = {N_y}",
    )
    _require(
        where,
        inputs.shape[:2] == targets.shape[:2],
        f"inputs {inputs.shape} and targets {targets.shape} differ in trials or steps",
    )
    _require(where, inputs.shape[0] > 0, f"holds no trials (inputs {inputs.shape})")
    _require(where, inputs.shape[1] > 0, f"holds no time steps (inputs {inputs.shape})")
    mask = data.get("mask")
    mask = np.ones(inputs.shape[:2]) if mask is None else np.asarray(mask)
    if mask.dtype != bool:  # a boolean mask is a mask; other arrays must be numbers
        mask = real_array(mask, f"{where}: mask")
    _require(
        where,
        mask.shape in (inputs.shape[:2], targets.shape),
        f"mask has shape {mask.shape}, expected {inputs.shape[:2]} or {targets.shape}",
    )
    for name, array in (("inputs", inputs), ("targets", targets), ("mask", mask)):
        _require(where, bool(np.all(np.isfinite(array))), f"{name} has NaN or inf entries")
    values = np.unique(mask)
    _require(
        where,
        bool(np.isin(values, (0, 1)).all()),
        f"mask holds {sorted(set(values.tolist()) - {0, 1})[:3]}: its entries must be 0 or 1 "
        "(a step scored or not; the FVU is not weighted)",
    )
    _require(where, mask.sum() > 0, "the mask selects no step")
    return Batch(inputs, targets, mask.astype(np.float64))


def load_outputs(path: str | os.PathLike, batch: Batch) -> np.ndarray | None:
    """The model's own outputs on the held-out inputs (key ``outputs``, (n, T, N_y), noise
    off), checked against the held-out set's shape; None when the file has none."""
    if "outputs" not in io.npz_keys(path):
        return None
    return checked_outputs(load_npz(path, ("outputs",))["outputs"], batch, path)


def checked_outputs(outputs, batch: Batch, where: object = "outputs") -> np.ndarray:
    """``outputs`` as float64 if they have the targets' shape and finite entries."""
    outputs = real_array(outputs, f"{where}: outputs")
    _require(
        where,
        outputs.shape == batch.targets.shape,
        f"outputs have shape {outputs.shape}, the targets {batch.targets.shape}",
    )
    _require(where, bool(np.all(np.isfinite(outputs))), "outputs has NaN or inf entries")
    return outputs


def read(heldout, network: Network | None, where: str) -> tuple[Batch, np.ndarray | None]:
    """(the held-out set, the model's own outputs or None), checked against the ``network``
    (None: a set read before the model, its sizes its own)."""
    if isinstance(heldout, str | os.PathLike):
        shapes = {k: v.shape for k, v in load_npz(heldout, ("inputs", "targets")).items()}
        N_x, N_y = dims(network, shapes["inputs"], shapes["targets"])
        batch = load_heldout(heldout, N_x, N_y)
        return batch, load_outputs(heldout, batch)
    if isinstance(heldout, Batch):
        data = {"inputs": heldout.inputs, "targets": heldout.targets, "mask": heldout.mask}
    elif isinstance(heldout, dict):
        data = heldout
    else:
        raise TypeError(
            f"{where} must be a file path, a dict of arrays or a Batch, "
            f"got {type(heldout).__name__}"
        )
    N_x, N_y = dims(network, np.shape(data.get("inputs")), np.shape(data.get("targets")))
    batch = heldout_batch(data, N_x, N_y, where)
    outputs = data.get("outputs")
    return batch, None if outputs is None else checked_outputs(outputs, batch, where)


def dims(network: Network | None, inputs_shape, targets_shape) -> tuple[int, int]:
    """(N_x, N_y) of the network, or of the held-out set where its W_xh and W_hy are unknown."""
    if network is not None and network.W_xh is not None:
        return network.W_xh.shape[1], network.W_hy.shape[0]
    return inputs_shape[-1], targets_shape[-1]


def initial_state(value) -> np.ndarray:
    """h0 (N_h,) given as an array or as an ``.npz`` holding it."""
    if isinstance(value, str | os.PathLike):
        return load_npz(value, ("h0",))["h0"]
    return real_array(value, "initial_state")


CONSTANT = 1e-12
"""Targets whose masked variance is below this share of their mean square are constant: the
FVU's normaliser is then rounding error (constant 0.7 leaves 1e-33, not 0)."""


def check_targets(batch: Batch, score: str, where: object = "heldout") -> None:
    """:class:`rnnschur.io.ArtifactError` naming ``where`` when ``score`` cannot be read on
    the set's targets: ``fvu`` on targets whose variance overflows float64 or that do not vary
    over the masked entries (eq. 7 divides by their variance), ``accuracy`` on targets other
    than ±1 (eq. 6 compares the sign of each output with its target)."""
    weight = np.broadcast_to(
        batch.mask[..., None] if batch.mask.ndim == 2 else batch.mask, batch.targets.shape
    ).astype(bool)
    targets = batch.targets[weight]
    _require(where, targets.size > 0, "the mask selects no entry to score")
    if score == "fvu":
        # the normaliser as eq. (7) computes it (rnnschur.tasks.metrics.fvu: ȳ a sum over a count),
        # whose rounding leaves constant targets a variance that is not 0
        lines = batch.targets.reshape(-1, batch.targets.shape[-1])
        kept = weight.reshape(-1, batch.targets.shape[-1])
        y_bar = (lines * kept).sum(axis=0) / np.maximum(kept.sum(axis=0), 1)
        with np.errstate(over="ignore", invalid="ignore"):
            spread = float((((lines - y_bar) ** 2) * kept).sum()) / targets.size
            scale = float(np.mean(targets**2))
        _require(
            where,
            math.isfinite(spread) and math.isfinite(scale),
            f"the targets' variance overflows float64 (their largest |entry| is "
            f"{float(np.max(np.abs(targets))):.3g}): FVU, their variance explained, cannot be "
            "computed; scale the targets (and the readout) down",
        )
        _require(
            where,
            spread > CONSTANT * max(scale, np.finfo(float).tiny),
            f"the targets do not vary over the masked entries (each is {targets.flat[0]:g}): "
            "FVU, their variance explained, is undefined; score a set whose targets vary",
        )
    elif score == "accuracy":
        values = np.unique(targets)
        _require(
            where,
            bool(np.all(np.abs(values) == 1.0)),
            f"score accuracy compares the sign of each output with a target of ±1, but the "
            f"targets hold {', '.join(f'{v:g}' for v in values[:4])}"
            + (" (0/1 targets: give 2y − 1)" if set(values) <= {0.0, 1.0} else ""),
        )
