"""Fixed points, slow points and oscillations of a network under a constant input, and what an
ablation does to them (Sussillo & Barak 2013; Golub & Sussillo's fixed-point-finder minimises
the same speed).

Under a constant input x a network of :mod:`rnnschur.network.dynamics` is the map s ↦ F(s) of its
state s (h of the rate forms, z of the current form), u = W_xh x + b_h:

    discrete       F(h) = φ(W h + u)
    leaky          F(h) = (1 − a) h + a φ(W h + u)
    leaky_current  F(z) = (1 − a) z + a (W φ(z) + u)

Its fixed points s* = F(s*) are the zeros of the speed q(s) = ½‖F(s) − s‖²; a slow point has a
small q that is not zero. The search takes damped Newton's steps d = −(J − I)⁻¹ (F(s) − s), a
descent direction of q (its gradient is (J − I)ᵀ (F(s) − s)), with the Jacobian

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
        (q/N_h; Newton's steps take a true fixed point to rounding error); q_slow : below
        which a point that is not fixed is slow; max_iterations : damped Newton's steps per
        start (:func:`minimise`); unique : the RMS distance per unit under which
        two points are one; match : the RMS distance per unit under which an ablated network's
        stable point is the intact one's, kept; seed : of the starts' sampling."""

    n_starts: int = 64
    noise: float = 0.01
    q_fixed: float = 1e-14
    q_slow: float = 1e-6
    max_iterations: int = 100
    unique: float = 1e-3
    match: float = 0.05
    seed: int = 0


def drive(network: Network, x: np.ndarray) -> np.ndarray:
    """u = W_xh x + b_h of a constant input x (N_x,)."""
    u = network.W_xh @ np.asarray(x, float)
    return u + network.offsets["b_h"] if "b_h" in network.offsets else u


