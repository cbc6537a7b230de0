"""Failure behaviour through the real snakemake: interrupted runs, broken artifacts, diverged
training, threads. The copy task of the quick preset only (8 models) keeps these short."""

import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from rnnschur.training.constructions import CONSTRUCTIONS

from conftest import (
    assert_same_ablations,
    assert_same_weights,
    copy_workflow,
    job_counts,
    snakemake,
)

pytestmark = pytest.mark.workflow
COPY_ONLY = (
    "--config",
    "preset=quick",
    "run_tasks=[copy]",
    "beyond_models=none",
    "gap_study={run: none}",
)


def model_dir(folder, results="results/quick", construction="cayley", seed=0):
    return folder / results / "models/copy" / construction / "n16" / f"seed{seed}"


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """A copy-task run killed with SIGKILL (snakemake and its jobs) while training, then
    finished with --rerun-incomplete."""
    folder = copy_workflow(tmp_path_factory.mktemp("interrupted"))
    process = subprocess.Popen(
        [sys.executable, "-m", "snakemake", "-c2", *COPY_ONLY],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    logs = folder / "results/quick/logs/train/copy"
    deadline = time.time() + 120
    while time.time() < deadline and not any(
        "started" in p.read_text() and "finished" not in p.read_text() for p in logs.rglob("*.log")
    ):
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)  # snakemake and its jobs, as a crash would
    process.wait()
    killed_during_training = not all(
        (model_dir(folder, construction=c, seed=s) / "weights.npz").exists()
        for c in ("dense_default", "dense_orthogonal", "dense_normal", "cayley")
        for s in (0, 1)
    )
    # Whatever was written before the kill is complete: artifacts are renamed into place.
    for path in (folder / "results/quick").rglob("*.npz"):
        with np.load(path) as data:
            assert data.files
    assert not list((folder / "results/quick").rglob("*.tmp"))
    # The README's recovery: release the lock of the killed run, then rerun the incomplete jobs.
    assert snakemake(folder, "--unlock", *COPY_ONLY).returncode == 0
    result = snakemake(folder, "-c2", *COPY_ONLY, "--rerun-incomplete")
    assert result.returncode == 0, result.stdout[-3000:]
    return folder, killed_during_training


def test_interrupted_run_finishes_with_the_same_tables(interrupted, quick_run):
    folder, killed_during_training = interrupted
    assert killed_during_training
    assert_same_ablations(folder / "results/quick", quick_run / "results/quick", "copy")
    assert assert_same_weights(folder / "results/quick", quick_run / "results/quick") == 8


def _fails_naming(folder, expected, target):
    result = snakemake(folder, str(target.relative_to(folder)), "-c1", *COPY_ONLY)
    assert result.returncode != 0
    assert re.search(expected, result.stdout), result.stdout[-4000:]
    return result


def _rebuild(folder, target, rule):
    """Build ``target`` forcing the jobs of ``rule`` on its path; the jobs run, by rule."""
    result = snakemake(
        folder, str(target.relative_to(folder)), "-c1", *COPY_ONLY, "--forcerun", rule
    )
    assert result.returncode == 0, result.stdout[-3000:]
    return job_counts(result.stdout)


def test_truncated_weights_stop_the_schur_job(interrupted):
    folder, _ = interrupted
    weights = model_dir(folder) / "weights.npz"
    schur = folder / "results/quick/schur/copy/cayley/n16/seed0.npz"
    ablation = folder / "results/quick/ablation/copy/cayley/n16/seed0.csv"
    before = ablation.stat().st_mtime
    weights.write_bytes(weights.read_bytes()[:200])
    _fails_naming(folder, r"weights\.npz: unreadable or truncated", schur)
    assert not schur.exists()  # the failed job's output is removed, never left half-written
    assert ablation.stat().st_mtime == before  # nothing downstream was written
    # Repair: retrain that one model and decompose it again.
    # (the model's bundle trains again: seeds 0 and 1, the same bits)
    assert _rebuild(folder, schur, "train_copy_cayley_n16_b0") == {"train": 1, "schur": 1}


