"""The dose-response rows of every model (:mod:`rnnschur.studies.beyond.dose_response`) judged
over seeds: per model, block and ε the block's harm against its matched controls
(:func:`curves`), and per block the excess harm over the removal control tested at every
matched dose, read as one verdict (:func:`dose_summary`), with ε₅₀ and its bootstrap interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.studies.beyond.dose_response import CONTROLS, JUDGED, MATCHED
from rnnschur.studies.stats import percentile_interval
from rnnschur.studies.verdicts import (
    SHARE_CAP,
    Thresholds,
    Verdict,
    block_verdict,
    undecided,
)

HARMED = 1e-6
"""A harm share above which the refit's recovery is defined in the curves (the summary reads it
only where the harm exceeds θ)."""


def curves(table: pd.DataFrame) -> pd.DataFrame:
    """Per model, block and ε: the block's harm, the mean harm of each control kind over its
    draws and of the removal controls pooled (:data:`JUDGED`; ``control_harm``), their 5–95 %
    range, each kind's mean achieved Frobenius and operator norms over the block's
    (``<kind>_norm_ratio``, ``<kind>_operator_ratio``), whether the removal control reached
    the block's norm (``matched``: its ratio at least :data:`MATCHED`), and the refit's
    recovery: 1 − (the refit's harm, against a readout refit on the intact network) / (the
    harm with the trained readout), where that harm exceeds :data:`HARMED`: 1 where a new
    readout gives all of it back ("misaligned"), 0 where it gives none ("lost"); for the block
    (``recovered``) and for the removal control's first draw (``control_recovered``)."""
    keys = [*MODEL_KEYS, "block", "epsilon"]
    table = table.assign(harm=table["harm"].clip(upper=SHARE_CAP))  # a diverged rollout: the cap
    block = table[table["perturbation"] == "block"].set_index(keys)
    controls = table[table["perturbation"] != "block"]
    judged = controls[controls["perturbation"].isin(JUDGED)]
    out = pd.DataFrame(
        {
            "harm": block["harm"],
            "mass_removed": block["mass_removed"],
            "control_harm": judged.groupby(keys)["harm"].mean(),
            "control_low": judged.groupby(keys)["harm"].quantile(0.05),
            "control_high": judged.groupby(keys)["harm"].quantile(0.95),
        }
    )
    for kind in CONTROLS:
        chosen = controls[controls["perturbation"] == kind]
        out[f"{kind}_harm"] = chosen.groupby(keys)["harm"].mean()
        ratio = chosen.groupby(keys)["drawn_norm"].mean() / block["norm"]
        out[f"{kind}_norm_ratio"] = ratio.where(block["norm"] > 0)
        if "operator_norm" in table:
            ratio = chosen.groupby(keys)["operator_norm"].mean() / block["operator_norm"]
            out[f"{kind}_operator_ratio"] = ratio.where(block["operator_norm"] > 0)
    reached = judged.groupby(keys)["drawn_norm"].min() / block["norm"]
    out["matched"] = (reached >= MATCHED) | (block["norm"] == 0)
    if "refit_harm" in block:  # aligned by (model, block, ε), defined where there is harm
        harmed = block["harm"] > HARMED
        out["recovered"] = (1.0 - block["refit_harm"] / block["harm"]).where(harmed)
        out["refit_harm"] = block["refit_harm"]
        first = judged[judged["draw"] == 0].groupby(keys)[["harm", "refit_harm"]].first()
        recovered = 1.0 - first["refit_harm"] / first["harm"]
        out["control_recovered"] = recovered.where(first["harm"] > HARMED)
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


def per_dose_decisions(group: pd.DataFrame, thresholds: Thresholds, min_models: int) -> dict:
    """{ε: the test of the excess harm at that dose over the seeds}
    (:func:`rnnschur.studies.verdicts.block_verdict` at level/|ε|, Bonferroni over the doses)."""
    strict = thresholds.scaled(level=1.0 / group["epsilon"].nunique())
    out = {}
    for epsilon, dose in group.groupby("epsilon"):
        excess = (dose["harm"] - dose["control_harm"]).to_numpy()
        out[float(epsilon)] = block_verdict(excess, dose["full_mass"], strict, min_models)
    return out


