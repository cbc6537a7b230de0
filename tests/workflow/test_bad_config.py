"""A wrong config is refused before any job starts, with a message naming the key."""

import os
import re
import subprocess
import sys

import pytest

from conftest import copy_workflow, snakemake

pytestmark = pytest.mark.workflow

CASES = [
    # (name, extra config file, text expected in the message); every case of the config checks
    # is a unit test (tests/unit/test_config.py), these show that snakemake prints them
    (
        "misspelt key",
        "tasks:\n  sine:\n    trainig: {lr: 0.1}\n",
        "config key tasks.sine.trainig: not a key here ('trainig' was unexpected); "
        "close: ['training']",
    ),
    ("wrong type", "alpha: high\n", "config key alpha: 'high' is not of type 'number'"),
    (
        "an alias bomb in a NeuroGym env's kwargs",
        "tasks:\n  pdm:\n    neurogym:\n      env: PerceptualDecisionMaking-v0\n      kwargs:\n"
        "        a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(
            f"        {c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, c in zip("abcdefgh", "bcdefghi", strict=True)
        )
        + "    constructions: [cayley]\n    sizes: [8]\n    seeds: [0]\n"
        "    training: {lr: 0.1, batch_size: 2, max_steps: 1}\n",
        "config key tasks.pdm.neurogym.kwargs",
    ),
    ("alpha outside the grid", "alpha: 0.8\n", "config key alpha = 0.8 must be one of alpha_grid"),
    (
        "unknown NeuroGym env, with close names",
        "tasks:\n  pdm: {neurogym: {env: PerceptualDecisionMakin-v0}, constructions: [cayley],"
        " sizes: [8], seeds: [0], training: {lr: 0.1, batch_size: 2, max_steps: 1}}\n",
        "config key tasks.pdm.neurogym: unknown NeuroGym env 'PerceptualDecisionMakin-v0'; "
        "close: ['PerceptualDecisionMaking-v0'",
    ),
    (
        "a NeuroGym kwarg the env takes but cannot use",
        "tasks:\n  pdm: {neurogym: {env: PerceptualDecisionMaking-v0, kwargs: {dt: 0}},"
        " constructions: [cayley], sizes: [8], seeds: [0],"
        " training: {lr: 0.1, batch_size: 2, max_steps: 1}}\n",
        "config key tasks.pdm.neurogym: env PerceptualDecisionMaking-v0 with kwargs {'dt': 0} "
        "cannot draw a trial (ZeroDivisionError",
    ),
    (
        "variation with a generator key its task lacks",
        "gap_study:\n  variations:\n    v: {description: d, tasks: [sine], generator: {bits: 2}}\n",
        "config key gap_study.variations.v does not fit tasks.sine",
    ),
    # numbers that are no numbers, sizes no machine here holds, names and folders that leave
    ("NaN alpha_grid", "alpha_grid: [.nan, 0.9]\n", "config key alpha_grid.0 = nan: a number"),
    ("NaN max_loss", "tasks:\n  copy:\n    training: {max_loss: .nan}\n", "max_loss = nan"),
    ("inf fvu_max", "learned: {fvu_max: .inf}\n", "config key learned.fvu_max = inf"),
    (
        "a size no job here can hold",
        "tasks:\n  copy: {sizes: [100000]}\n",
        "config key tasks.copy.sizes has N_h = 100000: its training job would declare",
    ),
    (
        # the quick copy task: 10 B · 10^7 trials · 20 steps · N_h 16 = 30,517 MB
        "a held-out set no job here can hold",
        "tasks:\n  copy: {n_heldout: 10000000}\n",
        "config key tasks.copy.n_heldout = 10000000: 10000000 trials of 20 steps at N_h = 16 "
        "take about 30517 MB in each per-model job, above max_job_mem_mb = 24000",
    ),
    (
        "a task name that leaves the folder",
        "run_tasks: [copy]\ntasks:\n  ../../escaped_task: {neurogym: {env: GoNogo-v0}}\n",
        "config key tasks names the task '../../escaped_task': a task name may use letters",
    ),
    (
        "a path Snakemake would read as a wildcard",
        "external_models:\n  m: {weights: 'w{x}.npz', heldout: h.npz}\n",
        "config key external_models.m.weights = 'w{x}.npz': a path here may not hold {, }",
    ),
    ("results at the root", "results_dir: /\n", "config key results_dir = '/' is the filesystem"),
    (
        "results inside the sources",
        "results_dir: src/out\n",
        "config key results_dir = 'src/out' lies inside the workflow's own src/ folder",
    ),
    ("CUDA without CUDA", "device: cuda\n", "config key device = 'cuda', but this torch has no"),
    # hostile files: a key given twice, an alias bomb (a billion leaves, 536 bytes)
    ("a key given twice", "alpha: 0.9\nalpha: 0.85\n", "line 2: config key 'alpha' is given twice"),
    (
        "an alias bomb",
        "bomb:\n  a0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
        + "".join(f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9)),
        "config key bomb: not a key here",
    ),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("bad_config"))


