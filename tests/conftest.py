"""Shared helpers: run the real snakemake on a copy of the workflow in a temporary folder."""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
WORKFLOW_FILES = ("Snakefile", "config.yaml", "workflow", "presets", "profiles", "envs")


def copy_workflow(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in WORKFLOW_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, dest / name)
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


def job_counts(output: str) -> dict[str, int]:
    """The 'Job stats' table of a snakemake (dry) run as {rule: count}."""
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
                counts[parts[0]] = int(parts[1])
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


QUICK = ("--configfile", "presets/quick.yaml")


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory) -> Path:
    """The quick preset run once, for real, with two cores."""
    folder = copy_workflow(tmp_path_factory.mktemp("quick"))
    result = snakemake(folder, "-c2", *QUICK)
    assert result.returncode == 0, result.stdout[-5000:]
    return folder
