"""Portable bits: the numeric kernels every job runs with, pinned to one baseline.

NumPy's OpenBLAS (built with ``DYNAMIC_ARCH``) and torch pick their kernels by CPU, so the same
code and seed give other float32 weights on another processor. Pinned to the Haswell/AVX2
kernels, the quick preset's weights are the same bit for bit on an AMD EPYC with AVX-512 and on
one with AVX2 alone (docs/numerics.md, "Same numbers on every machine"). The workflow sets these
variables for every job (config key ``numerics: portable``, the default; ``native`` leaves the
kernels to the libraries); a variable takes effect when a process loads its library, so they are
set before any job starts, never inside one.
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


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
RETAINED_MMAP_THRESHOLD = 32 * 2**20  # glibc's largest
RETAINED_TRIM_THRESHOLD = 2**30


def retain_freed_memory() -> bool:
    """Let this process reuse the memory it frees instead of returning it to the system (glibc's
    ``mallopt``: arrays up to 32 MiB from the heap, the heap trimmed only past 1 GiB free).

    A training step allocates a few arrays of T·B·N_h floats (megabytes) and frees them; with
    glibc's defaults that memory goes back to the system and every step faults it in again,
    page by page: on the copy task at N_h = 72 the lean step took 13 ms instead of 8. Only the
    speed changes, never a number. Returns False where the C library has no ``mallopt`` (not
    glibc: macOS, musl), True once set.
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return False
    return bool(
        mallopt(M_MMAP_THRESHOLD, RETAINED_MMAP_THRESHOLD)
        and mallopt(M_TRIM_THRESHOLD, RETAINED_TRIM_THRESHOLD)
    )
