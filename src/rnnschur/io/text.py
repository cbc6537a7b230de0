"""Words as they are written: a user's own (a model's name) made inert wherever they go (one line
of Markdown, plot text that matplotlib does not parse as math, a CSV cell that a spreadsheet
does not run as a formula; HTML is :func:`html.escape`'s), a list in a sentence
(:func:`and_list`) and the one writer of a Markdown table's syntax (:func:`table_lines`)."""

from __future__ import annotations

import html
import re

_MARKDOWN = re.compile(r"([\\`*\[\]|~]|(?<![^\W_])_|_(?![^\W_]))")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters with which a spreadsheet reads a cell as a formula (OWASP's list)."""


def markdown(text: str) -> str:
    """``text`` as one line of Markdown that shows it as written: every line break and run of
    white space one space (no heading or table row of its own), HTML's ``<``, ``>`` and ``&``
    as entities (no tag), Markdown's inline marks (``\\ ` * [ ] | ~``, and ``_`` where it
    is not inside a word, as in ``rnn_net``, where it marks nothing) escaped."""
    line = " ".join(str(text).split())
    return _MARKDOWN.sub(r"\\\1", html.escape(line, quote=False))


def plot(text: str) -> str:
    """``text`` for a matplotlib label or title as written: its ``$`` escaped, so that no pair
    of them starts mathtext (which fails on, or silently rewrites, a user's words)."""
    return str(text).replace("$", r"\$")


def csv_cell(text: str) -> str:
    """``text`` for a CSV cell that a spreadsheet shows as written: a leading ``=``, ``+``,
    ``-``, ``@``, tab or carriage return prefixed with ``'`` (read as text, not a formula)."""
    text = str(text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def and_list(words) -> str:
    """``words`` as a sentence lists them: 'a', 'a and b', 'a, b and c'; '' for none."""
    words = list(words)
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def table_lines(header: list, rows) -> list[str]:
    """The lines of a Markdown table: the ``header`` cells, the separator, then one line per
    row of ``rows`` (each a list of cells); every cell as ``str`` writes it."""

    def line(cells) -> str:
        return "| " + " | ".join(str(cell) for cell in cells) + " |"

    return [line(header), "|" + "---|" * len(header), *(line(row) for row in rows)]
