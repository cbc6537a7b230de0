"""Task generators, one module per task, in the manner of Schuessler et al. (2024).

The modules of this package are the registry of tasks: a task is added by adding its module
(its name is the module's name) and a ``tasks.<name>`` block in the config. The package also
holds the scores the tasks use (:data:`SCORE_MODULES`: :mod:`rnnschur.tasks.metrics`, the
paper's, and :mod:`rnnschur.tasks.functional`, each score in a task's own terms), which are not
tasks. Each task's module provides

- ``generate(rng, n, **params) -> Batch`` (the defaults of ``params`` are the task's defaults),
- ``PARAMETERS``: a JSON schema of each parameter the config may set (type, range, description),
  which the workflow checks every ``tasks.<name>.generator`` block against,
- ``dims(**params) -> (N_x, N_y)``, the name of its score (``SCORE``: ``"accuracy"`` or
  ``"fvu"``), ``HIGHER_IS_BETTER``, ``CURRICULUM_PARAM`` (the generator parameter a training
  curriculum lengthens, or None) and ``score(outputs, batch)``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from types import ModuleType
from typing import ClassVar

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
        """The mask per output line, over which eqs. 6–7 average.

        Returns
        -------
        (n, time, N_y) ndarray
            The mask itself where it is per line, else a broadcast view of the per-step mask.
        """
        if self.mask.ndim == 3:
            return self.mask
        return np.broadcast_to(self.mask[..., None], self.targets.shape)


@dataclass(frozen=True)
class Trials:
    """Trials of different lengths, unpadded and end to end (a NeuroGym env's, as
    :func:`rnnschur.tasks._neurogym.draw_trials` draws them): ``observations`` (steps, N_x) in
    the env's own dtype, ``actions`` (steps,) the target action of each step, ``mask``
    (steps,) 1 where scored, ``lengths`` (trials,) and the number of actions. :meth:`batch`
    pads a run of them as :func:`rnnschur.tasks._neurogym.draw` pads its trials, bit for bit."""

    observations: np.ndarray
    actions: np.ndarray
    mask: np.ndarray
    lengths: np.ndarray
    n_actions: int

    KEYS: ClassVar[tuple[str, ...]] = ("observations", "actions", "mask", "lengths", "n_actions")

    def batch(self, start: int, stop: int) -> Batch:
        """Trials ``start`` to ``stop`` − 1 as a :class:`Batch` (:meth:`take`).

        Parameters
        ----------
        start, stop : int
            0 ≤ start < stop ≤ the number of trials.

        Returns
        -------
        Batch

        Raises
        ------
        IndexError
            A range outside the set.
        """
        if not 0 <= start < stop <= len(self.lengths):
            raise IndexError(f"trials {start}:{stop} of a set of {len(self.lengths)}")
        return self.take(np.arange(start, stop))

    def take(self, picked) -> Batch:
        """The trials ``picked`` as a :class:`Batch`, padded to the longest of them (padding: zero
        inputs, zero targets, mask 0; the target of a step is the one-hot of its action, scored by
        the choice's κ).

        Parameters
        ----------
        picked : array_like of int
            Trial indices, in that order.

        Returns
        -------
        Batch
            inputs (n, T, N_x), targets (n, T, n_actions), mask (n, T).
        """
        picked = np.asarray(picked)
        lengths = self.lengths[picked]
        first = (np.cumsum(self.lengths) - self.lengths)[picked]
        n, T, N_x = len(picked), int(lengths.max()), self.observations.shape[1]
        inputs, targets = np.zeros((n, T, N_x)), np.zeros((n, T, self.n_actions))
        mask = np.zeros((n, T))
        row = np.repeat(np.arange(n), lengths)
        column = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        steps = np.repeat(first, lengths) + column
        inputs[row, column] = self.observations[steps]
        targets[row, column, self.actions[steps]] = 1.0
        mask[row, column] = self.mask[steps]
        return Batch(inputs, targets, mask)

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays to save (:func:`rnnschur.io.save_npz`); :meth:`of` reads them back.

        Returns
        -------
        dict of str to ndarray
            :data:`KEYS`.
        """
        return {k: np.asarray(getattr(self, k)) for k in self.KEYS}

    @classmethod
    def of(cls, arrays: dict) -> Trials:
        """The trials saved by :meth:`arrays`.

        Parameters
        ----------
        arrays : mapping of str to ndarray
            :data:`KEYS`.

        Returns
        -------
        Trials
        """
        return cls(*(arrays[k] for k in cls.KEYS[:-1]), int(arrays["n_actions"]))


INSTANCE = "__"
"""The separator of an instance's name: a task block named ``<task>__<label>`` is task
``<task>`` under a label of its own (the coupling atlas's network descriptions: one block per
task and description). It has the task's generator and held-out trials, and its own models."""


def task_of(name: str) -> str:
    """The task a task block stands for: ``<task>`` of an instance ``<task>__<label>``, else
    ``name`` itself.

    Parameters
    ----------
    name : str

    Returns
    -------
    str
    """
    return name.partition(INSTANCE)[0]


SCORE_MODULES = ("functional", "metrics")
"""The modules of this package that hold the tasks' scores, not a task."""


@functools.cache
def names() -> tuple[str, ...]:
    """Every task: the names of this package's modules but the scores' (read once).

    Returns
    -------
    tuple of str
        Sorted.
    """
    return tuple(
        sorted(
            m.name
            for m in pkgutil.iter_modules(__path__)
            if not m.name.startswith("_") and m.name not in SCORE_MODULES
        )
    )


def get(name: str, neurogym: dict | None = None) -> ModuleType:
    """The generator module of task ``name`` (the interface of the package docstring), or the
    adapter of a NeuroGym task (:mod:`rnnschur.tasks._neurogym`), which has the same interface.

    Parameters
    ----------
    name : str
        A task or an instance ``<task>__<label>``.
    neurogym : dict, optional
        The spec of a NeuroGym task ({"env", "kwargs", "dims"}: config block
        ``tasks.<name>.neurogym``, which the workflow passes to each job in its params).

    Returns
    -------
    module or NeurogymTask

    Raises
    ------
    KeyError
        An unknown task without a NeuroGym spec.
    """
    if task_of(name) in names():
        return importlib.import_module(f"{__name__}.{task_of(name)}")
    if neurogym is None:
        raise KeyError(
            f"unknown task {name!r}; known: {list(names())} (a NeuroGym task needs its spec, "
            "neurogym={'env': ..., 'kwargs': ...})"
        )
    from rnnschur.tasks import _neurogym

    return _neurogym.task(name, neurogym)


def neurogym_dims(env: str, kwargs: dict) -> tuple[int, int]:
    """(N_x, N_y) of a NeuroGym env with its kwargs (:func:`rnnschur.tasks._neurogym.check`;
    imports NeuroGym).

    Parameters
    ----------
    env : str
        The env's id.
    kwargs : dict
        Its keyword arguments.

    Returns
    -------
    tuple of int

    Raises
    ------
    ValueError
        Naming what is wrong.
    """
    from rnnschur.tasks import _neurogym

    return _neurogym.check(env, kwargs)


def score_of(name: str) -> str:
    """The score a task or instance is judged by: its generator module's ``SCORE`` (``"fvu"``,
    eq. 7; ``"accuracy"``, eq. 6), or ``"choice"`` (Cohen's κ) for a task that is no
    module's (a NeuroGym task).

    Parameters
    ----------
    name : str

    Returns
    -------
    str
    """
    return get(name).SCORE if task_of(name) in names() else "choice"


def defaults(name: str) -> dict:
    """The default of every configurable generator parameter of task ``name`` (the defaults of
    its ``generate``).

    Parameters
    ----------
    name : str

    Returns
    -------
    dict
        Empty for a NeuroGym task (its env's kwargs configure it).
    """
    if task_of(name) not in names():
        return {}
    module = get(name)
    signature = inspect.signature(module.generate).parameters
    return {key: signature[key].default for key in module.PARAMETERS}


def uniform_steps(rng: np.random.Generator, low: float, high: float, size) -> np.ndarray:
    """⌊U[low, high)⌋ as integers: a duration in steps, drawn as the source's generators draw
    one (``int(np.random.uniform(low, high) / dt)`` with dt = 1).

    Parameters
    ----------
    rng : numpy.random.Generator
    low, high : float
    size : int or tuple of int

    Returns
    -------
    ndarray of int
    """
    return np.floor(rng.uniform(low, high, size=size)).astype(int)


def random_signs(rng: np.random.Generator, size) -> np.ndarray:
    """±1.0 with probability 1/2 each: the draws of ``rng.choice([-1.0, 1.0], size)`` (the same
    values from the same stream: ``choice`` draws ``integers(0, 2)``), without its overhead.

    Parameters
    ----------
    rng : numpy.random.Generator
    size : int or tuple of int

    Returns
    -------
    ndarray of float
    """
    return np.array([-1.0, 1.0])[rng.integers(0, 2, size=size)]


def window(length: int, start: np.ndarray, width) -> np.ndarray:
    """Whether step t of trial k lies in [start_k, start_k + width) (a stimulus, a response
    period).

    Parameters
    ----------
    length : int
        Steps per trial.
    start : (n,) array_like of int
        First step of each trial's window.
    width : int or (n,) array_like of int
        One for all trials or one per trial.

    Returns
    -------
    (n, length) ndarray of bool
    """
    steps = np.arange(length)
    start = np.asarray(start)[:, None]
    return (steps >= start) & (steps < start + np.asarray(width)[..., None])


def draw_training_trials(name: str, neurogym: dict, n: int, base_seed: int, seed: int) -> Trials:
    """The training trials of a NeuroGym task and seed, drawn once from the seed of
    (``base_seed``, "training trials", task, seed), a stream of their own (not the model's,
    which draws its weights), so that every network description and N_h of the task and seed
    trains on the same trials.

    Parameters
    ----------
    name : str
        The task or instance.
    neurogym : dict
        Its spec.
    n : int
        Trials.
    base_seed : int
        The config's seed.
    seed : int
        The model's seed index.

    Returns
    -------
    Trials
    """
    from rnnschur.settings.seeds import job_rng

    rng = job_rng(base_seed, "training trials", task_of(name), seed)
    return get(name, neurogym).draw_trials(rng, n)


def draw_heldout(name: str, n: int, base_seed: int, **generator) -> Batch:
    """The fixed held-out set of task ``name``, on which every score (eqs. 6–9) is taken: ``n``
    trials drawn from the seed of (``base_seed``, "heldout", :func:`task_of` ``name``), so that
    an instance is scored on its task's trials.

    Parameters
    ----------
    name : str
    n : int
    base_seed : int
    **generator
        The task's generator settings (``neurogym``: a NeuroGym task's spec).

    Returns
    -------
    Batch
    """
    from rnnschur.settings.seeds import job_rng

    task = get(name, generator.get("neurogym"))
    return task.generate(job_rng(base_seed, "heldout", task_of(name)), n, **generator)
