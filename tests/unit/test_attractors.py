"""Attractors that are not points, on networks whose answer is derived: period-2 cycles of
W = −w·I, the oscillation of a rotation held by tanh, a flip-flop's transitions, a replay
orbit, and what an ablation does to each."""

import numpy as np
import pytest
from scipy.optimize import brentq

from rnnschur.network import Network
from rnnschur.network.dynamics import DISCRETE
from rnnschur.schur import ordered_real_schur
from rnnschur.studies import attractors as at
from rnnschur.studies import breaks
from rnnschur.studies import fixed_point_study as fps
from rnnschur.studies import fixed_points as fp
from rnnschur.tasks import Batch

RUN = at.FreeRun(max_period=16, budget=4096, unique=1e-3, match=0.05)


def network(W, W_xh=None, W_hy=None):
    N = W.shape[0]
    W_xh = np.zeros((N, 1)) if W_xh is None else W_xh
    return Network(W_xh, W, np.eye(N) if W_hy is None else W_hy, DISCRETE)


def root(w):
    return brentq(lambda x: np.tanh(w * x) - x, 0.1, 1.0)  # tanh(w x) = x, w > 1


def uniform(N, n=64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, (n, N))


@pytest.mark.parametrize("N", [1, 2, 3, 4])
def test_minus_w_identity_holds_its_bits_in_period_two_cycles(N):
    """W = −w·I (w = 2): each coordinate maps x ↦ −tanh(w x), so F(F(x)) = tanh(w tanh(w x)):
    its stable fixed points ±a (a = tanh(w a)) are F's period-2 orbit a ↦ −a ↦ a, and 0 is
    unstable (|F′(0)| = w > 1). A state with every coordinate ±a maps to its negative: the 2^N
    corners pair into 2^(N−1) period-2 cycles {s, −s}, and there is no stable fixed point."""
    W = -2.0 * np.eye(N)
    net, a = network(W), root(2.0)
    found, unsettled = at.find(net, W, np.zeros(1), uniform(N), RUN)
    assert unsettled == 0 and len(found) == 2 ** (N - 1)
    for attractor in found:
        s, t = attractor.limit.states
        assert attractor.limit.kind == "cycle" and attractor.limit.period == 2
        np.testing.assert_allclose(np.abs(s), a, rtol=1e-9)
        np.testing.assert_allclose(t, -s, atol=1e-9)
    halves = {tuple(np.sign(a.limit.states[0] * np.sign(a.limit.states[0][0]))) for a in found}
    assert len(halves) == 2 ** (N - 1)  # every pair {s, −s} once
    points = fp.find(net, W, np.zeros(1), uniform(N), fp.Search(n_starts=64))
    assert not [p for p in points if p.stability == "stable"]


def test_a_rotation_held_by_tanh_oscillates_at_its_angle():
    """W = g R(2π f₀), N_h = 2, g = 1.02, f₀ = (√5 − 1)/20 (irrational: no cycle): near the
    origin tanh(z) ≈ z − z³/3 per coordinate; the cubic's tangential part, r³ sin φ cos φ
    (sin²φ − cos²φ), averages to zero over the circle, so the orbit turns by f₀ a step; its
    radial part averages (cos⁴φ + sin⁴φ)/3 = 1/4 of ρ³ (ρ = g r), so r′ = g r − g³ r³/4 and the
    invariant circle has r² = 4 (g − 1)/g³. One oscillation, frequency f₀, radius that r."""
    g, f0 = 1.02, (np.sqrt(5) - 1) / 20
    c, s = np.cos(2 * np.pi * f0), np.sin(2 * np.pi * f0)
    W = g * np.array([[c, -s], [s, c]])
    found, unsettled = at.find(network(W), W, np.zeros(1), uniform(2, 16), RUN)
    assert unsettled == 0 and [a.limit.kind for a in found] == ["oscillation"]
    limit = found[0].limit
    assert limit.frequency == pytest.approx(f0, rel=5e-3)
    radius = np.sqrt(np.mean(np.sum(limit.states**2, axis=1)))
    assert radius == pytest.approx(np.sqrt(4 * (g - 1) / g**3), rel=0.03)
    assert found[0].n_starts == 16


