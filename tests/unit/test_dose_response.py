"""Dose-response against matched random perturbations, on networks whose answer is known:

- planted symmetry: large couplings among and out of modes the state never visits and the
  readout never reads (T_CC, T_C→R) → a symmetry direction;
- planted route: the task runs through one weak T_RR coupling, little else couples → the route
  is load-bearing;
- random matrices: the couplings among the dominant modes are like any perturbation of their
  size.

W = T is upper triangular with its diagonal ordered by modulus, so the ordered Schur form is W
itself (Q = I): coordinates are modes, and tanh keeps an unvisited coordinate at zero.
"""

import types

import numpy as np
import pandas as pd
import pytest

from rnnschur.ablation import Analysed, evaluate_ablations
from rnnschur.network import Network
from rnnschur.network.dynamics import Dynamics
from rnnschur.schur import coupling_masks, ordered_real_schur
from rnnschur.studies.beyond import dose_response as dose
from rnnschur.studies.beyond import dose_summary as judged
from rnnschur.studies.learned import learned_models
from rnnschur.studies.verdicts import Thresholds, Verdict
from rnnschur.tasks import Batch, metrics

TASK = types.SimpleNamespace(
    SCORE="fvu", score=lambda outputs, batch: metrics.fvu(outputs, batch.targets, batch.mask)
)
DESIGN = {
    "epsilons": [0.1, 0.35, 0.75, 1.0],
    "n_draws": 6,
    "validation_fraction": 0.25,
    "ridge_grid": [1e-6, 1e-4, 1e-2],
}
N, N_R = 12, 4


def planted(kind: str, seed: int):
    """(W_xh, W_hh, W_hy) of a planted network (``symmetry`` or ``route``) or a random one."""
    rng = np.random.default_rng(seed)
    if kind == "random":
        W_hh = 0.9 * rng.standard_normal((N, N)) / np.sqrt(N)
        return rng.standard_normal((N, 2)), W_hh, rng.standard_normal((1, N)) / np.sqrt(N)
    T = np.diag(np.concatenate([np.linspace(0.97, 0.9, N_R), np.linspace(0.5, 0.2, N - N_R)]))
    scale = 0.8 if kind == "symmetry" else 0.05
    for i in range(N):
        for j in range(max(i + 1, N_R), N):  # T_CC and T_C→R: rows of any mode, columns of C
            T[i, j] = scale * rng.standard_normal()
    T[0, 1] = 0.3  # T_RR's one coupling: the input enters mode 1, the readout reads mode 0
    W_xh = np.zeros((N, 2))
    W_xh[1, 0], W_xh[2, 1] = 1.0, 0.5
    W_hy = np.zeros((1, N))
    W_hy[0, 0] = 1.0
    return W_xh, T, W_hy


def model_rows(kind: str, seed: int, design=DESIGN) -> list[dict]:
    """The dose-response rows of one planted model, its own outputs as targets."""
    W_xh, W_hh, W_hy = planted(kind, seed)
    network = Network(W_xh, W_hh, W_hy, Dynamics(), {})
    schur = ordered_real_schur(W_hh)
    inputs = 0.5 * np.random.default_rng(100 + seed).standard_normal((64, 30, 2))
    own = network.rollout(inputs)
    heldout = Batch(inputs, own, np.ones(inputs.shape[:2]))
    fitting = Batch(inputs[:32], own[:32], np.ones((32, 30)))
    rng = np.random.default_rng(seed)
    rows = dose.dose_response(Analysed(network, schur, heldout, TASK), 0.9, design, rng, fitting)
    identity = {"task": kind, "construction": "planted", "n_hidden": N, "seed": seed}
    return [identity | row for row in rows]


def summary(kind: str, seeds=range(6), design=DESIGN) -> pd.DataFrame:
    table = pd.DataFrame([r for s in seeds for r in model_rows(kind, s, design)])
    return judged.dose_summary(judged.curves(table), Thresholds(), 3).set_index("block")


