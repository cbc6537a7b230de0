"""The paper's claims as statistics over seeds, each with a test and a verdict.

A claim is a per-model statistic (computed from that model's rows of the ablation table) and a
bound: ``greater`` claims say the statistic exceeds the bound, ``within`` claims say its size
stays within it. Statistics of a score are taken on the harm-share scale of
:mod:`rnnschur.studies.verdicts` (the share of the learned performance an ablation removes), so that
"harmless" and "harmful" mean the same on a replay accuracy and on an FVU, with the threshold θ
(config ``verdicts.threshold``) as the bound of "harmless", "inert", "unchanged", "changes
little" and as the margin of a tie. Over the seeds of the paper's task, construction and N_h,
the verdict comes from :func:`claim_verdict`. The exact one-sided sign test of how many seeds
agree is reported beside it; with 3 seeds it cannot go below 0.125, which is why the interval
decides.

The ledger says what kind of claim each is (``basis``): a claim of the data, one true *by
construction* (the Cayley W is normal: its coupling blocks hold no Schur mass, so no ablation
can change it), or one *implied by* another claim (the same n_R at every α is the same split,
hence the same W̃ and the same scores; only where that claim holds on the same models, else it
is a claim of the data). Summaries count the claims of the data apart.
Where the paper gives the statistic's value (from its reported means, on the same scale), the
claim also says whether the paper's value *agrees* with the reproduced interval or *differs*
(:func:`rnnschur.studies.verdicts.agreement`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rnnschur.ablation import label
from rnnschur.schur import COUPLING_BLOCKS
from rnnschur.studies.paper import reported as paper
from rnnschur.studies.profile import SENSITIVITY, sensitivity
from rnnschur.studies.stats import mde, t_interval, tost
from rnnschur.studies.verdicts import (
    Thresholds,
    Verdict,
    agreement,
    block_verdict,
    harm_share,
    point_verdict,
    undecided,
)

PAPER_ALPHA = 0.9
TASK_NAMES = {
    "copy": "copy",
    "flip_flop": "flip-flop",
    "sine": "sine",
    "context_integration": "context",
}
"""The paper's names of its tasks, as tables print them."""
NAMES = {"dense_orthogonal": "Dense orthogonal", "cayley": "Cayley"}
"""The paper's names of the copy task's constructions that its claims are about."""
TABLE1_ALPHAS = (0.85, 0.9, 0.95)
DATA = "data"
"""The basis of a claim about what the trained networks do."""
BY_CONSTRUCTION = "by construction"
"""The basis of a claim that no trained network could fail."""
IMPLIED = "implied by "
"""The basis of a claim that follows from another (``IMPLIED + claim_id``)."""


@dataclass(frozen=True)
class Claim:
    """One claim of the paper: ``statistic`` maps one model's ablation rows to a number, which
    the claim says is ``kind`` (``"greater"`` than, or ``"within"`` ±) ``bound``."""

    claim_id: str
    source: str
    words: str
    task: str
    construction: str
    paper_n_hidden: int
    statistic_words: str
    statistic: Callable[[pd.DataFrame], float]
    kind: str
    bound: float
    margin: float | None = None
    """For an ordering (``greater`` than 0): the margin within which the two sides count as
    equal, so that a tie is decided ("equivalent") rather than left open."""
    paper_value: float = math.nan
    """The statistic computed from the paper's reported means, where it reports both sides."""
    basis: str = DATA
    """:data:`DATA`, :data:`BY_CONSTRUCTION` (with why) or ``"implied by <claim_id>"``."""
    paper_precision: float = 0.0
    """How far the paper's value may be off from its printed digits alone."""
    block: str | None = None
    """The one coupling block whose harm the claim is about, where it is one: a block with no
    mass makes the claim *empty*, not true."""
    reads_block: bool = False
    """Whether the statistic is the harm share of ``block`` alone: one solution then shows the
    claim by its own reading of that block (:mod:`rnnschur.studies.solutions`)."""
    printed: tuple[tuple[str, str], ...] = ()
    """The paper's printed numbers the claim reads, as (subset, quantity) of
    :data:`rnnschur.studies.paper.reported.REPORTED`: set beside ours in the one-screen table."""
    reads: tuple[str, ...] = ()
    """The ablation sets its statistic reads besides ``block`` and those of ``printed`` (for
    :func:`basis_blocks`)."""