def dose_verdict(
    decisions: dict, own_full, by_kind: dict, thresholds: Thresholds, min_models: int
) -> Verdict:
    """The verdict of one block from its per-dose tests (:func:`per_dose_decisions`):
    *empty* or *too few learned models* where the tests say so; *load-bearing* where the
    excess lies above +θ at some dose, no dose's mean excess lies below −θ and no control
    kind alone is more harmful than the block by more than θ (``by_kind``: the block's mean
    excess over each kind, over the doses); *milder than any perturbation of its size* the
    other way round (the same positions may do as little: a block whose positions are
    unseen), and *a symmetry direction* when the block's own full removal is moreover
    harmless (two one-sided tests within ±θ of ``own_full``, its harm shares over seeds);
    *mixed across doses or controls* where a dose's mean excess or a control kind points the
    other way; *like any perturbation of its size* where the excess is within ±θ at every
    dose (two one-sided tests); else *underpowered* or *on the threshold* by the largest
    minimum detectable effect of the per-dose tests."""
    calls = {d.verdict for d in decisions.values()}
    for word in (Verdict.TOO_FEW, Verdict.EMPTY):
        if word in calls:
            return word
    above, below = Verdict.FRAGILE in calls, Verdict.IMPROVES in calls
    means = [d.mean for d in decisions.values()]
    theta = thresholds.threshold
    if above and not below:
        agree = min(means) >= -theta and min(by_kind.values()) >= -theta
        return Verdict.LOAD_BEARING if agree else Verdict.MIXED
    if below and not above:
        if max(means) > theta or max(by_kind.values()) > theta:
            return Verdict.MIXED
        own = block_verdict(own_full, np.ones(len(own_full)), thresholds, min_models)
        return Verdict.SYMMETRY if own.verdict == Verdict.HARMLESS else Verdict.MILDER
    if above and below:
        return Verdict.MIXED
    if calls == {Verdict.HARMLESS}:
        return Verdict.LIKE_ANY
    return undecided(max(d.mde for d in decisions.values()), thresholds.threshold)


def crossing(mean_curves: np.ndarray, epsilons: np.ndarray) -> np.ndarray:
    """:func:`epsilon_50` of each row of ``mean_curves`` (curves over ``epsilons``)."""
    return np.array([epsilon_50(epsilons, curve) for curve in mean_curves])


def epsilon_50_interval(
    curves_by_seed: np.ndarray, epsilons: np.ndarray, level: float, rng
) -> tuple[float, float, float]:
    """(ε₅₀ of the mean curve over seeds, and its percentile bootstrap interval over seeds at
    ``level``, :data:`BOOTSTRAP` resamples): NaN where the mean curve never reaches one half,
    and the interval NaN where fewer than half the resamples do. Every value lies on the grid's
    range; one at the first dose means "at or below it"."""
    point = epsilon_50(epsilons, curves_by_seed.mean(axis=0))
    draws = rng.integers(0, len(curves_by_seed), size=(BOOTSTRAP, len(curves_by_seed)))
    boot = crossing(curves_by_seed[draws].mean(axis=1), epsilons)
    if np.isnan(boot).mean() > 0.5:
        return point, np.nan, np.nan
    low, high = percentile_interval(boot[~np.isnan(boot)], level)
    return point, float(low), float(high)


BOOTSTRAP = 1000
"""Resamples of the seeds behind each ε₅₀ interval."""