def test_couplings_the_state_never_visits_are_a_symmetry_direction():
    s = summary("symmetry")
    assert s.loc["T_CC", "verdict"] == Verdict.SYMMETRY
    assert s.loc["T_CR", "verdict"] == Verdict.SYMMETRY
    assert s.loc["T_CC", "harm_at_full"] == pytest.approx(0.0, abs=1e-12)  # truly invisible


def test_the_one_route_of_the_task_is_load_bearing():
    s = summary("route")
    assert s.loc["T_RR", "verdict"] == Verdict.LOAD_BEARING
    assert s.loc["T_RR", "harm_at_full"] > 0.9  # removing it takes the whole output
    assert 0 < s.loc["T_RR", "epsilon_50"] < 1
    assert s.loc["T_RR", "recovered_at_full"] < 0.5  # lost, not misaligned: no readout finds it


def test_random_matrices_couplings_among_dominant_modes_are_like_any_perturbation():
    # judged against the removal control alone, 16 seeds at two doses decide what 8 did
    # against two pooled controls
    s = summary("random", seeds=range(16), design=DESIGN | {"epsilons": [0.35, 1.0]})
    assert s.loc["T_RR", "verdict"] == Verdict.LIKE_ANY
    assert Verdict.LOAD_BEARING not in set(s["verdict"])


def test_controls_have_the_blocks_norm_and_full_removal_is_the_papers_ablation():
    W_xh, W_hh, W_hy = planted("random", 3)
    network = Network(W_xh, W_hh, W_hy, Dynamics(), {})
    schur = ordered_real_schur(W_hh)
    inputs = np.random.default_rng(0).standard_normal((16, 20, 2))
    heldout = Batch(inputs, network.rollout(inputs) + 0.1, np.ones(inputs.shape[:2]))
    rows = pd.DataFrame(
        dose.dose_response(
            Analysed(network, schur, heldout, TASK), 0.9, DESIGN, np.random.default_rng(1)
        )
    )
    masks = coupling_masks(schur, 0.9)
    for block, mask in masks.items():
        norm = np.linalg.norm(np.where(mask, schur.T, 0.0))
        chosen = rows[rows["block"] == block]
        np.testing.assert_allclose(chosen["norm"], chosen["epsilon"] * norm)
    rng = np.random.default_rng(5)
    for kind in dose.CONTROLS:  # every control drawn at the norm asked for
        dW = dose.control_perturbation(kind, "T_CR", masks, schur, 0.7, rng)
        ord = 2 if kind == dose.OPERATOR else None  # the operator-norm control: ‖ΔW‖₂
        assert np.linalg.norm(dW, ord) == pytest.approx(0.7)
    # in the rows: the operator-norm control at ε ‖ΔT_S‖₂ (all the other couplings where they
    # reach less together), the Frobenius ones at ε ‖ΔT_S‖_F
    for block, mask in masks.items():
        op = np.linalg.norm(np.where(mask, schur.T, 0.0), 2)
        others = ~mask & (masks["T_RR"] | masks["T_CR"] | masks["T_CC"])
        reach = np.linalg.norm(np.where(others, schur.T, 0.0), 2)
        chosen = rows[(rows["block"] == block) & (rows["perturbation"] == dose.OPERATOR)]
        wanted = np.minimum(chosen["epsilon"] * op, reach)
        np.testing.assert_allclose(chosen["operator_norm"], wanted, rtol=1e-9)
    paper = {
        r["subset"]: r["score"]
        for r in evaluate_ablations(Analysed(network, schur, heldout, TASK), [0.9])
        if r["subset"] in masks
    }
    full = rows[(rows["perturbation"] == "block") & (rows["epsilon"] == 1.0)]
    for r in full.itertuples():
        assert r.score == pytest.approx(paper[r.block], rel=1e-9)


def spectrum(W: np.ndarray) -> np.ndarray:
    """W's eigenvalues in a fixed order (by real, then imaginary part)."""
    return np.sort_complex(np.linalg.eigvals(W))


