"""The fixed-point study of one model, as rows of its table: the constant inputs its points are
searched under (:func:`input_conditions`), then per input the points of the intact network and
what each ablation does to them and to its attractors (:func:`model_rows`), found with
:mod:`rnnschur.studies.fixed_points`, :mod:`rnnschur.studies.attractors` and
:mod:`rnnschur.studies.breaks`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnnschur.network import Network
from rnnschur.studies.fixed_points import (
    STABILITIES,
    Search,
    departure_from_normality,
    drive,
    fates,
    jacobian,
    oscillations,
    overlap_with_R,
    search_from,
    starts,
    state_bounds,
    trajectories,
)

ZERO_INPUT = "zero input"
"""The input condition every task has (:func:`input_conditions`)."""


def input_conditions(task: str, inputs: np.ndarray, generator: dict, n_cues: int = 5) -> dict:
    """{name: constant input (N_x,)} under which a task's fixed points are searched: zero input
    for every task; for the sine task ``n_cues`` static cues spread over its range
    (``input_offset`` + [0, 1]); for the context task each context cue alone (its line 1, the
    evidence 0); for a NeuroGym task (no generator module) also the median input of the
    trials' first step (its fixation input)."""
    from rnnschur import tasks

    source, N_x = tasks.task_of(task), inputs.shape[-1]
    conditions = {ZERO_INPUT: np.zeros(N_x)}
    if source == "sine":
        offset = generator.get("input_offset", 0.25)
        for c in offset + np.linspace(0, 1, n_cues):
            conditions[f"cue {c:.3g}"] = np.array([c])
    elif source == "context_integration":
        first = 0 if generator.get("variant", "source") == "source" else 2
        for k in (0, 1):
            conditions[f"context {k + 1} cue"] = np.eye(N_x)[first + k]
    elif source not in tasks.names():
        fixation = np.median(inputs[:, 0, :], axis=0)
        if np.any(fixation != 0):
            conditions["first-step input"] = fixation
    return conditions


def cued_frequency(task: str, x: np.ndarray, generator: dict) -> float:
    """The frequency (cycles per step) the sine task cues with the static input x; NaN for any
    other task, and for an input outside the cues' range (``input_offset`` + [0, 1]: zero
    input cues nothing)."""
    from rnnschur import tasks
    from rnnschur.tasks import sine

    offset = generator.get("input_offset", 0.25)
    if tasks.task_of(task) != "sine" or not offset <= x[0] <= offset + 1:
        return np.nan
    return float(
        sine.frequency(
            x[0] - offset, generator.get("freq_min", 0.04), generator.get("freq_range", 0.16)
        )
    )


POINT_COLUMNS = (
    "record", "ablation", "condition", "point", "kind", "stability", "n_unstable", "q",
    "rho_J", "departure_J", "R_overlap", "pc1", "pc2", "readout",
)  # fmt: skip
FATE_COLUMNS = (
    "record", "ablation", "condition", "n_fixed", "n_stable", "n_saddle", "n_unstable_points",
    "n_slow", "kept", "moved", "lost", "new", "distance", "readout_change", "frequency",
    "amplitude", "cued_frequency", "trial", "t", "pc1", "pc2",
)  # fmt: skip
ATTRACTOR_COLUMNS = (
    "n_attractors", "n_cycles", "n_oscillations", "n_unsettled", "attractors_kept",
    "attractors_moved", "attractors_lost", "attractors_new", "attractor_distance",
    "attractor_readout_change", "transitions", "transitions_kept", "transitions_correct",
    "transitions_correct_intact", "replay_trials", "replay_periodic", "replay_period",
    "replay_kept", "replay_drift", "replay_changed", "replay_collapse", "replay_lost",
    "replay_unsettled",
)  # fmt: skip
"""The attractors' columns of a ``fate`` row (:mod:`rnnschur.studies.attractors`): counts and
matching; the flip-flop's transitions kept of all; the copy task's replay orbits and their
outcomes."""
RECORD_COLUMNS = (
    "period", "n_starts", "bit", "pulse_sign", "lands", "lands_ablated", "correct",
    "kept_transition", "correct_ablated",
)  # fmt: skip
COLUMNS = tuple(dict.fromkeys(POINT_COLUMNS + FATE_COLUMNS + ATTRACTOR_COLUMNS + RECORD_COLUMNS))
"""The columns of :func:`model_rows`: one table of five records (``point``, ``fate``,
``attractor``, ``transition``, ``trajectory``), each leaving the others' columns empty."""