def step(
    dynamics: Dynamics, W: np.ndarray, u: np.ndarray, S: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """F(s) of each row of S (K, N_h) (module docstring), written into ``out`` (K, N_h) where
    given (a free run's window: no copy)."""
    a = dynamics.leak
    if dynamics.current_form:
        new = (1 - a) * S + a * (phi(dynamics, S) @ W.T + u)
    else:
        z = S @ W.T
        z += u
        if a == 1:
            return phi(dynamics, z, out=z if out is None else out)
        new = (1 - a) * S + a * phi(dynamics, z, out=z)
    if out is None:
        return new
    out[...] = new
    return out


def _slopes(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, S: np.ndarray) -> np.ndarray:
    """φ′ where the Jacobian takes it: at W h + u (rate forms), at z (current form)."""
    where = S if dynamics.current_form else S @ W.T + u
    return phi_prime_of_phi(dynamics, phi(dynamics, where))


def jacobian(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, s: np.ndarray) -> np.ndarray:
    """J = ∂F/∂s at the state s (N_h,) (module docstring)."""
    return jacobians(dynamics, W, u, s[None])[0]


def jacobians(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, S: np.ndarray) -> np.ndarray:
    """J at each row of S (K, N_h): (K, N_h, N_h)."""
    a, slopes = dynamics.leak, _slopes(dynamics, W, u, S)
    if dynamics.current_form:
        return (1 - a) * np.eye(W.shape[0]) + a * W * slopes[:, None, :]
    J = slopes[:, :, None] * W
    return J if a == 1 else (1 - a) * np.eye(W.shape[0]) + a * J


BACKTRACKS = 20
"""The times :func:`minimise` halves a Newton step that does not lower q before the start stops."""


def _solve(A: np.ndarray, r: np.ndarray) -> np.ndarray:
    """A⁻¹ r of each pair in the stacks A (K, N, N), r (K, N); NaN where A is singular."""
    try:
        return np.linalg.solve(A, r[..., None])[..., 0]
    except np.linalg.LinAlgError:
        out = np.full_like(r, np.nan)
        for k in range(len(r)):
            try:
                out[k] = np.linalg.solve(A[k], r[k])
            except np.linalg.LinAlgError:
                pass
        return out


def minimise(dynamics: Dynamics, W: np.ndarray, u: np.ndarray, starts: np.ndarray, search: Search):
    """The states damped Newton's steps on F(s) − s = 0 reach from each start (K, N_h), every
    start its own iteration (stacked only to share the calls): the step d = −(J − I)⁻¹ (F(s) − s)
    is a descent direction of q (∇q · d = −‖F(s) − s‖²), taken whole or, where that does not
    lower q, halved 1 to :data:`BACKTRACKS` times (all tried at once; the largest that lowers q
    is taken); below ``search.q_fixed`` only the full step is tried (a fixed point is
    polished to rounding error). A start stops when no step lowers its q (a fixed point, a slow
    point, a singular J − I) or after ``search.max_iterations`` steps. Returns (states, q)."""
    S = np.array(starts, float)
    K, N = S.shape
    r = step(dynamics, W, u, S) - S
    q = 0.5 * np.sum(r * r, axis=1)
    active = np.flatnonzero(np.isfinite(q) & (q > 0))
    diagonal = np.arange(N)
    for _ in range(search.max_iterations):
        if not len(active):
            break
        s, q_s = S[active], q[active]
        A = jacobians(dynamics, W, u, s)  # a new array: J − I in place
        A[:, diagonal, diagonal] -= 1.0
        d = -_solve(A, r[active])
        moved = np.zeros(len(active), bool)
        pending = np.isfinite(d).all(axis=1)
        for scales in (np.ones(1), 0.5 ** np.arange(1, BACKTRACKS + 1)):  # every halving at once
            idx = np.flatnonzero(pending)
            if not len(idx):
                break
            trial = (s[idx, None] + scales[:, None] * d[idx, None]).reshape(-1, N)
            r_trial = step(dynamics, W, u, trial) - trial
            q_trial = 0.5 * np.sum(r_trial * r_trial, axis=1)
            better = q_trial.reshape(len(idx), -1) < q_s[idx, None]
            first = np.argmax(better, axis=1)  # the largest step that lowers q
            hit = better[np.arange(len(idx)), first]
            row, taken = np.flatnonzero(hit) * len(scales) + first[hit], idx[hit]
            S[active[taken]], r[active[taken]], q[active[taken]] = (
                trial[row],
                r_trial[row],
                q_trial[row],
            )
            moved[taken], pending[taken] = True, False
            pending &= q_s / N >= search.q_fixed  # a fixed point: the full step only
        active = active[moved & (q[active] > 0)]
    return S, q


def stability(eigenvalues: np.ndarray) -> tuple[str, int]:
    """(stable / saddle / unstable, the number of unstable modes |λ| > 1) of a map's fixed
    point from its Jacobian's eigenvalues."""
    unstable = int(np.sum(np.abs(eigenvalues) > 1))
    if unstable == 0:
        return "stable", 0
    return ("unstable" if unstable == len(eigenvalues) else "saddle"), unstable


def readout(network: Network, s: np.ndarray) -> np.ndarray:
    """ŷ = W_hy r + b_y at the state s (N_h,), or at each row of states (..., N_h): r = s (the
    rate forms, or a current form read from its state), φ(z) (a current form read from its
    rate)."""
    dynamics = network.dynamics
    r = phi(dynamics, s) if dynamics.current_form and not dynamics.reads_state else s
    y = r @ network.W_hy.T
    return y + network.offsets["b_y"] if "b_y" in network.offsets else y


def _unique(states: np.ndarray, q: np.ndarray, tolerance: float) -> list[int]:
    """Indices of ``states`` with no slower one within RMS distance ``tolerance`` per unit."""
    order = np.argsort(q, kind="stable")
    kept: list[int] = []
    for i in order:
        if np.all(np.sqrt(np.mean((states[kept] - states[i]) ** 2, axis=1)) > tolerance):
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
    ablated one) under the constant input ``x`` (:func:`search_from`), from ``starts`` (K, N_h)
    and from where the map, run freely for :data:`SETTLE_STEPS` steps from each, ends (a stable
    point's basin leads there)."""
    settled, u = starts, drive(network, x)
    for _ in range(SETTLE_STEPS):
        settled = step(network.dynamics, W, u, settled)
    settled = settled[np.isfinite(settled).all(axis=1)]
    return search_from(network, W, x, np.concatenate([starts, settled]), search)


def search_from(
    network: Network, W: np.ndarray, x: np.ndarray, starts: np.ndarray, search: Search
) -> list[Point]:
    """The fixed and slow points of ``network`` with recurrent matrix ``W`` under the constant
    input ``x``, from exactly ``starts`` (K, N_h) and then from the midpoints between the
    stable points they reach (:func:`midpoints`; the saddles between attractors): the minima
    the search reaches with q/N_h below ``search.q_slow``, one per neighbourhood of
    ``search.unique``, the slowest first; fixed below ``search.q_fixed``. Each start's
    convergence is judged on its own (:func:`minimise`)."""
    dynamics, u = network.dynamics, drive(network, x)
    states, q = minimise(dynamics, W, u, starts, search)
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
    pairs = [
        (
            float(np.sqrt(np.mean((p.state - r.state) ** 2))),
            i,
            j,
            np.array_equal(np.sign(p.readout), np.sign(r.readout)),
            float(np.linalg.norm(p.readout - r.readout)),
        )
        for i, p in enumerate(old)
        for j, r in enumerate(now)
    ]
    return matched(pairs, len(old), len(now), match)


def matched(pairs: list[tuple], n_old: int, n_new: int, match: float) -> Fate:
    """The :class:`Fate` of ``n_old`` intact and ``n_new`` ablated attractors from their
    candidate ``pairs`` (distance, intact index, ablated index, the same readout signs, the
    readout's change), nearest first, each attractor in one pair at most: kept within
    ``match``, moved where farther with the same signs."""
    taken_old, taken_now, kept, moved, distances, changes = set(), set(), 0, 0, [], []
    for distance, i, j, same_signs, change in sorted(pairs):
        if i in taken_old or j in taken_now:
            continue
        if distance <= match or same_signs:
            taken_old.add(i)
            taken_now.add(j)
            kept += distance <= match
            moved += distance > match
            distances.append(distance)
            changes.append(change)
    return Fate(
        n_old,
        n_new,
        kept,
        moved,
        n_old - kept - moved,
        n_new - len(taken_now),
        float(np.mean(distances)) if distances else np.nan,
        float(np.mean(changes)) if changes else np.nan,
    )


def oscillations(
    network: Network, W: np.ndarray, X: np.ndarray, steps: int = 2000, transient: int = 1000
) -> list[tuple[float, float]]:
    """(frequency in cycles per step, amplitude) of the first readout line of the network run
    autonomously under each constant input of ``X`` (n, N_x) from its initial state for
    ``steps`` steps, the first ``transient`` discarded: the peak of the readout's spectrum (NaN
    frequency where the readout settles: amplitude below 1e-6) and half its peak-to-peak
    range."""
    X = np.asarray(X, float)
    inputs = np.broadcast_to(X[:, None, :], (len(X), steps, X.shape[1]))
    out = []
    for y in readout(network, trajectories(network, W, inputs)[:, transient:])[..., 0]:
        amplitude = 0.5 * float(np.ptp(y))
        if not amplitude > 1e-6:
            out.append((np.nan, amplitude))
            continue
        spectrum = np.abs(np.fft.rfft(y - y.mean()))
        frequencies = np.fft.rfftfreq(len(y))
        out.append((float(frequencies[1:][np.argmax(spectrum[1:])]), amplitude))
    return out


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
