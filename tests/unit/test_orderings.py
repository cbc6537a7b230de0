"""Orderings the moduli do not fix (rnnschur.studies.beyond.orderings): reordering keeps W, the
clusters follow the tolerance and the R/C split, a T_RR removal moves with the order inside
R while T_C→R's would not, the summary reads a spread above θ as basis-dependent, and the
per-model ablation table carries that reading on its own rows only."""

import types

import numpy as np
import pandas as pd
import pytest

from rnnschur.ablation import Analysed, ablated_recurrent, delta_T
from rnnschur.network import Network
from rnnschur.network.dynamics import Dynamics
from rnnschur.schur import coupling_masks, ordered_real_schur
from rnnschur.studies.beyond import orderings
from rnnschur.studies.beyond.summaries import basis_dependence, mark_basis_dependent
from rnnschur.studies.verdicts import Verdict
from rnnschur.tasks import Batch, metrics

TASK = types.SimpleNamespace(
    SCORE="fvu", score=lambda outputs, batch: metrics.fvu(outputs, batch.targets, batch.mask)
)


def planted_T(moduli, seed=0, coupling=0.3):
    """Upper triangular T with diagonal ``moduli`` (signs alternating: equal moduli, distinct
    eigenvalues) and random couplings above it."""
    rng = np.random.default_rng(seed)
    n = len(moduli)
    signs = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return np.diag(np.asarray(moduli) * signs) + np.triu(coupling * rng.standard_normal((n, n)), 1)


def test_reorder_keeps_W_and_moves_the_blocks_as_asked():
    rng = np.random.default_rng(1)
    W = rng.standard_normal((9, 9)) / 3
    schur = ordered_real_schur(W)
    order = rng.permutation(len(schur.block_starts))
    moved = orderings.reorder(schur, order)
    np.testing.assert_allclose(moved.Q @ moved.T @ moved.Q.T, W, atol=1e-12)
    np.testing.assert_allclose(moved.Q.T @ moved.Q, np.eye(9), atol=1e-12)
    np.testing.assert_allclose(moved.block_moduli, schur.block_moduli[order], rtol=1e-9)


def test_clusters_follow_the_tolerance_and_never_cross_the_split():
    # moduli 1, 1 - 1e-7, 0.9 (R at α = 0.9 reaches 0.9), 0.9 - 1e-7 (C), 0.5, 0.5 - 1e-4
    T = planted_T([1.0, 1 - 1e-7, 0.9, 0.9 - 1e-7, 0.5, 0.5 - 1e-4], coupling=0.0)
    schur = ordered_real_schur(T)
    assert [g.tolist() for g in orderings.clusters(schur, 0.9, 1e-6)] == [[0, 1]]
    # 0.9 and 0.9 - 1e-7 lie within 1e-3 but on either side of the split: apart
    assert [g.tolist() for g in orderings.clusters(schur, 0.9, 1e-3)] == [[0, 1], [4, 5]]
    assert [g.tolist() for g in orderings.clusters(schur, 0.9, 0.5)] == [[0, 1, 2], [3, 4, 5]]


def test_the_order_inside_R_moves_a_T_RR_removal_but_not_T_CR():
    """Three R modes of equal modulus: another order inside R removes another T_RR (its W̃
    differs) while the T_C→R removal is the same matrix in every order."""
    T = planted_T([0.95, 0.95, 0.95, 0.3, 0.2], seed=3)
    schur = ordered_real_schur(T)
    W = schur.Q @ schur.T @ schur.Q.T
    moved = orderings.reorder(schur, np.array([2, 0, 1, 3, 4]))
    ablated = {}
    for name, s in (("canonical", schur), ("moved", moved)):
        masks = coupling_masks(s, 0.9)
        ablated[name] = {b: ablated_recurrent(W, s, delta_T(s.T, masks, (b,))) for b in masks}
    assert np.linalg.norm(ablated["canonical"]["T_RR"] - ablated["moved"]["T_RR"]) > 1e-3
    np.testing.assert_allclose(ablated["canonical"]["T_CR"], ablated["moved"]["T_CR"], atol=1e-12)


