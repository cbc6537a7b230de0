"""Ridge readout refit: planted readouts are recovered."""

import numpy as np

from rnnschur import refit, tasks
from rnnschur.rnn import rollout
from rnnschur.schur import ordered_real_schur
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
        W_xh,
        W_hh,
        spoiled,
        ordered_real_schur(W_hh),
        0.9,
        teacher(60),
        teacher(40),
        Linear,
        0.25,
        [1e-10, 1e-6, 1e-2],
    )
    full = rows[0]
    assert full["subset"] == "none" and full["ridge_lambda"] == 1e-10
    assert full["fixed_score"] > 0.5 and full["refit_score"] < 1e-6
    assert all(np.isfinite(r["refit_score"]) for r in rows)
