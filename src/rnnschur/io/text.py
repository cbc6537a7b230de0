"""Words as they are written: a user's own (a model's name) made inert wherever they go (one line
of Markdown, plot text that matplotlib does not parse as math, a CSV cell that a spreadsheet
does not run as a formula; HTML is :func:`html.escape`'s), a list in a sentence
(:func:`and_list`), the one writer of a Markdown table's syntax (:func:`table_lines`) and the
one filler of a file of sentence templates (:func:`templates`, :func:`fill`: the sentences are
the file's, the numbers the caller's)."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

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


TEMPLATE = re.compile(r"^<!-- (\w+)(?: joined by (and|\"[^\"]*\"))? -->$", re.M)
"""A template's first line in a file of templates: its name, and how a list of it is joined
(``and``: :func:`and_list`; a quoted separator; none: a space)."""


def templates(text: str) -> dict[str, tuple[str, str]]:
    """The templates of a file of templates (``text``): {name: (template, joiner)}, each
    template the lines after its ``<!-- name -->`` line (:data:`TEMPLATE`) up to the next, its
    blank lines around dropped and its line breaks spaces (one line each: a sentence in the
    file may wrap; a template that starts with a space keeps it); lines before the first are
    the file's own notes."""
    parts = TEMPLATE.split(text)[1:]
    out = {}
    for name, joiner, body in zip(parts[::3], parts[1::3], parts[2::3], strict=True):
        if name in out:
            raise ValueError(f"template {name!r} appears twice")
        lines = body.strip("\n").split("\n")
        out[name] = (" ".join(lines).rstrip(), (joiner or '" "').strip('"'))
    return out


def fill(sections: Mapping[str, tuple[str, str]], part: tuple[str, dict]) -> str:
    """One ``part`` (a template's name and its fields) filled from ``sections``
    (:func:`templates`): each field as ``str.format`` writes it, where a field is itself a
    part, filled first, and a list of parts filled and joined as their template says."""
    name, fields = part
    if name not in sections:
        raise KeyError(f"no template {name!r} in the templates file")
    values = {key: _value(sections, value) for key, value in fields.items()}
    return sections[name][0].format(**values)


def _value(sections: Mapping[str, tuple[str, str]], value):
    """A field's value: a part filled, a list of parts filled and joined, else as it is."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        return fill(sections, value)
    if isinstance(value, list):
        filled = [fill(sections, item) for item in value]
        joiners = {sections[item[0]][1] for item in value}
        if len(joiners) > 1:
            raise ValueError(f"one list, several joiners: {sorted(joiners)}")
        joiner = joiners.pop() if joiners else " "
        return and_list(filled) if joiner == "and" else joiner.join(filled)
    return value
