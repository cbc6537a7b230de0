"""Leaky networks through the paper's method: the propagator split, an ablation computed
independently, the tutorial CTRNN's state_dict, key maps, bad input and the misuse warning."""

import importlib.util

import numpy as np
import pytest
import torch
from torch import nn

from rnnschur import __main__ as cli
from rnnschur import io
from rnnschur.ablation import Analysed, evaluate_ablations
from rnnschur.external import convert
from rnnschur.external.result import misuse_warning
from rnnschur.external.task import Score
from rnnschur.network import Network
from rnnschur.network.dynamics import Dynamics
from rnnschur.schur import coupling_masks, n_dominant, ordered_real_schur
from rnnschur.tasks import Batch


def planted(eigenvalues, rng, coupling=0.1):
    """Q (diag(λ) + strictly upper couplings) Qᵀ with real eigenvalues λ."""
    n = len(eigenvalues)
    T = np.diag(eigenvalues) + coupling * np.triu(rng.standard_normal((n, n)), 1)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return Q @ T @ Q.T


def test_propagator_split_orders_by_one_minus_a_plus_a_lambda():
    """λ = −0.95 leads W's order but is last for a = 0.2 (|1 − a + aλ| = 0.61)."""
    W = planted([-0.95, 0.9, 0.5, -0.3, 0.85], np.random.default_rng(0))
    own = ordered_real_schur(W)
    leaky = ordered_real_schur(W, leak=0.2)
    assert np.allclose(own.eigenvalues.real, [-0.95, 0.9, 0.85, 0.5, -0.3])
    assert np.allclose(leaky.eigenvalues.real, [0.9, 0.85, 0.5, -0.3, -0.95])
    assert np.allclose(leaky.block_moduli, [0.98, 0.97, 0.9, 0.74, 0.61])
    # R = {|1 − a + aλ| ≥ 0.9 ρ(P)}: 0.9·0.98 = 0.882 keeps three blocks; W's own split two
    assert n_dominant(leaky, 0.9) == 3 and n_dominant(own, 0.9) == 2
    # the coupling blocks are W's: QᵀWQ = T in both orders
    assert np.allclose(leaky.Q @ leaky.T @ leaky.Q.T, W)


def test_removing_T_CR_from_a_leaky_relu_model_equals_an_independent_computation():
    rng = np.random.default_rng(1)
    dynamics = Dynamics("leaky", 0.2, "relu")
    W_hh = planted([1.1, 1.05, 0.4, -0.6, 0.2, 0.1], rng, coupling=0.3)
    W_xh, W_hy = rng.standard_normal((6, 2)), rng.standard_normal((1, 6))
    inputs = rng.standard_normal((5, 12, 2))
    batch = Batch(inputs, rng.standard_normal((5, 12, 1)), np.ones((5, 12)))
    schur = ordered_real_schur(W_hh, leak=0.2)
    rows = evaluate_ablations(
        Analysed(Network(W_xh, W_hh, W_hy, dynamics), schur, batch, Score("fvu")), [0.9]
    )
    # independently: zero T's rows of R and columns of C, rebuild, run the CTRNN by hand
    n_R = n_dominant(schur, 0.9)
    T = schur.T.copy()
    T[:n_R, n_R:] = 0.0
    W_tilde = schur.Q @ T @ schur.Q.T
    h = np.zeros((5, 6))
    outputs = []
    for t in range(12):
        h = 0.8 * h + 0.2 * np.maximum(inputs[:, t] @ W_xh.T + h @ W_tilde.T, 0)
        outputs.append(h @ W_hy.T)
    outputs = np.stack(outputs, axis=1)
    fvu = ((outputs - batch.targets) ** 2).sum() / (
        (batch.targets - batch.targets.mean()) ** 2
    ).sum()
    row = next(r for r in rows if r["subset"] == "T_CR")
    assert row["fvu"] == pytest.approx(fvu, rel=1e-4)
    assert coupling_masks(schur, 0.9)["T_CR"].sum() == n_R * (6 - n_R)


