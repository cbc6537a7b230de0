"""The coupling atlas as one static HTML page, readable without Python, and the numbers of what
the atlas says (:func:`atlas_parts`: the workflow fills its sentences, workflow/templates/
atlas_readings.md, into ``atlas_readings.md``): the page (:func:`atlas_page`) is its template's
(workflow/templates/atlas.html) with those sentences, the figures and the table, sortable by
any column in the browser.

One self-contained file: the figures are embedded (PNG as data URIs), the sorting is a few
lines of plain JavaScript in the template, nothing is fetched. ``#sort=<column>``
(``-<column>`` descending) in the page's address sorts the table on load; a click on a
column's header sorts by it (a second click reverses it); cells without a value sort last
either way.
"""

from __future__ import annotations

import base64
import html
from string import Template

import numpy as np
import pandas as pd

from rnnschur.ablation import label
from rnnschur.schur import COUPLING_BLOCKS
from rnnschur.studies.verdicts import Verdict
from rnnschur.tasks import INSTANCE

TOO_FEW = Verdict.TOO_FEW
BLOCK_NAMES = {block: label(block) for block in COUPLING_BLOCKS}
Part = tuple[str, dict]
"""A sentence's template name and its fields (:func:`rnnschur.io.text.fill`)."""


COLUMNS = {
    "task": "task",
    "construction": "construction",
    "description": "description",
    "n_hidden": "N_h",
    "block": "block",
    "n_learned": "learned",
    "n_trained": "trained",
    "n_absent": "absent in",
    "n_tested": "tested",
    "fragile": "fragile in",
    "stabilizer": "stabilizer in",
    "harm_median": "harm share (median)",
    "verdict": "its solutions",
    "special": "special? (dose-response)",
    "mass_removed": "mass removed",
    "harm_mean": "harm share (mean over seeds)",
    "ci_low": "t interval low",
    "ci_high": "t interval high",
    "mean_verdict": "over seeds (FDR)",
}
"""The table's columns on the page, in order, with their headings."""


def _cell(column: str, value) -> str:
    """One cell: numbers with their value for sorting, verdicts with their class."""
    if isinstance(value, (float, np.floating)):
        shown = "—" if not np.isfinite(value) else f"{value:.3g}"
        number = "NaN" if not np.isfinite(value) else repr(float(value))
        return f'<td data-value="{number}">{shown}</td>'
    if isinstance(value, (int, np.integer)):
        return f'<td data-value="{int(value)}">{int(value)}</td>'
    text = html.escape(str(value))
    if column in ("verdict", "mean_verdict"):
        kind = "too-few" if str(value).startswith("too few") else html.escape(str(value))
        return f'<td class="{kind}">{text}</td>'
    return f"<td>{text}</td>"


def atlas_page(
    atlas: pd.DataFrame, readings: str, figures: dict[str, tuple[str, bytes]], template: str
) -> str:
    """The page: ``template`` (a :class:`string.Template`, workflow/templates/atlas.html) with
    the readings (``$readings``: one paragraph per blank-line-separated block), the figures
    (``$figures``, from ``{name: (caption, png bytes)}``), the number of rows (``$n_rows``) and
    the table (``$table``: one row per row of ``atlas``)."""
    paragraphs = [p.strip() for p in readings.split("\n\n") if p.strip()]
    shown = []
    for name, (caption, png) in figures.items():
        data = base64.b64encode(png).decode("ascii")
        shown += [
            f'<figure id="{html.escape(name)}"><img alt="{html.escape(name)}" '
            f'src="data:image/png;base64,{data}">',
            f"<figcaption>{html.escape(caption)}</figcaption></figure>",
        ]
    columns = [c for c in COLUMNS if c in atlas.columns]
    head = "".join(f'<th data-column="{c}">{html.escape(COLUMNS[c])}</th>' for c in columns)
    rows = [f'<table id="atlas"><thead><tr>{head}</tr></thead><tbody>']
    for row in atlas[columns].itertuples(index=False):
        cells = "".join(_cell(c, v) for c, v in zip(columns, row, strict=True))
        rows.append(f"<tr>{cells}</tr>")
    rows.append("</tbody></table>")
    return Template(template).substitute(
        readings="\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs),
        figures="\n".join(shown),
        n_rows=len(atlas),
        table="\n".join(rows),
    )


