"""Partial rebuilds (dry runs after a real quick run): only what changed reruns."""

import re
from contextlib import contextmanager

import pytest

from rnnschur.report.registry import FIGURES as FIGURE_REGISTRY
from rnnschur.studies.beyond.registry import ANALYSES
from rnnschur.tasks import task_of

from conftest import (
    QUICK,
    QUICK_LAYERS,
    REPO,
    job_counts,
    quick_gap_models,
    quick_models,
    rule_kind,
    snakemake,
)

pytestmark = pytest.mark.workflow

UPSTREAM = {"heldout", "train", "schur"}
# The quick preset's figures, from both registries (the atlas's are the atlas preset's)
QUICK_FIGURES = {n for n, figure in FIGURE_REGISTRY.items() if figure.needs != "atlas"}
FIGURES = {*QUICK_FIGURES, *(f"fig_{name}" for name in ANALYSES)}


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


@contextmanager
def replaced(path, old, new):
    """``path`` with ``old`` replaced by ``new`` (once) for the duration of the block."""
    original = path.read_text()
    assert original.count(old) == 1, old
    path.write_text(original.replace(old, new))
    try:
        yield
    finally:
        path.write_text(original)


def test_nothing_to_do_after_a_complete_run(quick_run):
    assert dry_run(quick_run) == {}


def test_changing_the_figure_script_reruns_only_the_figures(quick_run):
    with appended(quick_run / "workflow/scripts/figure.py", "\n# a changed plot\n"):
        assert set(dry_run(quick_run)) == QUICK_FIGURES | {"all"}
    # Snakemake sees the script as changed until its figures are drawn again (it goes by the
    # file's time): they, and nothing else, run, and the run is complete again
    targets = [f"results/quick/figures/{name}.pdf" for name in QUICK_FIGURES]
    rebuilt = snakemake(quick_run, *targets, "-c2", *QUICK)
    assert set(job_counts(rebuilt.stdout)) == QUICK_FIGURES, rebuilt.stdout[-3000:]
    assert dry_run(quick_run) == {}


def test_changing_the_style_reruns_the_figures_only(quick_run):
    with appended(quick_run / "workflow/style.mplstyle", "lines.linewidth: 2\n"):
        assert set(dry_run(quick_run)) == FIGURES | {"all"}


def test_changing_the_alpha_grid_reruns_ablation_and_below_never_training(quick_run):
    (quick_run / "alphas.yaml").write_text("alpha_grid: [0.8, 0.9]\n")
    jobs = dry_run(quick_run, *QUICK, "alphas.yaml")
    # the gap study's models are ablated by the same rule
    assert len(quick_gap_models()) == 6
    assert jobs["ablate"] == len(quick_models()) + len(quick_gap_models())
    assert not UPSTREAM & set(jobs)
    assert {"collect_ablations", "table1", "paper_vs_reproduced", "fig1_copy_ablation"} <= set(jobs)
    assert "collect_models" not in jobs  # training summaries do not depend on alpha


def test_changing_alpha_reruns_the_figures_not_the_ablations(quick_run):
    jobs = dry_run(quick_run, "--config", "alpha=0.95")
    assert not (UPSTREAM | {"ablate"}) & set(jobs)
    assert {"fig1_copy_ablation", "fig2_neuro_ablation", "spectrum"} <= set(jobs)


def test_changing_the_numerics_reruns_every_job_whose_kernels_it_pins(quick_run):
    """``numerics`` pins the BLAS and LAPACK kernels (rnnschur.settings.numerics): training, the
    Schur forms, the ablations, the per-model analyses and views rerun; the held-out and fitting
    trials, drawn without them, do not (a NeuroGym task's training trials, temporary files,
    are drawn again, the same, for the trainings that rerun)."""
    jobs = dry_run(quick_run, "--config", "numerics=native")
    n_models = len(quick_models()) + len(quick_gap_models())
    assert jobs["schur"] == n_models and jobs["ablate"] == n_models
    assert {"train", "spectrum", "rollout_example"} <= set(jobs)
    assert {f"{name}" for name in ANALYSES} <= set(jobs)
    assert not {"heldout", "fitting"} & set(jobs)


def test_changing_a_task_generator_reruns_that_task_only(quick_run):
    (quick_run / "sine_change.yaml").write_text(
        "tasks:\n  sine:\n    generator: {freq_min: 0.05}\n"
    )
    jobs = dry_run(quick_run, *QUICK, "sine_change.yaml")
    # its two seeds train as one bundle (config training_bundle); the gap study's sine model
    # (its variation changes sine's generator) reruns too, no other task's
    gap = [m for m in quick_gap_models() if m.startswith("sine__")]
    assert jobs["heldout"] == 1 + len(gap) and jobs["train"] == 1 + len(gap)
    assert jobs["ablate"] == 2 + len(gap)


