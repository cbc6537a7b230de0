"""Task restriction read solution by solution: is a coupling block harmless for some tasks and
load-bearing for others (the paper's "task-restricted symmetry"), or the same for all?

Each learned solution reads each single-block ablation at α on its own (``reading`` of
:mod:`rnnschur.studies.solutions`: stabilizer, fragile, improves, undecided, absent). Per task, the
block's solutions are counted (those where it is absent apart): the share that read *fragile*
and the share that read *stabilizer*, each with its exact (Clopper–Pearson) interval, and the
task's word: *fragile* or *stabilizer* where at least ``mostly`` of its tested solutions read so
(config ``solutions.reproduces``), *too few learned models* where fewer than ``min_models``
learned (config ``learned.min_models``, as every verdict over seeds; a task none of whose models
learned too), *absent* where fewer than ``min_models`` of them hold the block (it is below the
mass floor in the others), *undecided* otherwise. Across
the tasks of one family (a construction and, for the atlas's or the gap study's instances
``<task>__<name>``, the name; "—" for the tasks as the config has them: a network description
is a family of its own, never pooled with another as if it were a seed):

- *task-restricted*: some tasks' solutions are mostly stabilizers and others' mostly fragile;
- *universal*: every tested task's solutions are mostly fragile;
- *harmless across tasks*: every tested task's solutions are mostly stabilizers;
- *undecided*: any other mixture (a task whose solutions split, beside tasks of one kind; the
  table gives it no word: on the pages *undecided* is one solution's interval's);
- *too few tasks*: fewer than two tasks tested.

A task whose block is absent, or whose learned solutions are too few, is named apart and enters
no word across tasks.

A normal random-effects model of the tasks' mean harm (the atlas's across-task estimate) cannot
represent task means that fall into two groups, which is what task restriction is; counting
solutions per task can.
"""

from __future__ import annotations

import pandas as pd

from rnnschur.io.text import table_lines
from rnnschur.studies.profile import block_harms
from rnnschur.studies.stats import clopper_pearson
from rnnschur.studies.verdicts import Verdict
from rnnschur.tasks import INSTANCE

TASK_WORDS = {
    Verdict.FRAGILE: "mostly fragile",
    Verdict.STABILIZER: "mostly stabilizers",
    Verdict.UNDECIDED: "neither",
    Verdict.ABSENT: "held by too few",
    Verdict.TOO_FEW: "too few learned",
}
"""How the table says a task's word (the CSV keeps the reading's own word): counts of its
solutions, not one solution's reading (docs/glossary.md, *Across tasks*)."""
FAMILY = ["family", "construction", "subset"]
"""A row of the across-task table: a family of networks and a coupling block."""
NAMED = ["fragile_in", "stabilizer_in", "undecided_in"]
"""The across-task table's columns naming the tasks of each kind that enters its word."""
APART = {Verdict.ABSENT: "absent_in", Verdict.TOO_FEW: "too_few_in"}
"""The across-task table's columns naming the tasks left out of its word."""


def task_readings(
    ablation: pd.DataFrame, alpha: float, mostly: float, min_models: int, level: float = 0.05
) -> pd.DataFrame:
    """Per family, construction, task (its largest N_h) and single block at ``alpha``, over the
    learned solutions of ``ablation`` (with its ``reading`` column): solutions learned, absent,
    tested; those reading fragile and stabilizer, with the exact (1 − ``level``) interval of
    each share; and the task's word (module docstring; *too few learned models* below
    ``min_models`` learned)."""
    rows = block_harms(ablation, alpha)
    # "" for a task as the config has it (a Series even where the table has no row)
    rows = rows.assign(family=rows["task"].map(lambda task: task.partition(INSTANCE)[2]))
    largest = rows.groupby(["construction", "task"])["n_hidden"].transform("max")
    rows = rows[rows["n_hidden"] == largest]
    out = []
    for (family, construction, task, block), group in rows.groupby(
        ["family", "construction", "task", "subset"], sort=False
    ):
        # the learned solutions' readings (none: the task's models learned nothing)
        learned = group.loc[group["learned"].astype(bool), "reading"]
        counts = solutions_word(learned, mostly, min_models)
        n = counts["n_tested"]
        f_low, f_high = clopper_pearson(counts["fragile"], n, level)
        s_low, s_high = clopper_pearson(counts["stabilizer"], n, level)
        out.append(
            {
                "family": family,
                "construction": construction,
                "task": task,
                "n_hidden": int(group["n_hidden"].iloc[0]),
                "subset": block,
                **counts,
                "fragile_low": f_low,
                "fragile_high": f_high,
                "stabilizer_low": s_low,
                "stabilizer_high": s_high,
            }
        )
    return pd.DataFrame(out, columns=TASK_COLUMNS)


