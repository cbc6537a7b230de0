"""The canvas every figure draws on and how it is saved: a figure of its own (no pyplot, no
backend chosen), its PNG for a notebook or a page, the atomic save of its PDF and PNG, and the
labels every group of figures shares."""

from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from rnnschur.ablation import label
from rnnschur.io import atomic_path
from rnnschur.studies.paper.claims import TASK_NAMES

HARM_SHARE = "harm share (learned part lost)"
"""The axis label of a harm share (:mod:`rnnschur.studies.verdicts`)."""


class ShownFigure(Figure):
    """A matplotlib Figure that shows itself in a notebook, as PNG, whatever backend (none
    chosen, no ``%matplotlib inline``): the figures of this module are these."""

    def _repr_png_(self) -> bytes:
        return png(self)


def subplots(nrows: int = 1, ncols: int = 1, *, figsize, layout=None, **grid):
    """(figure, axes) as :func:`matplotlib.pyplot.subplots` gives them, on a
    :class:`ShownFigure` with an Agg canvas of its own: nothing registered with pyplot, no
    backend chosen."""
    fig = ShownFigure(figsize=figsize, layout=layout)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **grid)


def png(fig: Figure) -> bytes:
    """``fig`` drawn as PNG bytes (a notebook's display, an HTML page's image)."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def subset_label(subset: str) -> str:
    """The ablation set's name (:func:`rnnschur.ablation.label`), one removed block a line."""
    return label(subset).replace(", ", "\n")


def task_label(task: str) -> str:
    """A task's name as the pages write it (flip-flop, context), else its own."""
    return TASK_NAMES.get(task, task)


def jitter(n: int, width: float) -> np.ndarray:
    """Offsets spread evenly over [-width, width] (0 for one point): the points of one category
    side by side, at the same places in every run."""
    return np.linspace(-width, width, n) if n > 1 else np.zeros(n)


REPRODUCIBLE = {"pdf": {"CreationDate": None}}
"""Metadata that would make two drawings of one figure differ, left out (a PDF's date)."""


def save(fig: Figure, paths: list[str]) -> None:
    """Save ``fig`` to each path (format from the suffix), atomically.

    The layout is done once, here: a figure that keeps its layout engine is laid out again, in a
    full draw of its own, before every format is drawn (twice the drawing for two formats)."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
        fig.set_layout_engine(None)
    for path in paths:
        kind = str(path).rsplit(".", 1)[1]
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=kind, metadata=REPRODUCIBLE.get(kind))