@pytest.mark.parametrize("block", ["T_RR", "T_CR", "T_CC"])
def test_the_spectral_controls_keep_every_eigenvalue_and_the_gaussian_does_not(block):
    """The planted route network (Q = I, T = W) and a random one: W − ΔW of each spectrum-keeping
    control has W's eigenvalues (to rounding); an unstructured Gaussian of the same size moves
    them by far more."""
    for kind_of_network in ("route", "random"):
        W = planted(kind_of_network, 4)[1]
        schur = ordered_real_schur(W)
        masks = coupling_masks(schur, 0.9)
        rng = np.random.default_rng(7)
        norm = 0.5 * np.linalg.norm(np.where(masks[block], schur.T, 0.0))
        before = spectrum(W)
        for kind in (*dose.SPECTRAL, dose.OPERATOR):
            dW = dose.control_perturbation(kind, block, masks, schur, norm, rng)
            np.testing.assert_allclose(spectrum(W - dW), before, atol=1e-9)
        if norm > 0:
            dW = dose.control_perturbation("gaussian", block, masks, schur, norm, rng)
            assert np.max(np.abs(spectrum(W - dW) - before)) > 1e-3


def test_other_couplings_zero_existing_entries_to_the_blocks_norm():
    """On the planted route network: the control's ΔT holds T's own entries of T_C→R and T_CC
    (one shrunk, keeping its sign), none of T_RR, at the norm asked for; asked for more than
    they hold, it removes them all."""
    T = planted("route", 1)[1]
    schur = ordered_real_schur(T)
    masks = coupling_masks(schur, 0.9)
    others = masks["T_CR"] | masks["T_CC"]
    held = np.linalg.norm(np.where(others, T, 0.0))
    R = dose.other_couplings(T, others, 0.5 * held, np.random.default_rng(0))
    assert np.linalg.norm(R) == pytest.approx(0.5 * held, rel=1e-12)
    assert not np.any(R[~others])
    touched = R != 0
    whole = touched & np.isclose(R, T)
    assert touched.sum() - whole.sum() <= 1  # every entry whole but the last
    shrunk = touched & ~whole
    assert np.all(np.sign(R[shrunk]) == np.sign(T[shrunk]))
    assert np.all(np.abs(R[shrunk]) < np.abs(T[shrunk]))
    everything = dose.other_couplings(T, others, 2 * held, np.random.default_rng(0))
    np.testing.assert_array_equal(everything, np.where(others, T, 0.0))


def test_the_operator_control_removes_the_shortest_prefix_that_reaches_the_norm():
    """On the planted route network: T's own entries of T_C→R and T_CC, shrunk as a whole to
    the operator norm asked for; one entry fewer (unshrunk) stays below it; asked for more than
    they hold, it removes them all."""
    T = planted("route", 1)[1]
    schur = ordered_real_schur(T)
    masks = coupling_masks(schur, 0.9)
    others = masks["T_CR"] | masks["T_CC"]
    held = np.linalg.norm(np.where(others, T, 0.0), 2)
    R = dose.other_couplings_operator(T, others, 0.5 * held, np.random.default_rng(0))
    assert np.linalg.norm(R, 2) == pytest.approx(0.5 * held, rel=1e-12)
    assert not np.any(R[~others])
    touched = R != 0
    scale = R[touched] / T[touched]
    np.testing.assert_allclose(scale, scale[0])  # one factor for every entry
    assert 0 < scale[0] <= 1
    # the same order, one entry fewer: below the norm (the prefix is the shortest)
    order = np.flatnonzero(others.ravel())[np.random.default_rng(0).permutation(others.sum())]
    k = touched.sum()
    shorter = np.zeros(T.size)
    shorter[order[: k - 1]] = T.ravel()[order[: k - 1]]
    assert np.linalg.norm(shorter.reshape(T.shape), 2) < 0.5 * held
    everything = dose.other_couplings_operator(T, others, 2 * held, np.random.default_rng(0))
    np.testing.assert_array_equal(everything, np.where(others, T, 0.0))


def test_the_operator_control_leaves_the_other_draws_as_they_were(monkeypatch):
    """Its draws come from a stream of its own: every other kind's rows are those of a run
    without it, draw for draw."""
    with_it = pd.DataFrame(model_rows("random", 2))
    monkeypatch.setattr(dose, "CONTROLS", tuple(k for k in dose.CONTROLS if k != dose.OPERATOR))
    without = pd.DataFrame(model_rows("random", 2))
    kept = with_it[with_it["perturbation"] != dose.OPERATOR].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, without)