def cell(rows: pd.DataFrame, subset: str, column: str, alpha: float = PAPER_ALPHA):
    """``column`` of one model's row for ``subset`` at ``alpha`` as stored (None if absent)."""
    pick = rows[(rows["subset"] == subset) & np.isclose(rows["alpha"], alpha)][column]
    return pick.iloc[0] if len(pick) else None


def value(rows: pd.DataFrame, subset: str, column: str, alpha: float = PAPER_ALPHA) -> float:
    """``column`` of one model's row for ``subset`` at ``alpha`` as a number (NaN if absent)."""
    found = cell(rows, subset, column, alpha)
    return np.nan if found is None else float(found)


def share(rows: pd.DataFrame, subset: str, alpha: float = PAPER_ALPHA) -> float:
    """One model's harm share of ``subset`` at ``alpha``
    (:func:`rnnschur.studies.verdicts.harm_share`; NaN if absent)."""
    pick = rows[(rows["subset"] == subset) & np.isclose(rows["alpha"], alpha)]
    if pick.empty:
        return np.nan
    r = pick.iloc[0]
    return harm_share(r["metric"], r["score"] - r["delta_score"], r["score"])


def share_per_mass(rows: pd.DataFrame, subset: str) -> float:
    """S_ΔT on the harm-share scale: the harm share per unit of removed Schur mass (the paper's
    S_ΔT = ΔFVU / mass, divided by 1 − FVU(W))."""
    mass = value(rows, subset, "mass_removed")
    return share(rows, subset) / mass if mass > 0 else np.nan


def _spread_over_alpha(rows: pd.DataFrame, subsets: tuple[str, ...], quantity) -> float:
    """Largest range (max − min) over the Table 1 alphas, over ``subsets``, of ``quantity``
    (a column name, or a function of (rows, subset, alpha))."""
    ranges = []
    for subset in subsets:
        values = [
            quantity(rows, subset, a) if callable(quantity) else value(rows, subset, quantity, a)
            for a in TABLE1_ALPHAS
        ]
        if np.isnan(values).any():
            return np.nan
        ranges.append(max(values) - min(values))
    return max(ranges)


