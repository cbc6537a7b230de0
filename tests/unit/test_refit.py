"""Ridge readout refit: planted readouts are recovered."""

import numpy as np
import pytest

from rnnschur import tasks
from rnnschur.ablation import Analysed
from rnnschur.network import Network
from rnnschur.network.rnn import rollout
from rnnschur.schur import ordered_real_schur
from rnnschur.studies.beyond import refit
from rnnschur.tasks import Batch


def test_ridge_recovers_a_planted_linear_readout():
    rng = np.random.default_rng(0)
    H = rng.standard_normal((500, 7))
    W_true = rng.standard_normal((2, 7))
    np.testing.assert_allclose(refit.ridge(H, H @ W_true.T, 1e-12), W_true, atol=1e-8)
    # Strong regularisation shrinks the readout towards zero.
    assert np.linalg.norm(refit.ridge(H, H @ W_true.T, 1e3)) < 0.01 * np.linalg.norm(W_true)


def test_split_keeps_every_trial_once():
    batch = tasks.get("sine").generate(np.random.default_rng(0), 10, length=5)
    fit, val = refit.split(batch, 0.25)
    assert len(fit.inputs) == 7 and len(val.inputs) == 3
    np.testing.assert_array_equal(np.concatenate([fit.inputs, val.inputs]), batch.inputs)


def test_refit_restores_a_network_whose_readout_was_spoiled():
    """Targets made by the network itself through W_true: the dynamics hold the task exactly,
    so a refit readout scores FVU ≈ 0 whatever W_hy the network was given."""
    rng = np.random.default_rng(1)
    n, N_x, N_y = 12, 3, 2
    W_xh = rng.standard_normal((n, N_x))
    W_hh = 0.8 * np.linalg.qr(rng.standard_normal((n, n)))[0]
    W_true = rng.standard_normal((N_y, n))

    def teacher(m):
        inputs = rng.standard_normal((m, 15, N_x))
        targets = rollout(W_xh, W_hh, W_true, inputs, dtype=np.float64)
        return Batch(inputs, targets, np.ones((m, 15)))

    class Linear:  # FVU scoring, like the neuroscience tasks
        SCORE = "fvu"

        @staticmethod
        def score(outputs, batch):
            return tasks.get("sine").score(outputs, batch)

    spoiled = 0.1 * rng.standard_normal((N_y, n))
    rows = refit.evaluate_refits(
        Analysed(Network(W_xh, W_hh, spoiled), ordered_real_schur(W_hh), teacher(40), Linear),
        0.9,
        teacher(60),
        {"validation_fraction": 0.25, "ridge_grid": [1e-10, 1e-6, 1e-2]},
        np.random.default_rng(0),
    )
    full = rows[0]
    assert full["subset"] == "none" and full["ridge_lambda"] == 1e-10
    assert full["fixed_score"] > 0.5 and full["refit_score"] < 1e-6
    assert all(np.isfinite(r["refit_score"]) for r in rows)


def test_with_a_mask_per_line_each_line_is_fit_where_it_is_scored():
    """Planted: line 0 scored on steps 0-11, line 1 on steps 8-19 (flip-flop's kind of mask),
    targets a noisy linear read of the hidden states that changes where both lines are scored,
    W_hy their least-squares readout over the scored entries (computed here). The refit of the
    full model, fit on the entries it is
    scored on, is at least as good as W_hy on its fitting data; fit only where both lines are
    scored (4 steps) it was worse."""
    rng = np.random.default_rng(2)
    n, N_x, T = 10, 2, 20
    W_xh = rng.standard_normal((n, N_x))
    W_hh = 0.9 * np.linalg.qr(rng.standard_normal((n, n)))[0]
    inputs = rng.standard_normal((80, T, N_x))
    _, hidden = rollout(W_xh, W_hh, np.zeros((2, n)), inputs, return_hidden=True, dtype=np.float64)
    targets = hidden @ rng.standard_normal((2, n)).T + 0.3 * rng.standard_normal((80, T, 2))
    targets[:, 8:12] = hidden[:, 8:12] @ rng.standard_normal((2, n)).T  # another read there
    mask = np.zeros((80, T, 2))
    mask[:, :12, 0] = 1
    mask[:, 8:, 1] = 1
    batch = Batch(inputs, targets, mask)
    W_hy = np.stack(
        [
            np.linalg.lstsq(hidden[mask[..., j] > 0], targets[..., j][mask[..., j] > 0])[0]
            for j in (0, 1)
        ]
    )
    fit, val = refit.split(batch, 0.25)
    W_refit, _ = refit.fit_readout(hidden[:60], fit, hidden[60:], val, [1e-10])

    def masked_error(W):
        return float((((hidden @ W.T - targets) ** 2) * mask).sum() / mask.sum())

    assert masked_error(W_refit) <= masked_error(W_hy) * (1 + 1e-9)
    # the old way: both lines fit on the 4 steps where both are scored
    both = mask.all(axis=-1)
    W_old = np.linalg.lstsq(hidden[both], targets[both])[0].T
    assert masked_error(W_old) > 2 * masked_error(W_hy)


def test_each_refit_has_its_control_a_removal_of_the_same_norm_elsewhere():
    """Planted (Q = I): W = T upper triangular, R = {0, 1, 2, 3}; the output reads coordinate 0,
    the input enters coordinate 5 (in C), reaching the output only through T_C→R (T[0, 5]).
    Removing T_C→R loses the signal for every readout (no refit recovers it); its control,
    T_RR and T_CC entries removed to the same norm, leaves the route: the fixed readout still
    works. The control removes exactly ‖ΔT_S‖_F where the other blocks hold it, less where not,
    and is absent where S holds every block."""
    n = 8
    T = np.diag([0.95, 0.94, 0.93, 0.92, 0.5, 0.4, 0.2, 0.1])
    T[0, 5] = 0.8  # T_C→R: the one route from input to output
    T[0, 1] = T[1, 2] = T[2, 3] = 0.5  # T_RR: couplings among R the input never reaches
    T[4, 6] = T[6, 7] = 0.5  # T_CC, away from the route
    W_xh = np.zeros((n, 1))
    W_xh[5, 0] = 1.0
    W_hy = np.zeros((1, n))
    W_hy[0, 0] = 1.0
    network = Network(W_xh, T, W_hy)
    rng = np.random.default_rng(0)
    inputs = rng.standard_normal((96, 12, 1))
    own = network.rollout(inputs)
    heldout = Batch(inputs[:48], own[:48], np.ones((48, 12)))
    fitting = Batch(inputs[48:], own[48:], np.ones((48, 12)))

    class Linear:
        SCORE = "fvu"

        @staticmethod
        def score(outputs, batch):
            return tasks.get("sine").score(outputs, batch)

    analysed = Analysed(network, ordered_real_schur(T), heldout, Linear)
    design = {"validation_fraction": 0.25, "ridge_grid": [1e-8, 1e-4]}
    rows = {r["subset"]: r for r in refit.evaluate_refits(analysed, 0.9, fitting, design, rng)}
    cr = rows["T_CR"]
    assert cr["fixed_score"] > 0.9 and cr["refit_score"] > 0.9  # lost: no readout finds it
    assert cr["control_norm_ratio"] == pytest.approx(0.8 / 0.8)  # T_RR and T_CC hold 1.22
    assert cr["control_fixed_score"] < 1e-6  # the route kept: nothing to recover
    assert rows["T_RR+T_CC"]["control_norm_ratio"] == pytest.approx(0.8 / np.sqrt(5 * 0.25))
    assert np.isnan(rows["T_RR+T_CR+T_CC"]["control_refit_score"])
