"""Fixed points, slow points and oscillations of a network under a constant input, and what an
ablation does to them (Sussillo & Barak 2013; Golub & Sussillo's fixed-point-finder minimises
the same speed).

Under a constant input x a network of :mod:`rnnschur.network.dynamics` is the map s ↦ F(s) of its
state s (h of the rate forms, z of the current form), u = W_xh x + b_h:

    discrete       F(h) = φ(W h + u)
    leaky          F(h) = (1 − a) h + a φ(W h + u)
    leaky_current  F(z) = (1 − a) z + a (W φ(z) + u)

Its fixed points s* = F(s*) are the zeros of the speed q(s) = ½‖F(s) − s‖²; a slow point has a
small q that is not zero. q's gradient is (J − I)ᵀ (F(s) − s), with the Jacobian

    discrete       J = diag(φ′(W h + u)) W
    leaky          J = (1 − a) I + a diag(φ′(W h + u)) W
    leaky_current  J = (1 − a) I + a W diag(φ′(z)).

A fixed point is *stable* when every eigenvalue of J lies inside the unit circle, *unstable*
when every one lies outside, else a *saddle* with its number of unstable modes. The ordered
Schur form of W is J only at the origin of a discrete tanh network without input (φ′(0) = 1);
at a stable point the module reads J's own spectral radius, its departure from normality and
how much of J's dominant subspace lies in W's R sector.

Everything here is NumPy and SciPy on arrays; the search is :func:`find`, what an ablation
does to the points :func:`fates`, an autonomous oscillation :func:`oscillation`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnnschur.network import Network
from rnnschur.network.dynamics import Dynamics, phi, phi_prime_of_phi

STABILITIES = ("stable", "saddle", "unstable")


@dataclass(frozen=True)
class Search:
    """How fixed points are searched (config key ``fixed_points``).

    n_starts : states the search starts from, sampled from the network's own held-out
        trajectories; noise : the standard deviation of the noise added to them, relative to
        the states' RMS; q_fixed : the speed below which a point is fixed, per unit
        (q/N_h; the L-BFGS search is polished by Newton steps, so a true fixed point reaches
        rounding error); q_slow : below which a point that is not fixed is slow;
        max_iterations : of the L-BFGS search; unique : the RMS distance per unit under which
        two points are one; match : the RMS distance per unit under which an ablated network's
        stable point is the intact one's, kept; seed : of the starts' sampling."""

    n_starts: int = 64
    noise: float = 0.01
    q_fixed: float = 1e-14
    q_slow: float = 1e-6
    max_iterations: int = 3000
    unique: float = 1e-3
    match: float = 0.05
    seed: int = 0


def drive(network: Network, x: np.ndarray) -> np.ndarray:
    """u = W_xh x + b_h of a constant input x (N_x,)."""
    u = network.W_xh @ np.asarray(x, float)
    return u + network.offsets["b_h"] if "b_h" in network.offsets else u


def step(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, S: np.ndarray) -> np.ndarray:
    """F(s) of each row of S (K, N_h) (module docstring)."""
    a = dynamics.leak
    if dynamics.current_form:
        return (1 - a) * S + a * (phi(dynamics, S) @ W.T + u)
    rate = phi(dynamics, S @ W.T + u)
    return rate if a == 1 else (1 - a) * S + a * rate


def _slopes(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, S: np.ndarray) -> np.ndarray:
    """φ′ where the Jacobian takes it: at W h + u (rate forms), at z (current form)."""
    where = S if dynamics.current_form else S @ W.T + u
    return phi_prime_of_phi(dynamics, phi(dynamics, where))


def jacobian(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, s: np.ndarray) -> np.ndarray:
    """J = ∂F/∂s at the state s (N_h,) (module docstring)."""
    a, slopes = dynamics.leak, _slopes(dynamics, W, u, s[None])[0]
    if dynamics.current_form:
        return (1 - a) * np.eye(len(s)) + a * W * slopes[None, :]
    J = slopes[:, None] * W
    return J if a == 1 else (1 - a) * np.eye(len(s)) + a * J


def speed(
    dynamics: Dynamics, W: np.ndarray, u: np.ndarray, S: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """q(s) = ½‖F(s) − s‖² of each row of S (K,) and its gradient (J − I)ᵀ (F(s) − s) (K, N_h),
    without forming J."""
    a, slopes = dynamics.leak, _slopes(dynamics, W, u, S)
    r = step(dynamics, W, u, S) - S
    if dynamics.current_form:  # Jᵀ r = (1 − a) r + a φ′ ⊙ (Wᵀ r)
        Jr = (1 - a) * r + a * slopes * (r @ W)
    else:  # Jᵀ r = (1 − a) r + a Wᵀ (φ′ ⊙ r)
        Jr = (slopes * r) @ W
        Jr = Jr if a == 1 else (1 - a) * r + a * Jr
    return 0.5 * np.sum(r * r, axis=1), Jr - r


def _newton(dynamics, W, u, s, steps: int = 30) -> np.ndarray:
    """s polished by Newton's steps on F(s) − s = 0, each kept only if it lowers q (a slow point
    or a singular J − I stays where the search left it)."""
    q = speed(dynamics, W, u, s[None])[0][0]
    for _ in range(steps):
        if q == 0:
            break
        residual = step(dynamics, W, u, s[None])[0] - s
        try:
            trial = s - np.linalg.solve(jacobian(dynamics, W, u, s) - np.eye(len(s)), residual)
        except np.linalg.LinAlgError:
            break
        q_trial = speed(dynamics, W, u, trial[None])[0][0]
        if not q_trial < q:
            break
        s, q = trial, q_trial
    return s


def minimise(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, starts: np.ndarray, search: Search):
    """The states the speed's minimisation reaches from each start (K, N_h): L-BFGS on the sum
    of the starts' speeds (independent, so one search of K·N_h variables), then Newton's steps
    for each (:func:`_newton`). Returns (states, q)."""
    from scipy.optimize import minimize

    K, N = starts.shape

    def total(flat):
        q, gradient = speed(dynamics, W, u, flat.reshape(K, N))
        return float(q.sum()), gradient.ravel()

    result = minimize(
        total,
        starts.ravel(),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": search.max_iterations, "gtol": 1e-14, "ftol": 1e-300, "maxcor": 10},
    )
    states = np.array([_newton(dynamics, W, u, s) for s in result.x.reshape(K, N)])
    return states, speed(dynamics, W, u, states)[0]


def stability(eigenvalues: np.ndarray) -> tuple[str, int]:
    """(stable / saddle / unstable, the number of unstable modes |λ| > 1) of a map's fixed
    point from its Jacobian's eigenvalues."""
    unstable = int(np.sum(np.abs(eigenvalues) > 1))
    if unstable == 0:
        return "stable", 0
    return ("unstable" if unstable == len(eigenvalues) else "saddle"), unstable