def test_the_rotated_block_keeps_the_blocks_singular_values():
    """T_C→R fills a whole rectangle: the rotated control has exactly the block's singular values
    (scaled by ε = 0.5), so its Frobenius and operator norms; it differs from the block."""
    W = planted("random", 2)[1]
    schur = ordered_real_schur(W)
    masks = coupling_masks(schur, 0.9)
    B = np.where(masks["T_CR"], schur.T, 0.0)
    R = dose.rotated_block(
        schur.T, masks["T_CR"], 0.5 * np.linalg.norm(B), np.random.default_rng(3)
    )
    assert not np.any(R[~masks["T_CR"]])
    np.testing.assert_allclose(
        np.linalg.svd(R, compute_uv=False), 0.5 * np.linalg.svd(B, compute_uv=False), atol=1e-12
    )
    assert np.linalg.norm(R - 0.5 * B) > 0.1 * np.linalg.norm(B)


def test_a_control_that_would_move_an_eigenvalue_is_refused():
    """A planted ΔT with one entry in a diagonal block (on T's diagonal) is refused; the same
    entry in N passes."""
    schur = ordered_real_schur(planted("route", 0)[1])
    masks = coupling_masks(schur, 0.9)
    R = np.zeros_like(schur.T)
    R[0, N - 1] = 0.1  # T_C→R: row of R, column of C
    dose.check_keeps_spectrum(R, masks)
    R[3, 3] = 1e-12
    with pytest.raises(ValueError, match="diagonal blocks"):
        dose.check_keeps_spectrum(R, masks)


def test_the_summary_gives_each_controls_operator_norm_beside_the_blocks():
    s = summary("symmetry", seeds=range(3))
    np.testing.assert_allclose(s.loc["T_CR", "operator_ratio_rotated_block"], 1.0, rtol=1e-9)
    for kind in dose.CONTROLS:
        assert (s[f"operator_ratio_{kind}"] > 0).all()


def test_draws_are_seeded_and_recorded():
    a, b = model_rows("random", 2), model_rows("random", 2)
    assert a == b
    draws = pd.DataFrame(a).query("perturbation != 'block'")
    assert set(draws["draw"]) == set(range(DESIGN["n_draws"]))
    assert set(draws["perturbation"]) == set(dose.CONTROLS)


def test_epsilon_50_interpolates_where_the_harm_crosses_one_half():
    eps = np.array([0.1, 0.35, 0.75, 1.0])
    assert judged.epsilon_50(eps, np.array([0.0, 0.2, 0.6, 1.0])) == pytest.approx(
        0.35 + 0.3 / 0.4 * 0.4
    )
    assert np.isnan(judged.epsilon_50(eps, np.array([0.0, 0.1, 0.2, 0.3])))
    assert judged.epsilon_50(eps, np.array([0.7, 0.8, 0.9, 1.0])) == 0.1


def test_only_learned_models_are_judged():
    table = pd.DataFrame([r for s in range(3) for r in model_rows("route", s)])
    table.loc[table["seed"] == 0, "full_score"] = 0.5  # seed 0 did not learn (FVU 0.5)
    kept = learned_models(table, {"route": {"fvu_max": 0.1, "chance_corrected_min": 0.5}})
    assert set(kept["seed"]) == {1, 2}
    s = judged.dose_summary(judged.curves(kept), Thresholds(), 3)
    assert set(s["verdict"]) == {Verdict.TOO_FEW}


def planted_summary(rows):
    columns = ["task", "construction", "n_hidden", "block", "verdict", "excess_mean"]
    columns += ["excess_ci_low"]
    columns += ["excess_ci_high", "harm_at_full", "control_harm_at_full"]
    return pd.DataFrame(rows, columns=columns)