class TutorialCTRNN(nn.Module):
    """The CTRNN of the NeuroGym / Neuromatch tutorials (relu, a = dt/τ, biases on)."""

    def __init__(self, n_in=3, n_hidden=8, n_out=2, a=0.2):
        super().__init__()
        self.a = a
        self.input2h = nn.Linear(n_in, n_hidden)
        self.h2h = nn.Linear(n_hidden, n_hidden)

    def forward(self, x):  # x: (time, batch, n_in)
        h = torch.zeros(x.shape[1], self.h2h.weight.shape[0], dtype=x.dtype)
        states = []
        for x_t in x:
            h = (1 - self.a) * h + self.a * torch.relu(self.input2h(x_t) + self.h2h(h))
            states.append(h)
        return torch.stack(states)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = TutorialCTRNN()
        self.fc = nn.Linear(8, 2)


def test_tutorial_ctrnn_layout_is_detected_and_rolled_out_exactly(tmp_path):
    torch.manual_seed(0)
    net = Net().double()
    path = tmp_path / "ctrnn.pt"
    torch.save(net.state_dict(), path)
    model = convert.from_state_dict(path)
    x = torch.randn(10, 4, 3, dtype=torch.float64)
    with torch.no_grad():
        expected = net.fc(net.rnn(x)).numpy().swapaxes(0, 1)
    from rnnschur.network.rnn import rollout

    offsets = {k: model[k] for k in ("b_h", "b_y")}
    got = rollout(
        model["W_xh"],
        model["W_hh"],
        model["W_hy"],
        x.numpy().swapaxes(0, 1),
        dtype=np.float64,
        **offsets,
        dynamics=Dynamics("leaky", 0.2, "relu"),
    )
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    # the same through an explicit key map
    keys = convert.parse_keys(
        "W_xh=rnn.input2h.weight,W_hh=rnn.h2h.weight,W_hy=fc.weight,"
        "b_h=rnn.input2h.bias+rnn.h2h.bias,b_y=fc.bias"
    )
    mapped = convert.from_state_dict(path, keys)
    for key in model:
        assert np.array_equal(model[key], mapped[key])


