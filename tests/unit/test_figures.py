"""The block-profile heat map on a planted profile: one cell per task, construction, N_h and
block, holding the harm and the verdict's mark."""

import importlib
import inspect
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

from conftest import REPO  # noqa: E402

STYLE = REPO / "workflow" / "style.mplstyle"


def test_block_profile_heat_map_cells():
    rows = []
    for n_hidden, harm in ((56, 0.5), (72, 0.25)):  # two sizes of one task and construction
        for block, verdict in (("T_RR", "underpowered"), ("T_CR", "fragile"), ("T_CC", "harmless")):
            rows.append(
                {
                    "task": "copy",
                    "construction": "dense_orthogonal",
                    "n_hidden": n_hidden,
                    "subset": block,
                    "harm_mean": harm if block == "T_CR" else 0.0,
                    "verdict": verdict,
                }
            )
    fig = figures.fig_block_profile(pd.DataFrame(rows))
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["copy · dense_orthogonal · N_h 56", "copy · dense_orthogonal · N_h 72"]
    texts = {t.get_text() for t in ax.texts}
    assert {"0.5 ▲", "0.25 ▲", "0 ○", "0 ?"} <= texts
    assert ax.images[0].get_array().shape == (2, 3)


def test_models_that_did_not_learn_are_open_markers_in_figures_1_and_2():
    """Planted: two copy seeds and two flip-flop seeds, seed 1 of each not learned."""
    from rnnschur.ablation import SUBSETS, subset_name

    rows = []
    for task, metric in (("copy", "accuracy"), ("flip_flop", "fvu")):
        for seed in (0, 1):
            for subset in map(subset_name, SUBSETS):
                rows.append(
                    {"task": task, "construction": "dense_orthogonal", "metric": metric}
                    | {"n_hidden": 72 if task == "copy" else 64, "seed": seed, "alpha": 0.9}
                    | {"subset": subset, "accuracy": 0.9 - 0.1 * seed, "learned": seed == 0}
                    | {"fvu": 0.01, "delta_fvu": 0.1 + seed, "s_delta_t": 1.0 + seed}
                    | {"mass_removed": 0.0 if subset == "none" else 0.1}
                )
    ablation = pd.DataFrame(rows)
    fig1 = figures.fig1_copy_ablation(ablation, 0.9)
    legend = fig1.legends[0]  # one legend for the figure
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels[:2] == ["a trained solution", "not learned"] and "chance (0.5)" in labels
    handles = legend.legend_handles
    assert handles[0].get_facecolor().shape == (1, 4) and handles[1].get_facecolor().size == 0
    fig2 = figures.fig2_neuro_ablation(ablation, 0.9)
    assert "not learned" in [t.get_text() for t in fig2.legends[0].get_texts()]
    assert fig2.axes[0].get_title().startswith("flip-flop\ndense orthogonal")  # the task's name
    # the bar is the learned seed's value alone: 0.1, not the mean with the unlearned 1.1
    bar_heights = [p.get_height() for p in fig2.axes[0].patches]  # medians, here one value
    assert min(abs(h - 0.1) for h in bar_heights) < 1e-12 and max(bar_heights) < 1.0