def test_later_orbits_on_a_proven_oscillation_join_it_without_the_wait():
    """The rotation's circle again, from 3 · FIRST_WAVE starts: the first wave proves the
    oscillation in STEADY_WINDOWS + 1 windows; the later orbits, on the same circle, are judged
    as soon as one window shows them on it, take the proven limit set's states and add to its
    orbits: one attractor of all the starts."""
    g, f0 = 1.02, (np.sqrt(5) - 1) / 20
    c, s = np.cos(2 * np.pi * f0), np.sin(2 * np.pi * f0)
    W = g * np.array([[c, -s], [s, c]])
    starts = uniform(2, 3 * at.FIRST_WAVE)
    limits = at.settle(DISCRETE, W, np.zeros(2), starts, RUN)
    first, later = limits[: at.FIRST_WAVE], limits[at.FIRST_WAVE :]
    assert {limit.kind for limit in limits} == {"oscillation"}
    assert min(limit.end for limit in first) >= (at.STEADY_WINDOWS + 1) * at.WINDOW
    assert max(limit.end for limit in later) < min(limit.end for limit in first)
    assert all(any(limit.states is known.states for known in first) for limit in later)
    found, unsettled = at.find(network(W), W, np.zeros(1), starts, RUN)
    assert unsettled == 0 and [a.n_starts for a in found] == [len(starts)]


def test_an_orbit_is_on_a_known_oscillation_by_the_tests_that_merge_two():
    """:func:`on_known` on a circle of radius 1 at f = (√5 − 1)/20 a step (irrational: a window's
    phases fill the circle): the same circle at another phase is on it; the same orbit read at
    a frequency 3/WINDOW away, or a circle of radius 1.2 (orbit distance 0.2/√2 > match), is
    not."""
    f, t = (np.sqrt(5) - 1) / 20, np.arange(at.WINDOW)

    def circle(radius, phase):
        angle = 2 * np.pi * (f * t + phase)
        return radius * np.stack([np.cos(angle), np.sin(angle)], axis=1)

    known = [at.LimitSet("oscillation", 0, f, at.around(circle(1.0, 0.0), f), at.WINDOW)]
    orbits = np.stack([circle(1.0, 0.37), circle(1.0, 0.37), circle(1.2, 0.0)])
    frequencies = np.array([f, f + 3 / at.WINDOW, f])
    assert at.on_known(orbits, np.arange(3), frequencies, known, 0.05).tolist() == [0, -1, -1]
    assert at.on_known(orbits, np.array([2, 0]), frequencies[[2, 0]], known, 0.05).tolist() == [
        -1,
        0,
    ]


def test_later_orbits_closing_on_a_proven_point_join_it_at_their_first_window():
    """W = 0.9·I contracts to the origin by 0.9 a step: a first-wave orbit still moves by more
    than the tolerance early in its first window, so it proves the point in its second; a later
    orbit, 0.9^256 ≈ 2e-12 of its start from the origin when its first window ends and nearer
    than half a window before, joins that point there, with its states."""
    W = 0.9 * np.eye(2)
    starts = uniform(2, 3 * at.FIRST_WAVE)
    limits = at.settle(DISCRETE, W, np.zeros(2), starts, RUN)
    first, later = limits[: at.FIRST_WAVE], limits[at.FIRST_WAVE :]
    assert {(limit.kind, limit.end) for limit in first} == {("point", 2 * at.WINDOW)}
    assert {(limit.kind, limit.end) for limit in later} == {("point", at.WINDOW)}
    assert all(any(limit.states is p.states for p in first) for limit in later)
    found, unsettled = at.find(network(W), W, np.zeros(1), starts, RUN)
    assert unsettled == 0 and [a.n_starts for a in found] == [len(starts)]


