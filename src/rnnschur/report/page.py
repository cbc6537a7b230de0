"""The coupling atlas as one static HTML page, readable without Python: what the atlas says
(its generated sentences), its figures and its table, sortable by any column in the browser.

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