def test_undetected_layout_lists_keys_and_a_keys_line(tmp_path):
    path = tmp_path / "odd.pt"
    torch.save({"enc.w": torch.zeros(4, 2), "rec.w": torch.zeros(4, 4)}, path)
    with pytest.raises(io.ArtifactError, match=r"keys found: \['enc.w', 'rec.w'\].*keys=\"W_xh="):
        convert.from_state_dict(path)
    with pytest.raises(io.ArtifactError, match="not in the file"):
        convert.from_state_dict(path, convert.parse_keys("W_xh=enc.w,W_hh=nope,W_hy=rec.w"))
    with pytest.raises(io.ArtifactError, match="expected NAME=KEY"):
        convert.parse_keys("W_in=enc.w")


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--dynamics", "wobbly"], "invalid choice"),
        (["--nonlinearity", "sigmoid"], "invalid choice"),
        (["--dynamics", "leaky", "--leak", "1.5"], "leak must lie in"),
        (["--dynamics", "leaky", "--leak", "0"], "leak must lie in"),
        (["--dynamics", "discrete", "--leak", "0.2"], "--leak 0.2 needs a leaky update"),
        (["--leak", "0.2"], "--leak 0.2 needs a leaky update: add --dynamics leaky"),
        (["--dynamics", "leaky"], "--dynamics leaky needs its leak a = dt/τ: give --leak A"),
        (["--dynamics", "auto"], "--dynamics auto needs the model's own outputs"),
        (["--tolerance", "inf"], "--tolerance inf: must lie in (0, 0.1)"),
        (["--tolerance", "nan"], "--tolerance nan: must lie in (0, 0.1)"),
        (["--tolerance", "0.1"], "--tolerance 0.1: must lie in (0, 0.1)"),
        (["--readout", "state"], "readout 'state' is the current form's"),
    ],
)
def test_bad_family_is_refused_and_nothing_written(tmp_path, capsys, flags, message):
    rng = np.random.default_rng(2)
    weights, heldout = tmp_path / "m.npz", tmp_path / "h.npz"
    np.savez(
        weights,
        W_xh=rng.standard_normal((4, 2)),
        W_hh=rng.standard_normal((4, 4)),
        W_hy=rng.standard_normal((1, 4)),
    )
    np.savez(heldout, inputs=rng.standard_normal((3, 5, 2)), targets=rng.standard_normal((3, 5, 1)))
    out = tmp_path / "out"
    try:
        code = cli.main(["analyse", str(weights), str(heldout), "--out", str(out), *flags])
    except SystemExit as exit_:  # argparse refuses a choice
        code = exit_.code
    assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_misuse_warning_fires_on_a_leaky_model_analysed_as_discrete(tmp_path, capsys):
    """A leaky relu model (a = 0.2) whose readout was fitted to its own rollout: as leaky it
    works (FVU ≈ 0); analysed as discrete tanh, the summary opens with the warning."""
    rng = np.random.default_rng(3)
    from rnnschur.network.rnn import rollout

    dynamics = Dynamics("leaky", 0.2, "relu")
    W_xh, W_hh = rng.standard_normal((16, 2)), planted(np.linspace(0.95, -0.5, 16), rng)
    inputs = rng.standard_normal((64, 30, 2))
    W_hy = rng.standard_normal((1, 16))
    targets = rollout(W_xh, W_hh, W_hy, inputs, dtype=np.float64, dynamics=dynamics)
    weights, heldout = tmp_path / "m.npz", tmp_path / "h.npz"
    np.savez(weights, W_xh=W_xh, W_hh=W_hh, W_hy=W_hy)
    np.savez(heldout, inputs=inputs, targets=targets)
    args = ["analyse", str(weights), str(heldout)]
    assert cli.main([*args, "--out", str(tmp_path / "as_discrete")]) == 0
    printed = capsys.readouterr().out
    assert "WARNING: the full model scores fvu" in printed
    summary = (tmp_path / "as_discrete" / "summary.md").read_text()
    head = summary.splitlines()[:5]  # the title, then the verification line, then the warning
    assert head[2].startswith("**rollout not verified") and head[4].startswith("> **WARNING")
    flags = ["--dynamics", "leaky", "--leak", "0.2", "--nonlinearity", "relu"]
    assert cli.main([*args, "--out", str(tmp_path / "as_leaky"), *flags]) == 0
    printed = capsys.readouterr().out
    assert "WARNING: the full model scores" not in printed
    assert "WARNING: not verified" in printed  # no outputs in the file: nothing checked
    summary = (tmp_path / "as_leaky" / "summary.md").read_text()
    assert summary.startswith("# m") and "leaky relu (a = 0.2) RNN" in summary
    assert misuse_warning("accuracy", 0.55, dynamics) and not misuse_warning(
        "accuracy", 0.9, dynamics
    )
    # verified against its own outputs: the model is poorly trained, not misread
    poorly = misuse_warning("fvu", 0.9, dynamics, verified=True)
    assert "poorly trained" in poorly and "does not match" not in poorly


MODULE_SOURCE = '''
import torch
from torch import nn


class Net(nn.Module):
    """The tutorial CTRNN, time-first, written as a user writes it."""

    def __init__(self, n_in=3, n_hidden=8, n_out=2, a=0.2):
        super().__init__()
        self.a = a
        self.input2h = nn.Linear(n_in, n_hidden)
        self.h2h = nn.Linear(n_hidden, n_hidden)
        self.fc = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        h = torch.zeros(x.shape[1], self.h2h.weight.shape[0], dtype=x.dtype)
        states = []
        for x_t in x:
            h = (1 - self.a) * h + self.a * torch.relu(self.input2h(x_t) + self.h2h(h))
            states.append(h)
        return self.fc(torch.stack(states)), h
'''


def user_module(source):
    """The user's module file, imported as the command imports it."""
    spec = importlib.util.spec_from_file_location(source.stem, source)
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)
    return code