def test_code_is_an_input_each_edit_reruns_what_it_can_change(quick_run):
    """Real edits of the library (the quick run's own copy of src/): Figure 1's drawing
    function reruns Figure 1 alone; the ablation code the ablations and below, never the
    training; the sine generator sine's data and models only; the fixed-point study (beyond the
    paper) no job of the paper; a sentence template the rule that fills it alone; a comment, a
    docstring or the README nothing."""
    src = quick_run / "src/rnnschur"
    figures = src / "report/figures/paper.py"
    with replaced(figures, "(4.2 * cols, 3.3 * rows + 0.6)", "(4.3 * cols, 3.3 * rows + 0.6)"):
        assert set(dry_run(quick_run)) == {"fig1_copy_ablation", "all"}
    signature = "def fig1_copy_ablation(ablation: pd.DataFrame, alpha: float) -> Figure:"
    with replaced(figures, signature, signature + "  # a comment"):
        assert dry_run(quick_run) == {}  # a comment
    with replaced(
        figures, "grey segments join S and S ∪ {T_CC}", "grey lines join S and S ∪ {T_CC}"
    ):
        assert dry_run(quick_run) == {}  # a docstring
    with appended(src / "ablation.py", "\n\ndef _planted():\n    return 1\n"):
        jobs = dry_run(quick_run)
    assert jobs["ablate"] == len(quick_models()) + len(quick_gap_models())
    assert not UPSTREAM & set(jobs)
    with appended(src / "tasks/sine.py", "\n\ndef _planted():\n    return 1\n"):
        jobs = dry_run(quick_run)
    # sine's held-out set and its one bundle of two seeds, its ablations, and the gap study's
    # sine model (its variation changes sine's generator): no other task's
    gap = [m for m in quick_gap_models() if m.startswith("sine__")]
    assert jobs["heldout"] == 1 + len(gap) and jobs["train"] == 1 + len(gap)
    assert jobs["ablate"] == 2 + len(gap)
    with appended(src / "studies/attractors.py", "\n\ndef _planted():\n    return 1\n"):
        jobs = dry_run(quick_run)
    # a study beyond the paper (its fixed points) and what reads it; no table of the paper, no
    # other study's summary (the paper's ablation table reads the basis-dependence summary)
    assert "fixed_points" in jobs and "fixed_points_summary" in jobs
    assert not {"collect_ablations", "task_ablation", "table1", "fig1_copy_ablation"} & set(jobs)
    assert not {f"{name}_summary" for name in ANALYSES if name != "fixed_points"} & set(jobs)
    sentences = quick_run / "workflow/templates/paper_vs_reproduced.md"  # a sentence template
    with replaced(sentences, "No number of the paper can be", "No number of the paper is"):
        assert set(dry_run(quick_run)) == {"paper_vs_reproduced", "all"}
    readme = quick_run / "README.md"
    readme.write_text((REPO / "README.md").read_text() + "\nmore words\n")
    try:
        assert dry_run(quick_run) == {}
    finally:
        readme.unlink()


def test_figure_1_on_a_fresh_folder_trains_only_copy_models(tmp_path):
    """Figure 1 draws the copy task alone, from the copy task's own ablation table: a dry run
    on a folder with nothing in it plans the copy task's data, models and ablations, and no
    other task's."""
    from conftest import copy_workflow

    folder = copy_workflow(tmp_path / "fresh")
    result = snakemake(folder, "results/quick/figures/fig1_copy_ablation.pdf", "-n", *QUICK)
    assert result.returncode == 0, result.stdout[-3000:]
    jobs = job_counts(result.stdout)
    copy_bundles = {f"{m[1]}/n{m[2]}" for m in quick_models() if m[0] == "copy"}
    assert jobs["train"] == len(copy_bundles)
    assert jobs["heldout"] == 1 and jobs["ablate"] == len(
        [m for m in quick_models() if m[0] == "copy"]
    )
    assert set(jobs) == {
        "heldout",
        "train",
        "schur",
        "ablate",
        "task_ablation",
        "fig1_copy_ablation",
    }


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
        *(str(moved / layer) for layer in QUICK_LAYERS),
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert job_counts(result.stdout) == {}, result.stdout[-3000:]


