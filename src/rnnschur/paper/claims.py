"""The paper's claims as statistics over seeds, each with a test and a verdict.

A claim is a per-model statistic (computed from that model's rows of the ablation table) and a
bound: ``greater`` claims say the statistic exceeds the bound, ``within`` claims say its size
stays within it. Over the seeds of the paper's task, construction and N_h, the verdict comes from
a two-sided Student t interval of the mean at ``level``: a claim *holds* where the whole interval
satisfies it, *fails* where the whole interval contradicts it, and is *inconclusive* otherwise
(always so for fewer than two seeds). The exact one-sided sign test of how many seeds agree is
reported beside it; with 3 seeds it cannot go below 0.125, which is why the interval decides.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import stdtr, stdtrit

from rnnschur.learned import TOO_FEW
from rnnschur.paper import reported as paper
from rnnschur.schur import COUPLING_BLOCKS

PAPER_ALPHA = 0.9
TABLE1_ALPHAS = (0.85, 0.9, 0.95)


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
    equal, so that a tie is decided ("equivalent") rather than left inconclusive."""
    paper_value: float = math.nan
    """The statistic computed from the paper's reported means, where it reports both sides."""


def value(rows: pd.DataFrame, subset: str, column: str, alpha: float = PAPER_ALPHA) -> float:
    """``column`` of one model's row for ``subset`` at ``alpha`` (NaN if absent)."""
    pick = rows[(rows["subset"] == subset) & np.isclose(rows["alpha"], alpha)][column]
    return float(pick.iloc[0]) if len(pick) else np.nan


def _spread_over_alpha(rows: pd.DataFrame, subsets: tuple[str, ...], column: str) -> float:
    """Largest range (max − min) of ``column`` over the Table 1 alphas, over ``subsets``."""
    ranges = []
    for subset in subsets:
        values = [value(rows, subset, column, a) for a in TABLE1_ALPHAS]
        if np.isnan(values).any():
            return np.nan
        ranges.append(max(values) - min(values))
    return max(ranges)