def paper_claims(theta: float, much_greater: float, margin_s_delta_t: float = 1.0) -> list[Claim]:
    """The claims of the paper that the reproduction can test. ``theta``: the threshold θ of
    the harm-share scale (config ``verdicts.threshold``), the bound of "harmless", "inert",
    "unchanged" and the margin of a tie between two shares; ``much_greater``: the factor that
    ``≫`` stands for (config ``claims.much_greater``); ``margin_s_delta_t``: the margin of a tie
    between two S_ΔT (harm share per unit of removed mass; ``claims.margin_s_delta_t``)."""
    h, reported = share, paper.reported_share
    cayley = (
        f"{BY_CONSTRUCTION}: the Cayley W is normal (W = O D Oᵀ), its coupling blocks hold no "
        "Schur mass"
    )

    def copy_claim(cid, source, construction, words, stat_words, stat, kind, bound, **extra):
        """A claim of the copy task (N_h = 72). Eight parameters, not a value object: the
        columns of one ledger row, each written once where the ledger lists the claim."""
        if "paper_value" in extra:
            extra.setdefault("paper_precision", paper.COPY_SHARE_PRECISION)
        return Claim(
            cid, source, words, "copy", construction, 72, stat_words, stat, kind, bound, **extra
        )

    def neuro_claim(cid, task, words, stat_words, stat, kind, bound, margin, paper_value, **extra):
        """A claim of Figure 2 (dense orthogonal, N_h = 64).
        Nine parameters, not a value object: the columns of one ledger row, each written once
        where the ledger lists it."""
        return Claim(
            cid,
            "Figure 2",
            words,
            task,
            "dense_orthogonal",
            64,
            stat_words,
            stat,
            kind,
            bound,
            margin,
            paper_value,
            **extra,
        )

    names = {block: label(block) for block in COUPLING_BLOCKS}

    def ordering(cid, task, first, second):
        """ΔFVU(−first) > ΔFVU(−second), on the share, a tie within θ."""
        return neuro_claim(
            cid,
            task,
            f"ΔFVU({names[first]}) > ΔFVU({names[second]})",
            f"h({names[first]}) − h({names[second]})",
            lambda r: h(r, first) - h(r, second),
            "greater",
            0.0,
            theta,
            reported(task, first) - reported(task, second),
            printed=((first, "delta_fvu"), (second, "delta_fvu")),
        )

    grey_pairs = (("none", "T_CC"), ("T_RR", "T_RR+T_CC"), ("T_CR", "T_CR+T_CC"))
    grey_pairs += (("T_RR+T_CR", "T_RR+T_CR+T_CC"),)
    copy_share = {s: reported("copy", s) for s in paper.FIG1_ORDER}
    claims = [
        copy_claim(
            "copy_T_CC_harmless",
            "Figure 1",
            "dense_orthogonal",
            "−T_CC is harmless: it takes less than θ of the learned accuracy",
            "h(−T_CC)",
            lambda r: h(r, "T_CC"),
            "within",
            theta,
            paper_value=copy_share["T_CC"],
            block="T_CC",
            reads_block=True,
            printed=(("T_CC", "accuracy"),),
        ),
        copy_claim(
            "copy_T_CR_harmful",
            "Figure 1",
            "dense_orthogonal",
            "−T_C→R is harmful: it takes more than θ of the learned accuracy",
            "h(−T_C→R)",
            lambda r: h(r, "T_CR"),
            "greater",
            theta,
            paper_value=copy_share["T_CR"],
            block="T_CR",
            reads_block=True,
            printed=(("T_CR", "accuracy"),),
        ),
        copy_claim(
            "copy_T_RR_between",
            "Figure 1",
            "dense_orthogonal",
            "−T_RR lies between: acc(−T_C→R) < acc(−T_RR) < acc(−T_CC)",
            "min(h(−T_C→R) − h(−T_RR), h(−T_RR) − h(−T_CC))",
            lambda r: min(h(r, "T_CR") - h(r, "T_RR"), h(r, "T_RR") - h(r, "T_CC")),
            "greater",
            0.0,
            paper_value=min(
                copy_share["T_CR"] - copy_share["T_RR"], copy_share["T_RR"] - copy_share["T_CC"]
            ),
            printed=(("T_CR", "accuracy"), ("T_RR", "accuracy"), ("T_CC", "accuracy")),
        ),
        copy_claim(
            "copy_adding_T_CC_changes_little",
            "Figure 1 (grey segments)",
            "dense_orthogonal",
            "Adding −T_CC to any ablation set changes accuracy by less than θ of the learned",
            "max over S of |h(S + T_CC) − h(S)|",
            lambda r: max(abs(h(r, b) - h(r, a)) for a, b in grey_pairs),
            "within",
            theta,
            paper_value=max(abs(copy_share[b] - copy_share[a]) for a, b in grey_pairs),
            printed=(("T_RR", "accuracy"), ("T_RR+T_CC", "accuracy")),
        ),
        copy_claim(
            "copy_cayley_inert",
            "Figure 1",
            "cayley",
            "Cayley: every ablation is inert (less than θ of the learned accuracy)",
            "max over S of |h(S)|",
            lambda r: max(abs(h(r, s)) for s in r["subset"].unique() if s != "none"),
            "within",
            theta,
            basis=cayley,
            printed=(("T_CR", "accuracy"),),
            reads=COUPLING_BLOCKS,  # every set: each single block among them
        ),
    ]
    for construction in ("dense_orthogonal", "cayley"):
        n_R_id = f"table1_{construction}_n_R_constant"
        claims += [
            copy_claim(
                n_R_id,
                "Table 1",
                construction,
                f"{NAMES[construction]}: n_R is the same for α = 0.85, 0.9, 0.95",
                "max − min of n_R over α",
                lambda r: _spread_over_alpha(r, ("none",), "n_R"),
                "within",
                0.0,  # a claim of the data for both: normality empties the couplings, it
                # does not fix how many eigenvalues lie above αρ
                printed=(("none", "n_R"),),
            ),
            copy_claim(
                f"table1_{construction}_scores_constant",
                "Table 1",
                construction,
                f"{NAMES[construction]}: −T_CC and −T_C→R accuracies do not change with α",
                "max over {−T_CC, −T_C→R} of (max − min of h over α)",
                lambda r: _spread_over_alpha(r, ("T_CC", "T_CR"), share),
                "within",
                theta,
                basis=cayley if construction == "cayley" else f"{IMPLIED}{n_R_id}",
                printed=(("T_CR", "accuracy"),),
                reads=("T_CC",),
            ),
        ]
    claims += [
        neuro_claim(
            "flip_flop_T_CC_harmful",
            "flip_flop",
            "−T_CC is harmful: it takes more than θ of the learned performance (the paper: "
            "ΔFVU 0.0496, 10× its full FVU)",
            "h(−T_CC)",
            lambda r: h(r, "T_CC"),
            "greater",
            theta,
            None,
            reported("flip_flop", "T_CC"),
            block="T_CC",
            reads_block=True,
            printed=(("T_CC", "delta_fvu"),),
        ),
        ordering("flip_flop_T_CR_above_T_CC", "flip_flop", "T_CR", "T_CC"),
        neuro_claim(
            "flip_flop_T_CC_much_above_T_RR",
            "flip_flop",
            f"ΔFVU(−T_CC) ≫ ΔFVU(−T_RR) (≫: at least {much_greater:g}×)",
            f"h(−T_CC) − {much_greater:g}·max(h(−T_RR), 0)",
            lambda r: h(r, "T_CC") - much_greater * max(h(r, "T_RR"), 0.0),
            "greater",
            0.0,
            None,  # no tie to decide: ≫ is about a ratio
            math.nan,  # the paper: −T_RR "almost none", no number
            block="T_RR",  # with no mass in T_RR the claim compares with nothing
            printed=(("T_CC", "delta_fvu"), ("T_RR", "delta_fvu")),
        ),
        neuro_claim(
            "sine_both_destroy",
            "sine",
            "−T_CC and −T_C→R both destroy the output (worse than predicting the mean: h > 1)",
            "min(h(−T_CC), h(−T_C→R))",
            lambda r: min(h(r, "T_CC"), h(r, "T_CR")),
            "greater",
            1.0,
            None,
            min(reported("sine", "T_CC"), reported("sine", "T_CR")),
            printed=(("T_CC", "delta_fvu"), ("T_CR", "delta_fvu")),
        ),
        ordering("sine_T_CC_above_T_CR", "sine", "T_CC", "T_CR"),
        neuro_claim(
            "sine_S_T_CR_above_T_CC",
            "sine",
            "S_ΔT(−T_C→R) > S_ΔT(−T_CC)",
            "S(−T_C→R) − S(−T_CC), S = h / removed mass",
            lambda r: share_per_mass(r, "T_CR") - share_per_mass(r, "T_CC"),
            "greater",
            0.0,
            margin_s_delta_t,
            paper.reported_share_per_mass("sine", "T_CR")
            - paper.reported_share_per_mass("sine", "T_CC"),
            printed=(("T_CR", "s_delta_t"), ("T_CC", "s_delta_t")),
        ),
        neuro_claim(
            "sine_T_RR_changes_little",
            "sine",
            "−T_RR changes little (less than θ of the learned performance)",
            "h(−T_RR)",
            lambda r: h(r, "T_RR"),
            "within",
            theta,
            None,
            math.nan,  # the paper: "little", no number
            block="T_RR",
            reads_block=True,
            printed=(("T_RR", "delta_fvu"),),
        ),
        ordering("context_T_CC_above_T_CR", "context_integration", "T_CC", "T_CR"),
    ]
    return claims


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


