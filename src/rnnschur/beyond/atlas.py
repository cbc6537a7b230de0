"""The coupling atlas (presets/atlas.yaml): which Schur couplings matter across the field's
tasks, network descriptions and sizes, every verdict decided over the whole atlas at once.

A row of the atlas is one task, network description, construction, N_h and coupling block
(T_RR, T_C→R, T_CC of eq. 5). Its premise is the models that learned their task
(:mod:`rnnschur.learned`): a row with fewer than ``min_models`` of them says
:attr:`rnnschur.verdicts.Verdict.TOO_FEW`, one whose removed Schur mass is below the mass floor
*empty*. For the rest, two tests at the threshold θ of the harm share (the share of the learned
performance that removing the block at α takes away; :mod:`rnnschur.verdicts`, the same scale
for an FVU, a sign accuracy and a κ) over its learned models:

- *fragile*: the one-sided t test of mean share > θ (:func:`rnnschur.stats.p_greater`),
  doubled: a test at half the level, as the lower end of the two-sided interval that decides a
  row alone;
- *harmless*: the equivalence test |mean share| < θ (two one-sided t tests,
  :func:`rnnschur.stats.tost`).

The atlas holds hundreds of such tests; at 5 % each, about one in twenty decided rows would be
chance. Every p-value of every decidable row enters one family, controlled by the
Benjamini–Hochberg step-up procedure at false-discovery rate ``fdr``
(:func:`rnnschur.stats.benjamini_hochberg`): a row is fragile (harmless) when its adjusted
p-value is at most ``fdr``, else *underpowered* or *on the threshold* by its minimum detectable
effect (:func:`rnnschur.verdicts.undecided`).
(Benjamini–Hochberg controls the rate for independent or positively dependent tests; a row's
two tests are negatively dependent, at most one of them can reject, and rows of one task share
its held-out trials: the rate is the procedure's nominal one, not a proven bound.)
Beside the adjusted verdict each row keeps its own two-sided t interval and the verdict that
interval alone gives (:func:`rnnschur.profile.block_profile`), unadjusted.

**Across tasks** (:func:`across_tasks_table`): per block, description, construction and N_h,
one estimate over the tasks, a two-level model of the learned seeds' harm shares with a random
effect per task (:func:`rnnschur.verdicts.across_tasks`): the pooled harm, its interval, the
standard deviation between tasks and the prediction interval for a task like these. It makes
*universal* (the prediction interval above θ: a task like these is predicted harmed), *harmless
across tasks* (within ±θ), *improves* (below −θ) and *task-restricted* (the tasks differ,
Cochran's Q, and one task's own interval lies above θ, another's below) tests instead of counts
of rows, and says why the rest are open (on the threshold, varies across tasks, underpowered:
the prediction's minimum detectable effect); they are at the verdicts' level each, not adjusted
over the atlas's 3 × (descriptions + 1) × constructions × sizes of them. Description ``all``
takes each task's models of every description as one group.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur import tasks
from rnnschur.profile import PROFILE_KEYS, block_harms, block_profile
from rnnschur.stats import benjamini_hochberg, p_greater, tost
from rnnschur.verdicts import DECIDED, Thresholds, Verdict, across_tasks, undecided


def split_instance(name: str) -> tuple[str, str]:
    """(task, description) of an atlas block ``<task>__<description>``; a plain task's
    description is ''."""
    task = tasks.task_of(name)
    return task, name[len(task) + len(tasks.INSTANCE) :] if name != task else ""


def atlas_table(
    ablation: pd.DataFrame,
    alpha: float,
    thresholds: Thresholds,
    fdr: float,
    min_models: int,
    words: dict[str, str],
) -> pd.DataFrame:
    """The atlas: one row per task, description, construction, N_h and coupling block, with
    n learned / n trained, the mean raw harm and the mean harm share with its own
    (1 − level) t interval and minimum detectable effect, the verdict that interval gives alone
    (``row_verdict``, :func:`rnnschur.profile.block_profile`), the mean removed Schur mass, the
    p-values of the fragile and the equivalence (harmless) tests at θ, their Benjamini–Hochberg
    adjusted values over the whole atlas (``q_fragile``, ``q_harmless``) and the verdict at
    false-discovery rate ``fdr`` (a row neither test decides is *underpowered* or *on the
    threshold* by its minimum detectable effect). ``words``: each description in a few
    words.

    Six parameters, not a value object: the table and the settings of its verdicts, each a
    config key of its own (``verdicts``, ``atlas.fdr``, ``learned.min_models``).
    """
    theta = thresholds.threshold
    profile = block_profile(ablation, alpha, thresholds, min_models)
    harms = block_harms(ablation, alpha)
    learned = harms[harms["learned"].astype(bool)]
    groups = {
        key: g.sort_values("seed")["harm_share"].to_numpy(float)
        for key, g in learned.groupby(PROFILE_KEYS)
    }
    decidable = ~profile["verdict"].isin([Verdict.TOO_FEW, Verdict.EMPTY])
    fragile, harmless = [], []
    for row, ok in zip(profile[PROFILE_KEYS].itertuples(index=False), decidable, strict=True):
        harm = groups.get(tuple(row), np.array([]))
        # one-sided at level/2: the lower end of the two-sided interval that decides a row alone
        fragile.append(min(1.0, 2 * p_greater(harm, theta)) if ok else np.nan)
        harmless.append(tost(harm, theta) if ok else np.nan)
    q = benjamini_hochberg(np.concatenate([fragile, harmless]))
    table = profile.rename(columns={"verdict": "row_verdict", "subset": "block"})
    parts = [split_instance(t) for t in table["task"]]
    table.insert(0, "description", [d for _, d in parts])
    table["task"] = [t for t, _ in parts]
    table.insert(2, "words", [words.get(d, d) for _, d in parts])
    table["p_fragile"], table["p_harmless"] = fragile, harmless
    table["q_fragile"], table["q_harmless"] = q[: len(profile)], q[len(profile) :]
    open_ = [
        Verdict.IMPROVES if own == Verdict.IMPROVES else undecided(m, theta)
        for m, own in zip(table["mde"], table["row_verdict"], strict=True)
    ]
    verdict = np.where(
        table["q_fragile"] <= fdr,
        Verdict.FRAGILE,
        np.where(table["q_harmless"] <= fdr, Verdict.HARMLESS, open_),
    )
    table["verdict"] = np.where(decidable, verdict, table["row_verdict"])
    table["fdr"] = fdr
    table["tests"] = int(np.isfinite(q).sum())
    columns = ["task", "description", "words", "construction", "n_hidden", "block", "metric"]
    return table[columns + [c for c in table.columns if c not in columns]]


ACROSS_KEYS = ["description", "construction", "n_hidden", "block"]
"""A row of the across-task estimate."""


def across_tasks_table(
    atlas: pd.DataFrame, ablation: pd.DataFrame, alpha: float, thresholds: Thresholds
) -> pd.DataFrame:
    """The across-task estimate of every block, description, construction and N_h
    (:func:`rnnschur.verdicts.across_tasks`): its groups are the tasks whose atlas row has
    enough learned models and removed mass (not *too few*, not *empty*), each its learned
    seeds' harm shares at ``alpha``. Description ``all`` takes, per task, the learned models
    of every description with such a row as one group (the spread between descriptions counts
    as spread within the task): k counts tasks there too. ``tasks`` lists the tasks used."""
    harms = block_harms(ablation, alpha)
    harms = harms[harms["learned"].astype(bool)]
    parts = [split_instance(t) for t in harms["task"]]
    harms = harms.assign(task=[t for t, _ in parts], description=[d for _, d in parts])
    harms = harms.rename(columns={"subset": "block"})
    cells = ["task", *ACROSS_KEYS]
    shares = {key: g["harm_share"].to_numpy(float) for key, g in harms.groupby(cells)}
    able = atlas[~atlas["verdict"].isin([Verdict.TOO_FEW, Verdict.EMPTY])]
    able = able.assign(cell=able["description"])
    words = dict(zip(atlas["description"], atlas["words"], strict=False))
    rows = []
    for key, group in pd.concat([able, able.assign(description="all")]).groupby(
        ACROSS_KEYS, sort=False
    ):
        per_task = {}
        for r in group.itertuples():
            values = shares.get((r.task, r.cell, *key[1:]), np.array([]))
            per_task.setdefault(r.task, []).append(values)
        pooled = {t: np.concatenate(v) for t, v in per_task.items()}
        used = [t for t, v in pooled.items() if np.isfinite(v).sum() >= 2]
        estimate = across_tasks([pooled[t] for t in used], thresholds)
        rows.append(
            {
                **dict(zip(ACROSS_KEYS, key, strict=True)),
                "words": words.get(key[0], "every description, each task's models one group"),
                "scores": "/".join(sorted(group["metric"].unique())),
                **{f: getattr(estimate, f) for f in estimate.__dataclass_fields__},
                "tasks": " ".join(used),
            }
        )
    return pd.DataFrame(rows)


def with_special(atlas: pd.DataFrame, dose: pd.DataFrame) -> pd.DataFrame:
    """The atlas with its column ``special``: each row's dose-response verdict
    (:func:`rnnschur.beyond.dose_response.dose_summary`, whose rows are the run's task
    instances ``<task>__<description>``: load-bearing, a symmetry direction, like any
    perturbation of its size, or why undecided), "not run" where it has no such row."""
    keys = ["instance", "construction", "n_hidden", "block"]
    verdicts = dose.rename(columns={"task": "instance", "verdict": "special"})[keys + ["special"]]
    instance = atlas["task"] + "__" + atlas["description"]  # the task instance the run trained
    merged = atlas.assign(instance=instance).merge(
        verdicts, on=keys, how="left", validate="one_to_one"
    )
    merged["special"] = merged["special"].fillna(Verdict.NOT_RUN)
    return merged.drop(columns="instance")


def atlas_markdown(table: pd.DataFrame) -> str:
    """The atlas as Markdown: one line per task, construction, description and N_h, with its
    models learned of trained and, per block, the mean harm [its own interval], the adjusted
    verdict and the removed mass; a paragraph above says how the verdicts were decided."""
    blocks = list(dict.fromkeys(table["block"]))
    fdr, tests = table["fdr"].iloc[0], int(table["tests"].iloc[0])
    decided = table[table["verdict"].isin(DECIDED)]
    alone = table[table["row_verdict"].isin(DECIDED)]
    lines = [
        f"Verdicts decided over the whole atlas: Benjamini–Hochberg at a false-discovery rate of "
        f"{fdr:g} over its {tests} tests (per row with enough learned models and mass: fragile, "
        "the one-sided t test of mean harm share above θ; harmless, the equivalence test of "
        "|mean harm share| below it). Harm is the share of the learned performance removed. "
        "Beside each verdict the row's own two-sided t interval, not adjusted. "
        f"{len(decided)} of {len(table)} rows decided (by their own intervals alone: "
        f"{len(alone)}).",
        "",
        "| task | construction | description | N_h | learned | "
        + " | ".join(
            f"{b}: harm [interval] verdict (mass)"
            + ("; special? (dose-response)" if "special" in table else "")
            for b in blocks
        )
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
            if r["verdict"] == Verdict.TOO_FEW:
                cells.append(Verdict.TOO_FEW)
                continue
            interval = (
                f" [{r['ci_low']:.3g}, {r['ci_high']:.3g}]" if np.isfinite(r["ci_low"]) else ""
            )
            special = f"; special? {r['special']}" if "special" in r else ""
            cells.append(
                f"{r['harm_mean']:.3g}{interval} **{r['verdict']}** ({r['mass_removed']:.2g})"
                + special
            )
        first = rows.iloc[0]
        lines.append(
            f"| {key[0]} | {key[1]} | {first['words']} | {key[3]} | "
            f"{first['n_learned']}/{first['n_trained']} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines) + "\n"


def across_markdown(across: pd.DataFrame) -> str:
    """The across-task estimate as Markdown: per block, description, construction and N_h its
    tasks (k), the pooled harm share [interval], τ between tasks, I², the heterogeneity test's
    p, the prediction interval for a task like these, its minimum detectable effect and the
    verdict; a line above says how it was estimated and decided."""
    lines = [
        "Per block, description, construction and N_h, one estimate over the tasks: the task "
        "means of the learned seeds' harm shares in a random-effects model (REML τ, "
        "Hartung–Knapp interval), each estimate at the verdicts' level, not adjusted. "
        "Universal: the prediction interval for a task like these above θ. Harmless across "
        "tasks: within ±θ. Improves: below −θ. Task-restricted: Cochran's Q rejects equal "
        "tasks, and one task's own interval lies above θ, another's below. Else undecided, "
        "and why: on the threshold (the MDE, how far from θ the pooled harm must lie for the "
        "prediction to clear it at the verdicts' power, about 0.7 in simulation for the "
        "nominal 0.8, is at most θ), varies across tasks (Q rejects and z·τ alone exceeds the "
        "pooled harm's distance from the nearer of ±θ: more tasks would not be expected to "
        "make it universal or harmless across tasks, though more seeds or tasks may still "
        "show it task-restricted) or underpowered. `all`: each task's models of every "
        "description as one group.",
        "",
        "| block | description | construction | N_h | tasks | harm [interval] | τ | I² | "
        "p (tasks differ) | prediction interval | MDE | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in across.itertuples():
        if r.k < 3:
            estimate = "— | — | — | — | — | —"
        else:
            estimate = (
                f"{r.mean:.3g} [{r.ci_low:.3g}, {r.ci_high:.3g}] | {r.tau:.3g} | "
                f"{r.i_squared:.0%} | {r.p_heterogeneity:.2g} | [{r.pi_low:.3g}, {r.pi_high:.3g}]"
                f" | {r.mde:.2g}"
            )
        lines.append(
            f"| {r.block} | {r.words} | {r.construction} | {r.n_hidden} | {r.k} | {estimate} | "
            f"**{r.verdict}** |"
        )
    return "\n".join(lines) + "\n"
