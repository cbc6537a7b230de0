"""The task of a network trained elsewhere (config ``external_models``): no generator, only a
score over its own held-out set's masked entries. Its task blocks are named
``external__<name>`` (the workflow's ``instances.expand_external``); :func:`scoring_task` gives
a per-model job the task of its block, this or the registry's. Kept apart from
:mod:`rnnschur.tasks`, which every data and training job runs: a change here reruns none of
them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnnschur import tasks
from rnnschur.tasks import Batch, metrics

EXTERNAL = "external"
"""The task (and construction) of a network trained elsewhere: its blocks are
``external__<name>``."""

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


def scoring_task(name: str, spec: dict | None = None):
    """The task that scores the models of task block ``name``: for a network trained elsewhere
    (``external__<name>``, ``spec`` ``{"score": "fvu"}`` or ``"accuracy"``) its
    :class:`Score`, else :func:`rnnschur.tasks.get` (``spec``: a NeuroGym task's)."""
    if tasks.task_of(name) != EXTERNAL:
        return tasks.get(name, spec)
    if not spec or "score" not in spec:
        raise KeyError(f"task {name!r} of a network trained elsewhere needs its score")
    return Score(spec["score"])