def test_ordering_rows_score_the_canonical_order_as_the_ablation_does():
    T = planted_T([0.95, 0.95, 0.95, 0.3, 0.2], seed=4)
    rng = np.random.default_rng(0)
    network = Network(rng.standard_normal((5, 2)), T, rng.standard_normal((1, 5)), Dynamics(), {})
    inputs = rng.standard_normal((16, 12, 2))
    heldout = Batch(inputs, network.rollout(inputs) + 0.1, np.ones((16, 12)))
    schur = ordered_real_schur(T)
    analysed = Analysed(network, schur, heldout, TASK)
    rows = pd.DataFrame(
        orderings.ordering_rows(analysed, 0.9, {"tolerances": [1e-6], "orderings": 5}, rng)
    )
    assert sorted(set(rows["ordering"])) == [-1, 0, 1, 2, 3, 4]
    masks = coupling_masks(schur, 0.9)
    own = network.rollout(inputs, ablated_recurrent(T, schur, delta_T(T, masks, ("T_RR",))))
    canonical = rows[(rows["ordering"] == -1) & (rows["block"] == "T_RR")].iloc[0]
    assert canonical["score"] == pytest.approx(TASK.score(own, heldout), rel=1e-12)
    assert canonical["clustered_R"] == 3 and canonical["clustered_C"] == 0
    assert rows[rows["block"] == "T_RR"]["harm"].nunique() > 1  # the order moves it


def test_a_spread_above_theta_reads_basis_dependent():
    """Planted per-order harms: T_RR 0.30-0.36 (spread 0.06 > θ), T_CC 0.100-0.110 (0.01),
    and a T_RR of another model below the mass floor."""
    identity = {"task": "flip_flop", "construction": "c", "n_hidden": 8, "tolerance": 1e-3}
    rows = []
    for seed, block, harms, mass in (
        (0, "T_RR", [0.30, 0.36, 0.33], 0.2),
        (0, "T_CC", [0.10, 0.11, 0.105], 0.2),
        (1, "T_RR", [0.0, 0.0, 0.0], 0.001),
    ):
        for k, harm in enumerate(harms):
            rows.append(
                identity | {"seed": seed, "block": block, "ordering": k - 1, "harm": harm,
                            "mass_removed": mass, "clustered_R": 3, "clustered_C": 0,
                            "metric": "fvu", "full_score": 0.01}
            )  # fmt: skip
    settings = {
        "verdicts": {"threshold": 0.02, "mass_floor": 0.01},
        "learned": {"flip_flop": {"fvu_max": 0.1}},
    }
    out = basis_dependence(pd.DataFrame(rows), settings)
    models = out["models"].set_index(["seed", "block"])
    assert models.loc[(0, "T_RR"), "reading"] == Verdict.BASIS_DEPENDENT
    assert models.loc[(0, "T_RR"), "spread"] == pytest.approx(0.06)
    assert models.loc[(0, "T_CC"), "reading"] == "—"
    assert models.loc[(1, "T_RR"), "reading"] == Verdict.ABSENT
    summary = out["summary"].set_index("block")
    assert summary.loc["T_RR", ["n_models", "n_absent", "n_basis_dependent"]].tolist() == [2, 1, 1]


def test_the_ablation_table_flags_its_basis_dependent_rows_only():
    """Planted: model seed 0 basis-dependent in T_RR, not in T_CC; seed 1 not checked. Only the
    single T_RR and T_CC rows at the checked α of seed 0 carry a flag; everything else is
    empty, and with no check at all the column is empty throughout."""
    model = {"task": "copy", "construction": "c", "n_hidden": 8}
    ablation = pd.DataFrame(
        [
            model | {"seed": seed, "alpha": alpha, "subset": subset}
            for seed in (0, 1)
            for alpha in (0.85, 0.9)
            for subset in ("none", "T_RR", "T_CC", "T_CR", "T_RR+T_CC")
        ]
    )
    models = pd.DataFrame(
        [
            model | {"seed": 0, "block": "T_RR", "reading": Verdict.BASIS_DEPENDENT},
            model | {"seed": 0, "block": "T_CC", "reading": "—"},
        ]
    )
    out = mark_basis_dependent(ablation, models, 0.9)
    flagged = out[out["basis_dependent"].notna()]
    assert sorted(zip(flagged["seed"], flagged["alpha"], flagged["subset"], strict=True)) == [
        (0, 0.9, "T_CC"),
        (0, 0.9, "T_RR"),
    ]
    assert flagged.set_index("subset")["basis_dependent"].to_dict() == {
        "T_RR": True,
        "T_CC": False,
    }
    assert mark_basis_dependent(ablation, None, 0.9)["basis_dependent"].isna().all()