def readout(network: Network, s: np.ndarray) -> np.ndarray:
    """ŷ = W_hy r + b_y at the state s (N_h,): r = s (the rate forms, or a current form read
    from its state), φ(z) (a current form read from its rate)."""
    dynamics = network.dynamics
    r = phi(dynamics, s) if dynamics.current_form and not dynamics.reads_state else s
    y = network.W_hy @ r
    return y + network.offsets["b_y"] if "b_y" in network.offsets else y


def _unique(states: np.ndarray, q: np.ndarray, tolerance: float) -> list[int]:
    """Indices of ``states`` with no slower one within RMS distance ``tolerance`` per unit."""
    order = np.argsort(q, kind="stable")
    kept: list[int] = []
    for i in order:
        if all(np.sqrt(np.mean((states[i] - states[j]) ** 2)) > tolerance for j in kept):
            kept.append(int(i))
    return kept


@dataclass(frozen=True)
class Point:
    """One fixed or slow point: its state, speed q, kind (``fixed`` or ``slow``), stability,
    number of unstable modes, the Jacobian's eigenvalues and the readout there."""

    state: np.ndarray
    q: float
    kind: str
    stability: str
    n_unstable: int
    eigenvalues: np.ndarray
    readout: np.ndarray


SETTLE_STEPS = 500
"""Steps of the map run freely from every start before the search (:func:`find`): where a start
lies in a stable point's basin, it ends next to it (minimising the speed from a start may end at
a saddle instead, as q is zero there too)."""
MAX_MIDPOINTS = 512
"""The most midpoints between stable points :func:`find` starts from (a random choice of the
pairs beyond it)."""


def midpoints(stable: np.ndarray, seed: int = 0) -> np.ndarray:
    """The midpoints of the pairs of ``stable`` states (k, N_h), at most :data:`MAX_MIDPOINTS`
    of them: where the saddles between two attractors lie (the flip-flop's edges, faces and
    centre are midpoints of its corners)."""
    i, j = np.triu_indices(len(stable), 1)
    if len(i) > MAX_MIDPOINTS:
        chosen = np.random.default_rng(seed).choice(len(i), MAX_MIDPOINTS, replace=False)
        i, j = i[chosen], j[chosen]
    return (stable[i] + stable[j]) / 2