def dose_summary(c: pd.DataFrame, thresholds: Thresholds, min_models: int) -> pd.DataFrame:
    """Per task, construction, N_h and block of the curves ``c`` (:func:`curves` of the
    learned models' rows), over the seeds: the excess harm at each dose ε, the block's harm
    minus the removal control's mean harm (:data:`JUDGED`), one value per seed, tested at every
    matched dose (:func:`per_dose_decisions`) and read by :func:`dose_verdict`. A dose is
    matched in a seed where the removal control reached the block's norm there (``matched`` of
    :func:`curves`), and judged where at least ``min_models`` seeds are matched; the others are
    listed (``unmatched_at``), and a block with no dose judged has *no control*. Beside it,
    described, not
    the verdict's test: ``excess_mean`` (over the doses and seeds) with its t interval and
    MDE at ``level``; then the doses that decided (``decided_at``), the largest minimum
    detectable effect of the per-dose tests (``verdict_mde``), the excess over each control
    kind and its achieved Frobenius and operator norms over the block's (``norm_ratio_<kind>``,
    ``operator_ratio_<kind>``), the harms at full removal, ε₅₀ of the block and of the removal
    control with bootstrap intervals (:func:`epsilon_50_interval`) and the refit's mean
    recovery at full removal, of the block and of the removal control's first draw (where
    each harms more than θ)."""
    rng = np.random.default_rng(0)  # the bootstrap's resamples: the same table, the same intervals
    rows = []
    for key, group in c.groupby(["task", "construction", "n_hidden", "block"], sort=False):
        full_mass = group.groupby("seed")["mass_removed"].transform("max")
        group = group.assign(full_mass=full_mass)
        matched = group[group["matched"].astype(bool)]
        counts = matched.groupby("epsilon")["seed"].nunique()
        epsilons = np.sort(group["epsilon"].unique())
        unmatched = [e for e in epsilons if counts.get(e, 0) < min_models]
        if group["seed"].nunique() < min_models:  # too few learned models: said as such
            matched, unmatched = group, []
        judged_rows = matched[~matched["epsilon"].isin(unmatched)]
        if judged_rows.empty:
            rows.append(_no_control(key, group, unmatched))
            continue
        per_seed = judged_rows.groupby("seed")
        excess = per_seed.apply(lambda g: float((g["harm"] - g["control_harm"]).mean()))
        overall = block_verdict(
            excess.to_numpy(), per_seed["full_mass"].max().to_numpy(), thresholds, min_models
        )
        decisions = per_dose_decisions(judged_rows, thresholds, min_models)
        # the control's descriptive columns where it reached the block's norm (NaN elsewhere)
        group = group.assign(
            control_harm=group["control_harm"].where(group["matched"].astype(bool))
        )
        top = group[group["epsilon"] == group["epsilon"].max()]
        by_kind = {
            kind: float((judged_rows["harm"] - judged_rows[f"{kind}_harm"]).mean())
            for kind in CONTROLS
        }
        judged = {kind: by_kind[kind] for kind in JUDGED}
        verdict = dose_verdict(decisions, top["harm"].to_numpy(), judged, thresholds, min_models)
        by_seed = {
            name: group.pivot(index="seed", columns="epsilon", values=name)[epsilons].to_numpy()
            for name in ("harm", "control_harm")
        }
        e50 = epsilon_50_interval(by_seed["harm"], epsilons, thresholds.level, rng)
        e50_controls = epsilon_50_interval(by_seed["control_harm"], epsilons, thresholds.level, rng)
        decided = [
            e for e, d in decisions.items() if d.verdict in (Verdict.FRAGILE, Verdict.IMPROVES)
        ]
        row = dict(zip(["task", "construction", "n_hidden", "block"], key, strict=True))
        row |= {
            "n_models": len(excess),
            "verdict": verdict,
            "excess_mean": float(excess.mean()),
            "excess_ci_low": overall.ci_low,
            "excess_ci_high": overall.ci_high,
            "mde": overall.mde,
            "decided_at": " ".join(f"{e:g}" for e in decided) or "—",
            "unmatched_at": " ".join(f"{e:g}" for e in unmatched) or "—",
            "verdict_mde": max(d.mde for d in decisions.values()),
        }
        for kind in CONTROLS:
            row[f"excess_{kind}"] = by_kind[kind]
        for kind in CONTROLS:
            row[f"norm_ratio_{kind}"] = float(group[f"{kind}_norm_ratio"].mean())
            if f"{kind}_operator_ratio" in group:
                row[f"operator_ratio_{kind}"] = float(group[f"{kind}_operator_ratio"].mean())
        recovered = top["recovered"][top["harm"] > thresholds.threshold]
        control_recovered = top["control_recovered"][top["control_harm"] > thresholds.threshold]
        row |= {
            "harm_at_full": float(top["harm"].mean()),
            "control_harm_at_full": float(top["control_harm"].mean()),  # NaN: unmatched
            "epsilon_50": e50[0],
            "epsilon_50_ci_low": e50[1],
            "epsilon_50_ci_high": e50[2],
            "control_epsilon_50": e50_controls[0],
            "control_epsilon_50_ci_low": e50_controls[1],
            "control_epsilon_50_ci_high": e50_controls[2],
            "recovered_at_full": float(recovered.mean()) if len(recovered) else np.nan,
            "control_recovered_at_full": (
                float(control_recovered.mean()) if len(control_recovered) else np.nan
            ),
        }
        rows.append(row)
    return pd.DataFrame(rows)


def _no_control(key: tuple, group: pd.DataFrame, unmatched: list[float]) -> dict:
    """The summary row of a block no dose of which is matched in ``min_models`` seeds."""
    row = dict(zip(["task", "construction", "n_hidden", "block"], key, strict=True))
    return row | {
        "n_models": group["seed"].nunique(),
        "verdict": Verdict.NO_CONTROL,
        "decided_at": "—",
        "unmatched_at": " ".join(f"{e:g}" for e in unmatched) or "—",
    }
