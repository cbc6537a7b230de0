"""The coupling atlas as one static HTML page, readable without Python: what the atlas says
(its sentences, :func:`atlas_reading`, also the workflow's ``atlas_readings.md``), its figures
and its table, sortable by any column in the browser.

One self-contained file: the figures are embedded (PNG as data URIs), the sorting is a few
lines of plain JavaScript, nothing is fetched. ``#sort=<column>`` (``-<column>`` descending)
in the page's address sorts the table on load; a click on a column's header sorts by it (a
second click reverses it); cells without a value sort last either way.
"""

from __future__ import annotations

import base64
import html

import numpy as np
import pandas as pd

from rnnschur.ablation import label
from rnnschur.io.text import and_list
from rnnschur.schur import COUPLING_BLOCKS
from rnnschur.studies.verdicts import Verdict
from rnnschur.tasks import INSTANCE

TOO_FEW = Verdict.TOO_FEW
BLOCK_NAMES = {block: label(block) for block in COUPLING_BLOCKS}


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural where ``n`` is not 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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

SCRIPT = """
function sortBy(column, descending) {
  const table = document.getElementById("atlas");
  const head = Array.from(table.tHead.rows[0].cells);
  const index = head.findIndex(cell => cell.dataset.column === column);
  if (index < 0) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const key = row => {
    const cell = row.cells[index];
    return cell.dataset.value === undefined ? cell.textContent : Number(cell.dataset.value);
  };
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    if (typeof x === "number" && typeof y === "number") {
      if (isNaN(x) || isNaN(y)) return isNaN(x) - isNaN(y);  // no value: last, either way
      return descending ? y - x : x - y;
    }
    const order = String(x).localeCompare(String(y));
    return descending ? -order : order;
  });
  rows.forEach(row => body.appendChild(row));
  table.dataset.sorted = (descending ? "-" : "") + column;
}
document.querySelectorAll("#atlas th").forEach(th => th.addEventListener("click", () => {
  const table = document.getElementById("atlas");
  sortBy(th.dataset.column, table.dataset.sorted === th.dataset.column);
}));
const wanted = new URLSearchParams(location.hash.slice(1)).get("sort");
if (wanted) sortBy(wanted.replace(/^-/, ""), wanted.startsWith("-"));
window.addEventListener("load", () => {
  const shown = Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0);
  document.body.dataset.figuresShown = shown.length;
});
"""

STYLE = """
body { font-family: sans-serif; max-width: 1400px; margin: 2em auto; padding: 0 1em; }
table { border-collapse: collapse; font-size: 0.85em; }
th { cursor: pointer; background: #eee; position: sticky; top: 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
td.fragile { background: #f4c7c3; } td.stabilizer, td.harmless { background: #c9e3f6; }
td.too-few { background: #ddd; color: #555; }
img { max-width: 100%; }
"""


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


def atlas_page(atlas: pd.DataFrame, readings: str, figures: dict[str, tuple[str, bytes]]) -> str:
    """The page: a title, the readings (one paragraph per blank-line-separated block), the
    figures (``{name: (caption, png bytes)}``) and the table (one row per row of ``atlas``)."""
    paragraphs = [p.strip() for p in readings.split("\n\n") if p.strip()]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>The coupling atlas</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>The coupling atlas</h1>",
        "<h2>What it says</h2>",
        *[f"<p>{html.escape(p)}</p>" for p in paragraphs],
        "<h2>Figures</h2>",
    ]
    for name, (caption, png) in figures.items():
        data = base64.b64encode(png).decode("ascii")
        parts += [
            f'<figure id="{html.escape(name)}"><img alt="{html.escape(name)}" '
            f'src="data:image/png;base64,{data}">',
            f"<figcaption>{html.escape(caption)}</figcaption></figure>",
        ]
    columns = [c for c in COLUMNS if c in atlas.columns]
    head = "".join(f'<th data-column="{c}">{html.escape(COLUMNS[c])}</th>' for c in columns)
    parts += [
        f"<h2>The table ({len(atlas)} rows; click a heading to sort)</h2>",
        f'<table id="atlas"><thead><tr>{head}</tr></thead><tbody>',
    ]
    for row in atlas[columns].itertuples(index=False):
        cells = "".join(_cell(c, v) for c, v in zip(columns, row, strict=True))
        parts.append(f"<tr>{cells}</tr>")
    parts += ["</tbody></table>", f"<script>{SCRIPT}</script>", "</body></html>"]
    return "\n".join(parts) + "\n"


