"""One seed per job, derived from the config's base seed and the job's identity (DESIGN: seeds)."""

from __future__ import annotations

import zlib

import numpy as np


def job_rng(base_seed: int, *identity: object) -> np.random.Generator:
    """A generator seeded from ``base_seed`` and the job's identity (task, construction, N_h,
    seed index, ...). Stable across processes and machines (CRC-32 of each part, not ``hash``)."""
    entropy = [base_seed, *(zlib.crc32(str(part).encode()) for part in identity)]
    return np.random.default_rng(np.random.SeedSequence(entropy))
