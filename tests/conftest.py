"""Shared helpers: run the real snakemake on a copy of the workflow in a temporary folder."""

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# One thread per test process for the libraries that start one per core (OpenBLAS, torch): the
# suite runs two workers on two cores. Snakemake's jobs set their own (the rule's threads).
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402  (after the threads are set)
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
# the page writer's modules (docs/readings/, docs/listings.py), as docs/build_results.py finds them
sys.path.insert(0, str(REPO / "docs"))
# the workflow's own modules (its config engine: config_checks, instances), as its Snakefile
# imports them
sys.path.insert(0, str(REPO / "workflow" / "lib"))
WORKFLOW_FILES = ("Snakefile", "config.yaml", "workflow", "presets", "profiles", "envs", "src")
"""A workflow copy: its rules and its own library (its jobs import src/ first, so that a test
can edit the library it runs)."""


QUICK_RUN_FIXTURE = "quick_run"
"""The session's run of the quick preset (:func:`quick_run`), made once per worker process."""


@functools.cache
def shares_the_quick_run(path: str) -> bool:
    """Whether the test file ``path`` (relative to the repository) uses the session's quick
    run: it names the fixture."""
    return QUICK_RUN_FIXTURE in (REPO / path).read_text()


def pytest_xdist_make_scheduler(config, log):
    """The README's command runs the tests on two workers (pytest-xdist, ``-n 2``). Every test
    file that uses the session's quick run is one unit, run on one worker in order, so that the
    quick run is made once; every other file is its own unit (its module fixtures made once),
    and the units are spread over both workers as they free up. A snakemake run of one unit
    may so share the two cores with another unit's run: slower each (a test that waits on a
    run gives it minutes)."""
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::")[0]
            return QUICK_RUN_FIXTURE if shares_the_quick_run(path) else path

    return Scheduling(config, log)


