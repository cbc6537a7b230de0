"""Are the couplings special? Each coupling block removed by a fraction, against random
perturbations of the same size.

The paper removes whole blocks: W̃(S) = Q (T − ΔT_S) Qᵀ. Near full removal the harm often
saturates near chance, where any perturbation that large does as much. Here each block S of
{T_RR, T_C→R, T_CC} at α is removed by a fraction ε of a grid (config ``dose_response.epsilons``),

    T̃(ε) = T − ε ΔT_S,    W̃(ε) = W − ε Q ΔT_S Qᵀ,    ‖ΔW(ε)‖_F = ε ‖ΔT_S‖_F  (Q orthogonal),

and at every ε beside K random perturbations ΔW of the same Frobenius norm (each draw seeded
by the job's own stream and recorded), of three kinds (:data:`CONTROLS`):

- ``same_positions``: Gaussian values in the block's own positions of T (W − Q R Qᵀ);
- ``other_blocks``: Gaussian values in the positions of the other two coupling blocks;
- ``gaussian``: an unstructured Gaussian ΔW, in W's own coordinates.

Every perturbation is scored on the held-out set and judged on the workflow's one scale, the
harm share (:func:`rnnschur.verdicts.harm_share`). Where a fitting set is given, a ridge
readout is refit on the hidden states of W̃(ε) (:func:`rnnschur.beyond.refit.fit_readout`) at
every ε, so that harm that a new readout recovers ("misaligned") is told apart from harm it
does not ("lost"). The per-model rows are judged over seeds by :func:`dose_summary`.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pandas as pd

from rnnschur.ablation import ablated_recurrent, delta_T
from rnnschur.beyond.refit import fit_readout, split
from rnnschur.network import Network
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur, coupling_masks
from rnnschur.tasks import Batch
from rnnschur.verdicts import (
    SHARE_CAP,
    Thresholds,
    Verdict,
    block_verdict,
    harm_share,
    t_interval,
)

CONTROLS = ("same_positions", "other_blocks", "gaussian")
"""The matched random perturbations, in the order the table lists them."""
CHUNK = 16
"""Perturbed matrices rolled out in one batched call (memory: CHUNK × trials × steps × N_h)."""
MEANING = {
    Verdict.LOAD_BEARING: "more harmful than random perturbations of the same size: the "
    "coupling carries the task (the paper's fragile direction, beyond its norm)",
    Verdict.SYMMETRY: "less harmful than random perturbations of the same size: a direction the "
    "task does not see (the paper's task-restricted symmetry)",
    Verdict.LIKE_ANY: "as harmful as random perturbations of the same size: the harm says how "
    "large the removal is, not where it lies",
}
"""What each dose-response verdict says of the paper's reading of a block."""


def control_perturbation(
    kind: str, block: str, masks: dict[str, np.ndarray], schur: OrderedSchur, norm: float, rng
) -> np.ndarray:
    """One random ΔW of kind ``kind`` (:data:`CONTROLS`) for ``block``, scaled to Frobenius
    norm ``norm``; zeros where the positions it would fill are none."""
    n = schur.T.shape[0]
    if kind == "gaussian":
        dW = rng.standard_normal((n, n))
    else:
        others = [b for b in COUPLING_BLOCKS if b != block]
        where = masks[block] if kind == "same_positions" else masks[others[0]] | masks[others[1]]
        R = np.where(where, rng.standard_normal((n, n)), 0.0)
        dW = schur.Q @ R @ schur.Q.T
    size = np.linalg.norm(dW)
    return dW * (norm / size) if size > 0 else dW


def _scores(network: Network, stack: list[np.ndarray], batch: Batch, task: ModuleType):
    """The task's score of each W of ``stack`` on ``batch``, rolled out in chunks."""
    out = []
    for start in range(0, len(stack), CHUNK):
        outputs = network.rollout(batch.inputs, np.stack(stack[start : start + CHUNK]))
        out += list(np.atleast_1d(task.score(outputs, batch)))
    return np.asarray(out, dtype=float)


