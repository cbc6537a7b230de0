import numpy as np
import pytest

from rnnschur import tasks
from rnnschur.ablation import (
    SUBSETS,
    Analysed,
    Scoring,
    ablated,
    ablated_recurrent,
    delta_T,
    evaluate_ablations,
)
from rnnschur.network import Network
from rnnschur.network.rnn import rollout
from rnnschur.schur import (
    COUPLING_BLOCKS,
    coupling_masks,
    coupling_part,
    n_dominant,
    ordered_real_schur,
)
from rnnschur.tasks import metrics


def model(seed, n=10, N_x=4, N_y=4):
    rng = np.random.default_rng(seed)
    return (
        rng.standard_normal((n, N_x)) / 2,
        rng.standard_normal((n, n)) / np.sqrt(n),
        rng.standard_normal((N_y, n)) / np.sqrt(n),
    )


def test_subsets_are_all_eight():
    assert len(SUBSETS) == 8 and SUBSETS[0] == () and len(set(SUBSETS)) == 8


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("alpha", [0.3, 0.9, 1.0])
def test_ablated_removes_exactly_the_chosen_blocks_and_keeps_the_spectrum(seed, alpha):
    """W̃(∅) is W to the bit; W̃(Z), every coupling removed, has Schur form B alone (T − N), so
    W's eigenvalues; removing one block changes Qᵀ W̃ Q on that block's entries only."""
    _, W, _ = model(seed, n=8 + seed)
    schur = ordered_real_schur(W)
    np.testing.assert_array_equal(ablated(W, schur, alpha, ()), W)
    tol = 1e-12 * (np.linalg.norm(W) + 1.0)
    B = schur.T - coupling_part(schur)
    everything = schur.Q.T @ ablated(W, schur, alpha, COUPLING_BLOCKS) @ schur.Q
    np.testing.assert_allclose(everything, B, atol=tol)
    masks = coupling_masks(schur, alpha)
    for block in COUPLING_BLOCKS:
        moved = schur.T - schur.Q.T @ ablated(W, schur, alpha, (block,)) @ schur.Q
        inside = masks[block]
        np.testing.assert_allclose(
            np.where(inside, moved, 0.0), np.where(inside, schur.T, 0.0), atol=tol
        )
        np.testing.assert_allclose(np.where(inside, 0.0, moved), 0.0, atol=tol)


def test_ablated_matrix_is_Q_Ttilde_Qt_and_empty_subset_is_W():
    _, W, _ = model(0)
    schur = ordered_real_schur(W)
    masks = coupling_masks(schur, 0.9)
    for subset in SUBSETS:
        dT = delta_T(schur.T, masks, subset)
        W_tilde = ablated_recurrent(W, schur, dT)
        np.testing.assert_allclose(W_tilde, schur.Q @ (schur.T - dT) @ schur.Q.T, atol=1e-12)
        # The spectral blocks are kept: W~ has W's eigenvalues (T~ stays block triangular).
        np.testing.assert_allclose(
            np.sort(np.abs(np.linalg.eigvals(W_tilde))),
            np.sort(np.abs(np.linalg.eigvals(W))),
            atol=1e-8,
        )
    assert np.array_equal(ablated_recurrent(W, schur, delta_T(schur.T, masks, ())), W)


def evaluate(seed, alphas=(0.85, 0.9, 0.95)):
    W_xh, W_hh, W_hy = model(seed)
    heldout = tasks.get("copy").generate(
        np.random.default_rng(9), 32, n_symbols=3, symbol_dim=4, n_lags=6
    )
    schur = ordered_real_schur(W_hh)
    network = Network(W_xh, W_hh, W_hy)
    return evaluate_ablations(
        Analysed(network, schur, heldout, tasks.get("copy")), list(alphas), Scoring(1e-3, 0.01)
    )