def _task_label(task: str, construction: str, constructions: set[str]) -> str:
    """A task's name, with its construction where the atlas trains it with more than one."""
    return f"{task} ({construction})" if len(constructions) > 1 else task


CHANGES_SHOWN = 3
"""At most this many changed words (or tasks) are named in a sentence; more are counted."""


ATLAS_WORDS = {
    Verdict.FRAGILE: "row_fragile",
    Verdict.STABILIZER: "row_stabilizer",
    Verdict.UNDECIDED: "row_undecided",
    Verdict.ABSENT: "row_absent",
    Verdict.TOO_FEW: "row_too_few",
}
"""A row's words (its ``verdict``: its group's solutions counted), in the order the sentences
count them, each with its template (the words a row is given on the page: mostly fragile,
mostly stabilizers, neither, held by too few solutions, too few learned models)."""
ROW_DECIDED = (Verdict.FRAGILE, Verdict.STABILIZER)
"""The words of a row whose solutions mostly read alike."""
ACROSS_WORDS = {
    Verdict.UNIVERSAL: "across_universal",
    Verdict.HARMLESS_ACROSS: "across_harmless",
    Verdict.TASK_RESTRICTED: "across_restricted",
    Verdict.UNDECIDED: "across_undecided",
}
"""The words across tasks the sentences name, in order, with their templates (*too few tasks*
is left out; the code's *undecided* across tasks is given no word on the page)."""


def atlas_parts(atlas: pd.DataFrame, across: pd.DataFrame, tasks: pd.DataFrame) -> list[Part]:
    """What the coupling atlas (``atlas.csv``, its rows read solution by solution) says, as the
    numbers of its paragraphs (each a part of workflow/templates/atlas_readings.md): per block
    its rows' words counted over the groups and, from the task restriction (``across``,
    :func:`rnnschur.studies.restriction.restriction`, and its per-task counts ``tasks``,
    :func:`rnnschur.studies.restriction.task_readings`: each task's solutions counted, one
    family per description), the descriptions under which it is *universal*, *harmless across
    tasks*, *task-restricted* (naming the tasks mostly stabilizers, each with its counts) or
    none of these; the dose-response study's verdicts; how often a word changes between the
    first description and each other one, and between the sizes, for the same task; the groups
    whose models did not learn. A group is one task, construction, description and N_h."""
    if atlas.empty:
        return [("empty", {})]
    decided = atlas["verdict"].isin(ROW_DECIDED)
    out: list[Part] = [("decided", {"decided": int(decided.sum()), "rows": len(atlas)})]
    constructions = {t: set(rows["construction"]) for t, rows in atlas.groupby("task", sort=False)}
    atlas = atlas.assign(
        label=[
            _task_label(t, c, constructions[t])
            for t, c in zip(atlas["task"], atlas["construction"], strict=True)
        ]
    )
    for block, name in BLOCK_NAMES.items():
        rows = atlas[atlas["block"] == block]
        if rows.empty:
            continue
        counts = rows["verdict"].value_counts()
        tally = [
            (part, {"n": int(counts[v])}) for v, part in ATLAS_WORDS.items() if counts.get(v, 0)
        ]
        fields = {"block": name, "tally": tally, "n_groups": len(rows)}
        words = _restriction_parts(across[across["subset"] == block], tasks)
        out.append(("block_across", fields | {"across": words}) if words else ("block", fields))
    if "special" in atlas:  # the dose-response study's reading of each row: the CSV's column
        read = ~atlas["special"].isin([Verdict.NOT_RUN, Verdict.TOO_FEW])
        out.append(("special", {"n_rows": int(read.sum())}))
    out += _atlas_changes(atlas, "description")
    out += _atlas_changes(atlas, "n_hidden")
    short = atlas[atlas["verdict"] == TOO_FEW].drop_duplicates(["label", "description", "n_hidden"])
    if len(short):
        keys = ("label", "description", "n_hidden", "n_learned", "n_trained")
        which = [("short_group", {k: getattr(r, k) for k in keys}) for r in short.itertuples()]
        n_groups = atlas.drop_duplicates(["label", "description", "n_hidden"]).shape[0]
        out.append(("too_few", {"n_short": len(short), "n_groups": n_groups, "groups": which}))
    return out


