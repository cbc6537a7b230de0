"""Partial rebuilds (dry runs after a real quick run): only what changed reruns."""

from contextlib import contextmanager

import pytest

from conftest import QUICK, job_counts, quick_models, snakemake

pytestmark = pytest.mark.workflow

UPSTREAM = {"heldout", "train", "schur"}
FIGURES = {
    "fig1_copy_ablation",
    "fig2_neuro_ablation",
    "fig_schur_spectra",
    "fig_training_curves",
    "fig_task_rollouts",
    "fig_subspace_control",
    "fig_readout_refit",
    "fig_basis_sensitivity",
    "fig_checkpoint_ablation",
    "fig_gap_attribution",
    "fig_block_profile",
}


def dry_run(folder, *args):
    result = snakemake(folder, "-n", *QUICK, *args)
    assert result.returncode == 0, result.stdout[-3000:]
    return job_counts(result.stdout)


@contextmanager
def appended(path, text):
    """``path`` with ``text`` appended for the duration of the block, then restored."""
    original = path.read_text()
    path.write_text(original + text)
    try:
        yield
    finally:
        path.write_text(original)


def test_nothing_to_do_after_a_complete_run(quick_run):
    assert dry_run(quick_run) == {}


def test_changing_a_figure_script_reruns_only_that_figure(quick_run):
    with appended(quick_run / "workflow/scripts/fig1_copy_ablation.py", "\n# a changed plot\n"):
        assert set(dry_run(quick_run)) == {"fig1_copy_ablation", "all"}
    rebuilt = snakemake(quick_run, "results/quick/figures/fig1_copy_ablation.pdf", "-c1", *QUICK)
    assert set(job_counts(rebuilt.stdout)) == {"fig1_copy_ablation"}, rebuilt.stdout[-3000:]
    assert dry_run(quick_run) == {}


def test_changing_the_style_reruns_the_figures_only(quick_run):
    with appended(quick_run / "workflow/style.mplstyle", "lines.linewidth: 2\n"):
        assert set(dry_run(quick_run)) == FIGURES | {"all"}


def test_changing_the_alpha_grid_reruns_ablation_and_below_never_training(quick_run):
    (quick_run / "alphas.yaml").write_text("alpha_grid: [0.8, 0.9]\n")
    jobs = dry_run(quick_run, "--configfile", "presets/quick.yaml", "alphas.yaml")
    n_fidelity = len(list((quick_run / "results/quick/fidelity").rglob("ablation.csv")))
    assert jobs["ablate"] == len(quick_models()) and jobs["fidelity_ablate"] == n_fidelity == 6
    assert not (UPSTREAM | {"fidelity_model"}) & set(jobs)
    assert {"collect_ablations", "table1", "paper_vs_reproduced", "fig1_copy_ablation"} <= set(jobs)
    assert "collect_models" not in jobs  # training summaries do not depend on alpha


def test_changing_alpha_reruns_the_figures_not_the_ablations(quick_run):
    jobs = dry_run(quick_run, "--config", "alpha=0.95")
    assert not (UPSTREAM | {"ablate"}) & set(jobs)
    assert {"fig1_copy_ablation", "fig2_neuro_ablation", "spectrum"} <= set(jobs)


def test_changing_a_task_generator_reruns_that_task_only(quick_run):
    (quick_run / "sine_change.yaml").write_text(
        "tasks:\n  sine:\n    generator: {freq_min: 0.05}\n"
    )
    jobs = dry_run(quick_run, "--configfile", "presets/quick.yaml", "sine_change.yaml")
    assert jobs["heldout"] == 1 and jobs["train"] == 2 and jobs["ablate"] == 2


def test_one_figure_target(quick_run):
    result = snakemake(
        quick_run,
        "results/quick/figures/fig1_copy_ablation.pdf",
        "-n",
        "--forcerun",
        "fig1_copy_ablation",
        *QUICK,
    )
    assert set(job_counts(result.stdout)) == {"fig1_copy_ablation"}


def test_a_finished_run_moved_elsewhere_has_nothing_to_do(quick_run, tmp_path):
    """The finished quick run copied to another absolute path (`cp -a`), then the same command
    there, and from a third folder with -s/-d: nothing is scheduled."""
    import shutil

    moved = tmp_path / "moved"
    shutil.copytree(quick_run, moved, symlinks=True)
    assert dry_run(moved) == {}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = snakemake(
        elsewhere,
        "-n",
        "-s",
        str(moved / "Snakefile"),
        "-d",
        str(moved),
        "--configfile",
        str(moved / "presets" / "quick.yaml"),
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert job_counts(result.stdout) == {}, result.stdout[-3000:]
