"""Attractors that are not points: the limit sets the map s ↦ F(s) of
:mod:`rnnschur.studies.fixed_points` reaches when run freely, and how an ablation's match the
intact network's (what an ablation breaks in them: :mod:`rnnschur.studies.breaks`).

Run freely under a constant input, an orbit s_{t+1} = F(s_t) settles on a limit set. Over a
window of :data:`WINDOW` steps, the module calls it

- a *point* when ‖s_{t+1} − s_t‖ stays below :data:`TOLERANCE` (RMS per unit);
- a *period-k cycle* when ‖s_{t+k} − s_t‖ does, for the smallest k ≤ ``max_period`` (k ≥ 2);
- an *oscillation* (quasi-periodic: an invariant circle) when it is neither and, for
  :data:`STEADY_WINDOWS` windows in a row, its spread about its mean changes by less than
  :data:`SPREAD_CHANGE` from one window to the next, so does its nearest recurrence
  (:func:`nearest_recurrence`: an orbit closing slowly on a cycle is not one), its dominant
  Fourier peak (:func:`spectrum_peaks`) holds :data:`PEAK_SHARE` of the power and stays where
  it was; the frequency is that peak's. These three are read in the
  orbit's coordinates along :data:`SKETCH` fixed orthonormal directions (:func:`sketch`; every
  unit where N_h ≤ :data:`SKETCH`), the same for every window and orbit: a cycle's test, run on
  every unit, is exact, an oscillation's statistics need only be steady;
- *not settled* when the budget of ``free_run`` steps ends first.

An attractor proves itself once: an orbit that, in any window, lies on an oscillation already
proven (:func:`on_known`: the tests by which two limit sets are one) is that oscillation at
once, and an orbit whose window ends within ``unique`` of a point or cycle already proven and
attracting (:func:`attracting`: a saddle's stable manifold leads no other orbit to it), nearer
than half a window before or within :data:`TOLERANCE` (:func:`on_proven`), is that point or
cycle. So that most orbits find one proven, :func:`settle` runs the first :data:`FIRST_WAVE`
orbits before the rest.

Two limit sets are one when they are the same kind and their orbit distance
(:func:`orbit_distance`: a cycle found at any phase is one cycle) is small (:func:`distinct`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from rnnschur.studies.fixed_points import (
    drive,
    jacobians,
    readout,
    step,
)

WINDOW = 256
"""Steps per window of the free run: a point or a cycle is judged on one window, an oscillation
on :data:`STEADY_WINDOWS` + 1."""
TOLERANCE = 1e-6
"""RMS distance per unit under which two states of one orbit are one (a point, a cycle)."""
SPREAD_CHANGE = 0.05
"""Relative change of an orbit's spread between two windows under which it has settled on an
oscillation (a spiral into a point shrinks faster)."""
STEADY_WINDOWS = 3
"""Window after window, the times in a row an orbit must look the same (spread, nearest
recurrence, spectral peak) to be an oscillation: a long transient wanders."""
PEAK_SHARE = 0.5
"""Share of the power its dominant Fourier peak (five bins about it) holds in an oscillation
(a chaotic orbit spreads its power)."""
ORBIT_STATES = 64
"""The states of an oscillation's window its limit set keeps (:func:`around`), to draw and match."""
KINDS = ("point", "cycle", "oscillation", "unsettled")
FIRST_WAVE = 16
"""Orbits :func:`settle` runs before the rest, which may then join what these proved."""
SAME_CYCLE = 10 * TOLERANCE
"""Orbit distance under which two cycles whose periods divide one another are one cycle read in
two windows of a slow approach (:func:`distinct`); a period-doubled cycle's halves lie
farther apart."""
SKETCH = 8
"""Directions an orbit's window is read along to tell an oscillation (:func:`sketch`)."""


def sketch(N: int) -> np.ndarray:
    """(N, min(N, :data:`SKETCH`)) orthonormal columns: the identity where N ≤ :data:`SKETCH`,
    else the Q of a Gaussian matrix of seed 0 (the same directions in every run)."""
    if N <= SKETCH:
        return np.eye(N)
    return np.linalg.qr(np.random.default_rng(0).standard_normal((N, SKETCH)))[0]


