"""The coupling atlas (presets/atlas.yaml): which Schur couplings matter across the field's
tasks, network descriptions and sizes, read as the paper reads: one trained solution at a time.

A row of the atlas is one task, network description, construction, N_h and coupling block
(T_RR, T_C→R, T_CC of eq. 5). Its premise is the models that learned their task
(:mod:`rnnschur.studies.learned`): a row with fewer than ``min_models`` of them says
:attr:`rnnschur.studies.verdicts.Verdict.TOO_FEW`. Each learned solution reads the removal of the
block at α on its own (:mod:`rnnschur.studies.solutions`: fragile, stabilizer, improves, undecided,
absent in this model); the row's word counts them
(:func:`rnnschur.studies.restriction.solutions_word`): *fragile* or *stabilizer* where at least
``mostly`` (config ``solutions.reproduces``) of the solutions tested read so, *absent* where fewer
than ``min_models`` of them hold the block, *undecided* otherwise. **Across tasks** the words are
the task restriction's (:mod:`rnnschur.studies.restriction`, per description: a network description
is never pooled with another as if it were a seed).

Kept beside them, secondary, the tests over seeds that the atlas first published: per row the
one-sided t test of mean share > θ (doubled: the lower end of the two-sided interval) and the
equivalence test |mean share| < θ, every p-value of the atlas in one Benjamini–Hochberg family
at false-discovery rate ``fdr`` (``mean_verdict``; *underpowered* or *on the threshold* where
neither rejects), the row's own t interval and its verdict alone (``row_verdict``); and
(:func:`across_tasks_table`) a normal random-effects estimate across tasks of the seeds' harm
shares per block, description, construction and N_h, with its prediction interval. Such a
model cannot represent task means that fall into two groups, which is what task restriction
is: the counts per task can. Description ``all`` takes each task's models of every description
as one group.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur import tasks
from rnnschur.io.text import table_lines
from rnnschur.studies.profile import PROFILE_KEYS, block_harms, block_profile
from rnnschur.studies.restriction import solutions_word
from rnnschur.studies.stats import benjamini_hochberg, p_greater, tost
from rnnschur.studies.verdicts import Thresholds, Verdict, across_tasks, undecided


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
    mostly: float,
) -> pd.DataFrame:
    """The atlas: one row per task, description, construction, N_h and coupling block, with
    n learned / n trained and, read solution by solution (the ablation table's ``reading``,
    :func:`rnnschur.studies.restriction.solutions_word`), the learned solutions where the block is
    absent, those tested, fragile and stabilizers, the median harm share of those tested
    (``harm_median``) and the row's ``verdict``: *fragile* or *stabilizer* where at least
    ``mostly`` of the solutions tested read so, *absent*, *undecided*, or *too few learned
    models* (fewer than ``min_models``). Beside it, over seeds (secondary): the mean raw harm
    and the mean harm share with its own (1 − level) t interval and minimum detectable effect,
    the verdict that interval gives alone (``row_verdict``,
    :func:`rnnschur.studies.profile.block_profile`), the mean removed Schur mass, the p-values of
    the fragile and the equivalence tests at θ, their Benjamini–Hochberg adjusted values over the
    whole atlas (``q_fragile``, ``q_harmless``) and the seed-mean verdict at false-discovery
    rate ``fdr`` (``mean_verdict``). ``words``: each description in a few words.

    Seven parameters, not a value object: the table and the settings of its verdicts, each a
    config key of its own (``verdicts``, ``atlas.fdr``, ``learned.min_models``,
    ``solutions.reproduces``).
    """
    theta = thresholds.threshold
    profile = block_profile(ablation, alpha, thresholds, min_models)
    harms = block_harms(ablation, alpha)
    learned = harms[harms["learned"].astype(bool)]
    own = dict(list(learned.groupby(PROFILE_KEYS)))  # each row's learned solutions
    groups = {key: g.sort_values("seed")["harm_share"].to_numpy(float) for key, g in own.items()}
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
    table["mean_verdict"] = np.where(decidable, verdict, table["row_verdict"])
    read = []
    for row in profile[PROFILE_KEYS].itertuples(index=False):
        group = own.get(tuple(row), learned.iloc[:0])
        counts = solutions_word(group["reading"], mostly, min_models)
        tested = group.loc[group["reading"] != Verdict.ABSENT, "harm_share"]
        counts["harm_median"] = float(tested.median()) if len(tested) else np.nan
        read.append(counts)
    read = pd.DataFrame(read, index=table.index)
    for column in ("n_absent", "n_tested", "fragile", "stabilizer", "harm_median"):
        table[column] = read[column]
    table["verdict"] = read["word"]
    table["fdr"] = fdr
    table["tests"] = int(np.isfinite(q).sum())
    columns = ["task", "description", "words", "construction", "n_hidden", "block", "metric"]
    return table[columns + [c for c in table.columns if c not in columns]]


SOLUTION_DECIDED = (Verdict.FRAGILE, Verdict.STABILIZER)
"""The words of a row whose solutions mostly read alike."""

ACROSS_KEYS = ["description", "construction", "n_hidden", "block"]
"""A row of the across-task estimate."""


def across_tasks_table(
    atlas: pd.DataFrame, ablation: pd.DataFrame, alpha: float, thresholds: Thresholds
) -> pd.DataFrame:
    """The across-task estimate of every block, description, construction and N_h
    (:func:`rnnschur.studies.verdicts.across_tasks`): its groups are the tasks whose atlas row has
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
    able = atlas[~atlas["mean_verdict"].isin([Verdict.TOO_FEW, Verdict.EMPTY])]
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
    (:func:`rnnschur.studies.beyond.dose_summary.dose_summary`, whose rows are the run's task
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


def n_decided(table: pd.DataFrame) -> int:
    """The atlas rows whose solutions mostly read alike (:data:`SOLUTION_DECIDED`)."""
    return int(table["verdict"].isin(SOLUTION_DECIDED).sum())


def atlas_markdown(table: pd.DataFrame, legend: str) -> str:
    """The atlas as Markdown: one line per task, construction, description and N_h, with its
    models learned of trained and, per block, the median harm share of the solutions tested,
    how many of them read fragile and stabilizer (and in how many the block is absent), the
    row's word and the removed mass; ``legend`` (how the words are read) above."""
    blocks = list(dict.fromkeys(table["block"]))
    lines = [legend, ""]
    special = "; special? (dose-response)" if "special" in table else ""
    header = ["task", "construction", "description", "N_h", "learned"]
    header += [f"{b}: harm (fragile, stabilizers of tested) word (mass){special}" for b in blocks]
    body = []
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
            absent = f", {int(r['n_absent'])} absent" if r["n_absent"] else ""
            harm = f"{r['harm_median']:.3g} " if np.isfinite(r["harm_median"]) else ""
            special = f"; special? {r['special']}" if "special" in r else ""
            cells.append(
                f"{harm}({int(r['fragile'])}, {int(r['stabilizer'])} of {int(r['n_tested'])}"
                f"{absent}) **{r['verdict']}** ({r['mass_removed']:.2g}){special}"
            )
        first = rows.iloc[0]
        learned = f"{first['n_learned']}/{first['n_trained']}"
        body.append([key[0], key[1], first["words"], key[3], learned, *cells])
    return "\n".join(lines + table_lines(header, body)) + "\n"


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
    ]
    header = ["block", "description", "construction", "N_h", "tasks", "harm [interval]", "τ"]
    header += ["I²", "p (tasks differ)", "prediction interval", "MDE", "verdict"]
    rows = []
    for r in across.itertuples():
        if r.k < 3:
            estimate = ["—"] * 6
        else:
            estimate = [
                f"{r.mean:.3g} [{r.ci_low:.3g}, {r.ci_high:.3g}]",
                f"{r.tau:.3g}",
                f"{r.i_squared:.0%}",
                f"{r.p_heterogeneity:.2g}",
                f"[{r.pi_low:.3g}, {r.pi_high:.3g}]",
                f"{r.mde:.2g}",
            ]
        model = [r.block, r.words, r.construction, r.n_hidden, r.k]
        rows.append([*model, *estimate, f"**{r.verdict}**"])
    return "\n".join(lines + table_lines(header, rows)) + "\n"
