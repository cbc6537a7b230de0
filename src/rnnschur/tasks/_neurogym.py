"""Tasks from NeuroGym (Molano-Mazón et al.): one adapter, the only place a NeuroGym env is
seen; nothing past it sees anything but a :class:`rnnschur.tasks.Batch`.

A config block ``tasks.<name>.neurogym: {env: <id>, kwargs: {...}}`` makes ``<name>`` a task.
The workflow checks the env and its kwargs before any job starts and gives each job of such a
task its spec ``{env, kwargs, dims}`` in its params (:func:`rnnschur.tasks.get` makes the task
of it), so that an analysis job knows the task without importing NeuroGym (gymnasium, scipy and
matplotlib: a second or two). Trials are drawn by :func:`draw` (data and training jobs only):
NeuroGym itself is imported when trials are drawn, never when this module is.

Per trial: inputs the env's observations; targets one-hot over its actions (N_y = number of
actions); the mask marks the steps of its response periods (:data:`RESPONSE_PERIODS`, read from
each trial's periods); trials padded to the longest of the set, padding unscored and with
all-zero targets. Score ``choice``: the chance-corrected choice on the response periods
(:func:`choice_score`: Cohen's κ of the argmax of the outputs against the actions), so that a
constant output, always fixating or always one action, scores exactly 0 on every env, and a
perfect one 1. NeuroGym's own per-trial correctness (``info["performance"]``, decided when
the agent answers) is reported beside it by the training job
(:func:`trial_performance`), not used for verdicts: a constant answer
passes about half of it in the two-choice envs, and a perfect GoNogo network gets only the go
trials. Loss in
training: cross-entropy on the actions over every step of a trial (padding excluded), as
NeuroGym's own examples train (fixation is an action too).
"""

from __future__ import annotations

import difflib
import inspect
import sys
import types
import warnings
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from rnnschur.tasks import Batch, Trials

RESPONSE_PERIODS = ("decision", "production", "test1", "test2")
"""The periods in which an env expects its answer: ``decision`` in most envs, ``production`` in
ReadySetGo and MotorTiming, ``test1`` and ``test2`` in DualDelayMatchSample."""


