"""NeuroGym trials as a :class:`rnnschur.tasks.Batch` (imported by the data and training jobs
only: NeuroGym imports torch). Importing this module registers :func:`draw` as the trial
source of :mod:`rnnschur.tasks._neurogym`; NeuroGym itself is imported when trials are drawn.
"""

from __future__ import annotations

import difflib
import inspect
import sys
import types
import warnings

import numpy as np

from rnnschur.tasks import Batch, _neurogym


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
    """The env's unwrapped trial generator."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _import_neurogym().make(env, **kwargs).unwrapped


def draw(rng: np.random.Generator, n: int, env: str, kwargs: dict) -> Batch:
    """``n`` trials of the env, seeded from ``rng`` (the same rng state, the same trials):
    inputs the observations, targets one-hot over the actions, mask the response periods,
    padded to the longest trial (padding: zero inputs, zero targets, mask 0)."""
    trials = make(env, kwargs)
    trials.seed(int(rng.integers(2**31 - 1)))
    obs, actions, masks = [], [], []
    for _ in range(n):
        trials.new_trial()
        length = trials.ob.shape[0]
        mask = np.zeros(length)
        for period in _neurogym.RESPONSE_PERIODS:
            if period in trials.start_ind:
                mask[trials.start_ind[period] : trials.end_ind[period]] = 1.0
        obs.append(np.asarray(trials.ob, dtype=np.float64))
        actions.append(np.asarray(trials.gt, dtype=np.int64))
        masks.append(mask)
    T = max(len(o) for o in obs)
    N_x, N_y = obs[0].shape[1], trials.action_space.n
    inputs, targets, mask = np.zeros((n, T, N_x)), np.zeros((n, T, N_y)), np.zeros((n, T))
    for k, (o, a, m) in enumerate(zip(obs, actions, masks, strict=True)):
        inputs[k, : len(o)] = o
        targets[k, np.arange(len(a)), a] = 1.0
        mask[k, : len(m)] = m
    return Batch(inputs, targets, mask)


def check(env: str, kwargs: dict) -> tuple[int, int]:
    """(N_x, N_y) of a NeuroGym task; ValueError naming what is wrong (an unknown env id with
    close names, a kwarg the env does not take, an env whose actions are not discrete)."""
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


_neurogym.TRIAL_SOURCE = draw
