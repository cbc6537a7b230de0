"""What an ablation breaks in a network's attractors (:mod:`rnnschur.studies.attractors`): which
it keeps, as its stable points are matched (:func:`rnnschur.studies.fixed_points.fates`): kept,
moved (the same kind and period and the same readout signs), lost, new; a flip-flop network's
transitions between them, each pulse from each attractor; a copy network's replay as an orbit.
"""

from __future__ import annotations

import numpy as np

from rnnschur.studies.attractors import (
    Attractor,
    FreeRun,
    LimitSet,
    orbit_distance,
    same_frequency,
    settle,
    sign_patterns,
)
from rnnschur.studies.fixed_points import Fate, drive, matched, readout, step, trajectories


def attractor_fates(intact: list[Attractor], ablated: list[Attractor], match: float) -> Fate:
    """What an ablation does to the intact network's attractors, nearest pairs first, one
    ablated attractor for at most one intact one: kept (orbit distance within ``match``),
    moved (farther, but the same kind and period and the same readout sign patterns), lost,
    new; ``distance`` and ``readout_change`` (the orbit distance of the readouts) are the mean
    over the kept and moved."""
    pairs = [
        (
            orbit_distance(p.limit.states, r.limit.states),
            i,
            j,
            p.signs == r.signs,
            orbit_distance(p.readouts, r.readouts),
        )
        for i, p in enumerate(intact)
        for j, r in enumerate(ablated)
        if p.limit.kind == r.limit.kind and p.limit.period == r.limit.period
    ]
    return matched(pairs, len(intact), len(ablated), match)


def pulses(n_bits: int, amplitude: float) -> np.ndarray:
    """The flip-flop's input pulses (2 n_bits, n_bits): each bit's +amplitude and −amplitude,
    one step long (:mod:`rnnschur.tasks.flip_flop`)."""
    eye = amplitude * np.eye(n_bits)
    return np.stack([s * eye[i] for i in range(n_bits) for s in (1, -1)])


def landings(network, W, origins: np.ndarray, inputs: np.ndarray, free_run: FreeRun) -> list:
    """Where the network lands from each origin (m, N_h) after each pulse of ``inputs``
    (p, N_x), one step, then freely under zero input: the m·p limit sets, origin-major."""
    zero = drive(network, np.zeros(network.W_xh.shape[1]))
    states = np.repeat(origins, len(inputs), axis=0)
    u = np.tile(inputs @ network.W_xh.T, (len(origins), 1)) + zero
    pulsed = step(network.dynamics, W, u, states)
    return settle(network.dynamics, W, zero, pulsed, free_run)


def transitions(
    network, W_ablated: np.ndarray, intact: list[Attractor], amplitude: float, free_run: FreeRun
) -> list[dict]:
    """The flip-flop's transition table: from each intact attractor (its last state reached),
    each pulse (:func:`pulses`), where the intact network (``network.W_hh``) lands
    (``lands``: the intact attractor with the same readout sign patterns, −1 for none) and
    whether that is the task's answer (``correct``: the origin's readout signs with the pulsed
    bit set to the pulse's sign); the ablated network from its own version of the attractor
    (where it settles from the intact one's state under zero input), the same pulse: ``kept``
    when it lands on the same readout sign patterns as the intact network, and its
    ``correct``."""
    n_bits = network.W_hy.shape[0]
    inputs = pulses(n_bits, amplitude)
    origins = np.array([a.limit.states[-1] for a in intact])
    zero = drive(network, np.zeros(network.W_xh.shape[1]))
    own = settle(network.dynamics, W_ablated, zero, origins, free_run)
    ablated_origins = np.array([limit.states[-1] for limit in own])
    here = landings(network, network.W_hh, origins, inputs, free_run)
    there = landings(network, W_ablated, ablated_origins, inputs, free_run)
    index = {a.signs: k for k, a in enumerate(intact)}
    rows = []
    for k, attractor in enumerate(intact):
        start = np.sign(attractor.readouts[-1]).astype(int)
        for p, x in enumerate(inputs):
            bit = int(np.argmax(np.abs(x)))
            expected = start.copy()
            expected[bit] = int(np.sign(x[bit]))
            answer = frozenset({tuple(expected)})
            mine = sign_patterns([readout(network, s) for s in here[k * len(inputs) + p].states])
            theirs = sign_patterns([readout(network, s) for s in there[k * len(inputs) + p].states])
            rows.append(
                {
                    "point": k,
                    "bit": bit,
                    "pulse_sign": int(np.sign(x[bit])),
                    "lands": index.get(mine, -1),
                    "lands_ablated": index.get(theirs, -1),
                    "correct": mine == answer,
                    "kept_transition": theirs == mine,
                    "correct_ablated": theirs == answer,
                }
            )
    return rows


REPLAY_TRIALS = 16
"""Held-out trials whose replay :func:`replay` follows as an orbit."""
REPLAY_OUTCOMES = ("kept", "drift", "changed", "collapse", "lost", "unsettled")


def replay_orbits(network, W, inputs: np.ndarray, n_symbols: int, free_run: FreeRun) -> list:
    """The copy network's replay as an orbit: each trial of ``inputs`` (n, time, N_x) run
    through its ``n_symbols`` cue steps, then freely under zero input until it settles."""
    cue = trajectories(network, W, inputs[:, :n_symbols])[:, -1]
    zero = drive(network, np.zeros(inputs.shape[-1]))
    return settle(network.dynamics, W, zero, cue, free_run)


def phase_sequence(network, limit: LimitSet) -> list[tuple]:
    """A cycle's readout sign patterns in the order of the orbit's steps modulo its period,
    counted from the start of the free run (so that two runs started together compare)."""
    k = limit.period
    sequence = [None] * k
    for i, s in enumerate(limit.states):
        sequence[(limit.end - k + i) % k] = tuple(np.sign(readout(network, s)).astype(int))
    return sequence


def replay_outcome(network, intact: LimitSet, ablated: LimitSet) -> str:
    """What an ablation does to one trial's replay orbit: ``kept`` (the same period, the same
    readout signs in the same phase; an oscillation at the same frequency, :func:`same_frequency`),
    ``drift`` (the same period and signs, shifted in phase), ``changed`` (the same period,
    other signs at every shift), ``collapse`` (the ablated orbit settles on a point where the
    intact one did not) or ``lost`` (any other: another period, not settled); ``unsettled``
    where the intact orbit did not settle (nothing to compare)."""
    if intact.kind == "unsettled":
        return "unsettled"
    if ablated.kind == "point" and intact.kind != "point":
        return "collapse"
    if intact.kind == "oscillation" and ablated.kind == "oscillation":
        return "kept" if same_frequency(intact.frequency, ablated.frequency) else "lost"
    if intact.kind in ("point", "cycle") and ablated.period == intact.period:
        mine, theirs = phase_sequence(network, intact), phase_sequence(network, ablated)
        k = intact.period
        shifts = [s for s in range(k) if all(mine[j] == theirs[(j + s) % k] for j in range(k))]
        return "kept" if 0 in shifts else "drift" if shifts else "changed"
    return "lost"