def basis_line(tolerance: float) -> str:
    """What *basis-dependent* beside a count of solutions means, at the ``tolerance`` the run
    checked."""
    return (
        f"A solution (seed) counted *basis-dependent*: removing its T_RR or T_CC alone at α "
        f"moves the harm by more than θ between random orders of its Schur modes whose moduli "
        f"lie within {tolerance:g}·ρ of each other, an order nothing in the network fixes; it "
        f"is counted as it reads in the canonical order (whether that order moves the claim's "
        f"own number is not checked)."
    )


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


def claims_grid_markdown(table: pd.DataFrame, column: str, basis: bool = False) -> str:
    """Claim × each value of ``column`` (a variation, an N_h): seeds agreeing and the verdict
    (— where that value does not train the claim's task). With ``basis`` (a study's own ledger,
    as the scale study's claims per N_h), a column says which claims are true by construction
    or implied by another where any is, as the claims table does: a claim whose basis differs
    between values of ``column`` takes a row per basis, side by side."""
    values = list(dict.fromkeys(table[column]))
    names = {"n_hidden": "N_h = {}"}
    with_basis = basis and bool(table["basis"].ne(DATA).any())
    lines = [
        "| claim | "
        + ("basis | " if with_basis else "")
        + " | ".join(names.get(column, "{}").format(v) for v in values)
        + " |",
        "|---|" + "---|" * (len(values) + with_basis),
    ]
    order = {claim: k for k, claim in enumerate(dict.fromkeys(table["claim"]))}
    keys = ["claim", "basis"] if with_basis else ["claim"]
    groups = table.groupby(keys, sort=False)
    for key, rows in sorted(groups, key=lambda group: order[group[0][0]]):
        cell = {
            getattr(r, column): f"{r.n_agree}/{r.n_seeds} {r.verdict}"
            + (f" ({r.n_learned}/{r.n_trained} learned)" if r.n_learned < r.n_trained else "")
            for r in rows.itertuples()
        }
        first = f"| {key[0]} | " + (f"{basis_cell(key[1])} | " if with_basis else "")
        lines.append(first + " | ".join(cell.get(v, "—") for v in values) + " |")
    return "\n".join(lines) + "\n"


