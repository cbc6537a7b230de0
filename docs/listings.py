"""Long tables as CSV files the pages link (docs/data/): a page keeps its prose and its short
tables; a table of more rows than a reader reads, or one whose cells carry a secondary verdict
word (the seed means' and the studies' readings: ``readings.words.SECONDARY``), is written as a
CSV, its cells exactly as the
run's Markdown table prints them, and the page holds one line in its place that links it. The
CSV turns back into the same Markdown lines (:func:`inline`), so a page read back is the page as
written and ``--check`` compares a run's tables with the published ones row by row."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from rnnschur.io import save_text

LONG_TABLE = 12
"""A table of more rows than this is written as a CSV and linked."""
LINK = re.compile(r"^\[`([^`]+\.csv)`\]\(([^)\s]+\.csv)\): (\d+) rows; columns: .*\.$")
"""The line that stands for a table on a page: the file, its path relative to docs/, rows."""


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row ``| a | b |``."""
    return [cell.strip() for cell in line.strip()[1:-1].split(" | ")]


def row_line(row: list[str]) -> str:
    """A Markdown table row of ``row``'s cells (an empty cell as ``| |``)."""
    return "|" + "".join(f" {cell} |" if cell else " |" for cell in row)


def markdown(rows: list[list[str]]) -> list[str]:
    """A header row and its body as Markdown lines."""
    header, *body = rows
    return [row_line(header), "|" + "---|" * len(header), *map(row_line, body)]


def read_csv(path: Path) -> list[list[str]]:
    """The rows of a CSV written by :func:`write_csv`, header first."""
    return list(csv.reader(io.StringIO(path.read_text())))


def write_csv(path: Path, rows: list[list[str]]) -> None:
    """``rows`` as a CSV file (atomic)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    save_text(path, out.getvalue())


def tables(lines: list[str]) -> list[tuple[int, int]]:
    """The (first, past-the-last) line of every Markdown table in ``lines``."""
    spans, k = [], 0
    while k < len(lines):
        if lines[k].startswith("|") and k + 1 < len(lines) and lines[k + 1].startswith("|---"):
            end = k + 2
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            spans.append((k, end))
            k = end
        else:
            k += 1
    return spans


SECONDARY_NOTE = (
    " Its verdict words are secondary readings of the same models (glossary, *Over seeds*)."
)
"""What the link line of a table with secondary words adds (:func:`link_line`)."""


def carries(rows: list[list[str]], words) -> bool:
    """Whether a cell of ``rows`` sets one of ``words`` as a verdict: the cell is the word
    (bold or not), or ends in it after a comma or a count k/n, or opens with it before a count,
    a note or a colon."""
    pattern = re.compile(
        rf"(.*, |\d+/\d+ )?(\*\*)?({'|'.join(map(re.escape, words))})(\*\*)?(\s*[(\d:].*)?",
        re.I,
    )
    return bool(words) and any(pattern.fullmatch(cell) for row in rows for cell in row)


def link_line(name: str, path: str, rows: list[list[str]], secondary: bool = False) -> str:
    """The line that stands for a table of ``rows`` (header first) written to ``path``; one
    whose cells carry ``secondary`` words says so (:data:`SECONDARY_NOTE`)."""
    line = f"[`{name}`]({path}): {len(rows) - 1} rows; columns: {', '.join(rows[0])}."
    return line + SECONDARY_NOTE if secondary else line


SLUG_WORDS = 5
"""A file is named after the first words of its heading, at most this many."""


def slug(heading: str) -> str:
    """A heading as a file name's stem: its first :data:`SLUG_WORDS` words in lower case,
    joined by ``_``."""
    return "_".join(re.findall(r"[a-z0-9]+", heading.lower())[:SLUG_WORDS])


def extract(
    text: str,
    folder: Path,
    base: str,
    stem: str,
    longer_than: int = LONG_TABLE,
    by_heading=True,
    words=(),
):
    """``text`` with each table of more than ``longer_than`` rows, or whose cells carry one of
    ``words`` (:func:`carries`), written to ``folder`` (a
    CSV named after the nearest heading above it where ``by_heading``, else ``stem``, numbered
    from the second on) and replaced by its link,
    ``base`` the folder as the page links it; return the text and the files written. A table
    whose lines would not come back the same from its CSV stays in the page."""
    lines, out, written, heading, last = text.split("\n"), [], [], stem, 0
    for start, end in tables(lines):
        for line in lines[last:start]:
            if line.startswith("#") and by_heading:
                heading = slug(line.lstrip("#")) or stem
        out += lines[last:start]
        rows = [cells(line) for k, line in enumerate(lines[start:end]) if k != 1]
        secondary = carries(rows, words)
        long = end - start - 2 > longer_than or secondary
        if not long or markdown(rows) != lines[start:end]:
            out += lines[start:end]
        else:
            name, k = f"{heading}.csv", 2
            while folder / name in written:
                name, k = f"{heading}_{k}.csv", k + 1
            write_csv(folder / name, rows)
            written.append(folder / name)
            out.append(link_line(name, f"{base}/{name}", rows, secondary))
        last = end
    return "\n".join(out + lines[last:]), written


def linked(text: str, docs: Path) -> list[str]:
    """The Markdown lines of every CSV table ``text`` links (paths relative to ``docs``)."""
    found = re.findall(r"\]\(([^)\s]+\.csv)\)", text)
    return [
        line
        for path in found
        if (docs / path).is_file()
        for line in [*markdown(read_csv(docs / path)), ""]  # a table ends at a blank line
    ]


def inline(text: str, docs: Path) -> str:
    """``text`` with each table's link line (:func:`extract`) replaced by the table, the
    linked path relative to ``docs``."""
    out = []
    for line in text.split("\n"):
        found = LINK.match(line)
        path = docs / found.group(2) if found else None
        out += markdown(read_csv(path)) if path is not None and path.is_file() else [line]
    return "\n".join(out)