def paper_claims(
    tolerance_accuracy: float,
    much_greater: float,
    margin_delta_fvu: float = 0.01,
    margin_s_delta_t: float = 1.0,
) -> list[Claim]:
    """The claims of the paper that the reproduction can test (config keys
    ``claims.tolerance_accuracy``: the largest accuracy change that counts as "harmless" or
    "unchanged", the equivalence margin of those claims; ``claims.much_greater``: the factor
    that ``≫`` stands for; ``claims.margin_delta_fvu`` and ``claims.margin_s_delta_t``: the
    margins within which two ΔFVUs or two S_ΔTs count as a tie)."""
    acc, dfvu, tol = "accuracy", "delta_fvu", tolerance_accuracy
    reported = paper.reported_value

    def copy_claim(cid, source, construction, words, stat_words, stat, kind, bound):
        return Claim(cid, source, words, "copy", construction, 72, stat_words, stat, kind, bound)

    def neuro_claim(cid, task, words, stat_words, stat, kind, bound, margin, paper_value):
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
        )

    grey_pairs = (("none", "T_CC"), ("T_RR", "T_RR+T_CC"), ("T_CR", "T_CR+T_CC"))
    grey_pairs += (("T_RR+T_CR", "T_RR+T_CR+T_CC"),)
    claims = [
        copy_claim(
            "copy_T_CC_harmless",
            "Figure 1",
            "dense_orthogonal",
            "−T_CC is harmless: accuracy within the tolerance of the full model",
            "acc(−T_CC) − acc(full)",
            lambda r: value(r, "T_CC", acc) - value(r, "none", acc),
            "within",
            tol,
        ),
        copy_claim(
            "copy_T_CR_harmful",
            "Figure 1",
            "dense_orthogonal",
            "−T_C→R is harmful: accuracy drops by more than the tolerance",
            "acc(full) − acc(−T_C→R)",
            lambda r: value(r, "none", acc) - value(r, "T_CR", acc),
            "greater",
            tol,
        ),
        copy_claim(
            "copy_T_RR_between",
            "Figure 1",
            "dense_orthogonal",
            "−T_RR lies between: acc(−T_C→R) < acc(−T_RR) < acc(−T_CC)",
            "min(acc(−T_RR) − acc(−T_C→R), acc(−T_CC) − acc(−T_RR))",
            lambda r: min(
                value(r, "T_RR", acc) - value(r, "T_CR", acc),
                value(r, "T_CC", acc) - value(r, "T_RR", acc),
            ),
            "greater",
            0.0,
        ),
        copy_claim(
            "copy_adding_T_CC_changes_little",
            "Figure 1 (grey segments)",
            "dense_orthogonal",
            "Adding −T_CC to any ablation set changes accuracy by less than the tolerance",
            "max over S of |acc(S + T_CC) − acc(S)|",
            lambda r: max(abs(value(r, b, acc) - value(r, a, acc)) for a, b in grey_pairs),
            "within",
            tol,
        ),
        copy_claim(
            "copy_cayley_inert",
            "Figure 1",
            "cayley",
            "Cayley: every ablation is inert (accuracy within the tolerance of the full model)",
            "max over S of |acc(S) − acc(full)|",
            lambda r: max(
                abs(value(r, s, acc) - value(r, "none", acc))
                for s in r["subset"].unique()
                if s != "none"
            ),
            "within",
            tol,
        ),
    ]
    for construction in ("dense_orthogonal", "cayley"):
        claims += [
            copy_claim(
                f"table1_{construction}_n_R_constant",
                "Table 1",
                construction,
                f"{construction}: n_R is the same for α = 0.85, 0.9, 0.95",
                "max − min of n_R over α",
                lambda r: _spread_over_alpha(r, ("none",), "n_R"),
                "within",
                0.0,
            ),
            copy_claim(
                f"table1_{construction}_scores_constant",
                "Table 1",
                construction,
                f"{construction}: full, −T_CC and −T_C→R accuracies do not change with α",
                "max over {full, −T_CC, −T_C→R} of (max − min accuracy over α)",
                lambda r: _spread_over_alpha(r, ("none", "T_CC", "T_CR"), acc),
                "within",
                tol,
            ),
        ]
    claims += [
        neuro_claim(
            "flip_flop_T_CR_above_T_CC",
            "flip_flop",
            "ΔFVU(−T_C→R) > ΔFVU(−T_CC)",
            "ΔFVU(−T_C→R) − ΔFVU(−T_CC)",
            lambda r: value(r, "T_CR", dfvu) - value(r, "T_CC", dfvu),
            "greater",
            0.0,
            margin_delta_fvu,
            reported("flip_flop", "T_CR", dfvu) - reported("flip_flop", "T_CC", dfvu),
        ),
        neuro_claim(
            "flip_flop_T_CC_much_above_T_RR",
            "flip_flop",
            f"ΔFVU(−T_CC) ≫ ΔFVU(−T_RR) (≫: at least {much_greater:g}×)",
            f"ΔFVU(−T_CC) − {much_greater:g}·max(ΔFVU(−T_RR), 0)",
            lambda r: value(r, "T_CC", dfvu) - much_greater * max(value(r, "T_RR", dfvu), 0.0),
            "greater",
            0.0,
            None,  # no tie to decide: ≫ is about a ratio, ΔFVUs below the margin say nothing
            math.nan,  # the paper: −T_RR "almost none", no number
        ),
        neuro_claim(
            "sine_both_destroy",
            "sine",
            "−T_CC and −T_C→R both destroy the output (ΔFVU > 1)",
            "min(ΔFVU(−T_CC), ΔFVU(−T_C→R))",
            lambda r: min(value(r, "T_CC", dfvu), value(r, "T_CR", dfvu)),
            "greater",
            1.0,
            None,
            min(reported("sine", "T_CC", dfvu), reported("sine", "T_CR", dfvu)),
        ),
        neuro_claim(
            "sine_S_T_CR_above_T_CC",
            "sine",
            "S_ΔT(−T_C→R) > S_ΔT(−T_CC)",
            "S_ΔT(−T_C→R) − S_ΔT(−T_CC)",
            lambda r: value(r, "T_CR", "s_delta_t") - value(r, "T_CC", "s_delta_t"),
            "greater",
            0.0,
            margin_s_delta_t,
            reported("sine", "T_CR", "s_delta_t") - reported("sine", "T_CC", "s_delta_t"),
        ),
        neuro_claim(
            "context_T_CC_above_T_CR",
            "context_integration",
            "ΔFVU(−T_CC) > ΔFVU(−T_C→R)",
            "ΔFVU(−T_CC) − ΔFVU(−T_C→R)",
            lambda r: value(r, "T_CC", dfvu) - value(r, "T_CR", dfvu),
            "greater",
            0.0,
            margin_delta_fvu,
            reported("context_integration", "T_CC", dfvu)
            - reported("context_integration", "T_CR", dfvu),
        ),
    ]
    return claims