def _task_label(task: str, construction: str, constructions: set[str]) -> str:
    """A task's name, with its construction where the atlas trains it with more than one."""
    return f"{task} ({construction})" if len(constructions) > 1 else task


CHANGES_SHOWN = 3
"""At most this many changed words (or tasks) are named in a sentence; more are counted."""


ATLAS_WORDS = (
    Verdict.FRAGILE,
    Verdict.STABILIZER,
    Verdict.UNDECIDED,
    Verdict.ABSENT,
    Verdict.TOO_FEW,
)
"""A row of the atlas's words, in the order the sentences count them."""
ROW_DECIDED = (Verdict.FRAGILE, Verdict.STABILIZER)
"""The words of a row whose solutions mostly read alike."""
ACROSS_WORDS = (
    Verdict.UNIVERSAL,
    Verdict.HARMLESS_ACROSS,
    Verdict.TASK_RESTRICTED,
    Verdict.UNDECIDED,
)
"""The words across tasks the sentences name, in order (*too few tasks* is left out)."""


def atlas_reading(atlas: pd.DataFrame, across: pd.DataFrame, tasks: pd.DataFrame) -> str:
    """What the coupling atlas (``atlas.csv``, its rows read solution by solution) says, in
    sentences with their counts: per block its words' tally over the groups and, from the task
    restriction (``across``, :func:`rnnschur.studies.restriction.restriction`, and its per-task
    counts ``tasks``, :func:`rnnschur.studies.restriction.task_readings`: each task's solutions
    counted, one family per description), the descriptions under which it is *universal*, *harmless
    across tasks*, *task-restricted* (naming the tasks mostly stabilizers, each with its counts) or
    *undecided*; the dose-response study's verdicts; how often a word changes between the
    first description and each other one, and between the sizes, for the same task; the groups
    whose models did not learn. A group is one task, construction, description and N_h."""
    if atlas.empty:
        return "The atlas has no rows: the run trained no model."
    out = []
    decided = atlas["verdict"].isin(ROW_DECIDED)
    out.append(
        f"Read solution by solution: {int(decided.sum())} of the {len(atlas)} rows are fragile "
        "or stabilizer (at least the config's share of their tested solutions read so)."
    )
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
        tally = and_list([f"{v} in {int(counts[v])}" for v in ATLAS_WORDS if counts.get(v, 0) > 0])
        sentence = f"{name}: {tally} of its {len(rows)} groups."
        words = _restriction_words(across[across["subset"] == block], tasks)
        out.append(sentence + (f" Across tasks, {words}." if words else ""))
    if "special" in atlas:  # the dose-response study's verdict of each row, counted
        parts = []
        for block, name in BLOCK_NAMES.items():
            counts = atlas.loc[atlas["block"] == block, "special"].value_counts()
            if len(counts):
                tally = ", ".join(f"{v} in {int(n)}" for v, n in counts.items())
                parts.append(f"{name} {tally} of {int(counts.sum())} groups")
        symmetric = int((atlas["special"] == Verdict.SYMMETRY).sum())
        out.append(
            "Special? The dose-response study sets each block against a removal of other "
            "couplings of its size: "
            + " ".join(f"{part}." for part in parts)
            + f" {symmetric or 'No'} group{'' if symmetric == 1 else 's'} a symmetry direction."
        )
    out += _atlas_changes(atlas, "description", "under", "as")
    out += _atlas_changes(atlas, "n_hidden", "at N_h =", "at N_h =")
    short = atlas[atlas["verdict"] == TOO_FEW].drop_duplicates(["label", "description", "n_hidden"])
    if len(short):
        which = [
            f"{r.label} · {r.description} · N_h {r.n_hidden} ({r.n_learned}/{r.n_trained})"
            for r in short.itertuples()
        ]
        n_groups = atlas.drop_duplicates(["label", "description", "n_hidden"]).shape[0]
        out.append(
            f"Too few models learned for a verdict in {len(short)} of the {n_groups} groups "
            f"({and_list(which)} learned): their cells say so and enter no count above."
        )
    return "\n\n".join(out) + "\n"


