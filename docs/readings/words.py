"""Shared words of the readings: the names of the tasks, counts and ratios in words (the names
of the blocks are the atlas page's, :data:`rnnschur.report.page.BLOCK_NAMES`; a list in words
is :func:`rnnschur.io.text.and_list`)."""

from __future__ import annotations

from rnnschur.studies.verdicts import Verdict

TOO_FEW = Verdict.TOO_FEW
PAGE_WORDS = (
    *(Verdict.REPRODUCES, Verdict.PARTLY, Verdict.DOES_NOT, Verdict.UNTESTABLE),
    *(Verdict.STABILIZER, Verdict.FRAGILE, Verdict.IMPROVES, Verdict.UNDECIDED),
    *(Verdict.ABSENT, Verdict.BASIS_DEPENDENT, Verdict.CONFIRMED, Verdict.NOT_CONFIRMED),
    *(Verdict.UNIVERSAL, Verdict.TASK_RESTRICTED, Verdict.HARMLESS_ACROSS),
)
"""The 15 verdict words the published pages use, each defined in docs/glossary.md: a claim's
and one solution's reading of its interval (the headline, 4 + 4), the status *absent* (no
interval read), the basis flag, the confirmation's and the restriction across tasks."""
SECONDARY = tuple(word for word in Verdict if word not in PAGE_WORDS)
"""Every other verdict word: the seed means', the agreement's with the paper's numbers and the
studies' readings of the same models, which the pages leave to the CSV tables they link
(:func:`listings.extract`)."""


def _times(ratio: float) -> str:
    """A ratio to two significant digits, without an exponent (99, 7.7, 120)."""
    return format(float(f"{ratio:.2g}"), "g")


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural where ``n`` is not 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
