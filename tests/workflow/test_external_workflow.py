"""The example of a model trained elsewhere, through the workflow and through the command."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from rnnschur import io

from conftest import EXTERNAL_TABLES, REPO, copy_workflow, snakemake

pytestmark = pytest.mark.workflow
EXAMPLE = "examples/flipflop_torch"


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The example model trained by its own torch script, then analysed by the workflow."""
    folder = copy_workflow(tmp_path_factory.mktemp("external"))
    (folder / EXAMPLE).mkdir(parents=True)
    shutil.copy2(REPO / EXAMPLE / "train.py", folder / EXAMPLE / "train.py")
    subprocess.run([sys.executable, f"{EXAMPLE}/train.py"], cwd=folder, check=True, timeout=600)
    result = snakemake(folder, "-c2", "--configfile", "presets/example_external.yaml")
    assert result.returncode == 0, result.stdout[-4000:]
    return folder


def test_full_model_score_equals_the_users_own_evaluation(example):
    out = example / "results/example/external/flipflop_torch"
    ablation = pd.read_csv(out / "ablation.csv")
    own = json.loads((example / EXAMPLE / "own_evaluation.json").read_text())["heldout_fvu"]
    full = ablation[ablation["subset"] == "none"]["score"]
    assert full.to_numpy() == pytest.approx(own, rel=1e-4)  # float32 rollouts, two libraries
    assert len(ablation) == 3 * 8
    verdicts = pd.read_csv(out / "verdicts.csv")
    assert set(verdicts["subset"]) == {"T_RR", "T_CR", "T_CC"}
    summary = (out / "summary.md").read_text()
    assert "biases b_h (max |·| " in summary and ", b_y (max |·| " in summary
    assert "| −T_C→R |" in summary
    assert (out / "readout_refit.csv").is_file() and (out / "profile.png").stat().st_size > 0
    assert summary.splitlines()[2].startswith("**rollout verified against the model's own outputs")
    assert json.loads((out / "verification.json").read_text())["verified"] is True


def test_the_command_writes_the_same_tables(example, tmp_path):
    """Byte for byte, with the threads a user's shell has (the command fixes its own)."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env |= {"OMP_NUM_THREADS": "2"}  # what a busy laptop might have set
    env = {k: v for k, v in env.items() if k not in ("OPENBLAS_CORETYPE",)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rnnschur",
            "analyse",
            f"{EXAMPLE}/state_dict.pt",
            f"{EXAMPLE}/heldout.npz",
            "--fitting",
            f"{EXAMPLE}/fitting.npz",
            "--name",
            "flipflop_torch",
            "--out",
            str(tmp_path / "cli"),
        ],
        cwd=example,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert "[1/5] ordered real Schur form" in result.stdout
    workflow = example / "results/example/external/flipflop_torch"
    for name in EXTERNAL_TABLES:
        assert (tmp_path / "cli" / name).read_bytes() == (workflow / name).read_bytes(), name


MODEL = "external__flipflop_torch/external/n32/seed0"
"""The example's model path in the workflow's layout: its task block's one model."""


def test_the_per_model_rules_made_the_tables(example):
    """The workflow's external tables are the per-model rules' own files of the model's task
    block, their labels replaced by the model's name: the ordinary rules analysed it (no
    pipeline of its own)."""
    results = example / "results/example"
    out = results / "external/flipflop_torch"
    for per_model, name in (
        (f"ablation/{MODEL}.csv", "ablation.csv"),
        (f"views/spectra/{MODEL}.csv", "spectrum.csv"),
        (f"beyond/subspace_control/{MODEL}.csv", "subspace_control.csv"),
        (f"beyond/readout_refit/{MODEL}.csv", "readout_refit.csv"),
    ):
        labelled = pd.read_csv(results / per_model)
        assert (labelled["task"] == "external__flipflop_torch").all(), per_model
        assert (labelled["construction"] == "external").all() and (labelled["n_hidden"] == 32).all()
        own = labelled.drop(columns=["task", "construction", "n_hidden", "seed"])
        table = pd.read_csv(out / name)
        if name == "ablation.csv":
            assert (table.pop("model") == "flipflop_torch").all()
        pd.testing.assert_frame_equal(table, own, check_exact=True)
    logs = sorted(p.name for p in (results / "logs").rglob("*.log"))
    assert not any("analyse" in name for name in logs), logs


def test_the_configs_refit_grid_reaches_the_external_model(example, tmp_path):
    """A ridge grid of one strength in the config: every refit of the external model uses it."""
    grid = tmp_path / "grid.yaml"
    grid.write_text("results_dir: results/grid\nreadout_refit: {ridge_grid: [0.375]}\n")
    result = snakemake(example, "-c2", "--configfile", "presets/example_external.yaml", str(grid))
    assert result.returncode == 0, result.stdout[-4000:]
    refits = pd.read_csv(example / "results/grid/external/flipflop_torch/readout_refit.csv")
    assert len(refits) == 8 and (refits["ridge_lambda"] == 0.375).all()
    default = pd.read_csv(example / "results/example/external/flipflop_torch/readout_refit.csv")
    assert (default["ridge_lambda"] != 0.375).all()


def test_the_command_refuses_bad_input_with_its_message(example, tmp_path):
    bad = tmp_path / "bad.npz"
    import numpy as np

    np.savez(bad, W_xh=np.ones((4, 3)), W_hh=np.eye(4), W_hy=np.ones((3, 5)))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rnnschur",
            "analyse",
            str(bad),
            f"{EXAMPLE}/heldout.npz",
            "--out",
            str(tmp_path / "out"),
        ],
        cwd=example,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert f"{bad}: W_hy (3, 5) must be (N_y, N_h = 4)" in result.stderr
    assert not (tmp_path / "out").exists()  # nothing half-written