def dose_response(
    network: Network,
    schur: OrderedSchur,
    alpha: float,
    heldout: Batch,
    task: ModuleType,
    design: dict,
    rng: np.random.Generator,
    fitting: Batch | None = None,
) -> list[dict]:
    """The rows of one model: per block S and fraction ε, the block's own removal
    (``perturbation`` "block", draw −1) and ``design["n_draws"]`` draws of each control, all
    with ‖ΔW‖_F = ε ‖ΔT_S‖_F. ``design``: ``epsilons``, ``n_draws`` and, for the refit (with
    ``fitting``), ``validation_fraction`` and ``ridge_grid`` (the config's ``dose_response``).
    Eight arguments: the model, its split, the two sets and the design, each passed once.

    Columns: ``block``, ``epsilon``, ``perturbation``, ``draw``, ``norm``, ``mass_removed``
    (ε ‖ΔT_S‖_F / ‖T‖_F), ``metric``, ``full_score``, ``refit_score`` and ``refit_harm`` (on
    the block's rows with a fitting set, NaN elsewhere), ``perturbation``, ``draw``, ``score``
    and ``harm`` (the harm share)."""
    masks = coupling_masks(schur, alpha)
    full = float(task.score(network.rollout(heldout.inputs), heldout))
    T_norm = float(np.linalg.norm(schur.T))
    parts = split(fitting, design["validation_fraction"]) if fitting is not None else None
    rows = []
    for block in COUPLING_BLOCKS:
        dT = delta_T(schur.T, masks, (block,))
        block_norm = float(np.linalg.norm(dT))
        for epsilon in design["epsilons"]:
            W_block = ablated_recurrent(network.W_hh, schur, epsilon * dT)
            stack, labels = [W_block], [("block", -1)]
            for kind in CONTROLS:
                for draw in range(design["n_draws"]):
                    dW = control_perturbation(kind, block, masks, schur, epsilon * block_norm, rng)
                    stack.append(network.W_hh - dW)
                    labels.append((kind, draw))
            scores = _scores(network, stack, heldout, task)
            common = {
                "block": block,
                "epsilon": float(epsilon),
                "norm": epsilon * block_norm,
                "mass_removed": epsilon * block_norm / T_norm if T_norm > 0 else 0.0,
                "metric": task.SCORE,
                "full_score": full,
                "refit_score": np.nan,  # the block's own rows, with a fitting set
                "refit_harm": np.nan,
            }
            for (kind, draw), score in zip(labels, scores, strict=True):
                rows.append(
                    common
                    | {
                        "perturbation": kind,
                        "draw": draw,
                        "score": float(score),
                        "harm": float(harm_share(task.SCORE, full, score)),
                    }
                )
            if parts is not None:
                refit = refit_score(network, W_block, parts, heldout, task, design["ridge_grid"])
                rows[-len(labels)] |= {
                    "refit_score": refit,
                    "refit_harm": float(harm_share(task.SCORE, full, refit)),
                }
    return rows


def refit_score(
    network: Network,
    W_tilde: np.ndarray,
    parts: tuple[Batch, Batch],
    heldout: Batch,
    task: ModuleType,
    grid: list[float],
) -> float:
    """The held-out score of W̃ with a ridge readout refit on its hidden states over the
    fitting set's two ``parts`` (fit, validation)."""
    fit, val = parts
    _, hidden_fit = network.rollout(fit.inputs, W_tilde, return_hidden=True)
    _, hidden_val = network.rollout(val.inputs, W_tilde, return_hidden=True)
    W_refit, _ = fit_readout(hidden_fit, fit, hidden_val, val, grid)
    _, hidden = network.rollout(heldout.inputs, W_tilde, return_hidden=True)
    return float(task.score(hidden.astype(np.float64) @ W_refit.T, heldout))


MODEL = ["task", "construction", "n_hidden", "seed"]
HARMED = 1e-6
"""A harm share above which the refit's recovery is defined (below it there is nothing to
recover)."""


def learned_models(table: pd.DataFrame, criteria: dict[str, dict]) -> pd.DataFrame:
    """The rows of the models that learned their task (:func:`rnnschur.learned.has_learned` on
    the full model's held-out score, with each task's criterion of ``criteria``)."""
    from rnnschur.learned import has_learned

    full = table.drop_duplicates(MODEL)
    keep = {
        tuple(r[k] for k in MODEL)
        for _, r in full.iterrows()
        if has_learned(r["metric"], r["full_score"], criteria[r["task"]])
    }
    return table[[tuple(r) in keep for r in table[MODEL].itertuples(index=False)]]


def curves(table: pd.DataFrame) -> pd.DataFrame:
    """Per model, block and ε: the block's harm, the mean harm of each control kind over its
    draws and of all controls pooled, their 5–95 % range, and the refit's recovery (the share
    of the block's harm a new readout gives back, where the harm exceeds :data:`HARMED`)."""
    keys = [*MODEL, "block", "epsilon"]
    table = table.assign(harm=table["harm"].clip(upper=SHARE_CAP))  # a diverged rollout: the cap
    block = table[table["perturbation"] == "block"].set_index(keys)
    controls = table[table["perturbation"] != "block"]
    out = pd.DataFrame(
        {
            "harm": block["harm"],
            "mass_removed": block["mass_removed"],
            "control_harm": controls.groupby(keys)["harm"].mean(),
            "control_low": controls.groupby(keys)["harm"].quantile(0.05),
            "control_high": controls.groupby(keys)["harm"].quantile(0.95),
        }
    )
    for kind in CONTROLS:
        chosen = controls[controls["perturbation"] == kind]
        out[f"{kind}_harm"] = chosen.groupby(keys)["harm"].mean()
    if "refit_harm" in block:  # aligned by (model, block, ε), defined where there is harm
        harmed = block["harm"] > HARMED
        out["recovered"] = (1.0 - block["refit_harm"] / block["harm"]).where(harmed)
    return out.reset_index()