def choice_score(outputs: np.ndarray, targets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The chance-corrected choice on the masked steps, the NeuroGym tasks' score in place of
    eqs. 6–7: Cohen's κ of the argmax of the outputs against the actions,
    κ = (p_o − p_e) / (1 − p_e), with p_o the fraction of masked steps chosen right and
    p_e = Σ_a p_target(a) p_chosen(a) the fraction a choice independent of the trial would get
    right. A constant output, always fixating or always one action, has p_o = p_e: it scores
    exactly 0; a perfect one 1. A plain hit rate would not fail: in ReadySetGo the "go" is one
    step of a 16–30-step production period, and a network that never goes hits about 95 % of
    them.

    Parameters
    ----------
    outputs : (..., n, T, N_y) ndarray
        With leading model axes.
    targets : (n, T, N_y) ndarray
        One-hot over the actions.
    mask : (n, T) ndarray

    Returns
    -------
    ndarray
        Shape (...); NaN where the targets hold a single action (nothing to tell apart).
    """
    chosen = np.argmax(outputs, axis=-1)
    truth = np.argmax(targets, axis=-1)
    weight = mask / mask.sum()
    if len(np.unique(truth[mask > 0])) < 2:
        return np.full(outputs.shape[:-3], np.nan)
    p_o = ((chosen == truth) * weight).sum(axis=(-2, -1))
    p_e = sum(
        ((truth == a) * weight).sum() * ((chosen == a) * weight).sum(axis=(-2, -1))
        for a in range(targets.shape[-1])
    )
    return (p_o - p_e) / (1.0 - p_e)


@dataclass(frozen=True)
class NeurogymTask:
    """A NeuroGym env as a task with the interface of a task module. ``dims`` (N_x, N_y) as the
    workflow checked them, or None: read from the env (:func:`check`) when asked."""

    name: str
    env: str
    kwargs: dict
    dims_checked: tuple[int, int] | None = None

    SCORE = "choice"
    HIGHER_IS_BETTER = True
    CURRICULUM_PARAM = None
    PARAMETERS: ClassVar[dict | None] = None  # no generator settings: the env's kwargs do
    LOSS = "cross_entropy"

    def dims(self, **_) -> tuple[int, int]:
        """(N_x, N_y) of the env: as the workflow checked them (the spec's ``dims``), else read from
        the env (:func:`check`; imports NeuroGym).

        Returns
        -------
        tuple of int
        """
        if self.dims_checked is not None:
            return tuple(self.dims_checked)
        return check(self.env, self.kwargs)

    def generate(self, rng: np.random.Generator, n: int, **_):
        """``n`` trials as one padded :class:`Batch` (:func:`draw`).

        Parameters
        ----------
        rng : numpy.random.Generator
        n : int

        Returns
        -------
        Batch
        """
        return draw(rng, n, self.env, self.kwargs)

    def score(self, outputs: np.ndarray, batch) -> np.ndarray:
        """The task's score, κ of the choices (:func:`choice_score`).

        Parameters
        ----------
        outputs : (..., n, T, N_y) ndarray
        batch : Batch

        Returns
        -------
        ndarray
            Shape (...).
        """
        return choice_score(outputs, batch.targets, batch.mask)

    def draw_trials(self, rng: np.random.Generator, n: int) -> Trials:
        """``n`` trials, unpadded (:func:`draw_trials`): a training set drawn once.

        Parameters
        ----------
        rng : numpy.random.Generator
        n : int

        Returns
        -------
        Trials
        """
        return draw_trials(rng, n, self.env, self.kwargs)

    def heldout_performance(self, base_seed: int, heldout: Batch, outputs: np.ndarray):
        """:func:`trial_performance` on the held-out set of this task (drawn by
        :func:`rnnschur.tasks.draw_heldout` from ``base_seed``).

        Parameters
        ----------
        base_seed : int
        heldout : Batch
        outputs : (n, T, N_y) ndarray

        Returns
        -------
        (n,) ndarray
        """
        from rnnschur.settings.seeds import job_rng
        from rnnschur.tasks import task_of

        rng = job_rng(base_seed, "heldout", task_of(self.name))
        return trial_performance(rng, len(heldout.inputs), self.env, self.kwargs, heldout, outputs)


def task(name: str, spec: dict) -> NeurogymTask:
    """The NeuroGym task ``name`` of the spec a config block ``tasks.<name>.neurogym`` gives.

    Parameters
    ----------
    name : str
    spec : dict
        ``{"env", "kwargs", "dims"}`` (kwargs and dims optional).

    Returns
    -------
    NeurogymTask
    """
    dims = spec.get("dims")
    return NeurogymTask(
        name, spec["env"], dict(spec.get("kwargs", {})), tuple(dims) if dims else None
    )


# Drawing trials: the data and training jobs only (NeuroGym imports torch).


def _plotting_not_loaded(*_, **__):
    raise RuntimeError(
        "neurogym's plotting is not loaded in this process (rnnschur draws trials without it); "
        "import neurogym in a process of your own to plot"
    )


def _import_neurogym():
    """neurogym without its plotting module. ``neurogym.utils`` imports it at import time and it
    imports stable-baselines3, hence torch: about 3 s of every data and training job, for nothing
    that draws trials. Where neurogym is not imported yet, an empty
    stand-in takes that module's place (its two names raise if called)."""
    if "neurogym" not in sys.modules and "neurogym.utils.plotting" not in sys.modules:
        plotting = types.ModuleType("neurogym.utils.plotting", "(not loaded by rnnschur)")
        plotting.plot_env = plotting.fig_ = _plotting_not_loaded
        sys.modules["neurogym.utils.plotting"] = plotting
    with warnings.catch_warnings():  # gymnasium warns about the envs' render metadata
        warnings.simplefilter("ignore")
        import neurogym

    return neurogym


def make(env: str, kwargs: dict):
    """The env's unwrapped trial generator (imports NeuroGym, without its plotting).

    Parameters
    ----------
    env : str
        The NeuroGym env's id.
    kwargs : dict
        Its keyword arguments.

    Returns
    -------
    neurogym env
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _import_neurogym().make(env, **kwargs).unwrapped


def draw(rng: np.random.Generator, n: int, env: str, kwargs: dict) -> Batch:
    """``n`` trials of the env, seeded from ``rng`` (the same rng state, the same trials): inputs
    the observations, targets one-hot over the actions, mask the response periods, padded to
    the longest trial (padding: zero inputs, zero targets, mask 0).

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
    env : str
        The NeuroGym env's id.
    kwargs : dict
        Its keyword arguments.

    Returns
    -------
    Batch
    """
    return draw_trials(rng, n, env, kwargs).batch(0, n)


def draw_trials(rng: np.random.Generator, n: int, env: str, kwargs: dict) -> Trials:
    """``n`` trials of the env, seeded from ``rng`` as :func:`draw` seeds it, unpadded.

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
    env : str
        The NeuroGym env's id.
    kwargs : dict
        Its keyword arguments.

    Returns
    -------
    Trials
    """
    trials = make(env, kwargs)
    trials.seed(int(rng.integers(2**31 - 1)))
    obs, actions, masks = [], [], []
    for _ in range(n):
        trials.new_trial()
        length = trials.ob.shape[0]
        mask = np.zeros(length, dtype=np.uint8)
        for period in RESPONSE_PERIODS:
            if period in trials.start_ind:
                mask[trials.start_ind[period] : trials.end_ind[period]] = 1
        obs.append(np.asarray(trials.ob))
        actions.append(np.asarray(trials.gt, dtype=np.int64))
        masks.append(mask)
    return Trials(
        np.concatenate(obs),
        np.concatenate(actions),
        np.concatenate(masks),
        np.array([len(o) for o in obs]),
        int(trials.action_space.n),
    )


def trial_performance(
    rng: np.random.Generator, n: int, env: str, kwargs: dict, batch: Batch, outputs: np.ndarray
) -> np.ndarray:
    """NeuroGym's own per-trial correctness (``info["performance"]``) of a network's outputs on
    the ``n`` trials :func:`draw` drew from ``rng``, reported beside κ (:func:`choice_score`),
    not judged. The env is seeded as :func:`draw` seeds it and stepped with the network's
    choice (the argmax of ``outputs``) at each step until it ends the trial (a response in the
    decision period, or the trial's last step), then draws the next trial as it does when an
    agent plays it. The observations do not depend on the actions in these envs, so each
    trial's inputs must equal ``batch``'s.

    What an env counts is its own: in PerceptualDecisionMaking the first non-fixation action in
    the decision period, right or wrong; in ReadySetGo a "go" within the production window; in
    GoNogo NeuroGym resets a no-go trial's performance to 0 when the trial starts, so a
    withheld response counts 0 there too (not chance-corrected: an always-answering network
    scores about a half in the two-choice envs).

    Parameters
    ----------
    rng : numpy.random.Generator
        In the state :func:`draw` was given.
    n : int
    env : str
        The NeuroGym env's id.
    kwargs : dict
        Its keyword arguments.
    batch : Batch
        What :func:`draw` drew.
    outputs : (n, T, N_y) ndarray

    Returns
    -------
    (n,) ndarray
        0 or 1 in the battery's envs.

    Raises
    ------
    ValueError
        A trial's inputs differ from ``batch``'s (the replay is not of the held-out trials).
    """
    trials = make(env, kwargs)
    trials.seed(int(rng.integers(2**31 - 1)))
    chosen = np.argmax(outputs, axis=-1)
    performance = np.zeros(n)
    trials.new_trial()
    for k in range(n):
        length = trials.ob.shape[0]
        if not np.array_equal(np.asarray(trials.ob, dtype=np.float64), batch.inputs[k, :length]):
            raise ValueError(f"{env}: trial {k} of the replay is not the held-out trial {k}")
        for t in range(length):
            *_, info = trials.step(int(chosen[k, t]))
            if info["new_trial"]:
                performance[k] = info["performance"]
                break
    return performance


def check(env: str, kwargs: dict) -> tuple[int, int]:
    """(N_x, N_y) of a NeuroGym task, checked before any job starts.

    Parameters
    ----------
    env : str
        The NeuroGym env's id.
    kwargs : dict
        Its keyword arguments.

    Returns
    -------
    tuple of int

    Raises
    ------
    ValueError
        Naming what is wrong: an unknown env id (with close names), a kwarg the env does not
        take, an env whose actions are not discrete.
    """
    known = _import_neurogym().all_envs()
    if env not in known:
        close = difflib.get_close_matches(env, known, n=3, cutoff=0.4)
        raise ValueError(f"unknown NeuroGym env {env!r}; close: {close or known[:5]}")
    accepted = inspect.signature(type(make(env, {})).__init__).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    unknown = [k for k in kwargs if k not in accepted and not takes_any]
    if unknown:
        names = [p for p in accepted if p != "self"]
        raise ValueError(f"env {env} takes no argument {unknown[0]!r}; it takes {names}")
    trials = make(env, kwargs)
    if not hasattr(trials.action_space, "n"):
        raise ValueError(f"env {env} has {trials.action_space}, not discrete actions")
    return int(trials.observation_space.shape[0]), int(trials.action_space.n)