def satisfies(x: float | np.ndarray, kind: str, bound: float) -> bool | np.ndarray:
    """Whether a value satisfies a claim of ``kind`` and ``bound``."""
    if kind == "greater":
        return x > bound
    if kind == "within":
        return np.abs(x) <= bound
    raise ValueError(f"claim kind must be 'greater' or 'within', got {kind!r}")


def t_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """Two-sided Student t interval of the mean at confidence 1 − ``level``; NaN for fewer than
    two values; the point itself where the values do not vary."""
    n = len(values)
    if n < 2:
        return np.nan, np.nan
    half = stdtrit(n - 1, 1 - level / 2) * np.std(values, ddof=1) / np.sqrt(n)
    return float(np.mean(values) - half), float(np.mean(values) + half)


def verdict(low: float, high: float, kind: str, bound: float) -> str:
    """'holds' if the interval [low, high] lies inside the claim, 'fails' if it lies wholly
    outside it, else 'inconclusive' (also for an undefined interval)."""
    if np.isnan(low) or np.isnan(high):
        return "inconclusive"
    if kind == "greater":
        return "holds" if low > bound else ("fails" if high <= bound else "inconclusive")
    if kind == "within":
        if -bound <= low and high <= bound:
            return "holds"
        return "fails" if low > bound or high < -bound else "inconclusive"
    raise ValueError(f"claim kind must be 'greater' or 'within', got {kind!r}")


EQUIVALENT = "equivalent"
"""The verdict of an ordering whose two sides are equal within its margin (a decided tie)."""


def tost(values: np.ndarray, margin: float, level: float) -> float:
    """Two one-sided t tests of |mean| < ``margin`` (Schuirmann 1987): the larger of the
    one-sided p-values of mean > −margin and of mean < margin; equivalence at ``level`` when it
    is below it (the 1 − 2·level t interval lies inside ±margin). NaN for fewer than two
    values; where they do not vary, 0 if |mean| ≤ margin (a margin of 0: exactly equal), 1
    if not."""
    n = len(values)
    if n < 2:
        return np.nan
    mean, sd = float(np.mean(values)), float(np.std(values, ddof=1))
    if sd == 0:
        return 0.0 if abs(mean) <= margin else 1.0
    se = sd / np.sqrt(n)
    lower = stdtr(n - 1, -(mean + margin) / se)  # P(T ≥ (mean + margin)/se)
    upper = stdtr(n - 1, (mean - margin) / se)  # P(T ≤ (mean − margin)/se)
    return float(max(lower, upper))