def find(
    network: Network, W: np.ndarray, x: np.ndarray, starts: np.ndarray, search: Search
) -> list[Point]:
    """The fixed and slow points of ``network`` with recurrent matrix ``W`` (its own, or an
    ablated one) under the constant input ``x``, from ``starts`` (K, N_h) and then from the
    midpoints between the stable points they reach (:func:`midpoints`; the saddles between
    attractors): the minima the search reaches with q/N_h below ``search.q_slow``, one per
    neighbourhood of ``search.unique``, the slowest first; fixed below ``search.q_fixed``.
    The search runs from each start and from where the map, run freely for
    :data:`SETTLE_STEPS` steps from it, ends (a stable point's basin leads there). Each start's
    convergence is judged on its own (its own q after Newton's polish)."""
    dynamics, u = network.dynamics, drive(network, x)
    settled = starts
    for _ in range(SETTLE_STEPS):
        settled = step(dynamics, W, u, settled)
    settled = settled[np.isfinite(settled).all(axis=1)]
    states, q = minimise(dynamics, W, u, np.concatenate([starts, settled]), search)
    N = W.shape[0]
    reached = [i for i in _unique(states, q, search.unique) if q[i] / N < search.q_fixed]
    attracting = [
        i
        for i in reached
        if np.max(np.abs(np.linalg.eigvals(jacobian(dynamics, W, u, states[i])))) < 1
    ]
    if len(attracting) > 1:
        between = midpoints(states[attracting], search.seed)
        more, q_more = minimise(dynamics, W, u, between, search)
        states, q = np.concatenate([states, more]), np.concatenate([q, q_more])
    keep = [i for i in _unique(states, q, search.unique) if q[i] / N < search.q_slow]
    points = []
    for i in keep:
        eigenvalues = np.linalg.eigvals(jacobian(dynamics, W, u, states[i]))
        kind = "fixed" if q[i] / N < search.q_fixed else "slow"
        points.append(
            Point(
                states[i],
                float(q[i]),
                kind,
                *stability(eigenvalues),
                eigenvalues,
                readout(network, states[i]),
            )
        )
    return points