def test_the_dose_reading_counts_and_names_what_the_table_decides():
    from readings import dose_reading

    table = planted_summary(
        [
            ("sine", "dense_orthogonal", 64, "T_CR", Verdict.LOAD_BEARING, 0.3, 0.2, 0.4, 0.9, 0.5),
            ("sine", "dense_orthogonal", 64, "T_CC", Verdict.SYMMETRY, -0.1, -0.2, -0.05, 0.1, 0.3),
            (
                "sine",
                "dense_orthogonal",
                64,
                "T_RR",
                Verdict.UNDERPOWERED,
                0.05,
                -0.3,
                0.4,
                0.9,
                0.85,
            ),
            ("copy", "cayley", 64, "T_RR", Verdict.LIKE_ANY, 0.0, -0.01, 0.01, 0.0, 0.0),
        ]
    )
    text = dose_reading(table)
    assert text.startswith("Of 4 block groups")
    assert "load-bearing 1, a symmetry direction 1 and like any perturbation of its size 1" in text
    assert "the rest: underpowered 1" in text
    # one sentence per verdict
    assert " Load-bearing: sine dense_orthogonal N_h = 64 −T_C→R (+0.3 [0.2, 0.4])." in text
    symmetry = " A symmetry direction: sine dense_orthogonal N_h = 64 −T_CC (-0.1 [-0.2, -0.05])."
    assert symmetry in text
    assert "sine dense_orthogonal N_h = 64 −T_RR" not in text  # the undecided row, unnamed
    assert "Like any perturbation of its size: copy cayley N_h = 64 −T_RR" in text
    assert "In 1 group the full removal and its controls both take at least 80 %" in text
    assert "0 of them have a verdict" in text


def test_the_dose_reading_says_how_blocks_fare_matched_in_operator_norm():
    from readings import dose_reading

    rows = [("s", "c", n, "T_CR", Verdict.LOAD_BEARING, 0.3, 0.2, 0.4, 0.5, 0.3) for n in range(3)]
    rows.append(("s", "c", 9, "T_CC", Verdict.SYMMETRY, -0.3, -0.4, -0.2, 0.0, 0.3))
    rows.append(("s", "c", 8, "T_RR", Verdict.EMPTY, 0.0, 0.0, 0.0, 0.0, 0.0))
    table = planted_summary(rows)
    table["excess_other_couplings"] = [0.3, 0.1, 0.2, -0.3, 1e-7]  # the last: an absent block
    assert "operator norm" not in dose_reading(table)  # an earlier run's table: no column
    table["excess_other_couplings_operator"] = [0.2, -0.1, 0.0, 5.0, 1e-7]  # 0: not ahead
    text = dose_reading(table)
    assert "do at least as much harm as the block in 2 of the 3 groups whose block" in text
    assert "(s c N_h = 1 −T_C→R and s c N_h = 2 −T_C→R)" in text
    assert (
        "the largest excess over the Frobenius-matched ones, s c N_h = 0 −T_C→R's, is +0.3" in text
    )
    assert "and +0.2 over the operator-matched ones." in text


def test_the_dose_reading_does_not_call_a_group_saturated_unless_both_are():
    from readings import dose_reading

    table = planted_summary(
        [("sine", "dense_orthogonal", 64, "T_CR", Verdict.LOAD_BEARING, 0.3, 0.2, 0.4, 0.95, 0.79)]
    )
    assert "saturated" not in dose_reading(table)
    assert "none is decided" in dose_reading(
        planted_summary([("s", "c", 16, "T_RR", Verdict.ON_THRESHOLD, 0, -1, 1, 0, 0)])
    )


def test_a_diverged_perturbation_counts_as_the_cap_not_as_infinity():
    from rnnschur.studies.verdicts import SHARE_CAP

    table = pd.DataFrame([r for r in model_rows("route", 0)])
    control = table.index[table["perturbation"] == "gaussian"][0]
    table.loc[control, "harm"] = np.inf
    c = judged.curves(table)
    assert np.isfinite(c["control_harm"]).all() and c["control_high"].max() <= SHARE_CAP