def test_a_swapped_weights_file_is_refused_naming_it(interrupted):
    """Another seed's weights copied over seed 0's, with a fresh time stamp: the Schur job
    reruns and refuses them against meta.json's digest, naming the weights file, instead of
    scoring the other seed as seed 0; with the old time stamp the ablation job refuses them
    against the Schur file's digest. Copying the right weights back repairs it."""
    folder, _ = interrupted
    weights = model_dir(folder, construction="dense_default") / "weights.npz"
    other = model_dir(folder, construction="dense_default", seed=1) / "weights.npz"
    schur = folder / "results/quick/schur/copy/dense_default/n16/seed0.npz"
    ablation = folder / "results/quick/ablation/copy/dense_default/n16/seed0.csv"
    original, stamp = weights.read_bytes(), weights.stat().st_mtime
    weights.write_bytes(other.read_bytes())
    expected = r"seed0/weights\.npz: its arrays' sha256 is .*{}.*: the file was replaced"
    _fails_naming(folder, expected.format(r"training recorded in .*seed0/meta\.json"), schur)
    assert not schur.exists()
    weights.write_bytes(original)
    assert _rebuild(folder, ablation, "schur") == {"schur": 1, "ablate": 1}
    weights.write_bytes(other.read_bytes())
    os.utime(weights, (stamp, stamp))
    forced = snakemake(
        folder, str(ablation.relative_to(folder)), "-c1", *COPY_ONLY, "--forcerun", "ablate"
    )
    assert forced.returncode != 0
    assert re.search(expected.format("Schur form .*seed0.npz"), forced.stdout), forced.stdout[
        -4000:
    ]
    weights.write_bytes(original)
    os.utime(weights, (stamp, stamp))
    assert _rebuild(folder, ablation, "ablate") == {"ablate": 1}


def test_schur_that_does_not_reconstruct_W_stops_the_ablation(interrupted):
    folder, _ = interrupted
    schur = folder / "results/quick/schur/copy/dense_default/n16/seed1.npz"
    ablation = folder / "results/quick/ablation/copy/dense_default/n16/seed1.csv"
    with np.load(schur) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["T"] = arrays["T"] + 0.05
    with open(schur, "wb") as handle:
        np.savez(handle, **arrays)
    _fails_naming(folder, r"seed1\.npz: not a valid ordered Schur form", ablation)
    assert not ablation.exists()
    assert _rebuild(folder, ablation, "schur") == {"schur": 1, "ablate": 1}


def test_heldout_of_the_wrong_shape_stops_its_consumers(interrupted):
    folder, _ = interrupted
    heldout = folder / "results/quick/data/copy/heldout.npz"
    original = heldout.read_bytes()
    with np.load(heldout) as data:
        inputs, targets, mask = data["inputs"], data["targets"], data["mask"]
    with open(heldout, "wb") as handle:
        np.savez(handle, inputs=inputs[..., :3], targets=targets, mask=mask)
    weights = model_dir(folder) / "weights.npz"
    try:
        _fails_naming(folder, r"heldout\.npz: inputs have 3 lines, expected 4", weights)
        assert not weights.exists()
    finally:
        heldout.write_bytes(original)


def test_diverged_training_fails_naming_model_step_and_loss(tmp_path):
    folder = copy_workflow(tmp_path)
    (folder / "blowup.yaml").write_text(
        "tasks:\n  copy:\n    training: {lr: 1000.0, clip_grad_norm: null}\n"
    )
    result = snakemake(
        folder,
        "-c2",
        "--config",
        "preset=quick",
        "run_tasks=[copy]",
        "gap_study={run: none}",
        "--configfile",
        "blowup.yaml",
    )
    assert result.returncode != 0
    assert re.search(
        r"training of copy/\w+/n16/seed\d diverged: loss \S+ at step \d+", result.stdout
    ), result.stdout[-4000:]
    assert not list((folder / "results/quick/models").rglob("weights.npz"))