def test_conditions_settled_together_are_each_settled_alone():
    """settle_all runs the first waves of several drives as one stack, each orbit judged against
    the attractors of its own drive: W = 0.9·I under two drives (two points apart, and a
    rotation's circle under a third) gives, drive by drive, the limit sets :func:`settle` gives
    under that drive alone: the same kinds, periods and steps, the states to rounding."""
    W = 0.9 * np.eye(2)
    drives = np.array([[0.0, 0.0], [0.3, -0.2]])
    starts = uniform(2, 3 * at.FIRST_WAVE)
    together = at.settle_all(DISCRETE, W, drives, starts, RUN)
    for u, limits in zip(drives, together, strict=True):
        alone = at.settle(DISCRETE, W, u, starts, RUN)
        assert [(x.kind, x.period, x.end) for x in limits] == [
            (x.kind, x.period, x.end) for x in alone
        ]
        for x, y in zip(limits, alone, strict=True):
            np.testing.assert_allclose(x.states, y.states, rtol=0, atol=1e-12)
    assert {x.end for x in together[1][at.FIRST_WAVE :]} == {at.WINDOW}  # its own point


def test_one_cycle_read_at_several_periods_is_one_cycle_of_the_smallest():
    """Planted: the period-2 cycle {a, −a} read by one orbit at period 4 (its two states twice,
    1e-6 off) and by another at period 2, and a second cycle {b, −b} 0.5 away: two attractors,
    the first of period 2 reached by both orbits, whichever came first. A period-4 cycle whose
    halves lie 1e-4 apart (within ``unique``, beyond SAME_CYCLE) stays a cycle of its own."""
    a, b = np.array([0.6, 0.2]), np.array([0.6, -0.3])
    as_four = at.LimitSet("cycle", 4, 0.25, np.array([a, -a, a, -a]) + 1e-6, 4 * at.WINDOW)
    as_two = at.LimitSet("cycle", 2, 0.5, np.array([a, -a]), 2 * at.WINDOW)
    other = at.LimitSet("cycle", 2, 0.5, np.array([b, -b]), 2 * at.WINDOW)
    net = network(np.eye(2))
    for limits in ([as_four, other, as_two], [as_two, as_four, other]):
        found = at.distinct(net, limits, RUN)
        assert [(x.limit.period, x.n_starts) for x in found] == [(2, 2), (2, 1)]
        assert found[0].limit is as_two
    doubled = np.array([a, -a, a + 1e-4, -a - 1e-4])  # a period-4 cycle, halves 1e-4 apart
    split = at.LimitSet("cycle", 4, 0.25, doubled, 4 * at.WINDOW)
    found = at.distinct(net, [as_two, split], RUN)
    assert [(x.limit.period, x.n_starts) for x in found] == [(2, 1), (4, 1)]


