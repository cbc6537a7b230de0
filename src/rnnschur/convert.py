"""A torch ``state_dict`` of a tanh RNN as the arrays of :mod:`rnnschur.external` (the only
step of the external-model analysis that needs torch)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from rnnschur.io import ArtifactError
from rnnschur.io import require as _require
from rnnschur.models import check_model, load_npz_model


def from_state_dict(path: str | os.PathLike, nonlinearity: str = "tanh") -> dict[str, np.ndarray]:
    """W_xh, W_hh, W_hy, b_h, b_y of a torch ``state_dict`` saved from ``nn.RNN`` (one layer,
    tanh, unidirectional) and an ``nn.Linear`` readout: ``weight_ih_l0`` → W_xh,
    ``weight_hh_l0`` → W_hh, ``bias_ih_l0 + bias_hh_l0`` → b_h, the readout's ``weight`` and
    ``bias`` → W_hy, b_y. The nonlinearity is not stored in a state_dict; it must be given, and
    only tanh is the paper's model. Loaded with ``weights_only=True`` (no code runs)."""
    import torch  # here, so that reading an .npz model never loads torch

    if nonlinearity != "tanh":
        raise ArtifactError(f"{path}: nonlinearity {nonlinearity!r}; only tanh RNNs are analysed")
    if not Path(path).is_file():
        raise ArtifactError(f"{path}: file not found")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for a bad file
        raise ArtifactError(f"{path}: not a readable torch state_dict ({error})") from error
    _require(path, isinstance(state, dict), f"holds a {type(state).__name__}, not a state_dict")
    state = {k: v.detach().double().numpy() for k, v in state.items() if hasattr(v, "numpy")}

    def find(suffix: str) -> list[str]:
        return sorted(k for k in state if k.endswith(suffix))

    layers = find("weight_hh_l1") + find("weight_hh_l0_reverse")
    _require(path, not layers, f"a multi-layer or bidirectional RNN ({layers}); one layer only")
    for suffix in ("weight_ih_l0", "weight_hh_l0"):
        _require(
            path, len(find(suffix)) == 1, f"needs exactly one '*{suffix}', found {find(suffix)}"
        )
    W_xh, W_hh = state[find("weight_ih_l0")[0]], state[find("weight_hh_l0")[0]]
    N_h = W_hh.shape[1]
    _require(
        path,
        W_hh.shape == (N_h, N_h),
        f"weight_hh_l0 has shape {W_hh.shape}: a GRU or LSTM (stacked gates), not a tanh RNN",
    )
    prefix = find("weight_hh_l0")[0][: -len("weight_hh_l0")]
    b_h = sum(state.get(f"{prefix}{b}", np.zeros(N_h)) for b in ("bias_ih_l0", "bias_hh_l0"))
    readout = [
        k[: -len("weight")]
        for k in state
        if k.endswith("weight") and state[k].ndim == 2 and state[k].shape[1] == N_h
    ]
    _require(
        path, len(readout) == 1, f"needs one nn.Linear readout from N_h = {N_h}, found {readout}"
    )
    W_hy = state[f"{readout[0]}weight"]
    b_y = state.get(f"{readout[0]}bias")
    return check_model({"W_xh": W_xh, "W_hh": W_hh, "W_hy": W_hy, "b_h": b_h, "b_y": b_y}, path)


def load_model_file(path: str | os.PathLike, nonlinearity: str = "tanh") -> dict[str, np.ndarray]:
    """An ``.npz`` model, or a torch state_dict (any other suffix, e.g. ``.pt``)."""
    if str(path).endswith(".npz"):
        return load_npz_model(path)
    return from_state_dict(path, nonlinearity)
