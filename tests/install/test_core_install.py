"""rnnschur installs beside a researcher's own stack: in a fresh venv with only the core
dependencies, at the lowest versions pyproject.toml admits (constraints-lowest.txt), no torch
and no snakemake, the README's Python example runs on a model given as arrays."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO

pytestmark = pytest.mark.install


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return folder


def planted_ctrnn(folder):
    """A leaky relu network (a = 0.2, biases on), its outputs written here by a loop of its
    own: the files the example reads, as .npz and as a state_dict file name."""
    rng = np.random.default_rng(0)
    N, a = 12, 0.2
    W_xh, W_hy = rng.standard_normal((N, 2)), rng.standard_normal((1, N))
    W_hh, b_h = 1.1 * rng.standard_normal((N, N)) / N**0.5, 0.1 * rng.standard_normal(N)
    x = rng.standard_normal((40, 20, 2))
    h, outputs = np.zeros((40, N)), []
    for t in range(20):
        h = (1 - a) * h + a * np.maximum(x[:, t] @ W_xh.T + h @ W_hh.T + b_h, 0)
        outputs.append(h @ W_hy.T)
    outputs = np.stack(outputs, 1)
    targets = outputs + 0.05 * rng.standard_normal(outputs.shape)
    np.savez(folder / "ctrnn.npz", W_xh=W_xh, W_hh=W_hh, W_hy=W_hy, b_h=b_h)
    np.savez(folder / "heldout.npz", inputs=x, targets=targets, outputs=outputs)
    (folder / "ctrnn.pt").write_bytes(b"a torch file this venv cannot read")


def test_the_python_example_with_the_core_dependencies_alone(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    lowest = ["-c", str(REPO / "constraints-lowest.txt")]
    package = tmp_path / "package"  # a copy: building writes build/ beside the sources
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, package / name if package.exists() else _made(package) / name)
    shutil.copytree(REPO / "src", package / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    subprocess.run([*install, *lowest, str(package)], check=True, timeout=900)
    planted_ctrnn(tmp_path)
    example = re.search(
        r"```python\n(import rnnschur\n.*?)```", (REPO / "README.md").read_text(), re.S
    )
    code = (
        example[1]
        .replace("examples/ctrnn_tutorial/ctrnn.pt", "ctrnn.npz")
        .replace("examples/ctrnn_tutorial/heldout.npz", "heldout.npz")
    )
    check = (
        "\nimport sys\n"
        "assert result.verification.verified and result.dynamics.leak == 0.2\n"
        "assert result.dynamics.kind == 'leaky' and result.dynamics.nonlinearity == 'relu'\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('torch', 'snakemake')]\n"
        "import numpy, pandas; print('versions', numpy.__version__, pandas.__version__)\n"
        "try:\n"
        "    rnnschur.analyse('ctrnn.pt', 'heldout.npz')\n"
        "except rnnschur.io.ArtifactError as error:\n"
        "    print('refused:', error)\n"
    )
    run = subprocess.run(
        [str(python), "-c", "import rnnschur.io\n" + code + check],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    assert "rollout verified against the model's own outputs" in run.stdout
    lowest_pins = dict(
        line.split("==")
        for line in (REPO / "constraints-lowest.txt").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert f"versions {lowest_pins['numpy']} {lowest_pins['pandas']}" in run.stdout
    assert "needs torch (pip install 'rnnschur[torch]')" in run.stdout
    assert (tmp_path / "results" / "my_ctrnn" / "verdicts.csv").is_file()
    for missing in ("torch", "snakemake", "neurogym"):
        probe = subprocess.run([str(python), "-c", f"import {missing}"], capture_output=True)
        assert probe.returncode != 0, f"{missing} is installed in the core venv"
