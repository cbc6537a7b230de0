"""The tutorial CTRNN (leaky relu, a = 0.2, biases) trained by its own torch script, analysed
through the workflow and through the command: its description found from its own outputs,
given, and given wrongly (refused)."""

import json
import os
import re
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from conftest import EXTERNAL_TABLES, REPO, copy_workflow, snakemake

pytestmark = pytest.mark.workflow
EXAMPLE = "examples/ctrnn_tutorial"
FAMILY = ["--dynamics", "leaky", "--leak", "0.2", "--nonlinearity", "relu"]
AUTO = ["--dynamics", "auto"]


@pytest.fixture(scope="module")
def ctrnn(tmp_path_factory, ctrnn_example):
    folder = copy_workflow(tmp_path_factory.mktemp("ctrnn"))
    shutil.copytree(ctrnn_example / "examples", folder / "examples")  # trained by its train.py
    result = snakemake(folder, "-c2", "--configfile", "presets/example_ctrnn.yaml")
    assert result.returncode == 0, result.stdout[-4000:]
    return folder


def analyse(folder, out, *flags):
    """The command as a user runs it (it fixes its own threads)."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
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
    assert "(catalogue: neurogym_ctrnn)" in summary
    assert summary.splitlines()[2].startswith("**rollout verified against the model's own outputs")
    assert '(description found by the search, dynamics="auto")' in summary


def test_the_command_writes_the_same_tables(ctrnn, tmp_path):
    result = analyse(ctrnn, tmp_path / "cli", *AUTO)
    assert result.returncode == 0, result.stderr
    workflow = ctrnn / "results/example_ctrnn/external/ctrnn"
    for name in EXTERNAL_TABLES:
        assert (tmp_path / "cli" / name).read_bytes() == (workflow / name).read_bytes(), name
    given = analyse(ctrnn, tmp_path / "given", *FAMILY)  # the description given: same numbers
    assert given.returncode == 0, given.stderr
    for name in ("ablation.csv", "verdicts.csv", "spectrum.csv", "readout_refit.csv"):
        assert (tmp_path / "given" / name).read_bytes() == (workflow / name).read_bytes(), name


def test_analysed_as_the_wrong_network_it_is_refused(ctrnn, tmp_path):
    result = analyse(ctrnn, tmp_path / "wrong")  # no description: the paper's discrete tanh
    assert result.returncode == 3, result.stderr
    assert "does not reproduce its own outputs" in result.stderr
    assert "do reproduce them: leaky relu (a = 0.2) [neurogym_ctrnn]" in result.stderr
    assert not (tmp_path / "wrong").exists()  # no ablation file, nothing at all
    again = analyse(ctrnn, tmp_path / "cli", *FAMILY)
    assert again.returncode == 0
    refused = analyse(ctrnn, tmp_path / "cli", *FAMILY)  # results there already
    assert refused.returncode == 2 and "already holds results" in refused.stderr
    forced = analyse(ctrnn, tmp_path / "cli", *FAMILY, "--force")
    assert forced.returncode == 0, forced.stderr


def test_the_readmes_ten_lines_and_its_command_run_where_the_readme_shows_them(ctrnn):
    """The README's example, verbatim, from the repository's root (where its paths point)."""
    import re
    import shlex

    readme = (REPO / "README.md").read_text()
    section = readme.split("## Your own network", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=ctrnn, capture_output=True, text=True, timeout=600
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert (ctrnn / "results" / "my_ctrnn" / "summary.md").is_file()
    assert "verified" in ran.stdout or "reproduces" in ran.stdout, ran.stdout[-2000:]
    command = re.search(r"`(python -m rnnschur analyse [^`]+)`", section).group(1)
    argv = shlex.split(command)  # as written: after the example, into a folder of its own
    ran = subprocess.run(
        [sys.executable, *argv[1:]], cwd=ctrnn, capture_output=True, text=True, timeout=600
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert (ctrnn / "results" / "my_ctrnn_cli" / "summary.md").is_file()


def test_the_readme_python_example_runs_as_written(tmp_path, monkeypatch, ctrnn_example):
    """The README's Python example, executed as written, on the files that the script it names
    makes (run once for the session: ``ctrnn_example``)."""
    text = (REPO / "README.md").read_text()
    block = re.search(r"```python\n(import rnnschur\n.*?)```", text, re.S)
    assert block, "README has no Python example starting with 'import rnnschur'"
    code = block[1]
    make = re.search(r"python (examples/\S+/train\.py)", code) or re.search(
        r"# made by (examples/\S+/train\.py)", code
    )
    assert make, "the example says which script makes its files"
    assert make[1] == "examples/ctrnn_tutorial/train.py"  # the script the fixture runs
    shutil.copytree(ctrnn_example / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("matplotlib.pyplot.show", lambda *a, **k: None)
    namespace = {}
    exec(compile(code, "README.md", "exec"), namespace)
    result = namespace["result"]
    assert result.verification.verified
    assert result.dynamics.kind == "leaky" and result.dynamics.leak == 0.2