def seeds_needed(
    values: np.ndarray, kind: str, bound: float, level: float, margin: float | None = None
) -> float:
    """How many seeds the observed mean and spread would need for the claim to be decided:
    the least n whose interval (1 − ``level``; for a tie or a ``within`` claim the 1 − 2·level
    interval of :func:`tost`) would clear the bound it has to clear. NaN below two values or
    where no seed count decides it (a mean on the bound); capped at 10⁶ (returned as inf)."""
    n = len(values)
    if n < 2:
        return np.nan
    mean, sd = float(np.mean(values)), float(np.std(values, ddof=1))
    targets = []
    if kind == "greater":
        targets.append((abs(mean - bound), 1 - level / 2))
        if margin is not None and abs(mean) < margin:
            targets.append((margin - abs(mean), 1 - level))
    else:
        targets.append((abs(abs(mean) - bound), 1 - level / 2 if abs(mean) > bound else 1 - level))
    grid = np.unique(np.geomspace(2, 1e6, 400).astype(int))
    best = np.inf
    for distance, quantile in targets:
        if distance == 0:
            continue
        if sd == 0:
            return float(n)
        half = stdtrit(grid - 1, quantile) * sd / np.sqrt(grid)
        ok = grid[half < distance]
        if len(ok):  # the least n on the integers between the grid point and the one before
            k = int(ok[0])
            m = np.arange(int(grid[max(0, np.searchsorted(grid, k) - 1)]), k + 1)
            best = min(best, int(m[stdtrit(m - 1, quantile) * sd / np.sqrt(m) < distance][0]))
    return float(best) if best < np.inf else np.inf


def sign_test(n_agree: int, n: int) -> float:
    """One-sided exact sign test: P(at least ``n_agree`` of ``n`` seeds agree | p = 1/2), the
    binomial tail Σ_{k ≥ n_agree} C(n, k) / 2^n, summed in integers and rounded once."""
    return sum(math.comb(n, k) for k in range(n_agree, n + 1)) / 2**n if n else np.nan


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


def evaluate_claims(
    ablation: pd.DataFrame, claims: list[Claim], level: float, min_models: int = 3
) -> pd.DataFrame:
    """One row per claim: the claim, its statistic, the per-seed values (JSON list, by seed) of
    the models that learned their task (the ``learned`` column; all, where the table has none),
    how many models learned of how many trained, how many seeds agree, the mean and its t
    interval, the sign test and the verdict. Claims whose models were not trained get verdict
    'not run'; claims with fewer than ``min_models`` learned models
    :data:`rnnschur.learned.TOO_FEW`."""
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
        low, high = t_interval(values, level)
        n_agree = int(np.sum(satisfies(values, claim.kind, claim.bound)))
        margin = claim.bound if claim.kind == "within" else claim.margin
        tost_p = tost(values, margin, level) if margin is not None else np.nan
        if n_trained == 0:
            call = "not run"
        elif len(per_seed) < min_models:
            call = TOO_FEW
        else:
            call = claim_verdict(low, high, tost_p, claim.kind, claim.bound, level)
        out.append(
            {
                "claim_id": claim.claim_id,
                "source": claim.source,
                "claim": claim.words,
                "task": claim.task,
                "construction": claim.construction,
                "n_hidden": n_hidden,
                "statistic": claim.statistic_words,
                "kind": claim.kind,
                "bound": claim.bound,
                "per_seed": json.dumps({str(k): round(v, 6) for k, v in per_seed.items()}),
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
                "tost_p": tost_p,
                "paper_value": claim.paper_value,
                "paper_in_interval": bool(low <= claim.paper_value <= high)
                if np.isfinite(claim.paper_value) and np.isfinite(low)
                else None,
                "seeds_needed": seeds_needed(values, claim.kind, claim.bound, level, margin)
                if call == "inconclusive"
                else np.nan,
                "verdict": call,
            }
        )
    return pd.DataFrame(out)


def claim_verdict(
    low: float, high: float, tost_p: float, kind: str, bound: float, level: float
) -> str:
    """A claim's verdict from its (1 − ``level``) t interval [low, high] and the p-value of its
    equivalence test: a ``within`` claim (harmless, inert, unchanged) *holds* when the two
    one-sided tests show |mean| < ``bound`` (:func:`tost`), *fails* when the interval lies
    wholly outside ±bound; an ordering (``greater``) *holds* or *fails* as :func:`verdict`
    says, and where it does neither but its sides are equal within its margin it is
    :data:`EQUIVALENT`; else *inconclusive*."""
    if kind == "within":
        if np.isfinite(tost_p) and tost_p < level:
            return "holds"
        return "fails" if verdict(low, high, kind, bound) == "fails" else "inconclusive"
    call = verdict(low, high, kind, bound)
    if call == "inconclusive" and np.isfinite(tost_p) and tost_p < level:
        return EQUIVALENT
    return call


