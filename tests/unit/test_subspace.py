"""Subspace overlaps and matched controls, with planted answers."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnnschur import tasks
from rnnschur.ablation import Analysed
from rnnschur.network import Network
from rnnschur.schur import ordered_real_schur
from rnnschur.studies.beyond import subspace


def orthonormal(rng, n, k):
    return np.linalg.qr(rng.standard_normal((n, k)))[0]


def test_perturbation_built_in_the_readout_space_has_overlap_one():
    rng = np.random.default_rng(0)
    W_hy = rng.standard_normal((3, 10))
    U = subspace.readout_subspace(W_hy)
    assert U.shape == (10, 3)
    P = U @ U.T
    inside = W_hy.T @ rng.standard_normal((3, 10))  # columns in the row space of W_hy
    assert subspace.overlap(inside, P, "output") == pytest.approx(1.0)
    outside = (np.eye(10) - P) @ rng.standard_normal((10, 10))
    assert subspace.overlap(outside, P, "output") == pytest.approx(0.0, abs=1e-12)
    assert np.isnan(subspace.overlap(np.zeros((10, 10)), P, "input"))


def test_readout_subspace_has_the_rank_of_W_hy():
    rng = np.random.default_rng(1)
    W_hy = np.outer(rng.standard_normal(4), rng.standard_normal(12))  # rank 1
    assert subspace.readout_subspace(W_hy).shape == (12, 1)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    k=st.integers(1, 7),
    o=st.floats(0, 1),
    side=st.sampled_from(subspace.SIDES),
)
def test_matched_perturbation_has_the_asked_norm_and_overlap(seed, k, o, side):
    rng = np.random.default_rng(seed)
    U = orthonormal(rng, 8, k)
    E = subspace.matched_perturbation(rng, U @ U.T, side, 2.5, o)
    assert np.linalg.norm(E) == pytest.approx(2.5)
    assert subspace.overlap(E, U @ U.T, side) == pytest.approx(o, abs=1e-9)


def test_no_complement_control_for_the_whole_space():
    with pytest.raises(ValueError, match="empty"):
        subspace.matched_perturbation(np.random.default_rng(0), np.eye(4), "input", 1.0, 0.5)


def test_principal_subspace_of_planted_planar_activity():
    rng = np.random.default_rng(2)
    plane = orthonormal(rng, 6, 2)
    hidden = (rng.standard_normal((50, 20, 2)) * [3.0, 1.0]) @ plane.T + 0.7
    axes, ratio = subspace.principal_axes(hidden)
    basis = axes[:, :2]
    np.testing.assert_allclose(basis @ basis.T, plane @ plane.T, atol=1e-10)
    assert ratio[:2].sum() == pytest.approx(1.0) and ratio[0] > ratio[1]
    assert subspace.components_for_variance(ratio, 0.5) == 1
    assert subspace.components_for_variance(ratio, 0.99) == 2


def test_verdict():
    assert subspace.verdict(0.3, 0.25, 0.01, 2.0) == "explained"
    assert subspace.verdict(0.001, 0.004, 0.01, 2.0) == "explained"  # both below the floor
    assert subspace.verdict(0.001, 0.3, 0.01, 2.0) == "ablation milder"
    assert subspace.verdict(0.4, 0.05, 0.01, 2.0) == "ablation stronger"
    assert subspace.verdict(0.4, float("nan"), 0.01, 2.0) == "no control"


def test_controls_are_scored_like_the_ablations():
    rng = np.random.default_rng(3)
    n = 10
    W_xh, W_hh, W_hy = (
        rng.standard_normal((n, 3)) / 2,
        rng.standard_normal((n, n)) / np.sqrt(n),
        rng.standard_normal((3, n)) / np.sqrt(n),
    )
    task = tasks.get("flip_flop")
    batch = task.generate(rng, 16, n_bits=3, length=12)
    subspaces = {"readout": subspace.readout_subspace(W_hy), "all": np.eye(n)}
    network = Network(W_xh, W_hh, W_hy)
    rows = subspace.evaluate_controls(
        Analysed(network, ordered_real_schur(W_hh), batch, task), 0.9, subspaces, 2, rng
    )
    for row in rows:
        assert 0 <= row["overlap"] <= 1 and np.isfinite(row["harm"])
        if row["kind"] == "inside":
            assert row["overlap"] == 1
        if row["subspace"] == "all":  # the whole space: overlap 1, no complement or matched
            assert row["kind"] in ("ablation", "inside") and row["overlap"] == pytest.approx(1)
    kinds = {r["kind"] for r in rows if r["subspace"] == "readout"}
    assert kinds == {"ablation", "inside", "complement", "matched"}
    # An ablation's harm is its score change against the full network on the same batch.
    ablation = [r for r in rows if r["kind"] == "ablation"]
    assert len({(r["subset"], r["harm"]) for r in ablation}) == len({r["subset"] for r in ablation})