def basis_cell(basis: str) -> str:
    """'data', 'by construction' or 'implied' (the note under the table says by which claim)."""
    if basis.startswith(IMPLIED):
        return IMPLIED.strip()
    return "data" if basis == DATA else basis.split(":")[0]


def paper_cell(r) -> str:
    """The paper's value of a claim's statistic and its agreement, e.g. '8.78: differs (0.066×)'
    or '0.0498: agrees'; '—' where the paper gives no number. Where it differs from our mean
    yet lies among our seeds' own values (the paper reads single solutions), it says so: '0.722:
    differs (1.2×), within our seeds' range'."""
    if not np.isfinite(r.paper_value):
        return "—"
    if r.agreement not in (Verdict.AGREES, Verdict.DIFFERS):
        return f"{r.paper_value:.3g}"  # fewer than two seeds: no interval to set it beside
    cell = f"{r.paper_value:.3g}: {r.agreement}"
    if r.agreement == Verdict.DIFFERS and np.isfinite(r.paper_factor):
        cell += f" ({r.paper_factor:.2g}×)"
    # the seeds' range (none in a claims table made before 0.6)
    low, high = getattr(r, "seed_min", np.nan), getattr(r, "seed_max", np.nan)
    if r.agreement == Verdict.DIFFERS and low <= r.paper_value <= high:
        cell += ", within our seeds' range"
    return cell