def claims_per_variation(
    ablation: pd.DataFrame,
    variations: pd.DataFrame,
    claims: list[Claim],
    level: float,
    min_models: int = 3,
) -> pd.DataFrame:
    """The claims (:func:`evaluate_claims`) under the paper config (``variation`` =
    ``paper_config``, from ``ablation``) and under each variation of the gap study (its models'
    ablation rows, ``variations`` with a ``variation`` column); the claims a variation does not
    train are left out."""
    frames = [("paper_config", ablation)] + list(variations.groupby("variation", sort=False))
    out = []
    for name, rows in frames:
        table = evaluate_claims(rows, claims, level, min_models)
        out.append(table[table["n_trained"] > 0].assign(variation=name))
    return pd.concat(out, ignore_index=True)


def claims_by_size(
    ablation: pd.DataFrame, claims: list[Claim], level: float, min_models: int = 3
) -> pd.DataFrame:
    """The claims (:func:`evaluate_claims`) at every N_h the run trained for the claim's task
    and construction (the claims table tests the paper's N_h only): one row per claim and
    size; claims whose models were not trained are left out."""
    out = [
        evaluate_claims(rows, claims, level, min_models)
        for _, rows in ablation.groupby("n_hidden", sort=True)
    ]
    table = pd.concat(out, ignore_index=True)
    table = table[table["n_trained"] > 0].reset_index(drop=True)
    return table.astype({"n_hidden": int})


def claims_sensitivity(
    ablation: pd.DataFrame,
    tolerances: list[float],
    settings: dict,
    level: float,
    min_models: int = 3,
) -> pd.DataFrame:
    """The claims (:func:`evaluate_claims`) at each accuracy tolerance of ``tolerances`` (the
    bound of "harmless", "inert", "unchanged"), the other ``settings`` (config ``claims``) as
    they are: one row per claim and tolerance, the claims whose models were not trained left
    out."""
    out = []
    for tolerance in tolerances:
        ours = paper_claims(
            tolerance,
            settings["much_greater"],
            settings["margin_delta_fvu"],
            settings["margin_s_delta_t"],
        )
        table = evaluate_claims(ablation, ours, level, min_models)
        out.append(table[table["n_trained"] > 0].assign(tolerance_accuracy=tolerance))
    return pd.concat(out, ignore_index=True)


def claims_grid_markdown(table: pd.DataFrame, column: str) -> str:
    """Claim × each value of ``column`` (a variation, an N_h): seeds agreeing and the verdict
    (— where that value does not train the claim's task)."""
    values = list(dict.fromkeys(table[column]))
    names = {"n_hidden": "N_h = {}", "tolerance_accuracy": "tolerance {}"}
    lines = [
        "| claim | " + " | ".join(names.get(column, "{}").format(v) for v in values) + " |",
        "|---|" + "---|" * len(values),
    ]
    for claim, rows in table.groupby("claim", sort=False):
        cell = {
            getattr(r, column): f"{r.n_agree}/{r.n_seeds} {r.verdict}"
            + (f" ({r.n_learned}/{r.n_trained} learned)" if r.n_learned < r.n_trained else "")
            for r in rows.itertuples()
        }
        lines.append(f"| {claim} | " + " | ".join(cell.get(v, "—") for v in values) + " |")
    return "\n".join(lines) + "\n"