def trajectories(network: Network, W: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    """The states s_t (n, time, N_h) the network visits on ``inputs`` (n, time, N_x) from its
    initial state, by :func:`step` (the state itself: z of the current form, not its rate)."""
    n, time, _ = inputs.shape
    U = inputs @ network.W_xh.T + network.offsets.get("b_h", 0.0)
    s = np.zeros((n, W.shape[0])) + network.offsets.get("h0", 0.0)
    out = np.empty((n, time, W.shape[0]))
    for t in range(time):
        s = step(network.dynamics, W, U[:, t], s)
        out[:, t] = s
    return out


def starts(
    states: np.ndarray, search: Search, bounds: tuple[float, float] | None = None
) -> np.ndarray:
    """2 × ``search.n_starts`` states spread over the region the network occupies: half drawn
    from ``states`` (any shape (..., N_h), its trajectories) with Gaussian noise of
    ``search.noise`` times their RMS, half uniform in the box the states span, widened to
    ``bounds`` (the range of a bounded φ, e.g. (−1, 1) for tanh), so that a point the held-out
    trials never pass near is searched too."""
    flat = states.reshape(-1, states.shape[-1])
    rng = np.random.default_rng(search.seed)
    chosen = flat[rng.choice(len(flat), size=search.n_starts, replace=len(flat) < search.n_starts)]
    scale = search.noise * float(np.sqrt(np.mean(flat**2)))
    near = chosen + scale * rng.standard_normal(chosen.shape)
    low, high = flat.min(axis=0), flat.max(axis=0)
    if bounds is not None:
        low, high = np.minimum(low, bounds[0]), np.maximum(high, bounds[1])
    box = rng.uniform(low, high, (search.n_starts, flat.shape[1]))
    return np.concatenate([near, box])


def state_bounds(network: Network) -> tuple[float, float] | None:
    """The range of a rate form's state under a bounded φ (tanh: (−1, 1)); None otherwise (a
    current form's state, or an unbounded φ)."""
    dynamics = network.dynamics
    bounded = dynamics.nonlinearity == "tanh" and not dynamics.current_form
    return (-1.0, 1.0) if bounded else None


@dataclass(frozen=True)
class Fate:
    """What an ablation does to the intact network's stable points under one input: kept
    (the ablated network has a stable point within ``match``), moved (the nearest ablated
    stable point is farther but reads out the same signs), lost (neither), and new (ablated
    stable points that are none of the intact ones'); ``distance``: the mean RMS distance per
    unit of the kept and moved points, ``readout_change`` the mean ‖Δŷ‖ of theirs."""

    n_intact: int
    n_ablated: int
    kept: int
    moved: int
    lost: int
    new: int
    distance: float
    readout_change: float


def fates(intact: list[Point], ablated: list[Point], match: float) -> Fate:
    """The matching rule of :class:`Fate`, one ablated point for at most one intact point
    (nearest first)."""
    old = [p for p in intact if p.stability == "stable"]
    now = [p for p in ablated if p.stability == "stable"]
    pairs = sorted(
        (float(np.sqrt(np.mean((p.state - r.state) ** 2))), i, j)
        for i, p in enumerate(old)
        for j, r in enumerate(now)
    )
    taken_old, taken_now, kept, moved, distances, changes = set(), set(), 0, 0, [], []
    for distance, i, j in pairs:
        if i in taken_old or j in taken_now:
            continue
        same_signs = np.array_equal(np.sign(old[i].readout), np.sign(now[j].readout))
        if distance <= match or same_signs:
            taken_old.add(i)
            taken_now.add(j)
            kept += distance <= match
            moved += distance > match
            distances.append(distance)
            changes.append(float(np.linalg.norm(old[i].readout - now[j].readout)))
    return Fate(
        len(old),
        len(now),
        kept,
        moved,
        len(old) - kept - moved,
        len(now) - len(taken_now),
        float(np.mean(distances)) if distances else np.nan,
        float(np.mean(changes)) if changes else np.nan,
    )


def oscillation(
    network: Network, W: np.ndarray, x: np.ndarray, steps: int = 2000, transient: int = 1000
) -> tuple[float, float]:
    """(frequency in cycles per step, amplitude) of the first readout line of the network run
    autonomously under the constant input ``x`` from its initial state for ``steps`` steps, the
    first ``transient`` discarded: the peak of the readout's spectrum (NaN frequency where the
    readout settles: amplitude below 1e-6) and half its peak-to-peak range."""
    inputs = np.broadcast_to(np.asarray(x, float), (1, steps, len(x)))
    s = trajectories(network, W, inputs)[0, transient:]
    y = np.array([readout(network, state)[0] for state in s])
    amplitude = 0.5 * float(np.ptp(y))
    if not amplitude > 1e-6:
        return np.nan, amplitude
    spectrum = np.abs(np.fft.rfft(y - y.mean()))
    frequencies = np.fft.rfftfreq(len(y))
    return float(frequencies[1:][np.argmax(spectrum[1:])]), amplitude


def departure_from_normality(J: np.ndarray) -> float:
    """‖N‖_F / ‖T‖_F of J's ordered real Schur form T = B + N (eq. 4): 0 for a normal J."""
    from rnnschur.schur import coupling_part, ordered_real_schur

    schur = ordered_real_schur(J)
    return float(np.linalg.norm(coupling_part(schur)) / np.linalg.norm(schur.T))


def overlap_with_R(J: np.ndarray, Q_R: np.ndarray, alpha: float) -> float:
    """How much of J's dominant subspace (its ordered Schur vectors of the blocks with
    |λ| ≥ α ρ(J)) lies in W's R sector (the columns Q_R, orthonormal): ‖Q_Rᵀ V‖_F² / dim V,
    1 when J's dominant subspace lies in R, its share otherwise (NaN where R is empty)."""
    from rnnschur.schur import n_dominant, ordered_real_schur

    if Q_R.shape[1] == 0:
        return np.nan
    schur = ordered_real_schur(J)
    V = schur.Q[:, : n_dominant(schur, alpha)]
    return float(np.sum((Q_R.T @ V) ** 2) / V.shape[1])


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
    the figure, and the free run of :mod:`rnnschur.studies.attractors`: the longest period
    ``max_period`` of a cycle and the ``free_run`` steps an orbit gets to settle."""

    alpha: float
    generator: dict
    search: Search = Search()
    n_cues: int = 5
    n_trajectories: int = 8
    max_period: int = 16
    free_run: int = 4096

    @classmethod
    def from_settings(cls, settings: dict) -> Study:
        """From a job's settings: config key ``fixed_points`` with ``alpha`` and ``generator``."""
        fields = Search.__dataclass_fields__
        search = Search(**{k: v for k, v in settings.items() if k in fields})
        own = ("n_cues", "n_trajectories", "max_period", "free_run")
        extra = {k: settings[k] for k in own if k in settings}
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
    and pulse, :func:`rnnschur.studies.attractors.transitions`) and its counts; for the copy task
    the replay orbits of the first held-out trials (:func:`replay_columns`)."""
    alpha, generator, search = study.alpha, study.generator, study.search
    n_trajectories = study.n_trajectories
    from rnnschur import tasks
    from rnnschur.ablation import ablated_recurrent
    from rnnschur.schur import COUPLING_BLOCKS, coupling_masks, n_dominant
    from rnnschur.studies import attractors

    empty = dict.fromkeys(COLUMNS, np.nan)
    visited = trajectories(network, network.W_hh, heldout.inputs[: max(n_trajectories, 64)])
    flat = visited.reshape(-1, visited.shape[-1])
    centre = flat.mean(axis=0)
    covariance = np.cov(flat - centre, rowvar=False)
    components = np.linalg.eigh(covariance)[1][:, ::-1][:, :2].T  # the top two

    def pcs(state):
        return (state - centre) @ components.T

    masks = coupling_masks(schur, alpha)
    networks = {"none": network.W_hh} | {
        block: ablated_recurrent(network.W_hh, schur, np.where(masks[block], schur.T, 0.0))
        for block in COUPLING_BLOCKS
    }
    Q_R = schur.Q[:, : n_dominant(schur, alpha)]
    initial = starts(visited, search, state_bounds(network))
    free_run = attractors.FreeRun(study.max_period, study.free_run, search.unique, search.match)
    own = {
        ablation: visited
        if ablation == "none"
        else trajectories(network, W, heldout.inputs[: len(visited)])
        for ablation, W in networks.items()
    }
    rows = []
    for name, x in input_conditions(task, heldout.inputs, generator, study.n_cues).items():
        found, limits = {}, {}
        for ablation, W in networks.items():
            points = find(network, W, x, initial, search)
            found[ablation] = points
            u = drive(network, x)
            limits[ablation], unsettled = attractors.find(
                network, W, x, orbit_starts(own[ablation], initial, search), free_run
            )
            rows += attractor_rows(limits[ablation], pcs, ablation, name, empty)
            extra = attractor_columns(limits["none"], limits[ablation], unsettled, search.match)
            if tasks.task_of(task) == "flip_flop" and name == ZERO_INPUT:
                amplitude = generator.get("pulse_amplitude", 1.0)
                table = attractors.transitions(network, W, limits["none"], amplitude, free_run)
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
                trials = heldout.inputs[: attractors.REPLAY_TRIALS]
                extra |= replay_columns(network, W, trials, generator.get("n_symbols", 8), free_run)
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
            cued = cued_frequency(task, x, generator)
            frequency, amplitude = (np.nan,) * 2 if np.isnan(cued) else oscillation(network, W, x)
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
                    "cued_frequency": cued,
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
    """A ``fate`` row's attractor counts and their matching (:func:`rnnschur.studies.attractors.
    attractor_fates`)."""
    from rnnschur.studies import attractors

    fate = attractors.attractor_fates(intact, ablated, match)
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
    """The copy task's replay orbits (:func:`rnnschur.studies.attractors.replay_orbits`) of the
    trials ``inputs``: how many of the intact ones settle on a cycle or an oscillation
    (``replay_periodic``), their median period (an oscillation's 1/frequency), and what the
    ablation does to each trial's orbit (:func:`rnnschur.studies.attractors.replay_outcome`)."""
    from rnnschur.studies import attractors

    mine = attractors.replay_orbits(network, network.W_hh, inputs, n_symbols, free_run)
    theirs = attractors.replay_orbits(network, W_ablated, inputs, n_symbols, free_run)
    periodic = [m for m in mine if m.kind in ("cycle", "oscillation")]
    periods = [m.period if m.kind == "cycle" else 1 / m.frequency for m in periodic]
    outcomes = [attractors.replay_outcome(network, m, t) for m, t in zip(mine, theirs, strict=True)]
    return {
        "replay_trials": len(mine),
        "replay_periodic": len(periodic),
        "replay_period": float(np.median(periods)) if periods else np.nan,
    } | {f"replay_{o}": outcomes.count(o) for o in attractors.REPLAY_OUTCOMES}