def test_on_proven_takes_an_orbit_closing_in_and_not_one_leaving():
    """Planted windows about a proven point at the origin: one closing in (1e-2 → 1e-4 at its
    end), one leaving (1e-5 at mid-window → 5e-4 at its end, within ``unique`` but farther),
    one ending beyond ``unique`` (2e-3), one sitting within the point test's tolerance (1e-7,
    not nearer): taken, not, not, taken."""
    t = np.arange(at.WINDOW)[:, None]
    direction = np.array([1.0, 1.0])  # RMS per unit: the radius itself
    closing = 1e-2 * (1e-2) ** (t / (at.WINDOW - 1)) * direction
    leaving = 1e-5 * (50.0 ** ((t - at.WINDOW // 2) / (at.WINDOW // 2 - 1))) * direction
    beyond = np.full((at.WINDOW, 2), 2e-3)
    sitting = np.full((at.WINDOW, 2), 1e-7)
    point = at.LimitSet("point", 1, 0.0, np.zeros((1, 2)), at.WINDOW)
    orbits = np.stack([closing, leaving, beyond, sitting])
    taken = at.on_proven(orbits, np.arange(4), [point], 1e-3, lambda index: True)
    assert taken.tolist() == [0, -1, -1, 0]


def test_no_orbit_joins_a_saddle_along_its_slow_stable_direction():
    """W = diag(0.98, 1.01): the origin is a saddle, proven a point by a first wave on its stable
    axis. Later orbits from (±0.02, ±1e-6) come in along the slow stable direction, within 1e-3
    of the origin and nearer when their first window ends, while their unstable part still
    grows: the saddle attracts nothing (:func:`attracting`, its Jacobian's spectral radius 1.01),
    so none joins it; each settles on a stable point (0, ±a), tanh(1.01 a) = a."""
    W = np.diag([0.98, 1.01])
    on_axis = np.stack([np.linspace(-0.9, 0.9, at.FIRST_WAVE), np.zeros(at.FIRST_WAVE)], axis=1)
    later = np.array([[0.02, 1e-6], [-0.02, -1e-6], [0.02, -1e-6], [-0.02, 1e-6]])
    limits = at.settle(DISCRETE, W, np.zeros(2), np.concatenate([on_axis, later]), RUN)
    saddle = limits[0]
    assert saddle.kind == "point" and np.abs(saddle.states).max() < 1e-6
    assert not at.attracting(DISCRETE, W, np.zeros(2), saddle)
    a = brentq(lambda x: np.tanh(1.01 * x) - x, 0.01, 1.0)
    for limit in limits[at.FIRST_WAVE :]:
        assert limit.kind == "point" and limit.states is not saddle.states
        assert limit.states[0] == pytest.approx([0.0, np.sign(limit.states[0, 1]) * a], abs=1e-4)


def test_an_orbit_leaving_a_proven_saddle_does_not_join_it():
    """W = diag(0.5, 1.01): the origin is a saddle; the first wave, started on the first axis
    (its stable manifold, exactly: tanh(0) = 0), settles on it and proves it a point. A later
    orbit 5e-5 off that axis grows by 1.01 a step along the second: when its first window ends
    it lies 5e-5 · 1.01^256 / √2 ≈ 4.5e-4 from the origin, within ``unique`` (1e-3), but
    farther than half a window before (≈ 1.3e-4): it is leaving, not closing on it, and it
    settles on a stable point (0, ±a), tanh(1.01 a) = a, instead."""
    W = np.diag([0.5, 1.01])
    on_axis = np.stack([np.linspace(-0.9, 0.9, at.FIRST_WAVE), np.zeros(at.FIRST_WAVE)], axis=1)
    off_axis = on_axis[:4] + [[0.0, 5e-5], [0.0, -5e-5], [0.0, 5e-5], [0.0, -5e-5]]
    limits = at.settle(DISCRETE, W, np.zeros(2), np.concatenate([on_axis, off_axis]), RUN)
    assert all(limit.kind == "point" and np.abs(limit.states).max() < 1e-6 for limit in limits[:16])
    a = brentq(lambda x: np.tanh(1.01 * x) - x, 0.01, 1.0)
    for limit in limits[at.FIRST_WAVE :]:
        assert limit.kind == "point" and limit.end > at.WINDOW
        assert limit.states[0] == pytest.approx([0.0, np.sign(limit.states[0, 1]) * a], abs=1e-4)


def test_a_point_a_long_cycle_and_an_unsettled_orbit_are_told_apart():
    """W = 0.5·I contracts to the origin: a point. W = −2·I with max_period 1 holds a cycle
    longer than the bound: its spread stays and its one spectral peak, at 1/2 cycle per step,
    holds all the power, so it reads as an oscillation of frequency 1/2. W = 0.999·I contracts
    by 0.999 a step: after one window of 256 steps a state ~0.77 of its start still moves by
    ~1e-3 a step, far above the tolerance, and one window cannot show a steady spread: not
    settled within a budget of one window."""
    starts = uniform(1, 4) + 2.0  # away from 0
    point = at.settle(DISCRETE, 0.5 * np.eye(1), np.zeros(1), starts, RUN)
    assert {(limit.kind, limit.period) for limit in point} == {("point", 1)}
    long = at.settle(
        DISCRETE, -2.0 * np.eye(1), np.zeros(1), starts, at.FreeRun(1, 1024, 1e-3, 0.05)
    )
    assert {limit.kind for limit in long} == {"oscillation"}
    assert all(limit.frequency == pytest.approx(0.5) for limit in long)
    slow = at.settle(
        DISCRETE, 0.999 * np.eye(1), np.zeros(1), starts, at.FreeRun(16, 256, 1e-3, 0.05)
    )
    assert {limit.kind for limit in slow} == {"unsettled"}
    assert all(np.isnan(limit.frequency) and limit.end == 256 for limit in slow)


def test_a_flipped_bit_loses_its_cycles():
    """Intact W = −w·I (N = 2): the cycles {(a, a), (−a, −a)} and {(a, −a), (−a, a)}. With
    the second self-weight +w (that bit held, the first still alternating), the cycles are
    {(±a, b)} for b = ±a: each an orbit distance a/√2 from the intact ones, with readout sign
    patterns no intact cycle shows: both lost, two new."""
    a = root(2.0)
    intact_W, ablated_W = -2.0 * np.eye(2), np.diag([-2.0, 2.0])
    intact = at.find(network(intact_W), intact_W, np.zeros(1), uniform(2), RUN)[0]
    ablated = at.find(network(ablated_W), ablated_W, np.zeros(1), uniform(2), RUN)[0]
    assert len(intact) == len(ablated) == 2
    fate = breaks.attractor_fates(intact, ablated, match=0.05)
    assert (fate.kept, fate.moved, fate.lost, fate.new) == (0, 0, 2, 2)
    assert at.orbit_distance(intact[0].limit.states, ablated[0].limit.states) == pytest.approx(
        a / np.sqrt(2), rel=1e-9
    )
    same = breaks.attractor_fates(intact, intact, match=0.05)
    assert (same.kept, same.lost, same.new, same.distance) == (2, 0, 0, 0.0)


def test_a_flip_flop_transition_table_intact_and_with_stronger_self_excitation():
    """Two bits held by W = 2I, pulsed through W_xh = 2I with amplitude 1, read by W_hy = I:
    a pulse against a bit held at ∓x* drives it to tanh(−2x* ± 2) (x* = 0.9575), past the
    unstable 0 as 2 > 2x*, so every one of the 4 · 4 transitions lands where the task says.
    With W = 2.5I (x* = 0.9857), 2 < 2.5 x*: a pulse no longer flips a bit; the 8 pulses that
    set a bit to its value still land right, the 8 that flip it do not (kept 8 of 16)."""
    W, ablated = 2.0 * np.eye(2), 2.5 * np.eye(2)
    net = network(W, W_xh=2.0 * np.eye(2))
    intact = at.find(net, W, np.zeros(2), uniform(2), RUN)[0]
    assert sorted(a.limit.kind for a in intact) == ["point"] * 4
    rows = breaks.transitions(net, ablated, intact, 1.0, RUN)
    assert len(rows) == 4 * 2 * 2
    assert all(r["correct"] and r["lands"] >= 0 for r in rows)
    assert sum(r["kept_transition"] for r in rows) == 8
    assert sum(r["correct_ablated"] for r in rows) == 8
    stays = [
        r for r in rows if r["pulse_sign"] == np.sign(intact[r["point"]].readouts[0][r["bit"]])
    ]
    assert len(stays) == 8 and all(r["kept_transition"] for r in stays)


def test_a_planted_period_two_network_through_the_study_and_each_ablation():
    """W = T = [[−2, 0, c], [0, −2, 0], [0, 0, 0.1]] (upper triangular: its own Schur form, R the
    two −2's, C the 0.1), two bits in and out on units 1 and 2: the attractors are the
    2 period-2 cycles of its R units with the C unit at 0 (tanh(0.1 h₃) → 0), and no stable
    fixed point. T_RR and T_CC hold nothing, and T_C→R = c acts through h₃ = 0 only: each
    removal keeps both cycles where they were, and every flip-flop transition."""
    W = np.array([[-2.0, 0.0, 0.7], [0.0, -2.0, 0.0], [0.0, 0.0, 0.1]])
    W_xh, W_hy = np.eye(3)[:, :2], np.eye(3)[:2]
    net = Network(W_xh, W, W_hy, DISCRETE)
    inputs = np.zeros((8, 6, 2))
    inputs[:, 0] = np.random.default_rng(0).choice([-1.0, 1.0], (8, 2))  # one corner a trial
    heldout = Batch(inputs, np.zeros((8, 6, 2)), np.ones((8, 6)))
    study = fps.Study(0.9, {"pulse_amplitude": 1.0}, fp.Search(n_starts=32))
    rows = fps.model_rows(net, ordered_real_schur(W), heldout, "flip_flop", study)
    fates = [r for r in rows if r["record"] == "fate"]
    assert [r["ablation"] for r in fates] == ["none", "T_RR", "T_CR", "T_CC"]
    for r in fates:
        assert (r["n_stable"], r["n_attractors"], r["n_cycles"]) == (0, 2, 2)
        assert (r["attractors_kept"], r["attractors_lost"], r["attractors_new"]) == (2, 0, 0)
        assert r["attractor_distance"] < 1e-9
        assert (r["transitions"], r["transitions_kept"]) == (2 * 2 * 2, 8)
    cycles = [r for r in rows if r["record"] == "attractor" and r["ablation"] == "none"]
    assert {(r["kind"], r["period"]) for r in cycles} == {("cycle", 2)} and len(cycles) == 4


def _limit(kind, signs, end, period=None):
    states = np.array(signs, float)
    period = len(states) if period is None else period
    return at.LimitSet(kind, period, 1 / period if kind == "cycle" else 0.0, states, end)


def test_what_an_ablation_does_to_a_replay_orbit():
    """One period-4 replay (readout = state, one symbol a step): the same states at the same
    steps are kept; shifted by one step (the run ended a step later), a phase drift; other
    symbols, changed; a point, collapse; period 2 or not settled, lost; an intact orbit that
    did not settle is not compared."""
    net = network(np.zeros((2, 2)))
    cycle = [[1, 1], [1, -1], [-1, -1], [-1, 1]]
    intact = _limit("cycle", cycle, 256)
    assert breaks.replay_outcome(net, intact, _limit("cycle", cycle, 512)) == "kept"
    assert breaks.replay_outcome(net, intact, _limit("cycle", cycle, 257)) == "drift"
    other = [[1, 1], [-1, -1], [1, -1], [-1, 1]]
    assert breaks.replay_outcome(net, intact, _limit("cycle", other, 256)) == "changed"
    assert breaks.replay_outcome(net, intact, _limit("point", [[1, 1]], 256)) == "collapse"
    assert breaks.replay_outcome(net, intact, _limit("cycle", cycle[:2], 256)) == "lost"
    unsettled = at.LimitSet("unsettled", 0, np.nan, np.ones((1, 2)), 4096)
    assert breaks.replay_outcome(net, intact, unsettled) == "lost"
    assert breaks.replay_outcome(net, unsettled, intact) == "unsettled"  # nothing to compare


def test_a_cyclic_shift_replays_with_period_four():
    """h ↦ tanh(2 P h), P the cyclic shift of 4 units, after a one-step cue that sets one unit
    +tanh(3) and the others −tanh(3): the pattern moves one unit a step, a period-4 cycle.
    Shifting the other way (2 P³) replays the symbols in another order (changed); 2 P² holds
    period 2 (lost); 0.5 P contracts to the origin (collapse)."""
    P = np.roll(np.eye(4), 1, axis=0)
    net = network(2 * P, W_xh=3 * np.eye(4))
    cue = np.zeros((3, 1, 4))
    for k in range(3):
        cue[k, 0] = -1.0
        cue[k, 0, k] = 1.0
    mine = breaks.replay_orbits(net, 2 * P, cue, 1, RUN)
    assert [(m.kind, m.period) for m in mine] == [("cycle", 4)] * 3
    for W, outcome in [
        (2 * P, "kept"),
        (2 * P.T, "changed"),
        (2 * P @ P, "lost"),
        (0.5 * P, "collapse"),
    ]:
        theirs = breaks.replay_orbits(net, W, cue, 1, RUN)
        assert [breaks.replay_outcome(net, m, t) for m, t in zip(mine, theirs, strict=True)] == [
            outcome
        ] * 3
