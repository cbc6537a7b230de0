"""rnnschur in a notebook: importing it chooses no backend, ``result.plot()`` leaves the user's
own pyplot figures alone, a result and its figure display themselves (HTML, PNG), and under the
numerics block of docs/your_network.md Python writes the command's tables byte for byte. Each
runs in a fresh process: a backend and the numerics variables are chosen once per process."""

import os
import re
import subprocess
import sys

import numpy as np

import rnnschur

from conftest import REPO

NOTEBOOK = """
from IPython.terminal.interactiveshell import TerminalInteractiveShell
shell = TerminalInteractiveShell.instance()
shell.display_formatter.active_types = ["text/plain", "text/html", "image/png"]
shell.run_line_magic("matplotlib", "inline")
import matplotlib
import matplotlib.pyplot as plt
backend = matplotlib.get_backend()
import rnnschur
from rnnschur.report import figures
assert matplotlib.get_backend() == backend, ("import switched", matplotlib.get_backend())
result = rnnschur.analyse(MODEL, HELDOUT)
fig = result.plot()
assert matplotlib.get_backend() == backend, ("plot switched", matplotlib.get_backend())
assert plt.get_fignums() == [], plt.get_fignums()  # nothing of ours in pyplot's state
assert "image/png" in shell.display_formatter.format(fig)[0]  # `fig` shows itself
shown = shell.display_formatter.format(result)[0]
assert "rollout verified against" in shown["text/html"]
assert "<img" in shown["text/html"] and "Verdict per coupling block" in shown["text/html"]
assert "ablation.csv at" in shown["text/html"]
assert len(shown["text/plain"]) < 300 and "array(" not in shown["text/plain"], shown["text/plain"]
plt.plot([0, 1])
assert plt.get_fignums() == [1]  # the user's own plot is still pyplot's
print("inline", backend)
"""


def small_model(folder):
    """A discrete tanh model and a held-out set with its own outputs, as files."""
    from rnnschur.network import Network

    rng = np.random.default_rng(0)
    model = {
        "W_xh": rng.standard_normal((8, 2)),
        "W_hh": 1.1 * np.linalg.qr(rng.standard_normal((8, 8)))[0],
        "W_hy": rng.standard_normal((1, 8)),
    }
    inputs = rng.standard_normal((16, 12, 2))
    own = Network.from_arrays(model).rollout(inputs, dtype=np.float64)
    np.savez(folder / "model.npz", **model)
    np.savez(folder / "heldout.npz", inputs=inputs, targets=own + 0.3, outputs=own)
    return folder / "model.npz", folder / "heldout.npz"


def run_python(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO
    )


def run_notebook(script: str, folder) -> str:
    """``script`` run in a fresh process on a small model's files (MODEL, HELDOUT); its output."""
    model, heldout = small_model(folder)
    code = script.replace("MODEL", repr(str(model))).replace("HELDOUT", repr(str(heldout)))
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_notebook_keeps_its_inline_plots_and_displays_the_result(tmp_path):
    assert "inline" in run_notebook(NOTEBOOK, tmp_path)


FRESH_KERNEL = """
from IPython.terminal.interactiveshell import TerminalInteractiveShell
shell = TerminalInteractiveShell.instance()
shell.display_formatter.active_types = ["text/plain", "text/html", "image/png"]  # a kernel's
import rnnschur
result = rnnschur.analyse(MODEL, HELDOUT)
shown = shell.display_formatter.format(result.plot())[0]
assert "image/png" in shown and shown["image/png"][:4] == b"\\x89PNG", sorted(shown)
printed = str(result.verdicts).splitlines()[0].split()  # pandas' width here: 80 characters
for column in ("subset", "verdict", "harm_share", "harm_low", "harm_high", "delta_score"):
    assert column in printed, (column, printed)
print("drawn without a magic")
"""
"""A fresh kernel with no ``%matplotlib inline`` (no backend chosen): ``result.plot()`` shows
itself, and a printed verdict table opens with the columns that matter."""


def test_a_fresh_kernel_draws_the_profile_without_a_magic(tmp_path):
    assert "drawn without a magic" in run_notebook(FRESH_KERNEL, tmp_path)


def test_analyse_documents_what_it_returns():
    doc = " ".join(rnnschur.analyse.__doc__.split())
    assert "Returns ------- rnnschur.external.result.Result" in doc
    assert "in a notebook ``result`` shows itself as HTML" in doc


def readme_numerics_block() -> str:
    """The code block of docs/your_network.md that a notebook runs first (after its marker)."""
    text = (REPO / "docs" / "your_network.md").read_text()
    found = re.search(r"<!-- notebook-numerics -->\s*```python\n(.*?)```", text, re.S)
    assert found, "docs/your_network.md lost its numerics block"
    return "\n".join(line.strip() for line in found.group(1).splitlines())


def test_python_writes_the_commands_tables_byte_for_byte_under_the_documented_setup(tmp_path):
    model, heldout = small_model(tmp_path)
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "OPENBLAS", "MKL"))}
    clean.pop("ATEN_CPU_CAPABILITY", None)
    command = [sys.executable, "-m", "rnnschur", "analyse", str(model), str(heldout)]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "cli"), "--name", "m"],
        capture_output=True,
        text=True,
        env=clean,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    code = readme_numerics_block() + (
        f"\nresult = rnnschur.analyse({str(model)!r}, {str(heldout)!r}, name='m')"
        f"\nresult.save({str(tmp_path / 'api')!r})"
    )
    done = run_python(code, clean)
    assert done.returncode == 0, done.stderr
    names = ["ablation.csv", "verdicts.csv", "spectrum.csv", "subspace_control.csv"]
    names += ["verification.json", "summary.md"]
    for name in names:
        cli, api = (tmp_path / route / name for route in ("cli", "api"))
        assert cli.read_bytes() == api.read_bytes(), name
