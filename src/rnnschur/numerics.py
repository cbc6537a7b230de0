"""Portable bits: the numeric kernels every job runs with, pinned to one baseline.

NumPy's OpenBLAS (built with ``DYNAMIC_ARCH``) and torch pick their kernels by CPU, so the same
code and seed give other float32 weights on another processor. Pinned to the Haswell/AVX2
kernels, the quick preset's weights are the same bit for bit on an AMD EPYC with AVX-512 and on
one with AVX2 alone (README, "Same numbers on every machine"). The workflow sets these variables
for every job (config key ``numerics: portable``, the default; ``native`` leaves the kernels to
the libraries); a variable takes effect when a process loads its library, so they are set
before any job starts, never inside one.
"""

from __future__ import annotations

import os

PORTABLE_KERNELS = {
    "OPENBLAS_CORETYPE": "Haswell",  # NumPy's and SciPy's OpenBLAS
    "MKL_CBWR": "AVX2",  # torch's MKL (the Cayley map)
    "ATEN_CPU_CAPABILITY": "avx2",  # torch's own vectorised kernels
}
MODES = ("portable", "native")


def job_environment(mode: str) -> dict[str, str]:
    """The variables to set for every job under ``numerics: mode``."""
    if mode not in MODES:
        raise ValueError(f"numerics must be one of {MODES}, got {mode!r}")
    return dict(PORTABLE_KERNELS) if mode == "portable" else {}


def kernel_settings() -> str:
    """How this process's kernels were chosen: 'portable (…)' when every pinned variable holds
    its portable value, else 'native' with any of them that is set."""
    found = {key: os.environ.get(key) for key in PORTABLE_KERNELS}
    pinned = " ".join(f"{k}={v}" for k, v in PORTABLE_KERNELS.items())
    if found == PORTABLE_KERNELS:
        return f"portable ({pinned})"
    others = " ".join(f"{k}={v}" for k, v in found.items() if v is not None)
    return f"native ({others})" if others else "native"