@pytest.mark.parametrize("name, text, expected", CASES, ids=[c[0] for c in CASES])
def test_refused_before_any_job(folder, name, text, expected):
    (folder / "extra.yaml").write_text(text)
    result = snakemake(folder, "-c1", "--configfile", "presets/quick.yaml", "extra.yaml")
    assert result.returncode != 0
    assert expected in result.stdout, result.stdout[-3000:]
    assert "Finished jobid" not in result.stdout
    assert not (folder / "results").exists()
    assert len(result.stdout.splitlines()) < 20  # the message, not the schema


def test_task_missing_its_settings(tmp_path):
    folder = copy_workflow(tmp_path)
    config = (folder / "config.yaml").read_text()
    head = re.split(r"(?m)^  flip_flop:", config, maxsplit=1)[0]  # the task block, not a key
    (folder / "config.yaml").write_text(head)  # only the copy task is configured
    result = snakemake(folder, "-n", "--config", "results_dir=results/x")
    assert result.returncode != 0
    assert "run_tasks names ['flip_flop', 'sine', 'context_integration']" in result.stdout
    assert "tasks.flip_flop is missing" in result.stdout


def test_preset_with_a_yaml_syntax_error(folder):
    (folder / "presets" / "broken.yaml").write_text("tasks:\n  copy: {sizes: [16\n")
    result = snakemake(folder, "-n", "--config", "preset=broken")
    assert result.returncode != 0
    assert "presets/broken.yaml is not valid YAML" in result.stdout  # read from the workflow
    assert "line 3" in result.stdout, result.stdout[-2000:]
    missing = snakemake(folder, "-n", "--config", "preset=nosuch")
    assert "config key preset = 'nosuch': no file " in missing.stdout
    assert f"{folder}/presets/nosuch.yaml" in missing.stdout
    assert "quick" in missing.stdout


def test_preset_key_layers_the_preset_and_the_command_line_wins(folder):
    result = snakemake(folder, "-n", "--config", "preset=quick", "results_dir=results/other")
    assert result.returncode == 0, result.stdout[-2000:]
    assert "results/other/models/copy/cayley/n16/seed1/weights.npz" in result.stdout
    assert "n72" not in result.stdout


def test_a_preset_that_is_not_utf8_or_not_a_mapping_is_refused_naming_it(folder):
    """(A --configfile of either kind is refused by Snakemake itself before the workflow
    reads it: 'Config file must be given as JSON or YAML with keys at top level'.)"""
    (folder / "presets" / "latin.yaml").write_bytes("alpha: 0.9\n# café\n".encode("latin-1"))
    latin = snakemake(folder, "-n", "--config", "preset=latin")
    assert latin.returncode != 0
    assert "presets/latin.yaml is not UTF-8 text (byte 0xe9 at position 16)" in latin.stdout
    (folder / "presets" / "listed.yaml").write_text("- alpha\n- 0.9\n")
    listed = snakemake(folder, "-n", "--config", "preset=listed")
    assert listed.returncode != 0
    assert "presets/listed.yaml must be a mapping of config keys" in listed.stdout


def test_a_results_dir_under_home_is_written_there(tmp_path):
    """results_dir: ~/runs is the home folder's runs for the check and for every job alike (not
    a folder named ~ in the working directory)."""
    folder, home = copy_workflow(tmp_path / "workflow"), tmp_path / "home"
    home.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--configfile", "presets/quick.yaml"]
        + ["--config", "results_dir=~/runs"],
        cwd=folder,
        env=os.environ | {"HOME": str(home)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"output: {home}/runs/models/" in result.stdout
    assert not re.search(r"(output|log|benchmark): \S*~", result.stdout)