def _family(family: str, construction: str, kinds: bool) -> Part:
    """A family's name (the tasks as configured where it has none), with its construction where
    the families have several."""
    name = "family" if family else "family_configured"
    fields = {"family": family} if family else {}
    if kinds:
        return f"{name}_construction", fields | {"construction": construction}
    return name, fields


def _restriction_parts(across: pd.DataFrame, tasks: pd.DataFrame) -> list[Part]:
    """One block's words across tasks (the task restriction's, per description), each with
    the descriptions it holds under (with the construction where there are several); a
    task-restricted one names its tasks whose solutions are mostly stabilizers, each with its
    count from ``tasks`` (:func:`rnnschur.studies.restriction.task_readings`: stabilizers of the
    solutions tested, and those where the block is absent), and counts the tasks mostly
    fragile. Families of fewer than two tasks tested are left out."""
    kinds = across["construction"].nunique() > 1
    counts = tasks.set_index(["family", "construction", "subset", "task"])
    parts = []
    for word, template in ACROSS_WORDS.items():
        named = []
        for r in across[across["word"] == word].itertuples():
            family = _family(r.family, r.construction, kinds)
            if word == Verdict.TASK_RESTRICTED:
                stabilizers = []
                for task in r.stabilizer_in.split():
                    c = counts.loc[(r.family, r.construction, r.subset, task)]
                    fields = {"task": task.partition(INSTANCE)[0], "k": c.stabilizer}
                    fields |= {"n": c.n_tested, "absent": c.n_absent}
                    kind = "stabilizer_task_absent" if c.n_absent else "stabilizer_task"
                    stabilizers.append((kind, fields))
                more = len(stabilizers) - CHANGES_SHOWN
                shown = stabilizers[:CHANGES_SHOWN] + (
                    [("more_tasks", {"n": more})] if more > 0 else []
                )
                n_fragile = len(r.fragile_in.split())
                fragile = ("fragile_task" if n_fragile == 1 else "fragile_tasks", {"n": n_fragile})
                family = (
                    "restricted",
                    {"family": family, "stabilizers": shown, "fragile": fragile},
                )
            named.append(family)
        if named:
            parts.append((template, {"families": named}))
    return parts


def _atlas_changes(atlas: pd.DataFrame, column: str) -> list[Part]:
    """Per value of ``column`` after the first (a description's key, or an N_h): for how many
    (task, block, other keys) mostly fragile or mostly stabilizers under both the word is the
    same as under the first value, which changed, and how many are so under one of the two
    only."""
    values = list(dict.fromkeys(atlas[column]))
    if len(values) < 2:
        return []
    others = [c for c in ("label", "description", "n_hidden") if c != column]
    decided = atlas[atlas["verdict"].isin(ROW_DECIDED)]
    first = decided[decided[column] == values[0]].set_index(others + ["block"])["verdict"]
    word = {v: f"word_{v}" for v in ROW_DECIDED}
    parts = []
    for value in values[1:]:
        now = decided[decided[column] == value].set_index(others + ["block"])["verdict"]
        both = first.index.intersection(now.index)
        if len(both) == 0:
            parts.append((f"none_both_{column}", {"first": values[0], "value": value}))
            continue
        changed = [k for k in both if first[k] != now[k]]
        changes = [
            ("change", {"task": k[0], "block": BLOCK_NAMES[k[-1]]}) for k in changed[:CHANGES_SHOWN]
        ]
        for (_, fields), k in zip(changes, changed, strict=False):
            fields |= {"before": (word[first[k]], {}), "after": (word[now[k]], {})}
        more = len(changed) - CHANGES_SHOWN
        shown = ("changed_more" if more > 0 else "changed", {"changes": changes, "more": more})
        shown = shown if changed else ("nothing", {})
        kinds = set(first[both]) | set(now[both])
        # agreement where nothing else was decided compares little
        alike = ("alike", {"word": (word[kinds.pop()], {})}) if len(kinds) == 1 else ("nothing", {})
        only_first = len(first.index.difference(now.index))
        only_now = len(now.index.difference(first.index))
        fields = {"value": value, "first": values[0], "kept": len(both) - len(changed)}
        fields |= {"both": len(both), "n_changed": len(changed), "changed": shown}
        fields |= {"alike": alike, "n_one": only_first + only_now}
        fields |= {"only_first": only_first, "only_now": only_now}
        parts.append((f"change_{column}", fields))
    return parts
