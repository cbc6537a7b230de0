"""Shared words of the readings: the names of the tasks, ratios in words (the names of the
blocks, counts and lists in words are the atlas page's: :mod:`rnnschur.report.page`)."""

from __future__ import annotations

from rnnschur.studies.verdicts import Verdict

TOO_FEW = Verdict.TOO_FEW
TASK_NAMES = {"flip_flop": "flip-flop", "context_integration": "context"}


def _times(ratio: float) -> str:
    """A ratio to two significant digits, without an exponent (99, 7.7, 120)."""
    return format(float(f"{ratio:.2g}"), "g")