def epsilon_50(epsilons: np.ndarray, harms: np.ndarray) -> float:
    """The smallest ε at which the harm reaches one half of the learned performance, linearly
    interpolated on the grid; NaN where it never does."""
    above = np.flatnonzero(harms >= 0.5)
    if len(above) == 0:
        return np.nan
    k = above[0]
    if k == 0:
        return float(epsilons[0])
    e0, e1, h0, h1 = epsilons[k - 1], epsilons[k], harms[k - 1], harms[k]
    return float(e0 + (0.5 - h0) * (e1 - e0) / (h1 - h0))


VERDICT_OF = {
    Verdict.FRAGILE: Verdict.LOAD_BEARING,
    Verdict.IMPROVES: Verdict.SYMMETRY,
    Verdict.HARMLESS: Verdict.LIKE_ANY,
}
"""The test's reading of the excess harm (block minus controls) as a dose-response verdict; the
other readings (underpowered, on the threshold, empty, too few learned models) keep their
words."""


def dose_summary(table: pd.DataFrame, thresholds: Thresholds, min_models: int) -> pd.DataFrame:
    """Per task, construction, N_h and block, over the seeds (learned models only where the
    table says which): the excess harm D = mean over ε of (the block's harm − the pooled
    controls' mean harm), one value per seed, judged by :func:`rnnschur.verdicts.block_verdict`
    on the harm-share scale (θ its margin): *load-bearing* where its interval lies above +θ, *a
    symmetry direction* below −θ, *like any perturbation of its size* where it is within ±θ
    (two one-sided tests), else *underpowered* or *on the threshold*; *empty* where the block's
    full removal takes less than the mass floor of ‖T‖. Beside it: the excess against each
    control kind, ε₅₀ of the block and of the pooled controls (the fraction removing half the
    learned performance) with a t interval, and the refit's mean recovery at full removal."""
    c = curves(table)
    rows = []
    for key, group in c.groupby(["task", "construction", "n_hidden", "block"], sort=False):
        per_seed = group.groupby("seed")
        excess = per_seed.apply(lambda g: float((g["harm"] - g["control_harm"]).mean()))
        full_mass = per_seed["mass_removed"].max().to_numpy()
        decision = block_verdict(excess.to_numpy(), full_mass, thresholds, min_models)
        e50 = per_seed.apply(
            lambda g: epsilon_50(g["epsilon"].to_numpy(), g["harm"].to_numpy())
        ).to_numpy()
        e50_controls = per_seed.apply(
            lambda g: epsilon_50(g["epsilon"].to_numpy(), g["control_harm"].to_numpy())
        ).to_numpy()
        low, high = t_interval(e50[np.isfinite(e50)], thresholds.level)
        row = dict(zip(["task", "construction", "n_hidden", "block"], key, strict=True))
        row |= {
            "n_models": len(excess),
            "excess_mean": float(excess.mean()),
            "excess_ci_low": decision.ci_low,
            "excess_ci_high": decision.ci_high,
            "mde": decision.mde,
            "verdict": VERDICT_OF.get(decision.verdict, decision.verdict),
        }
        for kind in CONTROLS:
            row[f"excess_{kind}"] = float(
                per_seed.apply(lambda g, k=kind: float((g["harm"] - g[f"{k}_harm"]).mean())).mean()
            )
        top = group[group["epsilon"] == group["epsilon"].max()]
        row |= {
            "harm_at_full": float(top["harm"].mean()),
            "control_harm_at_full": float(top["control_harm"].mean()),
            "epsilon_50": float(np.nanmean(e50)) if np.isfinite(e50).any() else np.nan,
            "epsilon_50_ci_low": low,
            "epsilon_50_ci_high": high,
            "control_epsilon_50": (
                float(np.nanmean(e50_controls)) if np.isfinite(e50_controls).any() else np.nan
            ),
            "recovered_at_full": (float(top["recovered"].mean()) if "recovered" in top else np.nan),
        }
        rows.append(row)
    return pd.DataFrame(rows)
