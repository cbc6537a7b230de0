"""Each claim of the paper (:mod:`rnnschur.studies.paper.claims`) tested over the seeds of its
task, construction and N_h, under the paper's config, per gap-study variation, per N_h and with
the thresholds moved.

The verdict comes from :func:`claim_verdict`: the t interval of the mean, the equivalence test
and the minimum detectable effect. The exact one-sided sign test of how many seeds agree is
reported beside it; with 3 seeds it cannot go below 0.125, which is why the interval decides.
A claim implied by another counts as one of the data unless that other claim holds on the same
models; each solution is checked for a basis-dependent reading of the blocks the claim reads.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from rnnschur.studies.paper.claims import (
    DATA,
    IMPLIED,
    TASK_NAMES,
    Claim,
    paper_claims,
    value,
)
from rnnschur.studies.profile import SENSITIVITY, sensitivity
from rnnschur.studies.stats import mde, t_interval, tost
from rnnschur.studies.verdicts import Thresholds, Verdict, agreement, undecided


def satisfies(x: float | np.ndarray, kind: str, bound: float) -> bool | np.ndarray:
    """Whether a value satisfies a claim of ``kind`` and ``bound``."""
    if kind == "greater":
        return x > bound
    if kind == "within":
        return np.abs(x) <= bound
    raise ValueError(f"claim kind must be 'greater' or 'within', got {kind!r}")


def claim_verdict(values: np.ndarray, claim: Claim, thresholds: Thresholds) -> Verdict:
    """A claim's verdict over its seeds' ``values``, from their (1 − level) t interval, the
    equivalence test (:func:`rnnschur.studies.stats.tost`) and the minimum detectable effect: a
    ``within`` claim (harmless, inert, unchanged) *holds* when the two one-sided tests show
    |mean| < bound and *fails* when the interval lies wholly outside ±bound; an ordering
    (``greater``) *holds* when the interval lies above the bound, *fails* when it lies at or
    below it, and is *equivalent* where its two sides are equal within its margin. Otherwise
    *underpowered* or *on the threshold* (:func:`rnnschur.studies.verdicts.undecided`, at the
    claim's margin: its bound for a ``within`` claim, else its tie margin or θ)."""
    level = thresholds.level
    if claim.kind == "within" and claim.bound == 0:  # an exact claim: one seed decides
        return Verdict.HOLDS if np.all(values == 0) else Verdict.FAILS
    low, high = t_interval(values, level)
    margin = claim.bound if claim.kind == "within" else claim.margin
    p_equal = tost(values, margin) if margin is not None else np.nan
    if claim.kind == "within":
        if np.isfinite(p_equal) and p_equal < level:
            return Verdict.HOLDS
        if low > claim.bound or high < -claim.bound:
            return Verdict.FAILS
    elif claim.kind == "greater":
        if low > claim.bound:
            return Verdict.HOLDS
        if high <= claim.bound:
            return Verdict.FAILS
        if np.isfinite(p_equal) and p_equal < level:
            return Verdict.EQUIVALENT
    else:
        raise ValueError(f"claim kind must be 'greater' or 'within', got {claim.kind!r}")
    power_margin = margin if margin is not None else thresholds.threshold
    return undecided(mde(values, level, thresholds.power), power_margin)


def sign_test(n_agree: int, n: int) -> float:
    """One-sided exact sign test: P(at least ``n_agree`` of ``n`` seeds agree | p = 1/2), the
    binomial tail Σ_{k ≥ n_agree} C(n, k) / 2^n, summed in integers and rounded once."""
    return sum(math.comb(n, k) for k in range(n_agree, n + 1)) / 2**n if n else np.nan


BASIS_BLOCKS = ("T_RR", "T_CC")
"""The blocks whose removal can depend on an order of the Schur blocks that nothing in the
network fixes (near-equal moduli inside R or inside C, :mod:`rnnschur.studies.beyond.orderings`):
removing T_C→R does not."""


def basis_blocks(claim: Claim) -> set[str]:
    """The blocks of :data:`BASIS_BLOCKS` whose removal ``claim`` reads: its block, those of the
    ablation sets whose numbers it prints and those its statistic reads besides (``reads``)."""
    subsets = [claim.block or "", *(subset for subset, _ in claim.printed), *claim.reads]
    return {b for subset in subsets for b in subset.split("+") if b in BASIS_BLOCKS}


def claim_models(ablation: pd.DataFrame, claim: Claim) -> tuple[int | None, pd.DataFrame]:
    """(N_h, rows) of the claim's task and construction: the paper's N_h, or the largest one
    trained where the config has none of that size (a small preset)."""
    rows = ablation[
        (ablation["task"] == claim.task) & (ablation["construction"] == claim.construction)
    ]
    if rows.empty:
        return None, rows
    sizes = rows["n_hidden"].unique()
    n_hidden = claim.paper_n_hidden if claim.paper_n_hidden in sizes else int(sizes.max())
    return n_hidden, rows[rows["n_hidden"] == n_hidden]


def basis_flag(claim: Claim, model: pd.DataFrame) -> float:
    """1 if the ablation table's ``basis_dependent`` flag is set on one of the claim's
    :func:`basis_blocks` in ``model`` (one solution's rows), 0 if on none of them or the claim
    reads no such block, NaN where the solution was not checked (no flag on those rows, or a
    table without the column: the run did not check it)."""
    if "basis_dependent" not in model:  # the run did not check it
        return np.nan
    blocks = basis_blocks(claim)
    if not blocks:
        return 0.0
    flags = model.loc[model["subset"].isin(blocks), "basis_dependent"].dropna()
    return float(flags.astype(bool).any()) if len(flags) else np.nan


def evaluate_claims(
    ablation: pd.DataFrame, claims: list[Claim], thresholds: Thresholds, min_models: int = 3
) -> pd.DataFrame:
    """One row per claim: the claim, its basis, its statistic, the per-seed values ({seed:
    value}, written long by :mod:`rnnschur.io.per_seed`) and their range, of the models that
    learned their task (the ``learned`` column; all, where the table has none), how many
    models learned of how many trained, how many seeds agree, the mean and its t interval,
    the minimum detectable effect, the sign test, the verdict (:func:`claim_verdict`) and,
    where the paper gives the statistic, its value and whether it agrees with the reproduced
    interval; of the solutions behind the values, how many were checked for basis dependence
    and how many read a block of the claim basis-dependent (:func:`basis_flag`). Claims whose
    models were not trained get verdict 'not run'; claims with fewer than ``min_models``
    learned models :attr:`rnnschur.studies.verdicts.Verdict.TOO_FEW`."""
    level = thresholds.level
    out = []
    for claim in claims:
        n_hidden, rows = claim_models(ablation, claim)
        n_trained = rows["seed"].nunique()
        if "learned" in rows:
            rows = rows[rows["learned"].astype(bool)]
        per_seed = {
            int(seed): claim.statistic(model) for seed, model in rows.groupby("seed", sort=True)
        }
        values = np.array([v for v in per_seed.values() if not np.isnan(v)])
        flags = np.array(
            [
                basis_flag(claim, model)
                for seed, model in rows.groupby("seed", sort=True)
                if not np.isnan(per_seed[int(seed)])
            ],
            float,
        )
        low, high = t_interval(values, level)
        n_agree = int(np.sum(satisfies(values, claim.kind, claim.bound)))
        margin = claim.bound if claim.kind == "within" else claim.margin
        mass = (
            np.mean(
                [value(model, claim.block, "mass_removed") for _, model in rows.groupby("seed")]
            )
            if claim.block and len(rows)
            else np.nan
        )
        if n_trained == 0:
            call = Verdict.NOT_RUN
        elif len(values) < min_models:
            call = Verdict.TOO_FEW
        elif mass < thresholds.mass_floor:  # the block holds nothing to remove
            call = Verdict.EMPTY
        else:
            call = claim_verdict(values, claim, thresholds)
        agrees, factor = agreement(values, claim.paper_value, level, claim.paper_precision)
        out.append(
            {
                "claim_id": claim.claim_id,
                "source": claim.source,
                "claim": claim.words,
                "basis": claim.basis,
                "task": claim.task,
                "construction": claim.construction,
                "n_hidden": n_hidden,
                "statistic": claim.statistic_words,
                "kind": claim.kind,
                "bound": claim.bound,
                "per_seed": per_seed,
                "seed_min": float(values.min()) if len(values) else np.nan,
                "seed_max": float(values.max()) if len(values) else np.nan,
                "n_trained": n_trained,
                "n_learned": len(per_seed),
                "n_seeds": len(values),
                "n_agree": n_agree,
                "mean": float(values.mean()) if len(values) else np.nan,
                "ci_low": low,
                "ci_high": high,
                "test": f"two-sided Student t interval, {1 - level:.0%}",
                "sign_test_p": sign_test(n_agree, len(values)),
                "margin": margin if margin is not None else np.nan,
                "tost_p": tost(values, margin) if margin is not None else np.nan,
                "mde": mde(values, level, thresholds.power),
                "paper_value": claim.paper_value,
                "paper_precision": claim.paper_precision,
                "agreement": agrees,
                "paper_factor": factor,
                "verdict": call,
                "n_basis_checked": int(np.isfinite(flags).sum()),
                "n_basis_dependent": int(np.nansum(flags)),
            }
        )
    table = pd.DataFrame(out)
    return table.assign(basis=_implied_only_where_it_holds(table)) if len(table) else table


def _implied_only_where_it_holds(table: pd.DataFrame) -> list[str]:
    """Each claim's basis, where a claim implied by another counts as one of the data unless
    that other claim holds on the same models (a consequence of a premise that fails or is
    undecided is a claim of its own)."""
    verdict = dict(zip(table["claim_id"], table["verdict"], strict=True))
    return [
        DATA if b.startswith(IMPLIED) and verdict.get(b[len(IMPLIED) :]) != Verdict.HOLDS else b
        for b in table["basis"]
    ]


CLAIM_KEYS = ["task", "claim_id", "n_hidden"]
"""The columns that name one row of :func:`evaluate_claims` and :func:`claims_by_size` (their
per-seed values' keys); :func:`claims_per_variation` adds ``variation``."""


def claims_per_variation(
    ablation: pd.DataFrame,
    variations: pd.DataFrame,
    claims: list[Claim],
    thresholds: Thresholds,
    min_models: int = 3,
) -> pd.DataFrame:
    """The claims (:func:`evaluate_claims`) under the paper config (``variation`` =
    ``paper_config``, from ``ablation``) and under each variation of the gap study (its models'
    ablation rows, ``variations`` with a ``variation`` column); the claims a variation does not
    train are left out."""
    frames = [("paper_config", ablation)] + list(variations.groupby("variation", sort=False))
    out = []
    for name, rows in frames:
        table = evaluate_claims(rows, claims, thresholds, min_models)
        out.append(table[table["n_trained"] > 0].assign(variation=name))
    return pd.concat(out, ignore_index=True)


def claims_by_size(
    ablation: pd.DataFrame, claims: list[Claim], thresholds: Thresholds, min_models: int = 3
) -> pd.DataFrame:
    """The claims (:func:`evaluate_claims`) at every N_h the run trained for the claim's task
    and construction (the claims table tests the paper's N_h only): one row per claim and
    size; claims whose models were not trained are left out."""
    out = [
        evaluate_claims(rows, claims, thresholds, min_models)
        for _, rows in ablation.groupby("n_hidden", sort=True)
    ]
    table = pd.concat(out, ignore_index=True)
    table = table[table["n_trained"] > 0].reset_index(drop=True)
    return table.astype({"n_hidden": int})


def claims_sensitivity(
    ablation: pd.DataFrame,
    thresholds: Thresholds,
    much_greater: float,
    margin_s_delta_t: float,
    min_models: int = 3,
) -> pd.DataFrame:
    """Each claim's verdict at the config's settings and with θ and the mass floor halved and
    doubled (:func:`rnnschur.studies.profile.sensitivity`); the claims whose models were not trained
    left out."""

    def evaluate(t: Thresholds) -> pd.DataFrame:
        table = evaluate_claims(
            ablation, paper_claims(t.threshold, much_greater, margin_s_delta_t), t, min_models
        )
        table = table.assign(task=table["task"].map(lambda task: TASK_NAMES.get(task, task)))
        return table[table["n_trained"] > 0]

    # the claims use θ, not the mass floor: only θ is varied
    return sensitivity(evaluate, SENSITIVITY_KEYS, thresholds, SENSITIVITY[:2])


SENSITIVITY_KEYS = ["task", "claim"]
"""A row of the claims' sensitivity table: the task and the claim in words."""
