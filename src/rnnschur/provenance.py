"""What made an artifact: the versions of the software and of the BLAS/LAPACK in use."""

from __future__ import annotations

import platform
import sys

import numpy as np
import scipy

import rnnschur


def _library(config: dict, key: str) -> str:
    entry = config.get("Build Dependencies", {}).get(key, {})
    return f"{entry.get('name', '?')} {entry.get('version', '?')}"


def software_versions() -> dict[str, str]:
    """Versions of rnnschur, Python, NumPy (and its BLAS), SciPy (and its LAPACK), and torch if
    the process has imported it (only training does)."""
    versions = {
        "rnnschur": rnnschur.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numpy_blas": _library(np.show_config(mode="dicts"), "blas"),
        "scipy": scipy.__version__,
        "scipy_lapack": _library(scipy.show_config(mode="dicts"), "lapack"),
    }
    if "torch" in sys.modules:
        versions["torch"] = sys.modules["torch"].__version__
    return versions