@dataclass(frozen=True)
class FreeRun:
    """How the network runs freely (config ``fixed_points``: ``max_period``, ``free_run``,
    ``unique``, ``match``): the longest period of a cycle, the steps an orbit gets to settle
    (whole windows of :data:`WINDOW`), the orbit distance under which two points or cycles are
    one and an orbit closes on one (``unique``), and under which two oscillations are one and an
    ablated attractor is the intact one's (``match``)."""

    max_period: int
    budget: int
    unique: float
    match: float


@dataclass(frozen=True)
class LimitSet:
    """Where one orbit settled: ``kind`` (:data:`KINDS`), ``period`` (1 for a point, k for a
    cycle, 0 otherwise), ``frequency`` in cycles per step (0, 1/k, the oscillation's peak, NaN
    when not settled), ``states`` (the point; the cycle's k states; :data:`ORBIT_STATES` of
    the oscillation's last window in the order of their phase, :func:`around`; the unsettled
    orbit's last state) and ``end``: the steps run when its last state was reached plus one
    (the cycle's state ``states[i]`` is the orbit's at step end − k + i)."""

    kind: str
    period: int
    frequency: float
    states: np.ndarray
    end: int


def spectrum_peaks(centred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(frequency in cycles per step, share of the power) of the dominant peak of each orbit's
    window less its mean over the window (M, T, N_h): every unit's power spectrum under a Hann
    window, summed; the peak interpolated by a parabola through its log power and its
    neighbours; the share is the power of the five bins about the peak over all but the mean's
    bin (NaN and 0 where an orbit does not move)."""
    M, T = centred.shape[:2]
    spectra = np.fft.rfft(centred * np.hanning(T)[:, None], axis=1)
    power = np.sum(spectra.real**2 + spectra.imag**2, axis=2)
    power[:, 0] = 0.0
    total = power.sum(axis=1)
    p = np.argmax(power, axis=1)
    rows = np.arange(M)
    inside = (p > 0) & (p < power.shape[1] - 1)
    left, right = np.where(inside, p - 1, p), np.where(inside, p + 1, p)
    a, b, c = power[rows, left], power[rows, p], power[rows, right]
    inside &= (a > 0) & (b > 0) & (c > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        la, lb, lc = np.log(a), np.log(b), np.log(c)
        curvature = la - 2 * lb + lc
        shift = np.where(inside & (curvature != 0), 0.5 * (la - lc) / curvature, 0.0)
    near = np.abs(np.arange(power.shape[1])[None, :] - p[:, None]) <= 2
    moving = total > 0
    with np.errstate(invalid="ignore"):
        share = np.where(moving, np.sum(power * near, axis=1) / total, 0.0)
    return np.where(moving, (p + shift) / T, np.nan), share


def around(window: np.ndarray, frequency: float) -> np.ndarray:
    """:data:`ORBIT_STATES` states of an oscillation's window (T, N_h) spread evenly over its
    phase f·t mod 1 (on an invariant circle the state is a function of the phase), in the
    order of their phase: evenly spaced steps would alias with the frequency."""
    order = np.argsort((frequency * np.arange(len(window))) % 1.0, kind="stable")
    return window[order[np.linspace(0, len(window) - 1, ORBIT_STATES).astype(int)]]


def same_frequency(a, b):
    """Whether frequencies ``a`` and ``b`` (numbers or arrays) are one: within 2/:data:`WINDOW`."""
    return np.abs(a - b) <= 2 / WINDOW


def _rms(difference: np.ndarray) -> np.ndarray:
    """The RMS per unit over the last axis."""
    return np.sqrt(np.mean(difference**2, axis=-1))


def periods(windows: np.ndarray, max_period: int) -> np.ndarray:
    """The smallest k ≤ ``max_period`` with ‖s_{t+k} − s_t‖ below :data:`TOLERANCE` over each
    orbit's whole window (M, T, N_h), 0 if none: tried only where the window's first and last
    states are within it of the states k steps after and before (the window's largest distance
    is at least theirs)."""
    out = np.zeros(len(windows), int)
    for k in range(1, max_period + 1):
        first = _rms(windows[:, k] - windows[:, 0])
        last = _rms(windows[:, -1] - windows[:, -1 - k])
        tried = np.flatnonzero((out == 0) & (first < TOLERANCE) & (last < TOLERANCE))
        if len(tried):
            distance = _rms(windows[tried, k:] - windows[tried, :-k]).max(axis=1)
            out[tried[distance < TOLERANCE]] = k
    return out


def nearest_recurrence(windows: np.ndarray, max_period: int) -> np.ndarray:
    """The least over k ≤ ``max_period`` of the largest ‖s_{t+k} − s_t‖ over each orbit's window
    (M, T, N_h): an orbit closing on a cycle brings it down window after window, a
    quasi-periodic one does not."""
    squared = []
    for k in range(1, max_period + 1):
        difference = windows[:, k:] - windows[:, :-k]
        squared.append(np.einsum("mtn,mtn->mt", difference, difference).max(axis=1))
    return np.sqrt(np.min(squared, axis=0) / windows.shape[2])


@dataclass(frozen=True)
class Drives:
    """The constant drives free runs go under (G, N_h), ``attracting(u, limit)``
    (:func:`attracting`) and, per drive, what its orbits proved: oscillations (``known``),
    points and cycles (``proven``) and whether those an orbit came close to attract
    (``verdicts``: {index in ``proven``: bool})."""

    u: np.ndarray
    attracting: Callable[[np.ndarray, LimitSet], bool]
    known: list[list[LimitSet]]
    proven: list[list[LimitSet]]
    verdicts: list[dict[int, bool]]

    def attracts(self, g: int, index: int) -> bool:
        """Whether the ``index``-th point or cycle proven under drive g attracts, asked of
        :func:`attracting` once, when an orbit first comes close to it (:func:`on_proven`)."""
        verdicts = self.verdicts[g]
        if index not in verdicts:
            verdicts[index] = self.attracting(self.u[g], self.proven[g][index])
        return verdicts[index]


def attracting(dynamics, W: np.ndarray, u: np.ndarray, limit: LimitSet) -> bool:
    """Whether a point or cycle of the map under the drive ``u`` attracts: the spectral radius
    of its monodromy J(s_{k−1}) ⋯ J(s_0) (a point's Jacobian) below 1. An orbit settles on a
    saddle where it starts on its stable manifold; no other orbit may join it there."""
    monodromy = np.eye(W.shape[0])
    for J in jacobians(dynamics, W, u, limit.states):  # the states in the orbit's order
        monodromy = J @ monodromy
    return bool(np.max(np.abs(np.linalg.eigvals(monodromy))) < 1)


def settle(
    dynamics, W: np.ndarray, u: np.ndarray, starts: np.ndarray, free_run: FreeRun
) -> list[LimitSet]:
    """The limit set each orbit from ``starts`` (K, N_h) reaches under the constant drive ``u``
    (module docstring), window after window until judged or out of budget: the first
    :data:`FIRST_WAVE` orbits, then the rest (:func:`_settle`)."""
    return settle_all(dynamics, W, u[None], starts, free_run)[0]


def settle_all(
    dynamics, W: np.ndarray, drives: np.ndarray, starts: np.ndarray, free_run: FreeRun
) -> list[list[LimitSet]]:
    """:func:`settle` from ``starts`` under each drive of ``drives`` (G, N_h), each orbit judged
    against the attractors proved under its own drive: the G first waves run as one stack (one
    product a step for all), then each drive's rest. One list of K limit sets per drive."""
    G, K = len(drives), len(starts)
    W_t = np.asfortranarray(W)  # its transpose contiguous: a faster product in every step
    advance = partial(step, dynamics, W_t)  # (U, S, out)
    proved = [[] for _ in range(G)], [[] for _ in range(G)], [{} for _ in range(G)]
    under = Drives(drives, partial(attracting, dynamics, W), *proved)
    out: list[list] = [[None] * K for _ in range(G)]
    first, rest = slice(0, FIRST_WAVE), slice(FIRST_WAVE, K)
    for wave, batches in ((first, [range(G)]), (rest, [[g] for g in range(G)])):
        part = starts[wave]
        for drawn in batches if len(part) else ():  # the small first waves as one stack
            group = np.repeat(drawn, len(part))
            stack = np.tile(part, (len(drawn), 1))
            limits = _settle(advance, stack, group, free_run, under)
            for k, g in enumerate(drawn):
                out[g][wave] = limits[k * len(part) : (k + 1) * len(part)]
    return out


def on_known(
    orbits: np.ndarray,
    rows: np.ndarray,
    frequencies: np.ndarray,
    known: list[LimitSet],
    match: float,
) -> np.ndarray:
    """For each orbit ``rows`` of the windows ``orbits`` (M, T, N_h) (read in place, not copied),
    its spectral peak at ``frequencies`` (len(rows),), the index of the first of the ``known``
    oscillations it lies on, −1 if none: the tests by which :func:`distinct` makes two limit sets
    one (the frequency within 2/:data:`WINDOW`, the :func:`orbit_distance` of their
    :func:`around` states within ``match``), all orbits at once."""
    out = np.full(len(rows), -1)
    T, N = orbits.shape[1:]
    steps = np.arange(T)
    picks = np.linspace(0, T - 1, ORBIT_STATES).astype(int)
    flat = orbits.reshape(-1, N)
    for index, limit in enumerate(known):
        tried = np.flatnonzero((out < 0) & same_frequency(frequencies, limit.frequency))
        if not len(tried):
            continue
        phases = (frequencies[tried, None] * steps[None, :]) % 1.0
        order = np.argsort(phases, axis=1, kind="stable")[:, picks]
        a = flat[(rows[tried, None] * T + order).ravel()].reshape(len(tried), -1, N)
        distance = np.concatenate(
            [_set_distances(a[c : c + CHUNK], limit.states) for c in range(0, len(a), CHUNK)]
        )
        out[tried[distance <= match]] = index
    return out


CHUNK = 32
"""Orbits whose distances :func:`on_known` computes at once (their arrays stay in cache)."""


def _set_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`orbit_distance` of each stack of states a (M, m, N_h) to the states b (n, N_h),
    by its formula (‖a‖² + ‖b‖² − 2 a·b, one product for the stack)."""
    M, m, N = a.shape
    flat = a.reshape(-1, N)
    squared = np.sum(flat**2, 1).reshape(M, m, 1) + np.sum(b**2, 1)[None, None, :]
    squared -= (flat @ (2 * b).T).reshape(squared.shape)  # 2 a·b, exactly
    np.maximum(squared, 0.0, out=squared)  # the root after the least: √ is monotone
    nearest = (np.sqrt(squared.min(axis=i) / N).mean(axis=1) for i in (2, 1))
    return np.maximum(*nearest)


def on_proven(
    orbits: np.ndarray, rows: np.ndarray, proven: list, unique: float, attracts: Callable
) -> np.ndarray:
    """For each orbit ``rows`` of the windows ``orbits`` (M, T, N_h), the index of the first of
    the ``proven`` points and cycles it is closing on that attracts (``attracts(index)``), −1 if
    none: its last k states (k the period) within orbit distance ``unique`` of the limit set's
    (:func:`orbit_distance`), and nearer than its k states half a window before, or already
    within :data:`TOLERANCE` (which way it moves then is below what the point test sees)."""
    out = np.full(len(rows), -1)
    half = orbits.shape[1] // 2
    for index, limit in enumerate(proven):
        tried = np.flatnonzero(out < 0)
        if not len(tried):
            break
        k = limit.period
        end = _set_distances(orbits[rows[tried], -k:], limit.states)
        near = np.flatnonzero(end <= unique)
        if not len(near):
            continue
        middle = _set_distances(orbits[rows[tried[near]], half - k : half], limit.states)
        closing = (end[near] < middle) | (end[near] <= TOLERANCE)  # nearer, or there already
        hits = near[closing]
        if len(hits) and attracts(index):  # no orbit joins a saddle
            out[tried[hits]] = index
    return out


def _settle(
    advance, starts: np.ndarray, group: np.ndarray, free_run: FreeRun, under: Drives
) -> list[LimitSet]:
    """:func:`settle_all` of one wave of orbits, orbit i under the drive ``under.u[group[i]]``,
    ``advance(U, S, out)`` the map s ↦ F(s) on a stack under the drives U, written into
    ``out``. They run stacked, each judged on its own window alone; an orbit leaves the stack
    once judged. Its nearest recurrence is measured only in a window whose spectral peak holds
    :data:`PEAK_SHARE` (the other windows cannot be an oscillation's), so an oscillation shows
    it in each of its :data:`STEADY_WINDOWS` + 1 windows; the spread, spectrum and nearest
    recurrence in the :func:`sketch` coordinates. An orbit proved an oscillation joins its
    drive's ``known``, one proved a point or cycle its ``proven``; an orbit closing on one of
    its drive's ``proven`` that attracts (:func:`on_proven`, :meth:`Drives.attracts`), or whose
    peaked window lies on one of its ``known`` (:func:`on_known`), is that attractor without
    the wait, its states and frequency the proven one's: it adds an orbit to the attractor,
    never an attractor of its own."""
    K, N = starts.shape
    out: list[LimitSet | None] = [None] * K
    S, active = np.array(starts, float), np.arange(K)
    U, known, proven = under.u[group], under.known, under.proven
    was = np.full((K, 3), np.nan)  # the last window's spread, frequency, nearest recurrence
    steady = np.zeros(K, int)
    window = np.empty((K, WINDOW, N))
    directions = sketch(N)
    for chunk in range(max(free_run.budget // WINDOW, 1)):
        for t in range(WINDOW):
            S = advance(U, S, window[: len(active), t])
        end, orbits = (chunk + 1) * WINDOW, window[: len(active)]
        mine = group[active]
        finite = np.isfinite(orbits).all(axis=(1, 2))
        period = np.zeros(len(active), int)
        period[finite] = periods(orbits if finite.all() else orbits[finite], free_run.max_period)
        now = np.full((len(active), 3), np.nan)
        share = np.zeros(len(active))
        open_ = np.flatnonzero(finite & (period == 0))
        on, near = np.full(len(active), -1), np.full(len(active), -1)
        for g in np.unique(mine[open_]):
            if proven[g]:
                rows = open_[mine[open_] == g]
                attracts = partial(under.attracts, g)
                near[rows] = on_proven(orbits, rows, proven[g], free_run.unique, attracts)
        open_ = open_[near[open_] < 0]
        if len(open_):
            candidates = (orbits.reshape(-1, N) @ directions).reshape(len(active), WINDOW, -1)
            if len(open_) < len(active):
                candidates = candidates[open_]
            centred = candidates - candidates.mean(axis=1, keepdims=True)
            now[open_, 1], share[open_] = spectrum_peaks(centred)
            now[open_, 0] = np.sqrt(np.einsum("mtn,mtn->m", centred, centred) / centred[0].size)
            peaked = share[open_] >= PEAK_SHARE
            for g in np.unique(mine[open_[peaked]]):  # on an oscillation already proven
                if known[g]:
                    tried = open_[peaked & (mine[open_] == g)]
                    on[tried] = on_known(orbits, tried, now[tried, 1], known[g], free_run.match)
            peaked &= on[open_] < 0
            if peaked.any():
                chosen = candidates if peaked.all() else candidates[peaked]
                now[open_[peaked], 2] = nearest_recurrence(chosen, free_run.max_period)
        before = was[active]
        same = (
            (np.abs(now[:, 0] - before[:, 0]) <= SPREAD_CHANGE * now[:, 0])
            & (now[:, 2] >= (1 - SPREAD_CHANGE) * before[:, 2])
            & (share >= PEAK_SHARE)
            & (np.abs(now[:, 1] - before[:, 1]) <= 1 / WINDOW)
        )
        steady[active] = np.where(same, steady[active] + 1, 0)
        was[active] = now
        still = []
        for j, i in enumerate(active):
            orbit, k, g = orbits[j], period[j], group[i]
            if not finite[j]:
                out[i] = LimitSet("unsettled", 0, np.nan, orbit[-1:].copy(), end)
            elif k:
                kind = "point" if k == 1 else "cycle"
                out[i] = LimitSet(kind, k, 0.0 if k == 1 else 1 / k, orbit[-k:].copy(), end)
                proven[g].append(out[i])
            elif near[j] >= 0:
                limit = proven[g][near[j]]
                out[i] = LimitSet(limit.kind, limit.period, limit.frequency, limit.states, end)
            elif on[j] >= 0:
                limit = known[g][on[j]]
                out[i] = LimitSet("oscillation", 0, limit.frequency, limit.states, end)
            elif steady[i] == STEADY_WINDOWS:
                f = float(now[j, 1])
                out[i] = LimitSet("oscillation", 0, f, around(orbit, f), end)
                known[g].append(out[i])
            else:
                still.append(j)
        if not still:
            return out
        keep = np.array(still)
        S, U, active = S[keep], U[keep], active[keep]
    for j, i in enumerate(active):
        out[i] = LimitSet("unsettled", 0, np.nan, S[j : j + 1].copy(), end)
    return out


def orbit_distance(a: np.ndarray, b: np.ndarray) -> float:
    """The distance between two limit sets' states (m, N_h) and (n, N_h): the mean RMS distance
    per unit from each state of one to the nearest of the other, the larger of the two ways
    (a point's to a point is their RMS distance; one cycle at two phases is at distance 0)."""
    return float(_set_distances(a[None], b)[0])


@dataclass(frozen=True)
class Attractor:
    """One limit set (a point, a cycle or an oscillation) and the ``n_starts`` orbits that
    reached it; ``readouts``: the readout at each of its states."""

    limit: LimitSet
    n_starts: int
    readouts: np.ndarray

    @property
    def signs(self) -> frozenset:
        """The readout sign patterns its states show (a cycle's at any phase)."""
        return sign_patterns(self.readouts)


def sign_patterns(readouts: np.ndarray) -> frozenset:
    """The sign patterns (tuples of −1, 0, 1) of readouts (m, N_y)."""
    return frozenset(tuple(np.sign(r).astype(int)) for r in readouts)


def distinct(network, limits: list[LimitSet], free_run: FreeRun) -> list[Attractor]:
    """The settled limit sets of ``limits`` one per attractor: points, and cycles of one period,
    within orbit distance ``free_run.unique``; cycles whose periods divide one another within
    :data:`SAME_CYCLE` (one cycle whose orbits pass the period test at 2 in one window and at 4
    or 8 in another, on a slow approach), of the smallest period; oscillations of the same
    frequency (within 2/:data:`WINDOW`) within ``free_run.match`` of their sampled orbits; in
    order of first appearance; unsettled orbits left out."""
    found: list[list] = []
    for limit in limits:
        if limit.kind == "unsettled":
            continue
        oscillating = limit.kind == "oscillation"
        tolerance = free_run.match if oscillating else free_run.unique
        for entry in found:
            same, within = entry[0].kind == limit.kind, tolerance
            if oscillating:
                same = same and same_frequency(entry[0].frequency, limit.frequency)
            elif entry[0].period != limit.period:  # one cycle read at two periods?
                short, long = sorted((entry[0].period, limit.period))
                same, within = same and long % short == 0, SAME_CYCLE
            if same and (
                limit.states is entry[0].states  # judged on it: on_known, on_proven
                or orbit_distance(entry[0].states, limit.states) <= within
            ):
                entry[1] += 1
                if limit.period < entry[0].period:  # the cycle's own period
                    entry[0] = limit
                break
        else:
            found.append([limit, 1])
    return [
        Attractor(limit, n, np.array([readout(network, s) for s in limit.states]))
        for limit, n in found
    ]


def find(network, W, x, starts, free_run: FreeRun):
    """The attractors of ``network`` with recurrent matrix ``W`` under the constant input ``x``
    reached from ``starts`` (K, N_h) (:func:`settle`, :func:`distinct`), and how many orbits did
    not settle."""
    return find_all(network, W, {None: x}, starts, free_run)[None]


def find_all(network, W, inputs: dict, starts, free_run: FreeRun) -> dict:
    """:func:`find` under each constant input of ``inputs`` ({name: x}), all run together
    (:func:`settle_all`): {name: (attractors, orbits not settled)}."""
    drives = np.array([drive(network, x) for x in inputs.values()])
    settled = settle_all(network.dynamics, W, drives, starts, free_run)
    out = {}
    for name, limits in zip(inputs, settled, strict=True):
        unsettled = sum(limit.kind == "unsettled" for limit in limits)
        out[name] = distinct(network, limits, free_run), unsettled
    return out