@dataclass(frozen=True)
class Study:
    """One model's fixed-point study: the split's ``alpha``, its task's ``generator`` settings
    (the sine task's cues, the flip-flop's pulse amplitude, the copy task's symbols), the
    :class:`Search`, the sine task's ``n_cues``, the ``n_trajectories`` held-out trials drawn in
    the figure, the free run of :mod:`rnnschur.studies.attractors` (the longest period
    ``max_period`` of a cycle and the ``free_run`` steps an orbit gets to settle) and the
    ``mass_floor`` of the Schur mass under which a block is absent (config key
    ``ablation.mass_floor``; :mod:`rnnschur.studies.solutions`)."""

    alpha: float
    generator: dict
    search: Search = Search()
    n_cues: int = 5
    n_trajectories: int = 8
    max_period: int = 16
    free_run: int = 4096
    mass_floor: float = 0.0

    @classmethod
    def from_settings(cls, settings: dict) -> Study:
        """From a job's settings: config key ``fixed_points`` with ``alpha``, ``generator`` and
        ``ablation`` (its ``mass_floor``)."""
        fields = Search.__dataclass_fields__
        search = Search(**{k: v for k, v in settings.items() if k in fields})
        own = ("n_cues", "n_trajectories", "max_period", "free_run")
        extra = {k: settings[k] for k in own if k in settings}
        if "mass_floor" in settings.get("ablation", {}):
            extra["mass_floor"] = settings["ablation"]["mass_floor"]
        return cls(settings["alpha"], dict(settings["generator"]), search, **extra)


