"""Task generators, one module per task, in the manner of Schuessler et al. (2024).

Each module provides ``generate(rng, n, **params) -> Batch``, ``dims(**params) -> (N_x, N_y)``,
the name of its score (``SCORE``), whether higher is better, and ``score(outputs, batch)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np


@dataclass(frozen=True)
class Batch:
    """A set of trials.

    inputs : (n, time, N_x); targets : (n, time, N_y); mask : (n, time), or (n, time, N_y) where
    each output line has its own scored steps; 1 where the loss and the score are taken.
    """

    inputs: np.ndarray
    targets: np.ndarray
    mask: np.ndarray

    def __post_init__(self) -> None:
        n, time = self.inputs.shape[:2]
        if self.targets.shape[:2] != (n, time) or self.mask.shape not in (
            (n, time),
            self.targets.shape,
        ):
            raise ValueError(
                f"inconsistent batch shapes: inputs {self.inputs.shape}, "
                f"targets {self.targets.shape}, mask {self.mask.shape}"
            )

    @property
    def line_mask(self) -> np.ndarray:
        """The mask per output line, (n, time, N_y) (a view where the mask is per step)."""
        if self.mask.ndim == 3:
            return self.mask
        return np.broadcast_to(self.mask[..., None], self.targets.shape)


def get(name: str) -> ModuleType:
    """The generator module of task ``name``."""
    from rnnschur.tasks import context_integration, copy, flip_flop, sine

    modules = {
        "copy": copy,
        "flip_flop": flip_flop,
        "sine": sine,
        "context_integration": context_integration,
    }
    if name not in modules:
        raise KeyError(f"unknown task {name!r}; known: {sorted(modules)}")
    return modules[name]


def draw_heldout(name: str, n: int, base_seed: int, **generator) -> Batch:
    """The fixed held-out set of task ``name``: ``n`` trials from the generator with its
    ``generator`` settings, drawn from the seed of (``base_seed``, "heldout", ``name``)."""
    from rnnschur.seeds import job_rng

    return get(name).generate(job_rng(base_seed, "heldout", name), n, **generator)