def test_a_long_list_of_one_verdict_is_counted_by_task_not_listed():
    from readings import dose_reading

    rows = [
        ("copy", "c", n, "T_RR", Verdict.SYMMETRY, -0.3, -0.4, -0.2, 0.5, 0.5) for n in range(5)
    ]
    text = dose_reading(planted_summary(rows))
    assert "A symmetry direction, by task: copy 5 (rows in the table)." in text
    assert "N_h = " not in text


def synthetic(block_harm, control_harm, seeds=5, eps=(0.1, 0.35, 0.75, 1.0), reached=None):
    """A dose-response table whose harms are planted: the block's and every control draw's
    harm at dose ε are ``block_harm(ε)`` and ``control_harm(ε)``, plus a small seed-level
    spread; each control reaches the block's norm ε, or ``reached(seed, ε)`` of it."""
    rows = []
    for seed in range(seeds):
        wobble = 0.002 * (seed - seeds // 2)
        for e in eps:
            common = {"task": "t", "construction": "c", "n_hidden": 8, "seed": seed}
            common |= {"block": "T_CR", "epsilon": e, "mass_removed": 0.3 * e, "norm": e}
            common |= {"metric": "fvu", "full_score": 0.01, "refit_harm": np.nan}
            block = {"perturbation": "block", "draw": -1, "harm": block_harm(e) + wobble}
            rows.append(common | block | {"drawn_norm": e})
            share = reached(seed, e) if reached else 1.0
            for kind in dose.CONTROLS:
                for draw in range(2):
                    harm = control_harm(e) + wobble
                    drawn = {"drawn_norm": share * e}
                    rows.append(common | {"perturbation": kind, "draw": draw, "harm": harm} | drawn)
    return pd.DataFrame(rows)


@pytest.mark.parametrize(
    "block, control, expected",
    [
        (lambda e: 2 * e, lambda e: e, Verdict.LOAD_BEARING),
        (lambda e: 0.5 * e, lambda e: e, Verdict.MILDER),  # harmful, but less than its size
        (lambda e: 0.0, lambda e: e, Verdict.SYMMETRY),  # unseen: harmless and milder
        (lambda e: e, lambda e: e, Verdict.LIKE_ANY),  # equal at every dose
        (lambda e: 0.0, lambda e: 0.3 if e == 1.0 else 0.0, Verdict.SYMMETRY),  # one dose
        # milder at the small doses, more harmful at full removal: the doses disagree
        (lambda e: 0.5 if e == 1.0 else 0.0, lambda e: 0.3, Verdict.MIXED),
    ],
    ids=["load_bearing", "milder", "symmetry", "like_any", "one_dose", "mixed"],
)
def test_the_verdict_reads_the_excess_at_every_dose(block, control, expected):
    summary = judged.dose_summary(judged.curves(synthetic(block, control)), Thresholds(), 3)
    assert summary["verdict"].iloc[0] == expected


def test_epsilon_50_is_the_mean_curves_crossing_with_a_bounded_interval():
    table = synthetic(lambda e: e, lambda e: 0.2 * e)
    row = judged.dose_summary(judged.curves(table), Thresholds(), 3).iloc[0]
    assert row["epsilon_50"] == pytest.approx(0.5, abs=0.01)  # harm = ε crosses 0.5 at 0.5
    assert 0.1 <= row["epsilon_50_ci_low"] <= row["epsilon_50"] <= row["epsilon_50_ci_high"] <= 1
    assert np.isnan(row["control_epsilon_50"])  # the controls never take half


def test_the_verdicts_reference_is_the_removal_control_only():
    """Planted harms per kind at one dose: the control the verdicts read is the mean of the
    removal control other_couplings (0.2, 0.4), not rotated_block (0.6, which adds to the
    block) nor the Gaussian kinds (9); each kind's achieved norm over the block's is kept."""
    identity = {"task": "t", "construction": "c", "n_hidden": 8, "seed": 0, "block": "T_CR"}
    common = identity | {"epsilon": 1.0, "mass_removed": 0.3, "norm": 1.0, "drawn_norm": 1.0}
    rows = [common | {"perturbation": "block", "draw": -1, "harm": 0.5}]
    harms = {"other_couplings": [0.2, 0.4], "rotated_block": [0.6]}
    harms |= {kind: [9.0] for kind in ("same_positions", "other_blocks", "gaussian")}
    for kind, values in harms.items():
        rows += [
            common | {"perturbation": kind, "draw": d, "harm": h} for d, h in enumerate(values)
        ]
    c = judged.curves(pd.DataFrame(rows)).iloc[0]
    assert c["control_harm"] == pytest.approx(0.3)  # (0.2 + 0.4) / 2
    assert c["other_couplings_norm_ratio"] == 1.0 and bool(c["matched"])
    assert c["other_couplings_harm"] == pytest.approx(0.3)
    assert c["gaussian_harm"] == pytest.approx(9.0)


def test_a_dose_the_removal_control_cannot_reach_is_unmatched_and_not_judged():
    """At full removal the removal control reaches 48 % of the block's norm in every seed
    (the other couplings hold less): that dose is listed unmatched and the verdict comes from
    the others; a planted harm there alone (load-bearing only at ε = 1) then decides nothing."""
    short = lambda seed, e: 0.48 if e == 1.0 else 1.0  # noqa: E731
    c = judged.curves(synthetic(lambda e: e, lambda e: e, reached=short))
    assert c.loc[c["epsilon"] == 1.0, "other_couplings_norm_ratio"].eq(0.48).all()
    assert not c.loc[c["epsilon"] == 1.0, "matched"].any()
    row = judged.dose_summary(c, Thresholds(), 3).iloc[0]
    assert row["unmatched_at"] == "1" and row["verdict"] == Verdict.LIKE_ANY
    assert np.isnan(row["control_harm_at_full"])  # no control of the block's norm at ε = 1
    assert row["norm_ratio_other_couplings"] == pytest.approx((3 + 0.48) / 4)
    harmful_at_full = lambda e: 0.9 if e == 1.0 else 0.0  # noqa: E731
    at_full = judged.curves(synthetic(harmful_at_full, lambda e: 0.0, reached=short))
    assert judged.dose_summary(at_full, Thresholds(), 3).iloc[0]["verdict"] != Verdict.LOAD_BEARING
    matched = judged.curves(synthetic(harmful_at_full, lambda e: 0.0))
    assert judged.dose_summary(matched, Thresholds(), 3).iloc[0]["verdict"] == Verdict.LOAD_BEARING


def test_a_block_matched_at_no_dose_in_enough_seeds_has_no_control():
    """Matched in 2 of 5 seeds at every dose: fewer than min_models = 3, no dose is judged."""
    few = lambda seed, e: 1.0 if seed < 2 else 0.5  # noqa: E731
    row = judged.dose_summary(
        judged.curves(synthetic(lambda e: e, lambda e: 0.0, reached=few)), Thresholds(), 3
    )
    assert row.iloc[0]["verdict"] == Verdict.NO_CONTROL  # not a claim's word: untestable
    assert row.iloc[0]["unmatched_at"] == "0.1 0.35 0.75 1"


def test_the_refit_has_its_control_the_removal_controls_first_draw():
    """The refit runs on the block's rows and on the removal control's first draw at every ε,
    on no other row; its recovery is 1 − refit harm / harm, planted."""
    rows = pd.DataFrame(model_rows("route", 0))
    refit = rows[rows["refit_score"].notna()]
    assert set(zip(refit["perturbation"], refit["draw"], strict=True)) == {
        ("block", -1),
        ("other_couplings", 0),
    }
    assert len(refit) == 2 * 3 * len(DESIGN["epsilons"])
    table = synthetic(lambda e: 0.8, lambda e: 0.4)
    first = (table["perturbation"] == "other_couplings") & (table["draw"] == 0)
    table.loc[first, "refit_harm"] = 0.1
    c = judged.curves(table)
    assert c["control_recovered"].to_numpy() == pytest.approx(1 - 0.1 / (0.4 + c["harm"] - 0.8))
    row = judged.dose_summary(c, Thresholds(), 3).iloc[0]
    assert row["control_recovered_at_full"] == pytest.approx(
        c.loc[c["epsilon"] == 1.0, "control_recovered"].mean()
    )