def test_help_explains_every_option():
    result = subprocess.run(
        [sys.executable, "-m", "rnnschur", "analyse", "--help"], capture_output=True, text=True
    )
    for option in (
        "--score",
        "--alpha",
        "--alpha-grid",
        "--epsilon",
        "--threshold",
        "--initial-state",
        "--fitting",
        "--nonlinearity",
        "state_dict",
    ):
        assert option in result.stdout


def test_the_command_refuses_bad_settings_naming_them_not_the_weights(tmp_path):
    """Settings wrong in themselves (an α twice in the grid) are refused before any file is
    read, naming the setting, not the weights file (which need not even exist)."""
    result = subprocess.run(
        [sys.executable, "-m", "rnnschur", "analyse", "none.npz", "none_heldout.npz"]
        + ["--alpha-grid", "0.9", "0.9", "0.85", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "error: alpha_grid=[0.9, 0.9, 0.85]: α [0.9] given twice"
    assert not (tmp_path / "out").exists()


def test_one_nn4n_checkpoint_gives_the_same_tables_on_all_three_routes(tmp_path):
    """nn4n's own save file (a state_dict and the kwargs it stores: relu, a = dt/τ = 0.2) with
    a held-out set without outputs, so nothing but the stored kwargs says how it computes: the
    command, rnnschur.analyse and the workflow's external_import read the same description
    and write the same tables (before, the workflow rolled it out as a discrete tanh RNN)."""
    import torch
    from nn4n.model import CTRNN

    import rnnschur
    from rnnschur.network.dynamics import Dynamics
    from rnnschur.tasks import flip_flop

    folder = copy_workflow(tmp_path / "workflow")
    torch.manual_seed(0)
    CTRNN(dims=[3, 16, 3], activation="relu", dt=20, tau=100).save(str(folder / "ctrnn.pt"))
    held = flip_flop.generate(np.random.default_rng(1), 12, length=20)
    io.save_npz(folder / "heldout.npz", inputs=held.inputs, targets=held.targets)
    (folder / "nn4n.yaml").write_text(
        "results_dir: results/nn4n\nrun_tasks: []\nexternal_models:\n"
        "  ctrnn: {weights: ctrnn.pt, heldout: heldout.npz, score: fvu}\n"
    )
    result = snakemake(folder, "-c2", "--configfile", "nn4n.yaml")
    assert result.returncode == 0, result.stdout[-4000:]
    api = rnnschur.analyse(folder / "ctrnn.pt", folder / "heldout.npz", name="ctrnn")
    assert api.dynamics == Dynamics("leaky_current", 0.2, "relu")
    command = [sys.executable, "-m", "rnnschur", "analyse", "ctrnn.pt", "heldout.npz"]
    command += ["--name", "ctrnn", "--out", str(tmp_path / "cli")]
    ran = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr
    workflow = folder / "results/nn4n/external/ctrnn"
    api.save(tmp_path / "api")
    for name in EXTERNAL_TABLES:
        if (workflow / name).exists():
            assert (tmp_path / "cli" / name).read_bytes() == (workflow / name).read_bytes(), name
    for name in ("ablation.csv", "verdicts.csv", "spectrum.csv"):  # in this process's threads
        pd.testing.assert_frame_equal(
            pd.read_csv(tmp_path / "api" / name), pd.read_csv(workflow / name), rtol=1e-9
        )
    model = folder / "results/nn4n/models/external__ctrnn/external/n16/seed0/weights.npz"
    assert io.load_dynamics(model) == api.dynamics  # what external_import stored


def test_a_keras_file_is_read_with_its_activation_by_the_workflow_as_by_the_command(tmp_path):
    """A relu SimpleRNN saved by Keras (its .keras config names the activation, which the
    import job reads as the command does: as the paper's tanh it would not reproduce Keras's
    outputs), through external_models and the command: the same tables, byte for byte."""
    os.environ.setdefault("KERAS_BACKEND", "torch")
    import keras
    import numpy as np

    keras.utils.set_random_seed(0)
    rnn = keras.layers.SimpleRNN(12, activation="relu", return_sequences=True)
    model = keras.Sequential([keras.Input((None, 2)), rnn, keras.layers.Dense(1)])
    folder = copy_workflow(tmp_path / "workflow")
    model.save(folder / "rnn.keras")
    x = np.random.default_rng(0).normal(size=(16, 20, 2)).astype(np.float32)
    y = np.asarray(model.predict(x, verbose=0))
    np.savez(folder / "heldout.npz", inputs=x, targets=y, outputs=y)
    entry = "{weights: rnn.keras, heldout: heldout.npz, score: fvu}"
    config = (
        "--config",
        "results_dir=results/keras",
        "run_tasks=[]",
        f"external_models={{kr: {entry}}}",
    )
    result = snakemake(folder, "-c2", *config)
    assert result.returncode == 0, result.stdout[-4000:]
    command = [sys.executable, "-m", "rnnschur", "analyse", "rnn.keras", "heldout.npz"]
    done = subprocess.run(
        [*command, "--name", "kr", "--out", str(tmp_path / "cli")],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    workflow = folder / "results/keras/external/kr"
    verification = json.loads((workflow / "verification.json").read_text())
    assert verification["verified"] and verification["description"].startswith("discrete relu")
    for name in set(EXTERNAL_TABLES) - {"readout_refit.csv"}:  # no fitting set here
        assert (tmp_path / "cli" / name).read_bytes() == (workflow / name).read_bytes(), name