def claims_markdown(table: pd.DataFrame) -> str:
    """The claims table as Markdown: claim, statistic, per-seed values, models learned of
    trained, agreement, interval, the paper's value and whether the interval holds it, sign test,
    verdict, and for an inconclusive claim the seeds its observed spread would need. The claims
    of tasks the run does not train are named in one line below the table, not as rows."""
    lines = [
        "| claim | source | N_h | statistic | per seed | learned | agree | mean [interval] "
        "| paper (in interval) | sign p | verdict | seeds needed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    tested = table[table["n_trained"] > 0]
    for r in tested.itertuples(index=False):
        seeds = ", ".join(f"{v:.3g}" for v in json.loads(r.per_seed).values()) or "—"
        interval = "—" if np.isnan(r.mean) else f"{r.mean:.3g}"
        if np.isfinite(r.ci_low):
            interval += f" [{r.ci_low:.3g}, {r.ci_high:.3g}]"
        bound = f" {'>' if r.kind == 'greater' else 'within ±'} {r.bound:g}"
        paper_value = "—"
        if np.isfinite(r.paper_value):
            inside = {True: "yes", False: "no"}.get(r.paper_in_interval, "—")
            paper_value = f"{r.paper_value:.3g} ({inside})"
        needed = "—"
        if r.verdict == "inconclusive":
            needed = str(int(r.seeds_needed)) if np.isfinite(r.seeds_needed) else "> 10⁶"
        lines.append(
            f"| {r.claim} | {r.source} | {int(r.n_hidden)} | {r.statistic}{bound} | {seeds} | "
            f"{r.n_learned}/{r.n_trained} | {r.n_agree}/{r.n_seeds} | {interval} | "
            f"{paper_value} | {r.sign_test_p:.3g} | **{r.verdict}** | {needed} |"
        )
    untested = table[table["n_trained"] == 0]
    if len(untested):
        tasks = ", ".join(dict.fromkeys(untested["task"]))
        lines += [
            "",
            f"Not tested here ({len(untested)} claims): this run trains no {tasks} model.",
        ]
    return "\n".join(lines) + "\n"


def block_harms(ablation: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """The single coupling-block ablations at ``alpha`` with their ``harm``: accuracy or choice
    lost (a score that is higher when better), FVU gained; and a ``learned`` column (every
    model learned, where the table has none)."""
    rows = ablation[
        np.isclose(ablation["alpha"], alpha) & ablation["subset"].isin(COUPLING_BLOCKS)
    ].copy()
    rows["harm"] = np.where(rows["metric"] == "fvu", 1, -1) * rows["delta_score"]
    if "learned" not in rows:
        rows["learned"] = True
    return rows


def block_profile(
    ablation: pd.DataFrame, alpha: float, level: float, fragile_effect: float, min_models: int = 3
) -> pd.DataFrame:
    """The paper's picture for any task, tested over seeds: per task, construction, N_h and
    single coupling block at ``alpha``, the harm of removing the block (accuracy lost, or FVU
    gained) in the models that learned their task (the ``learned`` column; all, where the table
    has none), its mean and two-sided t interval over them (confidence 1 − ``level``), the mean
    Schur mass removed, the models in which the ablation is an ε-stabilizer and a verdict:
    *fragile* where the interval lies above ``fragile_effect`` (a fragile functional direction),
    *harmless* where it lies within ±``fragile_effect``, *empty* where no model's block has
    mass, :data:`rnnschur.learned.TOO_FEW` with fewer than ``min_models`` learned models, else
    *inconclusive*; ``n_learned`` of ``n_trained``."""
    rows = block_harms(ablation, alpha)
    out = []
    keys = ["task", "construction", "n_hidden", "subset"]
    for key, everyone in rows.groupby(keys, sort=False):
        group = everyone[everyone["learned"].astype(bool)]
        harm = group.sort_values("seed")["harm"].to_numpy(dtype=float)
        low, high = t_interval(harm, level)
        if len(group) < min_models:
            call = TOO_FEW
        elif (group["mass_removed"] == 0).all():
            call = "empty"
        elif verdict(low, high, "greater", fragile_effect) == "holds":
            call = "fragile"
        elif verdict(low, high, "within", fragile_effect) == "holds":
            call = "harmless"
        else:
            call = "inconclusive"
        out.append(
            dict(zip(keys, key, strict=True))
            | {
                "metric": everyone["metric"].iloc[0],
                "n_trained": len(everyone),
                "n_learned": len(group),
                "n_seeds": len(harm),
                "harm_mean": float(harm.mean()) if len(harm) else np.nan,
                "ci_low": low,
                "ci_high": high,
                "mass_removed": float(group["mass_removed"].mean()) if len(group) else np.nan,
                "n_stabilizer": int(group["stabilizer"].sum()),
                "verdict": call,
            }
        )
    return pd.DataFrame(out)
