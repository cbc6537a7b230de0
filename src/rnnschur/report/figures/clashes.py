"""Whether a figure reads on its own: every pair of its texts that overlap and every text that
leaves the canvas (the tests' check of every figure; no figure draws with it)."""

from __future__ import annotations

from matplotlib.figure import Figure


def text_clashes(fig: Figure, tolerance: float = 1.0) -> list[str]:
    """Every pair of visible, non-empty texts of ``fig`` (titles, labels, tick labels, legends,
    annotations) whose boxes overlap by more than ``tolerance`` pixels, and every text that
    leaves the canvas, as it is drawn at its size after :func:`save`'s layout; [] for a figure
    that reads on its own."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    canvas = fig.bbox
    texts = list(fig.texts)
    for legend in fig.legends:
        texts += [*legend.get_texts(), legend.get_title()]
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison and not ax.texts and not ax.get_title():
            continue
        texts += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        if ax.get_legend() is not None:
            texts += [*ax.get_legend().get_texts(), ax.get_legend().get_title()]
        if not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            texts.append(axis.label)
            low, high = sorted(axis.get_view_interval())
            span = (high - low) or 1.0
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                # a tick outside the view is not drawn (its label neither)
                if low - 1e-9 * span <= tick.get_loc() <= high + 1e-9 * span:
                    texts += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    boxes = []
    for text in texts:
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.width == 0 or box.height == 0:
            continue
        boxes.append((text.get_text().strip(), box))
    out = []
    for name, box in boxes:
        if (
            box.x0 < canvas.x0 - tolerance
            or box.y0 < canvas.y0 - tolerance
            or box.x1 > canvas.x1 + tolerance
            or box.y1 > canvas.y1 + tolerance
        ):
            out.append(f"{name!r} leaves the canvas")
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if width > tolerance and height > tolerance:
                out.append(f"{a!r} overlaps {b!r}")
    return out
