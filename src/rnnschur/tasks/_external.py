"""The task of a network trained elsewhere (config ``external_models``): no generator, only a
score over its own held-out set's masked entries. Its task blocks are named
``external__<name>`` (:func:`rnnschur.instances.expand_external`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnnschur import metrics
from rnnschur.tasks import Batch

SCORES = ("fvu", "accuracy")


@dataclass(frozen=True)
class Score:
    """The score of an external model, in the shape the library's evaluators expect of a task:
    ``fvu`` (eq. 7, over the masked entries) or ``accuracy`` (sign accuracy, eq. 6's form)."""

    SCORE: str

    def __post_init__(self) -> None:
        if self.SCORE not in SCORES:
            raise ValueError(f"score must be one of {SCORES}, got {self.SCORE!r}")

    @property
    def HIGHER_IS_BETTER(self) -> bool:
        return self.SCORE == "accuracy"

    def score(self, outputs: np.ndarray, batch: Batch) -> np.ndarray:
        if self.SCORE == "fvu":
            return metrics.fvu(outputs, batch.targets, batch.mask)
        return metrics.replay_accuracy(outputs, batch.targets, batch.mask)
