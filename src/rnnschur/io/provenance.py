"""What made an artifact (the versions of the software, the BLAS/LAPACK and the kernels in use),
and fingerprints of trained weights to hold a run to a reference."""

from __future__ import annotations

import hashlib
import platform
import sys
from pathlib import Path

import numpy as np
import scipy

import rnnschur
from rnnschur.settings.numerics import kernel_settings


def _library(config: dict, key: str) -> str:
    entry = config.get("Build Dependencies", {}).get(key, {})
    return f"{entry.get('name', '?')} {entry.get('version', '?')}"


def software_versions() -> dict[str, str]:
    """Versions of rnnschur, Python, NumPy (and its BLAS), SciPy (and its LAPACK), torch if the
    process has imported it (training on a GPU, a model read from a torch module), and how the
    numeric kernels were chosen (``kernels``:
    :func:`rnnschur.settings.numerics.kernel_settings`)."""
    versions = {
        "rnnschur": rnnschur.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numpy_blas": _library(np.show_config(mode="dicts"), "blas"),
        "scipy": scipy.__version__,
        "scipy_lapack": _library(scipy.show_config(mode="dicts"), "lapack"),
        "kernels": kernel_settings(),
    }
    if "torch" in sys.modules:
        versions["torch"] = sys.modules["torch"].__version__
    return versions


def weights_sha256(path: str | Path) -> str:
    """The sha256 (hex) of an ``.npz``'s arrays in sorted key order, each in C order,
    concatenated: the same for the same arrays whatever the zip container's time stamps."""
    digest = hashlib.sha256()
    with np.load(path, allow_pickle=False) as data:
        for key in sorted(data.files):
            digest.update(np.ascontiguousarray(data[key]).tobytes())
    return digest.hexdigest()


def weight_hash(path: str | Path) -> str:
    """First 12 hex digits of :func:`weights_sha256`."""
    return weights_sha256(path)[:12]


def run_hashes(results: str | Path) -> dict[str, str]:
    """{``<task>/<construction>/n<size>/seed<k>``: :func:`weight_hash`} of every trained model
    under ``results/models``."""
    models = Path(results) / "models"
    return {
        str(path.parent.relative_to(models)): weight_hash(path)
        for path in sorted(models.rglob("weights.npz"))
    }
