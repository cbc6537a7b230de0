"""The paper's claims as statistics over seeds: the ledger.

A claim is a per-model statistic (computed from that model's rows of the ablation table) and a
bound: ``greater`` claims say the statistic exceeds the bound, ``within`` claims say its size
stays within it. Statistics of a score are taken on the harm-share scale of
:mod:`rnnschur.studies.verdicts` (the share of the learned performance an ablation removes), so that
"harmless" and "harmful" mean the same on a replay accuracy and on an FVU, with the threshold θ
(config ``verdicts.threshold``) as the bound of "harmless", "inert", "unchanged", "changes
little" and as the margin of a tie. Each claim is tested over the seeds of the paper's task,
construction and N_h by :mod:`rnnschur.studies.paper.claim_tests` and written as Markdown by
:mod:`rnnschur.studies.paper.claim_tables`.

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
from rnnschur.studies.verdicts import harm_share

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
    :func:`rnnschur.studies.paper.claim_tests.basis_blocks`)."""


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
