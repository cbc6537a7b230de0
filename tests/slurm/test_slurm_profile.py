"""The quick preset through `--profile profiles/slurm` on a real one-node SLURM cluster; the
results must equal the local run's."""

import os
import re
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from conftest import REPO, assert_same_ablations, assert_same_weights, job_counts

pytestmark = [pytest.mark.slurm, pytest.mark.workflow]
CLUSTER = REPO / "tests/slurm/local_cluster.sh"


def cluster_is_up():
    try:
        out = subprocess.run(
            ["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=10
        )
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "idle" in out.stdout


@pytest.fixture(scope="module")
def cluster():
    started = False
    if not cluster_is_up():
        if os.geteuid() != 0 or shutil.which("slurmctld") is None:
            pytest.skip(
                "needs root and slurmctld, slurmd, munge (tests/slurm/local_cluster.sh install)"
            )
        subprocess.run([str(CLUSTER), "up"], check=True, timeout=120)
        started = True
    yield
    if started:
        subprocess.run([str(CLUSTER), "down"], timeout=60)


def test_quick_preset_on_slurm_equals_local(cluster, quick_run):
    args = [
        sys.executable,
        "-m",
        "snakemake",
        "--profile",
        "profiles/slurm",
        "--config",
        "preset=quick",
        "run_tasks=[flip_flop]",  # one construction: one training job, one group job
        "beyond_models=none",
        "gap_study={run: none}",
        "results_dir=results/slurm",
        "--default-resources",
        "slurm_partition=test",
        "--slurm-no-account",
        "--slurm-init-seconds-before-status-checks",
        "2",
        "--seconds-between-status-checks",
        "2",
        "--latency-wait",
        "5",
        "--jobs",
        "4",
        "--cores",
        "2",
    ]
    process = subprocess.Popen(
        args, cwd=quick_run, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        output, _ = process.communicate(timeout=900)
    except subprocess.TimeoutExpired:
        process.send_signal(2)  # one SIGINT makes snakemake cancel its SLURM jobs
        output, _ = process.communicate(timeout=60)
        own = re.findall(r"SLURM jobid (\d+)", output)  # cancel this run's jobs, no other
        if own:
            subprocess.run(["scancel", *own])
        pytest.fail("the SLURM run did not finish in 15 minutes:\n" + output[-3000:])
    assert process.returncode == 0, output[-5000:]
    # 1 training job (the construction's two seeds as one bundle), and the 2 Schur + 2 ablation
    # jobs bundled in one group job.
    assert output.count("has been submitted with SLURM jobid") == 1 + 1, output[-5000:]
    jobs = job_counts(output)
    assert jobs["train"] == 1 and jobs["ablate"] == 2

    local, remote = quick_run / "results/quick", quick_run / "results/slurm"
    assert assert_same_weights(remote, local) == 2
    assert_same_ablations(remote, local, "flip_flop")
    expected = pd.read_csv(local / "tables/models.csv")
    expected = expected[expected["task"] == "flip_flop"].reset_index(drop=True)
    pd.testing.assert_frame_equal(pd.read_csv(remote / "tables/models.csv"), expected)
    # a table across models too: the task's solutions counted per block, as the local run's
    counted = pd.read_csv(local / "tables/task_restriction_tasks.csv")
    counted = counted[counted["task"] == "flip_flop"].reset_index(drop=True)
    remote_counted = pd.read_csv(remote / "tables/task_restriction_tasks.csv")
    pd.testing.assert_frame_equal(remote_counted, counted)