def claims_markdown(table: pd.DataFrame, basis_tolerance: float | None = None) -> str:
    """The claims table as Markdown: claim, basis, statistic, per-seed values, models learned
    of trained, agreement, interval, its minimum detectable effect, the paper's value and its
    agreement, sign test and verdict, with the seeds whose reading is basis-dependent beside
    it (and, where any is, what that means at ``basis_tolerance``, the run's largest). The
    claims of tasks the run does not train are named in one line below the table, not as
    rows."""
    lines = [
        "| task | claim | basis | source | N_h | statistic | per seed | learned | agree | "
        "mean [interval] | MDE | paper | sign p | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    tested = table[table["n_trained"] > 0]
    for r in tested.itertuples(index=False):
        seeds = ", ".join(f"{v:.3g}" for v in r.per_seed.values()) or "—"
        interval = "—" if np.isnan(r.mean) else f"{r.mean:.3g}"
        if np.isfinite(r.ci_low):
            interval += f" [{r.ci_low:.3g}, {r.ci_high:.3g}]"
        bound = f" {'>' if r.kind == 'greater' else 'within ±'} {r.bound:g}"
        minimum = f"{r.mde:.2g}" if np.isfinite(r.mde) else "—"
        lines.append(
            f"| {TASK_NAMES.get(r.task, r.task)} | {r.claim} | {basis_cell(r.basis)} | "
            f"{r.source} | {int(r.n_hidden)} | {r.statistic}{bound} | {seeds} | "
            f"{r.n_learned}/{r.n_trained} | {r.n_agree}/{r.n_seeds} | {interval} | {minimum} | "
            f"{paper_cell(r)} | {r.sign_test_p:.3g} | **{r.verdict}**{_basis_seeds(r)} |"
        )
    untested = table[table["n_trained"] == 0]
    if len(untested):
        tasks = ", ".join(TASK_NAMES.get(t, t) for t in dict.fromkeys(untested["task"]))
        lines += [
            "",
            f"Not tested here ({len(untested)} claims): this run trains no {tasks} model.",
        ]
    flagged = getattr(tested, "n_basis_dependent", pd.Series(dtype=int)).fillna(0) > 0
    checked = getattr(tested, "n_basis_checked", pd.Series(dtype=int)).fillna(0) > 0
    if flagged.any() and basis_tolerance is not None:
        lines += ["", basis_line(basis_tolerance)]
    elif len(tested) and not checked.any():
        lines += [
            "",
            "This run did not check the basis dependence (beyond analysis `basis_dependence`): "
            "no seed is marked basis-dependent, which says nothing of whether one is.",
        ]
    words = dict(zip(table["claim_id"], table["claim"], strict=True))
    notes = tested[tested["basis"] != DATA].drop_duplicates("basis")
    if len(notes):
        lines += [
            "",
            *(f"- {r.claim}: {_basis_words(r.basis, words)}." for r in notes.itertuples()),
        ]
    return "\n".join(lines) + "\n"


def _basis_seeds(r) -> str:
    """' (2 of 10 seeds basis-dependent)' beside a verdict where any is; '' otherwise (and in a
    claims table made before the flag)."""
    flagged = getattr(r, "n_basis_dependent", 0)
    if not flagged or pd.isna(flagged):
        return ""
    return f" ({int(flagged)} of {int(r.n_basis_checked)} seeds basis-dependent)"


def _basis_words(basis: str, words: dict[str, str]) -> str:
    """A claim's basis with the claim it is implied by named in its words, not its id."""
    if basis.startswith(IMPLIED):
        return f"implied by «{words.get(basis[len(IMPLIED) :], basis[len(IMPLIED) :])}»"
    return basis


PAPER_SEEDS = 3
"""The seeds behind each of the paper's Figure 2 means."""
RAW_THRESHOLD = 0.1
"""The threshold of the raw score change that decided fragile and harmless before the verdicts
had one scale (an FVU, an accuracy and a κ alike): the comparison column of
:func:`paper_readings`."""


def _planted_seeds(mean: float, sem: float) -> np.ndarray:
    """Three values with the paper's mean and SEM (mean + SEM·√3·(−1, 0, 1)), or the mean alone
    where it gives no SEM (a single controller, or words)."""
    if not np.isfinite(sem):
        return np.array([mean])
    return mean + sem * np.sqrt(PAPER_SEEDS) * np.array([-1.0, 0.0, 1.0])


def paper_readings(thresholds: Thresholds) -> pd.DataFrame:
    """The paper's own numbers run through the verdict rules: per single-block ablation that
    the paper reads (:data:`rnnschur.studies.paper.reported.READINGS`), its raw Δ and SEM, its harm
    share, the verdict on the harm-share scale (three seeds with the paper's mean and SEM where
    it gives them, :func:`rnnschur.studies.verdicts.block_verdict`; else the share alone,
    :func:`rnnschur.studies.verdicts.point_verdict`), the verdict the raw change at
    :data:`RAW_THRESHOLD` gives by the same rules, and the paper's reading. A word ("almost
    none", "little") enters as a share of 0. The paper gives no removed mass: every block
    counts as holding some."""
    raw_thresholds = Thresholds(
        RAW_THRESHOLD, thresholds.mass_floor, thresholds.level, thresholds.power
    )
    rows = []
    for task, subset, reading, where in paper.READINGS:
        if task == "copy":
            full = paper.reported_value("copy", "none", "accuracy")
            raw = full - paper.reported_value("copy", subset, "accuracy")
            sem = np.nan
        else:
            raw = paper.reported_value(task, subset, "delta_fvu")
            sem = paper.reported_sem(task, subset, "delta_fvu")
        raw = 0.0 if np.isnan(raw) else raw  # words: "almost none", "little"
        scale = raw / paper.reported_share(task, subset) if raw else 1.0
        calls = []
        for values, t in (
            (_planted_seeds(raw, sem) / scale, thresholds),
            (_planted_seeds(raw, sem), raw_thresholds),
        ):
            if len(values) > 1:
                calls.append(block_verdict(values, np.ones(len(values)), t).verdict)
            else:
                calls.append(point_verdict(float(values[0]), 1.0, t))
        rows.append(
            {
                "task": task,
                "block": subset,
                "paper_delta": raw,
                "paper_sem": sem,
                "harm_share": raw / scale,
                "verdict": calls[0],
                "verdict_raw": calls[1],
                "paper_reading": reading,
                "where": where,
                "agrees": calls[0] == reading,
            }
        )
    return pd.DataFrame(rows)


def paper_readings_markdown(table: pd.DataFrame, thresholds: Thresholds) -> str:
    """The paper's numbers through the rules, as Markdown, with a sentence that counts."""
    same = int(table["agrees"].sum())
    raw_same = int((table["verdict_raw"] == table["paper_reading"]).sum())
    lines = [
        f"The paper's own numbers, run through the verdict rules: on the harm-share scale "
        f"(θ = {thresholds.threshold:g}) {same} of {len(table)} verdicts are the paper's own "
        f"readings; on the raw score change at {RAW_THRESHOLD:g} (an FVU and an accuracy "
        f"alike) {raw_same} of {len(table)}.",
        "",
        "| task | block | paper's Δ | SEM | harm share | verdict | raw Δ at "
        f"{RAW_THRESHOLD:g} | the paper reads | where |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in table.itertuples(index=False):
        sem = "—" if np.isnan(r.paper_sem) else f"{r.paper_sem:.3g}"
        lines.append(
            f"| {r.task} | {label(r.block)} | {r.paper_delta:.3g} | {sem} | "
            f"{r.harm_share:.3g} | **{r.verdict}** | {r.verdict_raw} | {r.paper_reading} | "
            f"{r.where} |"
        )
    return "\n".join(lines) + "\n"