def model_rows(network: Network, schur, heldout, task: str, study: Study) -> list[dict]:
    """The fixed points of one model, intact and with each coupling block removed at
    α (W̃ = W − Q ΔT Qᵀ), under each input condition (:func:`input_conditions`), the
    starts drawn from the intact network's held-out trajectories: a ``point`` row per point
    (its Jacobian's spectral radius, departure from normality and overlap with W's R sector at
    stable points; its position in the top two principal components of the intact
    trajectories; ``readout`` the readout's first line), a ``fate`` row per ablation and
    condition (the counts, :func:`fates` against the intact network, and for the sine task the
    oscillation against the cued frequency), and ``trajectory`` rows: the first
    ``n_trajectories`` held-out trials of the intact network in the same components, and of
    each ablated network (its own trajectories, the same trials).

    Beyond the points (:mod:`rnnschur.studies.attractors`): each network runs freely under each
    input from its own held-out end states, perturbed copies of them and the search's starts; an
    ``attractor`` row per state of each limit set (:func:`attractor_rows`), and in the ``fate``
    row their counts and matching to the intact network's (:func:`attractor_columns`); for the
    flip-flop under zero input the transition table (a ``transition`` row per intact attractor
    and pulse, :func:`rnnschur.studies.breaks.transitions`) and its counts; for the copy task
    the replay orbits of the first held-out trials (:func:`replay_columns`). The free runs come
    first: the points they settle on are where the search starts besides its own starts. The
    removal of an absent block (less Schur mass than ``study.mass_floor``: nothing is removed,
    as the ablation reads it) or of an empty one (W̃ = W to the bit) reuses the intact
    network's search, free runs, transitions, replay and oscillation."""
    alpha, generator, search = study.alpha, study.generator, study.search
    n_trajectories = study.n_trajectories
    from rnnschur import tasks
    from rnnschur.ablation import ablated, delta_T
    from rnnschur.schur import COUPLING_BLOCKS, coupling_masks, n_dominant
    from rnnschur.studies import attractors, breaks
    from rnnschur.tasks.metrics import schur_mass_removed

    empty = dict.fromkeys(COLUMNS, np.nan)
    visited = trajectories(network, network.W_hh, heldout.inputs[: max(n_trajectories, 64)])
    flat = visited.reshape(-1, visited.shape[-1])
    centre = flat.mean(axis=0)
    covariance = np.cov(flat - centre, rowvar=False)
    components = np.linalg.eigh(covariance)[1][:, ::-1][:, :2].T  # the top two

    def pcs(state):
        return (state - centre) @ components.T

    networks = {"none": network.W_hh} | {
        block: ablated(network.W_hh, schur, alpha, (block,)) for block in COUPLING_BLOCKS
    }
    Q_R = schur.Q[:, : n_dominant(schur, alpha)]
    initial = starts(visited, search, state_bounds(network))
    free_run = attractors.FreeRun(study.max_period, study.free_run, search.unique, search.match)
    masks = coupling_masks(schur, alpha)
    mass = {b: schur_mass_removed(delta_T(schur.T, masks, (b,)), schur.T) for b in COUPLING_BLOCKS}
    absent = {b for b in COUPLING_BLOCKS if not mass[b] >= study.mass_floor}
    source = {
        a: "none" if a in absent or np.array_equal(W, network.W_hh) else a
        for a, W in networks.items()
    }
    own = {
        ablation: visited
        if source[ablation] == "none"
        else trajectories(network, W, heldout.inputs[: len(visited)])
        for ablation, W in networks.items()
    }
    conditions = input_conditions(task, heldout.inputs, generator, study.n_cues)
    cued = {name: cued_frequency(task, x, generator) for name, x in conditions.items()}
    rung = [name for name, f in cued.items() if not np.isnan(f)]
    rings = {}  # (the network that runs, condition): the oscillation under a cue
    for mine in dict.fromkeys(source.values()) if rung else ():
        ringing = oscillations(network, networks[mine], np.array([conditions[n] for n in rung]))
        rings |= {(mine, name): ring for name, ring in zip(rung, ringing, strict=True)}
    free = {  # every condition's free runs of a network together
        ablation: attractors.find_all(
            network, W, conditions, orbit_starts(own[ablation], initial, search), free_run
        )
        for ablation, W in networks.items()
        if source[ablation] == ablation
    }
    rows = []
    for name, x in conditions.items():
        found, limits, unsettled, tables, replays = {}, {}, {}, {}, {}
        for ablation, W in networks.items():
            if source[ablation] == ablation:
                limits[ablation], unsettled[ablation] = free[ablation][name]
                settled = [a.limit.states[-1] for a in limits[ablation] if a.limit.period == 1]
                settled = np.reshape(settled, (-1, W.shape[0]))
                begin = np.concatenate([initial, settled])
                found[ablation] = search_from(network, W, x, begin, search)
            mine = source[ablation]
            points = found[mine]
            u = drive(network, x)
            rows += attractor_rows(limits[mine], pcs, ablation, name, empty)
            extra = attractor_columns(limits["none"], limits[mine], unsettled[mine], search.match)
            if tasks.task_of(task) == "flip_flop" and name == ZERO_INPUT:
                amplitude = generator.get("pulse_amplitude", 1.0)
                if mine not in tables:
                    tables[mine] = breaks.transitions(
                        network, W, limits["none"], amplitude, free_run
                    )
                table = tables[mine]
                rows += [
                    empty | {"record": "transition", "ablation": ablation, "condition": name} | r
                    for r in table
                ]
                extra |= {
                    "transitions": len(table),
                    "transitions_kept": sum(r["kept_transition"] for r in table),
                    "transitions_correct": sum(r["correct_ablated"] for r in table),
                    "transitions_correct_intact": sum(r["correct"] for r in table),
                }
            if tasks.task_of(task) == "copy" and name == ZERO_INPUT:
                trials = heldout.inputs[: breaks.REPLAY_TRIALS]
                if mine not in replays:
                    n_symbols = generator.get("n_symbols", 8)
                    replays[mine] = replay_columns(network, W, trials, n_symbols, free_run)
                extra |= replays[mine]
            for k, p in enumerate(points):
                stable = p.stability == "stable"
                J = jacobian(network.dynamics, W, u, p.state) if stable else None
                pc = pcs(p.state)
                rows.append(
                    empty
                    | {
                        "record": "point",
                        "ablation": ablation,
                        "condition": name,
                        "point": k,
                        "kind": p.kind,
                        "stability": p.stability,
                        "n_unstable": p.n_unstable,
                        "q": p.q,
                        "rho_J": float(np.max(np.abs(p.eigenvalues))),
                        "departure_J": departure_from_normality(J) if stable else np.nan,
                        "R_overlap": overlap_with_R(J, Q_R, alpha) if stable else np.nan,
                        "pc1": pc[0],
                        "pc2": pc[1],
                        "readout": float(p.readout[0]),
                    }  # fmt: skip
                )
            fate = fates(found["none"], points, search.match)
            frequency, amplitude = rings.get((mine, name), (np.nan, np.nan))
            count = {s: sum(p.stability == s for p in points) for s in STABILITIES}
            rows.append(
                empty
                | {
                    "record": "fate",
                    "ablation": ablation,
                    "condition": name,
                    "n_fixed": sum(p.kind == "fixed" for p in points),
                    "n_stable": count["stable"],
                    "n_saddle": count["saddle"],
                    "n_unstable_points": count["unstable"],
                    "n_slow": sum(p.kind == "slow" for p in points),
                    "kept": fate.kept,
                    "moved": fate.moved,
                    "lost": fate.lost,
                    "new": fate.new,
                    "distance": fate.distance,
                    "readout_change": fate.readout_change,
                    "frequency": frequency,
                    "amplitude": amplitude,
                    "cued_frequency": cued[name],
                }  # fmt: skip
                | extra
            )
    for ablation, states in own.items():
        for trial in range(min(n_trajectories, len(states))):
            for t, pc in enumerate(pcs(states[trial])):
                rows.append(
                    empty
                    | {"record": "trajectory", "ablation": ablation, "trial": trial, "t": t}
                    | {"pc1": pc[0], "pc2": pc[1]}
                )
    return rows