def test_ablation_rows():
    rows = evaluate(1)
    assert len(rows) == 3 * 8
    for row in rows:
        assert 0 <= row["accuracy"] <= 1 and 0 <= row["mass_removed"] <= 1
        if row["subset"] == "none":
            assert row["mass_removed"] == 0 and row["discrepancy"] == 0 and row["eps_stabilizer"]
            assert np.isnan(row["s_delta_t"]) and row["delta_score"] == 0
        assert row["candidate_invariance"] == (row["eps_stabilizer"] and row["mass_removed"] > 0.01)
        assert row["eps_stabilizer"] == (row["discrepancy"] <= 1e-3)
        # The copy task is scored by replay accuracy; FVU per trial is for FVU tasks only.
        assert row["metric"] == "accuracy" and row["score"] == row["accuracy"]
        assert np.isnan(row["fvu_per_trial"]) and np.isnan(row["delta_fvu_per_trial"])
    # Mass is additive over disjoint blocks in squared Frobenius norm.
    by = {(r["alpha"], r["subset"]): r["mass_removed"] for r in rows}
    for a in (0.85, 0.9, 0.95):
        total = sum(by[(a, b)] ** 2 for b in ("T_RR", "T_CR", "T_CC"))
        assert by[(a, "T_RR+T_CR+T_CC")] ** 2 == pytest.approx(total)


def test_ablation_of_a_normal_matrix_changes_nothing():
    """A normal W has N = 0 in Schur coordinates: every ablation removes nothing (Cayley)."""
    rng = np.random.default_rng(2)
    q, _ = np.linalg.qr(rng.standard_normal((10, 10)))
    W_hh = q @ np.diag(rng.uniform(-1, 1, 10)) @ q.T
    W_xh, _, W_hy = model(2)
    heldout = tasks.get("copy").generate(rng, 16, n_symbols=3, symbol_dim=4, n_lags=6)
    rows = evaluate_ablations(
        Analysed(Network(W_xh, W_hh, W_hy), ordered_real_schur(W_hh), heldout, tasks.get("copy")),
        [0.9],
        Scoring(1e-6, 0.01),
    )
    for row in rows:
        assert row["mass_removed"] < 1e-12 and row["discrepancy"] < 1e-20
        assert not row["candidate_invariance"]


def test_every_row_of_an_fvu_task_follows_from_its_own_rollout():
    """For every (alpha, subset): W~ rebuilt from the masks here, its rollout scored by eq. (7)
    here; ΔFVU = FVU − FVU of the full model at the same alpha; S_ΔT = ΔFVU / (‖ΔT‖_F/‖T‖_F)
    (eq. 9); d_D the mean squared output difference to the full model."""
    W_xh, W_hh, W_hy = model(4, N_x=3, N_y=3)
    task = tasks.get("flip_flop")
    heldout = task.generate(np.random.default_rng(5), 24, n_bits=3, length=25)
    schur = ordered_real_schur(W_hh)
    alphas = (0.8, 1.0)
    network = Network(W_xh, W_hh, W_hy)
    rows = evaluate_ablations(
        Analysed(network, schur, heldout, task), list(alphas), Scoring(1e-4, 0.01)
    )

    def outputs(W):
        h, out = np.zeros((24, 10)), []
        for t in range(25):
            h = np.tanh(heldout.inputs[:, t] @ W_xh.T + h @ W.T)
            out.append(h @ W_hy.T)
        return np.stack(out, axis=1)

    mask = heldout.line_mask
    y = heldout.targets
    y_bar = (y * mask).sum(axis=(0, 1)) / mask.sum(axis=(0, 1))
    variance = (((y - y_bar) ** 2) * mask).sum()
    full_out = outputs(W_hh)
    by_alpha = {}
    for row in rows:
        masks = coupling_masks(schur, row["alpha"])
        chosen = np.zeros_like(schur.T, dtype=bool)
        for block in () if row["subset"] == "none" else row["subset"].split("+"):
            chosen |= masks[block]
        dT = np.where(chosen, schur.T, 0.0)
        out = outputs(schur.Q @ (schur.T - dT) @ schur.Q.T)
        fvu = (((out - y) ** 2) * mask).sum() / variance
        assert row["fvu"] == pytest.approx(fvu, rel=1e-4, abs=1e-6)
        assert row["score"] == row["fvu"] and np.isnan(row["accuracy"])
        assert row["metric"] == "fvu"
        per_trial = metrics.fvu_per_trial(out, y, heldout.mask)
        assert not np.isnan(per_trial)  # some trials' targets vary (a line flips)
        assert row["fvu_per_trial"] == pytest.approx(per_trial, rel=1e-4, abs=1e-6)
        mass = np.linalg.norm(dT) / np.linalg.norm(schur.T)
        assert row["mass_removed"] == pytest.approx(mass, abs=1e-12)
        d_D = (((out - full_out) ** 2) * mask).sum() / mask.sum()
        assert row["discrepancy"] == pytest.approx(d_D, rel=1e-3, abs=1e-9)
        by_alpha.setdefault(row["alpha"], {})[row["subset"]] = row
    for by_subset in by_alpha.values():
        full = by_subset["none"]["fvu"]
        for row in by_subset.values():
            assert row["delta_fvu"] == row["fvu"] - full
            full_trial = by_subset["none"]["fvu_per_trial"]
            assert row["delta_fvu_per_trial"] == row["fvu_per_trial"] - full_trial
            if row["mass_removed"] > 0:
                assert row["s_delta_t"] == pytest.approx(row["delta_fvu"] / row["mass_removed"])
            else:
                assert np.isnan(row["s_delta_t"])
    # α = 1: R holds only the leading block(s); every coupling above them is T_RR or T_C→R.
    assert by_alpha[1.0]["none"]["n_R"] == n_dominant(schur, 1.0) > 0