BUNDLE_OUTPUT = re.compile(r"/models/(?P<task>[^/]+)/")
"""A training bundle's task, read from its first output (its rule has no wildcards)."""


def scheduled(output: str) -> list[tuple[str, dict]]:
    """(rule, wildcards) of every job a dry run lists; a training bundle's as ``train`` with
    the task of its outputs."""
    jobs, rule = [], None
    for line in output.splitlines():
        line = line.strip()
        if line.startswith(("rule ", "localrule ")) and line.endswith(":"):
            rule = rule_kind(line.split()[1].rstrip(":"))
            jobs.append((rule, {}))
        elif line.startswith("output:") and jobs and rule == "train":
            found = BUNDLE_OUTPUT.search(line)
            if found:
                jobs[-1] = (rule, {"task": found["task"]})
        elif line.startswith("wildcards:") and jobs:
            pairs = (item.split("=", 1) for item in line[len("wildcards:") :].split(","))
            jobs[-1] = (rule, {k.strip(): v.strip() for k, v in pairs})
    return jobs


# One planted change per key of a task block, and the rules of that task it must schedule.
TASK_KEY_CHANGES = {
    "generator": ("flip_flop", {"generator": {"gap_min": 4}}, {"heldout", "train"}),
    "n_heldout": ("flip_flop", {"n_heldout": 200}, {"heldout", "train"}),
    "constructions": (
        "flip_flop",
        {"constructions": ["dense_orthogonal", "dense_default"]},
        {"train"},
    ),
    "sizes": ("flip_flop", {"sizes": [16, 12]}, {"train"}),
    "seeds": ("flip_flop", {"seeds": [0, 1, 2]}, {"train"}),
    "training": ("flip_flop", {"training": {"lr": 0.002}}, {"train"}),
    "training_overrides": (
        "flip_flop",
        {"training_overrides": {"dense_orthogonal": {"lr": 0.002}}},
        {"train"},
    ),
    "checkpoints": ("flip_flop", {"checkpoints": {"milestones": [0.5]}}, {"checkpoint_ablation"}),
    # decided across models: models.csv and the tables below it rerun, no per-model job
    "learned": ("flip_flop", {"learned": {"fvu_max": 0.05}}, set()),
    "model": ("flip_flop", {"model": {"dynamics": "leaky", "leak": 0.5}}, {"train", "schur"}),
    "neurogym": (
        "perceptual_decision",
        {"neurogym": {"env": "PerceptualDecisionMaking-v0", "kwargs": {"dt": 100, "sigma": 0.3}}},
        {"heldout", "train"},
    ),
}


def test_every_key_of_a_task_block_is_a_rerun_trigger(quick_run, tmp_path):
    """Keys read from the schema; each changed on a finished quick run schedules its task's
    jobs, those it must, and no job of another task."""
    import yaml

    finished = snakemake(quick_run, "-c2", *QUICK)  # what earlier tests left to rerun, first
    assert finished.returncode == 0, finished.stdout[-3000:]
    assert dry_run(quick_run) == {}
    schema = yaml.safe_load((quick_run / "src/rnnschur/settings/config.schema.yaml").read_text())
    keys = set(schema["$defs"]["task"]["properties"])
    assert keys == set(TASK_KEY_CHANGES), "a task-block key without a planted change here"
    for key, (task, change, needed) in TASK_KEY_CHANGES.items():
        layer = tmp_path / f"{key}.yaml"
        layer.write_text(yaml.safe_dump({"tasks": {task: change}}))
        result = snakemake(quick_run, "-n", *QUICK, str(layer))  # one --configfile, two files
        assert result.returncode == 0, (key, result.stdout[-3000:])
        jobs = scheduled(result.stdout)
        # a task's gap-study instances (<task>__<variation>) are its models too
        tasks = {task_of(w["task"]) for _, w in jobs if "task" in w}
        assert tasks == ({task} if needed else set()), (key, tasks)
        assert jobs, (key, "nothing scheduled")
        rules = {rule for rule, w in jobs if w.get("task") == task}
        assert needed <= rules, (key, sorted(rules))
    env = tmp_path / "env.yaml"  # another env altogether: new trials, new models
    env.write_text(
        yaml.safe_dump({"tasks": {"perceptual_decision": {"neurogym": {"env": "GoNogo-v0"}}}})
    )
    result = snakemake(quick_run, "-n", *QUICK, str(env))
    assert result.returncode == 0, result.stdout[-3000:]
    assert {"heldout", "train"} <= {r for r, w in scheduled(result.stdout) if w}