def copy_workflow(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in WORKFLOW_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(
                source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
            )
        else:
            shutil.copy2(source, dest / name)
    return dest


def snakemake(cwd: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """Run ``python -m snakemake`` in ``cwd``; stdout and stderr together in ``.stdout``."""
    return subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
    )


TRAINING_RULE = re.compile(r"^train_\w+_b\d+$")
"""The training rules, one per bundle of seeds (train_<task>_<construction>_n<N>_b<block>)."""


def rule_kind(rule: str) -> str:
    """A rule's name, every training bundle's as ``train`` (the gap study's instances'
    too)."""
    return "train" if TRAINING_RULE.match(rule) else rule


def job_counts(output: str) -> dict[str, int]:
    """The 'Job stats' table of a snakemake (dry) run as {rule: count}, the training bundles'
    jobs counted together as ``train``."""
    counts, inside = {}, False
    for line in output.splitlines():
        if line.startswith("Job stats:"):
            inside, counts = True, {}
            continue
        if inside:
            parts = line.split()
            if not parts:
                if counts:
                    inside = False
                continue
            if len(parts) == 2 and parts[1].isdigit() and parts[0] not in ("total",):
                kind = rule_kind(parts[0])
                counts[kind] = counts.get(kind, 0) + int(parts[1])
    return counts


def assert_same_weights(results: Path, reference: Path) -> int:
    """Every weights.npz below ``results`` equals, bit for bit, the one at the same relative
    place below ``reference``; returns how many were compared."""
    paths = sorted(results.rglob("weights.npz"))
    for path in paths:
        with np.load(path) as a, np.load(reference / path.relative_to(results)) as b:
            for key in ("W_xh", "W_hh", "W_hy"):
                assert np.array_equal(a[key], b[key]), (path, key)
    return len(paths)


def assert_same_ablations(results: Path, reference: Path, task: str) -> None:
    """The ablation table of a run of ``task`` alone without the analyses beyond the paper
    (``results``) equals the reference run's rows of ``task``, but for the basis flag, which
    only the reference checked: the run's is empty throughout."""
    table = pd.read_csv(results / "tables/ablation.csv")
    expected = pd.read_csv(reference / "tables/ablation.csv")
    expected = expected[expected["task"] == task].reset_index(drop=True)
    assert table["basis_dependent"].isna().all()
    flag = ["basis_dependent"]
    pd.testing.assert_frame_equal(table.drop(columns=flag), expected.drop(columns=flag))


QUICK_LAYERS = ("presets/quick.yaml", "presets/studies.yaml", "presets/quick_studies.yaml")
"""The quick preset with its studies layers (the gap study, the analyses beyond the paper; the
paper-scale layer defines them, the quick one makes them small)."""
QUICK = ("--configfile", *QUICK_LAYERS)
"""The quick preset with its studies layers: the run the workflow tests read, and
docs/quick.md's."""


def quick_config(folder: Path = REPO) -> dict:
    """config.yaml with the quick run's layers over it, merged as Snakemake merges them (before
    the schema's defaults): what a quick run's jobs were given."""
    import yaml
    from snakemake.utils import update_config

    config = yaml.safe_load((folder / "config.yaml").read_text())
    for layer in QUICK_LAYERS:
        update_config(config, yaml.safe_load((folder / layer).read_text()))
    return config


EXTERNAL_TABLES = (
    "ablation.csv",
    "verdicts.csv",
    "spectrum.csv",
    "subspace_control.csv",
    "readout_refit.csv",
    "verification.json",
    "summary.md",
)
"""The files the command and the workflow's external rules must write identically."""


def quick_models() -> list[tuple[str, str, int, int]]:
    """(task, construction, N_h, seed) of every model the quick preset trains, read from
    config.yaml with presets/quick.yaml over it (as Snakemake layers them)."""
    import yaml

    base = yaml.safe_load((REPO / "config.yaml").read_text())
    quick = yaml.safe_load((REPO / "presets" / "quick.yaml").read_text())
    models = []
    for task in quick.get("run_tasks", base["run_tasks"]):
        block = {**base["tasks"].get(task, {}), **quick["tasks"].get(task, {})}
        for construction in block["constructions"]:
            for size in block["sizes"]:
                models += [(task, construction, size, seed) for seed in block["seeds"]]
    return models


def quick_gap_models() -> list[str]:
    """The instance <task>__<variation> of every model of the quick preset's gap study (one
    per task of each variation it runs, at its one seed), read from config.yaml,
    presets/quick.yaml and its studies layers (presets/studies.yaml defines the variations,
    presets/quick_studies.yaml chooses three at one seed)."""
    import yaml

    base = yaml.safe_load((REPO / "config.yaml").read_text())
    quick = yaml.safe_load((REPO / "presets" / "quick.yaml").read_text())
    paper_studies = yaml.safe_load((REPO / "presets" / "studies.yaml").read_text())
    studies = yaml.safe_load((REPO / "presets" / "quick_studies.yaml").read_text())
    variations, study = paper_studies["gap_study"]["variations"], studies["gap_study"]
    run_tasks = quick.get("run_tasks", base["run_tasks"])
    return [
        f"{task}__{name}"
        for name in study["run"]
        for task in variations[name]["tasks"]
        if task in run_tasks
        for _ in study["seeds"]
    ]


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory) -> Path:
    """The quick preset with its studies layer (:data:`QUICK`) run once, for real, with two
    cores."""
    folder = copy_workflow(tmp_path_factory.mktemp("quick"))
    result = snakemake(folder, "-c2", *QUICK)
    assert result.returncode == 0, result.stdout[-5000:]
    return folder


CTRNN_EXAMPLE = "examples/ctrnn_tutorial"


@pytest.fixture(scope="session")
def ctrnn_example(tmp_path_factory) -> Path:
    """A folder holding ``examples/ctrnn_tutorial`` as its own ``train.py`` leaves it (ctrnn.pt,
    heldout.npz, fitting.npz, own_evaluation.json), trained once for the whole session: copy
    its ``examples`` folder where a test needs the files."""
    folder = tmp_path_factory.mktemp("ctrnn_example")
    shutil.copytree(REPO / CTRNN_EXAMPLE, folder / CTRNN_EXAMPLE)
    subprocess.run(
        [sys.executable, f"{CTRNN_EXAMPLE}/train.py"], cwd=folder, check=True, timeout=600
    )
    return folder


SENTENCE_LIMIT = 300
"""A generated sentence is at most three lines of 100 characters."""


def sentences(text: str) -> list[str]:
    """The sentences of generated prose: split after '.', '!' or '?' and white space (not after
    'e.g.', 'i.e.', 'et al.', 'vs.' or 'cf.'), Markdown table rows left out."""
    import re

    prose = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
    prose = re.sub(r"\b(e\.g|i\.e|et al|vs|cf)\.", lambda m: m.group(0).replace(".", "\0"), prose)
    parts = re.split(r"(?<=[.!?])\s+", prose)
    return [p.replace("\0", ".").strip() for p in parts if p.strip()]


def long_sentences(text: str) -> list[str]:
    """The sentences of ``text`` longer than :data:`SENTENCE_LIMIT`."""
    return [s for s in sentences(text) if len(s) > SENTENCE_LIMIT]