def _restriction_words(across: pd.DataFrame, tasks: pd.DataFrame) -> str:
    """One block's words across tasks (the task restriction's, per description), each with
    the descriptions it holds under (with the construction where there are several); a
    task-restricted one names its tasks whose solutions are mostly stabilizers, each with its
    count from ``tasks`` (:func:`rnnschur.studies.restriction.task_readings`: stabilizers of the
    solutions tested, and those where the block is absent), and counts the tasks mostly
    fragile. Families of fewer than two tasks tested are left out."""
    kinds = across["construction"].nunique() > 1
    counts = tasks.set_index(["family", "construction", "subset", "task"])
    parts = []
    for word in ACROSS_WORDS:
        named = []
        for r in across[across["word"] == word].itertuples():
            name = (r.family or "the tasks as configured") + (
                f" ({r.construction})" if kinds else ""
            )
            if word == Verdict.TASK_RESTRICTED:
                stabilizers = []
                for task in r.stabilizer_in.split():
                    c = counts.loc[(r.family, r.construction, r.subset, task)]
                    absent = f", {c.n_absent} absent" if c.n_absent else ""
                    stabilizers.append(
                        f"{task.partition(INSTANCE)[0]} ({c.stabilizer} of {c.n_tested} "
                        f"tested{absent})"
                    )
                more = len(stabilizers) - CHANGES_SHOWN
                shown = stabilizers[:CHANGES_SHOWN] + ([f"{more} more"] if more > 0 else [])
                n_fragile = len(r.fragile_in.split())
                name += (
                    f" (mostly stabilizers: {and_list(shown)}; mostly fragile: {n_fragile} "
                    f"task{'' if n_fragile == 1 else 's'})"
                )
            named.append(name)
        if named:
            parts.append(f"{word} under {and_list(named)}")
    return "; ".join(parts)


def _atlas_changes(atlas: pd.DataFrame, column: str, before: str, after: str) -> list[str]:
    """Per value of ``column`` after the first (a description's key, or an N_h): for how many
    (task, block, other keys) fragile or stabilizer under both the word is the same as under
    the first value, which changed, and how many are so under one of the two only."""
    values = list(dict.fromkeys(atlas[column]))
    if len(values) < 2:
        return []
    others = [c for c in ("label", "description", "n_hidden") if c != column]
    decided = atlas[atlas["verdict"].isin(ROW_DECIDED)]
    first = decided[decided[column] == values[0]].set_index(others + ["block"])["verdict"]
    sentences = []
    for value in values[1:]:
        now = decided[decided[column] == value].set_index(others + ["block"])["verdict"]
        both = first.index.intersection(now.index)
        if len(both) == 0:
            sentences.append(
                f"No row is fragile or stabilizer both {before} {values[0]} and {after} {value}."
            )
            continue
        changed = [k for k in both if first[k] != now[k]]
        text = (
            f"{after.capitalize()} {value} against {values[0]}: {len(both) - len(changed)} of "
            f"the {len(both)} rows fragile or stabilizer under both keep their word, "
            f"{len(changed)} change"
        )
        if changed:
            shown = [f"{k[0]} {BLOCK_NAMES[k[-1]]} {first[k]} → {now[k]}" for k in changed]
            more = len(changed) - CHANGES_SHOWN
            text += (
                f" ({', '.join(shown[:CHANGES_SHOWN])}{f' and {more} more' if more > 0 else ''})"
            )
        kinds = set(first[both]) | set(now[both])
        if len(kinds) == 1:  # agreement where nothing else was decided compares little
            text += f", every one {kinds.pop()} under both"
        only_first = len(first.index.difference(now.index))
        only_now = len(now.index.difference(first.index))
        text += (
            f"; {only_first + only_now} more are so under one only ({only_first} {before} "
            f"{values[0]}, {only_now} {after} {value})"
        )
        sentences.append(text + ".")
    return sentences