def test_text_clashes_finds_overlapping_and_cut_off_texts():
    """Planted: two titles drawn on top of each other, and a label pushed off the canvas."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [0, 1])
    title = ax.set_title("title")
    fig.canvas.draw()
    x, y = title.get_position()
    ax.text(x, 1.0, "title", transform=ax.transAxes, ha="center", va="bottom")
    fig.text(1.2, 0.5, "outside")
    clashes = figures.text_clashes(fig)
    assert "'title' overlaps 'title'" in clashes and "'outside' leaves the canvas" in clashes
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    ax.plot([0, 1], [0, 1])
    ax.set(title="apart", xlabel="x", ylabel="y")
    assert figures.text_clashes(fig) == []
    plt.close(fig)


def test_a_figure_drawn_twice_is_the_same_file(tmp_path):
    """No date or other run-dependent metadata in the PDF or PNG: byte for byte the same."""
    import time

    import matplotlib.pyplot as plt

    paths = []
    for k in range(2):
        fig, ax = plt.subplots()
        ax.plot([0, 1], [1, 0])
        paths.append([tmp_path / f"f{k}.pdf", tmp_path / f"f{k}.png"])
        figures.save(fig, [str(p) for p in paths[-1]])
        time.sleep(1.1)  # a date to the second would differ
    for first, second in zip(paths[0], paths[1], strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name
    assert b"CreationDate" not in paths[0][0].read_bytes()


def test_figure_1_marks_every_printed_paper_value_and_figure_2_both_full_fvus():
    """Planted dense orthogonal copy solutions and a flip-flop one: Figure 1 marks the paper's
    Figure 1 values and Table 1's 0.634 (where Table 1 differs from Figure 1's 0.639), on a
    2 × 2 grid; Figure 2's ΔFVU panel is on a log axis with the full-model FVU, ours (the median
    of the learned solutions) and the paper's (0.0048), drawn as lines; a block every solution
    holds under the floor reads absent."""
    from rnnschur.ablation import SUBSETS, subset_name

    rows = []
    for task, metric, construction in (
        ("copy", "accuracy", "dense_orthogonal"),
        ("copy", "accuracy", "cayley"),
        ("flip_flop", "fvu", "dense_orthogonal"),
        ("sine", "fvu", "dense_orthogonal"),
        ("context_integration", "fvu", "dense_orthogonal"),
    ):
        for seed in (0, 1, 2):
            for subset in map(subset_name, SUBSETS):
                rows.append(
                    {"task": task, "construction": construction, "metric": metric}
                    | {"n_hidden": 72 if task == "copy" else 64, "seed": seed, "alpha": 0.9}
                    | {"subset": subset, "accuracy": 0.9, "learned": True}
                    | {"fvu": 1e-4 * (seed + 1), "delta_fvu": 0.01, "s_delta_t": 1.0}
                    | {"mass_removed": 0.0 if subset == "none" else 0.005}
                    | {"reading": "absent" if subset == "T_RR" else "fragile"}
                )
    fig1 = figures.fig1_copy_ablation(pd.DataFrame(rows), 0.9)
    fig2 = figures.fig2_neuro_ablation(pd.DataFrame(rows), 0.9)
    for fig in (fig1, fig2):
        assert shown_points(fig) >= 9.0 and figures.text_clashes(fig) == []
    assert len([ax for ax in fig1.axes if ax.axison]) == 2 and fig1.axes[0].get_subplotspec()
    orthogonal = fig1.axes[0]
    marked = {round(float(v), 3) for c in orthogonal.collections for v in c.get_offsets()[:, 1]}
    assert {0.876, 0.639, 0.624, 0.634} <= marked  # the 0.634 of Table 1 too
    assert any(t.get_text() == "0.634" for t in orthogonal.texts)
    delta = fig2.axes[0]
    assert delta.get_yscale() == "symlog"
    levels = {round(line.get_ydata()[0], 6) for line in delta.lines if len(line.get_ydata()) == 2}
    assert {0.0002, 0.0048} <= levels  # ours: the median of 1e-4, 2e-4, 3e-4; the paper's
    assert "absent" in {t.get_text() for t in delta.texts}


def test_each_public_name_is_listed_with_its_module():
    """MODULES names every public function and class each module of the package defines, and
    every name it lists is that module's: the workflow finds a figure's module (the code
    fingerprint of its job) there, and the package gives each name from it."""
    for module, names in figures.MODULES.items():
        mod = importlib.import_module(f"{figures.__name__}.{module}")
        defined = {
            name
            for name, value in vars(mod).items()
            if (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == mod.__name__
            and not name.startswith("_")
        }
        assert defined == {name for name in names if not name.isupper()}, module
        assert all(getattr(figures, name) is getattr(mod, name) for name in names), module


def test_a_figure_imports_its_own_module_alone():
    """Asking the package for one figure imports that figure's module (and the shared canvas),
    no other group's: a figure's job imports only what it draws."""
    code = (
        "import sys; from rnnschur.report import figures; figures.fig1_copy_ablation; "
        "print(sorted(m for m in sys.modules if m.startswith('rnnschur.report.figures.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [
        "['rnnschur.report.figures.canvas',",
        "'rnnschur.report.figures.paper']",
    ]


README_WIDTH_PX = 830
"""The width of the README's text column where the two figures are shown (a desktop view)."""


def shown_points(fig) -> float:
    """The smallest visible text of ``fig`` in points as a reader sees it in the README: saved
    at the shared style's ``savefig.dpi`` and shown at most :data:`README_WIDTH_PX` wide, at
    96 pixels to the inch."""
    style = dict(line.split(":", 1) for line in STYLE.read_text().splitlines() if ":" in line)
    dpi = float(style["savefig.dpi"])
    scale = min(1.0, README_WIDTH_PX / (fig.get_size_inches()[0] * dpi))
    sizes = [
        t.get_fontsize()
        for t in fig.findobj(matplotlib.text.Text)
        if t.get_visible() and t.get_text().strip()
    ]
    return min(sizes) * dpi / 72 * scale * 72 / 96


def test_shown_points_reads_a_figure_as_the_readme_shows_it():
    """Derived: a 9 pt text on a figure 1,660 px wide (8.3 in at 200 dpi) is shown at 830 px,
    half its size: 9 × 200/72 × 0.5 px = 12.5 px, 9.375 pt at 96 px to the inch; a figure
    twice as wide shows it at half that."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8.3, 3))
    fig.text(0.5, 0.5, "a", fontsize=9)
    assert abs(shown_points(fig) - 9.375) < 1e-9
    fig.set_size_inches(16.6, 3)
    assert abs(shown_points(fig) - 9.375 / 2) < 1e-9
