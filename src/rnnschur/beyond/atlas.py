"""The coupling atlas (presets/atlas.yaml): which Schur couplings matter across the field's
tasks, network descriptions and sizes, every verdict decided over the whole atlas at once.

A row of the atlas is one task, network description, construction, N_h and coupling block
(T_RR, T_C→R, T_CC of eq. 5). Its premise is the models that learned their task
(:mod:`rnnschur.learned`): a row with fewer than ``min_models`` of them says
:data:`rnnschur.learned.TOO_FEW`, one whose block has no mass in any model *empty*. For the
rest, two tests of the harm of removing the block at α (accuracy or choice lost, FVU gained;
:func:`rnnschur.paper.claims.block_harms`) over its learned models:

- *fragile*: the one-sided t test of mean harm > ``fragile_effect`` (:func:`p_fragile`);
- *harmless*: the equivalence test |mean harm| < ``fragile_effect`` (two one-sided t tests,
  :func:`rnnschur.paper.claims.tost`): the equivalence verdict.

The atlas holds hundreds of such tests; at 5 % each, about one in twenty decided rows would be
chance. Every p-value of every decidable row enters one family, controlled by the
Benjamini–Hochberg step-up procedure at false-discovery rate ``fdr`` (:func:`benjamini_hochberg`):
a row is fragile (harmless) when its adjusted p-value is at most ``fdr``, else inconclusive.
(Benjamini–Hochberg controls the rate for independent or positively dependent tests; a row's
two tests are negatively dependent, at most one of them can reject, and rows of one task share
its held-out trials: the rate is the procedure's nominal one, not a proven bound.)
Beside the adjusted verdict each row keeps its own two-sided t interval and the verdict that
interval alone gives (:func:`rnnschur.paper.claims.block_profile`), unadjusted.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import stdtr

from rnnschur import tasks
from rnnschur.learned import TOO_FEW
from rnnschur.paper.claims import block_harms, block_profile, tost

KEYS = ["task", "construction", "n_hidden", "subset"]
"""A row of the block profile; the atlas splits its task into task and description."""


def p_fragile(harm: np.ndarray, effect: float) -> float:
    """One-sided t test of mean harm > ``effect``: P(T_{n−1} ≥ (mean − effect)/se). NaN for
    fewer than two values; where they do not vary, 0 if the mean exceeds ``effect``, else 1."""
    n = len(harm)
    if n < 2:
        return np.nan
    mean, sd = float(np.mean(harm)), float(np.std(harm, ddof=1))
    if sd == 0:
        return 0.0 if mean > effect else 1.0
    return float(stdtr(n - 1, -(mean - effect) / (sd / np.sqrt(n))))


def benjamini_hochberg(p: np.ndarray) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (Benjamini & Hochberg 1995) of the finite entries of
    ``p`` as one family (NaN stays NaN): q_(i) = min_{j ≥ i} m p_(j) / j over the m p-values in
    ascending order, capped at 1. Rejecting every q ≤ f controls the false-discovery rate at f
    for independent or positively dependent tests."""
    p = np.asarray(p, dtype=float)
    q = np.full(p.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(p))
    m = len(finite)
    if m == 0:
        return q
    order = finite[np.argsort(p[finite], kind="stable")]
    scaled = p[order] * m / np.arange(1, m + 1)
    q[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return q


def split_instance(name: str) -> tuple[str, str]:
    """(task, description) of an atlas block ``<task>__<description>``; a plain task's
    description is ''."""
    task = tasks.task_of(name)
    return task, name[len(task) + len(tasks.INSTANCE) :] if name != task else ""


def atlas_table(
    ablation: pd.DataFrame,
    alpha: float,
    level: float,
    fragile_effect: float,
    fdr: float,
    min_models: int,
    words: dict[str, str],
) -> pd.DataFrame:
    """The atlas: one row per task, description, construction, N_h and coupling block, with
    n learned / n trained, the mean harm and its own (1 − ``level``) t interval, the verdict
    that interval gives alone (``row_verdict``), the mean removed Schur mass, the p-values of
    the fragile and the equivalence (harmless) tests, their Benjamini–Hochberg adjusted values
    over the whole atlas (``q_fragile``, ``q_harmless``) and the verdict at false-discovery
    rate ``fdr``. ``words``: each description in a few words."""
    profile = block_profile(ablation, alpha, level, fragile_effect, min_models)
    harms = block_harms(ablation, alpha)
    learned = harms[harms["learned"].astype(bool)]
    groups = {
        key: g.sort_values("seed")["harm"].to_numpy(float) for key, g in learned.groupby(KEYS)
    }
    decidable = ~profile["verdict"].isin([TOO_FEW, "empty"])
    fragile, harmless = [], []
    for row, ok in zip(profile[KEYS].itertuples(index=False), decidable, strict=True):
        harm = groups.get(tuple(row), np.array([]))
        fragile.append(p_fragile(harm, fragile_effect) if ok else np.nan)
        harmless.append(tost(harm, fragile_effect, level) if ok else np.nan)
    q = benjamini_hochberg(np.concatenate([fragile, harmless]))
    table = profile.rename(columns={"verdict": "row_verdict", "subset": "block"})
    parts = [split_instance(t) for t in table["task"]]
    table.insert(0, "description", [d for _, d in parts])
    table["task"] = [t for t, _ in parts]
    table.insert(2, "words", [words.get(d, d) for _, d in parts])
    table["p_fragile"], table["p_harmless"] = fragile, harmless
    table["q_fragile"], table["q_harmless"] = q[: len(profile)], q[len(profile) :]
    verdict = np.where(
        table["q_fragile"] <= fdr,
        "fragile",
        np.where(table["q_harmless"] <= fdr, "harmless", "inconclusive"),
    )
    table["verdict"] = np.where(decidable, verdict, table["row_verdict"])
    table["fdr"] = fdr
    table["tests"] = int(np.isfinite(q).sum())
    columns = ["task", "description", "words", "construction", "n_hidden", "block", "metric"]
    return table[columns + [c for c in table.columns if c not in columns]]


def atlas_markdown(table: pd.DataFrame) -> str:
    """The atlas as Markdown: one line per task, construction, description and N_h, with its
    models learned of trained and, per block, the mean harm [its own interval], the adjusted
    verdict and the removed mass; a paragraph above says how the verdicts were decided."""
    blocks = list(dict.fromkeys(table["block"]))
    fdr, tests = table["fdr"].iloc[0], int(table["tests"].iloc[0])
    decided = table[table["verdict"].isin(["fragile", "harmless"])]
    alone = table[table["row_verdict"].isin(["fragile", "harmless"])]
    lines = [
        f"Verdicts decided over the whole atlas: Benjamini–Hochberg at a false-discovery rate of "
        f"{fdr:g} over its {tests} tests (per row with enough learned models: fragile, the "
        "one-sided t test of mean harm above the effect; harmless, the equivalence test of "
        "|mean harm| below it). Beside each verdict the row's own two-sided t interval, not "
        f"adjusted. {len(decided)} of {len(table)} rows decided (by their own intervals alone: "
        f"{len(alone)}).",
        "",
        "| task | construction | description | N_h | learned | "
        + " | ".join(f"{b}: harm [interval] verdict (mass)" for b in blocks)
        + " |",
        "|---|---|---|---|---|" + "---|" * len(blocks),
    ]
    keys = ["task", "construction", "description", "n_hidden"]
    for key, rows in table.groupby(keys, sort=False):
        cells = []
        by_block = rows.set_index("block")
        for block in blocks:
            if block not in by_block.index:
                cells.append("—")
                continue
            r = by_block.loc[block]
            if r["verdict"] == TOO_FEW:
                cells.append(TOO_FEW)
                continue
            interval = (
                f" [{r['ci_low']:.3g}, {r['ci_high']:.3g}]" if np.isfinite(r["ci_low"]) else ""
            )
            cells.append(
                f"{r['harm_mean']:.3g}{interval} **{r['verdict']}** ({r['mass_removed']:.2g})"
            )
        first = rows.iloc[0]
        lines.append(
            f"| {key[0]} | {key[1]} | {first['words']} | {key[3]} | "
            f"{first['n_learned']}/{first['n_trained']} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines) + "\n"