def test_epsilon_zero_keeps_the_full_model_a_stabilizer_of_itself():
    """The boundary d_D <= ε at ε = 0: the empty subset (d_D = 0 exactly) is one."""
    W_xh, W_hh, W_hy = model(6)
    heldout = tasks.get("copy").generate(
        np.random.default_rng(1), 8, n_symbols=3, symbol_dim=4, n_lags=6
    )
    schur = ordered_real_schur(W_hh)
    network = Network(W_xh, W_hh, W_hy)
    rows = evaluate_ablations(
        Analysed(network, schur, heldout, tasks.get("copy")), [0.9], Scoring(0.0, 0.0)
    )
    assert rows[0]["subset"] == "none" and rows[0]["eps_stabilizer"]
    assert not rows[0]["candidate_invariance"]  # it removes nothing: not above a floor of 0


def test_noise_at_evaluation_is_one_draw_shared_by_every_subset():
    from rnnschur.ablation import evaluation_noise
    from rnnschur.network.dynamics import Dynamics

    W_xh, W_hh, W_hy = model(4)
    sine = tasks.get("sine")
    heldout = sine.generate(np.random.default_rng(2), 16, length=12)
    W_xh = W_xh[:, :1]  # sine has one input
    W_hy = W_hy[:1]
    assert evaluation_noise(heldout, 10, 0.0, Dynamics(), 0, "sine", 0) is None
    noise = evaluation_noise(heldout, 10, 0.05, Dynamics(), 0, "sine", 0)
    assert noise.shape == (16, 12, 10)
    np.testing.assert_array_equal(
        noise, evaluation_noise(heldout, 10, 0.05, Dynamics(), 0, "sine", 0)
    )
    current = evaluation_noise(
        heldout, 10, 0.05, Dynamics("leaky_current", leak=0.25), 0, "sine", 0
    )
    np.testing.assert_allclose(current, 2 * noise)  # σ/√a in the drive: √a σ on z_t
    schur = ordered_real_schur(W_hh)
    network = Network(W_xh, W_hh, W_hy)
    plain = evaluate_ablations(Analysed(network, schur, heldout, sine), [0.9])
    noisy = evaluate_ablations(Analysed(network, schur, heldout, sine), [0.9], noise=noise)
    assert noisy[0]["fvu"] != plain[0]["fvu"]
    assert noisy[0]["discrepancy"] == 0  # the full network against itself on the same noise
    outputs = rollout(W_xh, W_hh, W_hy, heldout.inputs, noise=noise)
    expected = metrics.fvu(outputs, heldout.targets, heldout.mask)
    assert noisy[0]["fvu"] == pytest.approx(expected, rel=1e-6)