def test_the_torch_module_route_and_the_native_leaky_family_agree(tmp_path, capsys):
    """The tutorial CTRNN analysed twice: its own forward with h2h.weight swapped for each
    W̃(S), and the native leaky relu rollout of its state_dict. Same split, same scores."""
    source = tmp_path / "ctrnn_module.py"
    source.write_text(MODULE_SOURCE)
    code = user_module(source)
    torch.manual_seed(1)
    net = code.Net()
    with torch.no_grad():
        net.h2h.weight.mul_(3.0)  # a recurrence with some memory
    weights = tmp_path / "ctrnn.pt"
    torch.save(net.state_dict(), weights)
    rng = np.random.default_rng(4)
    inputs = rng.standard_normal((32, 15, 3)).astype(np.float32)
    with torch.no_grad():
        targets = net(torch.from_numpy(inputs.swapaxes(0, 1)))[0].numpy().swapaxes(0, 1)
    heldout = tmp_path / "heldout.npz"
    np.savez(heldout, inputs=inputs, targets=targets + 0.1 * rng.standard_normal(targets.shape))
    family = ["--dynamics", "leaky", "--leak", "0.2", "--nonlinearity", "relu"]
    common = ["analyse", str(weights), str(heldout), "--name", "m", *family]
    module = [
        "--torch-module",
        f"{source}:Net",
        "--recurrent",
        "h2h.weight",
        "--time-first",
    ]
    assert cli.main([*common, "--out", str(tmp_path / "module"), *module]) == 0
    assert "subspace control and [4/5] readout refit skipped" in capsys.readouterr().out
    assert cli.main([*common, "--out", str(tmp_path / "native")]) == 0
    import pandas as pd

    a = pd.read_csv(tmp_path / "module" / "ablation.csv")
    b = pd.read_csv(tmp_path / "native" / "ablation.csv")
    assert (a["n_R"] == b["n_R"]).all() and np.allclose(a["mass_removed"], b["mass_removed"])
    assert np.allclose(a["score"], b["score"], rtol=1e-4, atol=1e-6)
    assert a["mass_removed"].max() > 0.05  # something was removed
    summary = (tmp_path / "module" / "summary.md").read_text()
    assert "torch module Net" in summary


def test_the_torch_module_route_refuses_bad_input(tmp_path, capsys):
    source = tmp_path / "ctrnn_module.py"
    source.write_text(MODULE_SOURCE)
    broken = tmp_path / "broken_module.py"
    broken.write_text("import a_package_nobody_has\n")
    weights, heldout = tmp_path / "w.pt", tmp_path / "h.npz"
    code = user_module(source)
    torch.save(code.Net().state_dict(), weights)
    rng = np.random.default_rng(5)
    np.savez(heldout, inputs=rng.standard_normal((4, 5, 3)), targets=rng.standard_normal((4, 5, 2)))
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, inputs=rng.standard_normal((4, 5, 7)), targets=rng.standard_normal((4, 5, 2)))
    base = ["analyse", str(weights), str(heldout), "--out", str(tmp_path / "out")]
    cases = [
        (
            ["--torch-module", f"{source}:Net", "--recurrent", "nope", "--time-first"],
            "no parameter",
        ),
        (["--torch-module", f"{source}:Missing", "--recurrent", "h2h.weight"], "defines no"),
        (["--torch-module", f"{source}:Net", "--recurrent", "fc.weight"], "not a square"),
        (["--torch-module", f"{source}:Net"], "needs --recurrent"),
        (["--recurrent", "h2h.weight"], "not a TorchScript file"),
        (  # the split must be named: a description or --split weights
            ["--torch-module", f"{source}:Net", "--recurrent", "h2h.weight", "--time-first"],
            "needs its split named: its description (--dynamics KIND --leak A, or --dynamics "
            "auto) for the propagator's moduli, or --split weights",
        ),
        (
            [
                "--torch-module",
                f"{source}:Net",
                "--recurrent",
                "h2h.weight",
                "--init-kwargs",
                '{"hidden": 3}',
            ],
            'cannot be built with --init-kwargs {"hidden": 3}: TypeError',
        ),
        (["--torch-module", f"{broken}:Net", "--recurrent", "h2h.weight"], "fails to import"),
    ]
    for flags, message in cases:
        assert cli.main([*base, *flags]) == 2, flags
        err = capsys.readouterr().err
        assert message in err, (flags, err)
        assert len(err.strip().splitlines()) == 1, err  # one line, no traceback
    module = ["--torch-module", f"{source}:Net", "--recurrent", "h2h.weight", "--time-first"]
    args = ["analyse", str(weights), str(wrong), "--out", str(tmp_path / "out"), *module]
    assert cli.main(args) == 2
    assert "wrong.npz: inputs have 7 lines, the model's W_xh takes N_x = 3" in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "out").exists()