def orbit_starts(visited: np.ndarray, initial: np.ndarray, search: Search) -> np.ndarray:
    """Where a network's free runs start (:func:`rnnschur.studies.attractors.find`): the end states
    of its own held-out trajectories ``visited`` (n, time, N_h), copies of them with Gaussian
    noise of ``search.noise`` times their RMS, and the search's starts ``initial``."""
    ends = visited[:, -1]
    noise = search.noise * float(np.sqrt(np.mean(ends**2)))
    rng = np.random.default_rng(search.seed)
    return np.concatenate([ends, ends + noise * rng.standard_normal(ends.shape), initial])


def attractor_rows(found, pcs, ablation: str, condition: str, empty: dict) -> list[dict]:
    """An ``attractor`` row per state of each attractor (a point's one, a cycle's k, an
    oscillation's :data:`rnnschur.studies.attractors.ORBIT_STATES`): its kind, period, frequency,
    the orbits that reached it, the state's position in the principal components and its
    readout's first line."""
    rows = []
    for k, attractor in enumerate(found):
        limit = attractor.limit
        for t in range(len(limit.states)):
            pc = pcs(limit.states[t])
            rows.append(
                empty
                | {
                    "record": "attractor",
                    "ablation": ablation,
                    "condition": condition,
                    "point": k,
                    "kind": limit.kind,
                    "period": limit.period,
                    "frequency": limit.frequency,
                    "n_starts": attractor.n_starts,
                    "t": int(t),
                    "pc1": pc[0],
                    "pc2": pc[1],
                    "readout": float(attractor.readouts[t][0]),
                }  # fmt: skip
            )
    return rows


def attractor_columns(intact, ablated, unsettled: int, match: float) -> dict:
    """A ``fate`` row's attractor counts and their matching (:func:`rnnschur.studies.breaks.
    attractor_fates`)."""
    from rnnschur.studies import breaks

    fate = breaks.attractor_fates(intact, ablated, match)
    kinds = [a.limit.kind for a in ablated]
    return {
        "n_attractors": len(ablated),
        "n_cycles": kinds.count("cycle"),
        "n_oscillations": kinds.count("oscillation"),
        "n_unsettled": unsettled,
        "attractors_kept": fate.kept,
        "attractors_moved": fate.moved,
        "attractors_lost": fate.lost,
        "attractors_new": fate.new,
        "attractor_distance": fate.distance,
        "attractor_readout_change": fate.readout_change,
    }


def replay_columns(network, W_ablated, inputs, n_symbols: int, free_run) -> dict:
    """The copy task's replay orbits (:func:`rnnschur.studies.breaks.replay_orbits`) of the
    trials ``inputs``: how many of the intact ones settle on a cycle or an oscillation
    (``replay_periodic``), their median period (an oscillation's 1/frequency), and what the
    ablation does to each trial's orbit (:func:`rnnschur.studies.breaks.replay_outcome`)."""
    from rnnschur.studies import breaks

    mine = breaks.replay_orbits(network, network.W_hh, inputs, n_symbols, free_run)
    theirs = breaks.replay_orbits(network, W_ablated, inputs, n_symbols, free_run)
    periodic = [m for m in mine if m.kind in ("cycle", "oscillation")]
    periods = [m.period if m.kind == "cycle" else 1 / m.frequency for m in periodic]
    outcomes = [breaks.replay_outcome(network, m, t) for m, t in zip(mine, theirs, strict=True)]
    return {
        "replay_trials": len(mine),
        "replay_periodic": len(periodic),
        "replay_period": float(np.median(periods)) if periods else np.nan,
    } | {f"replay_{o}": outcomes.count(o) for o in breaks.REPLAY_OUTCOMES}
