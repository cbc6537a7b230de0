"""The tutorial CTRNN (leaky relu, a = 0.2, biases) trained by its own torch script, analysed
through the workflow and through the command, as the network it is and as the wrong one."""

import json
import os
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from conftest import EXTERNAL_TABLES, REPO, copy_workflow, snakemake

pytestmark = pytest.mark.workflow
EXAMPLE = "examples/ctrnn_tutorial"
FAMILY = ["--dynamics", "leaky", "--leak", "0.2", "--nonlinearity", "relu"]


@pytest.fixture(scope="module")
def ctrnn(tmp_path_factory):
    folder = copy_workflow(tmp_path_factory.mktemp("ctrnn"))
    (folder / EXAMPLE).mkdir(parents=True)
    shutil.copy2(REPO / EXAMPLE / "train.py", folder / EXAMPLE / "train.py")
    subprocess.run([sys.executable, f"{EXAMPLE}/train.py"], cwd=folder, check=True, timeout=600)
    result = snakemake(folder, "-c2", "--configfile", "presets/example_ctrnn.yaml")
    assert result.returncode == 0, result.stdout[-4000:]
    return folder


def analyse(folder, out, *flags):
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}  # as the rule's job
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "rnnschur",
            "analyse",
            f"{EXAMPLE}/ctrnn.pt",
            f"{EXAMPLE}/heldout.npz",
            "--fitting",
            f"{EXAMPLE}/fitting.npz",
            "--name",
            "ctrnn",
            "--out",
            str(out),
            *flags,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_workflow_scores_the_ctrnn_as_its_own_forward_pass(ctrnn):
    out = ctrnn / "results/example_ctrnn/external/ctrnn"
    ablation = pd.read_csv(out / "ablation.csv")
    own = json.loads((ctrnn / EXAMPLE / "own_evaluation.json").read_text())["heldout_fvu"]
    assert ablation[ablation["subset"] == "none"]["score"].to_numpy() == pytest.approx(
        own, rel=1e-4
    )
    summary = (out / "summary.md").read_text()
    assert summary.startswith("# ctrnn") and "leaky relu (a = 0.2) RNN" in summary
    assert "(1 − a) I + a W_hh, a = 0.2" in summary


def test_the_command_writes_the_same_tables(ctrnn, tmp_path):
    result = analyse(ctrnn, tmp_path / "cli", *FAMILY)
    assert result.returncode == 0, result.stderr
    workflow = ctrnn / "results/example_ctrnn/external/ctrnn"
    for name in EXTERNAL_TABLES:
        assert (tmp_path / "cli" / name).read_bytes() == (workflow / name).read_bytes(), name


def test_analysed_as_the_wrong_family_it_says_so_first(ctrnn, tmp_path):
    result = analyse(ctrnn, tmp_path / "wrong")
    assert result.returncode == 0, result.stderr
    assert "WARNING: the full model scores fvu" in result.stdout
    assert (tmp_path / "wrong" / "summary.md").read_text().startswith("> **WARNING")