def test_threads_follow_the_rule_and_never_exceed_the_cores(interrupted):
    """Each training job's BLAS runs the rule's threads; under -c2 the running jobs never hold
    more threads than cores (checked from the start and end times the jobs log)."""
    folder, _ = interrupted
    bundles = [f"train_copy_{c}_n16_b0" for c in CONSTRUCTIONS]  # each construction's 2 seeds
    result = snakemake(
        folder,
        "trained",  # the target before --config, which reads every word up to the next option
        "-c2",
        *COPY_ONLY,
        "results_dir=results/threads",
        "--set-threads",
        *(f"{rule}=2" for rule in bundles),
    )
    assert result.returncode == 0, result.stdout[-3000:]
    intervals = set()  # one per job (a bundle of seeds: one log)
    for log in (folder / "results/threads/logs/train").rglob("*.log"):
        text = log.read_text()
        # NumPy's OpenBLAS (and torch, for the Cayley map) read OMP_NUM_THREADS when loaded
        rule_threads, omp = re.search(r"threads: rule (\d+), OMP_NUM_THREADS (\d+)", text).groups()
        assert rule_threads == omp == "2"
        start = float(re.search(r"started ([\d.]+)", text).group(1))
        end = float(re.search(r"finished ([\d.]+)", text).group(1))
        intervals.add((start, end))
    assert len(intervals) == len(bundles)
    for start, end in intervals:  # at most one 2-thread job at any moment
        overlapping = [s for s, e in intervals if s < end and e > start]
        assert len(overlapping) == 1
    assert job_counts(result.stdout)["train"] == len(bundles)


@pytest.mark.skipif(
    os.geteuid() != 0 or sys.platform != "linux", reason="mounting a tmpfs needs root on Linux"
)
def test_disk_full_keeps_what_works_and_finishes_after_space_grows(tmp_path, quick_run):
    """results/ on a 600 kB tmpfs: jobs fail for lack of space and say so in one line; no file is
    left that fails to load; after the space grows the same command finishes, with the weights
    of an undisturbed run."""
    folder = copy_workflow(tmp_path / "full")
    results = folder / "results"
    results.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(results)], check=True)
    try:
        first = snakemake(folder, "-c2", "--keep-going", *COPY_ONLY)
        assert first.returncode != 0
        assert "rnnschur: no space left on the device while writing" in first.stdout
        for path in results.rglob("*.npz"):
            with np.load(path) as data:
                assert data.files, path
        for path in results.rglob("*.csv"):
            pd.read_csv(path)
        assert not list(results.rglob("*.tmp"))
        subprocess.run(["mount", "-o", "remount,size=500m", str(results)], check=True)
        second = snakemake(folder, "-c2", *COPY_ONLY)
        assert second.returncode == 0, second.stdout[-3000:]
        assert assert_same_weights(results / "quick", quick_run / "results" / "quick") == 8
    finally:
        subprocess.run(["umount", "-l", str(results)], check=False)


def test_a_second_run_on_the_same_folder_is_refused_while_the_first_runs(tmp_path, quick_run):
    """Snakemake's lock: a second run in the folder is refused (the first, the whole copy
    chain, is unharmed and finishes); a run of another folder beside it (training and the
    models' table: the same weights, at a fifth of the chain's cost) touches nothing of the
    first's."""
    first_folder = copy_workflow(tmp_path / "first")
    other_folder = copy_workflow(tmp_path / "other")
    first = subprocess.Popen(
        [sys.executable, "-m", "snakemake", "-c1", *COPY_ONLY],
        cwd=first_folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    other = subprocess.Popen(
        [sys.executable, "-m", "snakemake", "-c1", "results/quick/tables/models.csv", *COPY_ONLY],
        cwd=other_folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    logs = first_folder / "results/quick/logs/train"
    deadline = time.time() + 120
    while time.time() < deadline and not list(logs.rglob("*.log")):
        time.sleep(0.05)
    second = snakemake(first_folder, "-c1", *COPY_ONLY)
    assert first.poll() is None, "the first run ended before the second was tried"
    assert second.returncode != 0
    assert "cannot be locked" in second.stdout
    assert first.wait(timeout=600) == 0, first.stdout.read()[-3000:]
    assert other.wait(timeout=600) == 0, other.stdout.read()[-3000:]
    for folder in (first_folder, other_folder):
        assert assert_same_weights(folder / "results/quick", quick_run / "results/quick") == 8