def solutions_word(readings: pd.Series, mostly: float, min_models: int) -> dict:
    """One group's learned solutions counted by their ``readings`` of one block: learned,
    absent, tested (the rest), fragile and stabilizer, and the group's ``word``: *too few
    learned models* where fewer than ``min_models`` learned, *absent* where fewer than
    ``min_models`` are tested (the block below the mass floor in the others), else *fragile*
    or *stabilizer* where at least ``mostly`` of those tested read so, *undecided* otherwise."""
    n_absent = int((readings == Verdict.ABSENT).sum())
    n = len(readings) - n_absent
    fragile = int((readings == Verdict.FRAGILE).sum())
    stabilizer = int((readings == Verdict.STABILIZER).sum())
    if len(readings) < min_models:
        word = Verdict.TOO_FEW
    elif n < min_models:
        word = Verdict.ABSENT
    elif fragile / n >= mostly:
        word = Verdict.FRAGILE
    elif stabilizer / n >= mostly:
        word = Verdict.STABILIZER
    else:
        word = Verdict.UNDECIDED
    return {
        "n_learned": len(readings),
        "n_absent": n_absent,
        "n_tested": n,
        "fragile": fragile,
        "stabilizer": stabilizer,
        "word": word,
    }


TASK_COLUMNS = [
    "family", "construction", "task", "n_hidden", "subset", "n_learned", "n_absent", "n_tested",
    "fragile", "fragile_low", "fragile_high", "stabilizer", "stabilizer_low", "stabilizer_high",
    "word",
]  # fmt: skip
"""The columns of :func:`task_readings` (a table without rows has them too)."""


def restriction(tasks: pd.DataFrame) -> pd.DataFrame:
    """Per family, construction and block of :func:`task_readings`: the tasks tested, those
    whose solutions are mostly fragile, mostly stabilizers or neither (named), those left out
    (absent, too few learned; named), and the word across the tasks (module docstring)."""
    out = []
    for key, group in tasks.groupby(FAMILY, sort=False):
        tested = group[~group["word"].isin(list(APART))]
        named = {
            word: sorted(tested.loc[tested["word"] == word, "task"])
            for word in (Verdict.FRAGILE, Verdict.STABILIZER, Verdict.UNDECIDED)
        }
        if len(tested) < 2:
            word = Verdict.TOO_FEW_TASKS
        elif named[Verdict.FRAGILE] and named[Verdict.STABILIZER]:
            word = Verdict.TASK_RESTRICTED
        elif len(named[Verdict.FRAGILE]) == len(tested):
            word = Verdict.UNIVERSAL
        elif len(named[Verdict.STABILIZER]) == len(tested):
            word = Verdict.HARMLESS_ACROSS
        else:
            word = Verdict.UNDECIDED
        out.append(
            dict(zip(FAMILY, key, strict=True))
            | {
                "n_tasks": len(tested),
                **{
                    column: " ".join(sorted(group.loc[group["word"] == word, "task"]))
                    for word, column in APART.items()
                },
                **{f"{w}_in": " ".join(t) for w, t in named.items()},
                "word": word,
            }
        )
    return pd.DataFrame(out, columns=[*FAMILY, "n_tasks", *APART.values(), *NAMED, "word"])


def _task(name: str) -> str:
    """A task's name without its family's suffix (an instance ``<task>__<family>``: the family
    has its own column)."""
    return name.partition(INSTANCE)[0]


def _tasks_cell(names) -> str:
    """A cell of task names ("a, b"), each without its family's suffix; "—" for none."""
    if not isinstance(names, str) or not names:
        return "—"
    return ", ".join(_task(name) for name in names.split())


def _share(k: int, n: int, low: float, high: float) -> str:
    """'3/5 (0.15–0.95)': k of n with its exact interval; '—' where none is tested."""
    return f"{k}/{n} ({low:.2f}–{high:.2f})" if n else "—"


def restriction_markdown(tasks: pd.DataFrame, across: pd.DataFrame, legend: str) -> str:
    """The across-task words, then each task's counts, with the rule in one line: ``legend``
    (the workflow's: workflow/templates/task_restriction.md, filled with the config's
    thresholds)."""
    from rnnschur.ablation import label

    header = ["family", "construction", "block", "tasks tested", "mostly fragile"]
    header += ["mostly stabilizers", "neither", "held by too few", "too few learned"]
    header += ["across tasks"]
    rows = []
    for r in across.itertuples(index=False):
        cells = [r.fragile_in, r.stabilizer_in, r.undecided_in, r.absent_in, r.too_few_in]
        model = [r.family or "—", r.construction, label(r.subset), r.n_tasks]
        word = "no word" if r.word == Verdict.UNDECIDED else f"**{r.word}**"
        rows.append([*model, *(_tasks_cell(c) for c in cells), word])
    lines = table_lines(header, rows)
    lines += [
        "",
        legend,
        "",
    ]
    header = ["family", "construction", "task", "N_h", "block", "tested (absent)", "fragile"]
    header += ["stabilizer", "task's solutions"]
    rows = []
    for r in tasks.itertuples(index=False):
        fragile = _share(r.fragile, r.n_tested, r.fragile_low, r.fragile_high)
        stabilizer = _share(r.stabilizer, r.n_tested, r.stabilizer_low, r.stabilizer_high)
        model = [r.family or "—", r.construction, _task(r.task), r.n_hidden, label(r.subset)]
        tested = f"{r.n_tested} ({r.n_absent})"
        rows.append([*model, tested, fragile, stabilizer, TASK_WORDS[r.word]])
    return "\n".join(lines + table_lines(header, rows)) + "\n"
