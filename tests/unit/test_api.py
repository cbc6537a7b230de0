"""rnnschur.analyse from Python: arrays, a state_dict, a file and a live module give the same
tables; a network trained with Schuessler et al.'s equations is analysed exactly through the
native route (its description found by auto) and through the module route; files only on save."""

import re

import numpy as np
import pandas as pd
import pytest
import torch
from torch import nn

import rnnschur
from rnnschur.external import convert, verify
from rnnschur.tasks import flip_flop


class SchuesslerNet(nn.Module):
    """Schuessler et al.'s RNN_Net for dt < 1, written from their equations: the state h is
    recorded before each update h ← (1 − dt) h + dt (W_hh tanh(h) + W_ih x) and decoded linearly
    (parameter names as theirs: rnn.weight_ih_l0, rnn.weight_hh_l0, decoder.weight); their
    initial scales: W_ih ~ N(0, 1), W_hh ~ N(0, g²/N), decoder N(0, 1/N²)."""

    def __init__(self, n_in=3, n_hidden=32, n_out=3, dt=0.2, g=1.5):
        super().__init__()
        self.dt = dt
        self.rnn = nn.RNN(n_in, n_hidden, bias=False, batch_first=True)
        self.decoder = nn.Linear(n_hidden, n_out, bias=False)
        with torch.no_grad():
            self.rnn.weight_ih_l0.normal_(0, 1.0)
            self.rnn.weight_hh_l0.normal_(0, g / n_hidden**0.5)
            self.decoder.weight.normal_(0, 1.0 / n_hidden)

    def forward(self, x, h_0=None, noise_std=0.0):
        h = torch.zeros(x.shape[0], self.rnn.hidden_size)
        recorded = []
        for t in range(x.shape[1]):
            recorded.append(h)
            drive = torch.tanh(h) @ self.rnn.weight_hh_l0.T + x[:, t] @ self.rnn.weight_ih_l0.T
            h = (1 - self.dt) * h + self.dt * drive
            if noise_std:
                h = h + self.dt**0.5 * noise_std * torch.randn_like(h)
        return self.decoder(torch.stack(recorded, 1))


def fvu(outputs, batch):
    """Eq. (7) over the masked entries, written here."""
    w = batch.mask
    y_bar = (batch.targets * w).sum((0, 1)) / w.sum((0, 1))
    return float(
        ((outputs - batch.targets) ** 2 * w).sum() / ((batch.targets - y_bar) ** 2 * w).sum()
    )


def trained(net, rng, steps: int, lr: float, **forward) -> nn.Module:
    """``net`` trained by Adam on fresh 3-bit flip-flop batches (32 trials), MSE over the masked
    entries (``forward``: the keyword arguments of its forward pass in training)."""
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    for _ in range(steps):
        batch = flip_flop.generate(rng, 32)
        x, y, m = (
            torch.tensor(a, dtype=torch.float32) for a in (batch.inputs, batch.targets, batch.mask)
        )
        loss = (((net(x, **forward) - y) ** 2) * m).sum() / m.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return net


def saved(net, heldout, folder, name: str):
    """``net``'s state_dict saved as ``folder/name`` and the held-out set with the model's own
    outputs as ``folder/heldout.npz`` (and without them, ``heldout_no_outputs.npz``); the
    outputs."""
    with torch.no_grad():
        own = net(torch.tensor(heldout.inputs, dtype=torch.float32)).double().numpy()
    torch.save(net.state_dict(), folder / name)
    arrays = {"inputs": heldout.inputs, "targets": heldout.targets, "mask": heldout.mask}
    np.savez(folder / "heldout.npz", **arrays, outputs=own)
    np.savez(folder / "heldout_no_outputs.npz", **arrays)
    return own


@pytest.fixture(scope="module")
def schuessler(tmp_path_factory):
    """A Schuessler-form network trained by their recipe (Adam, noise 0.05 in training) on the
    3-bit flip-flop; its state_dict, a held-out set with its own outputs (noise off)."""
    folder = tmp_path_factory.mktemp("schuessler")
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    net = trained(SchuesslerNet(), rng, 300, 3e-3, noise_std=0.05)
    net.eval()
    heldout = flip_flop.generate(rng, 128)
    own = saved(net, heldout, folder, "rnn_net.pt")
    return folder, net, heldout, own


def test_native_route_with_auto_reproduces_their_network(schuessler):
    folder, _, heldout, own = schuessler
    result = rnnschur.analyse(folder / "rnn_net.pt", folder / "heldout.npz", "auto")
    found = result.dynamics
    assert (found.kind, found.leak, found.readout, found.timing) == (
        "leaky_current",
        0.2,
        "state",
        "before",
    )
    assert result.verification.verified and result.verification.error < 1e-5
    full = result.ablation.query("subset == 'none'")["score"]
    assert full.to_numpy() == pytest.approx(fvu(own, heldout), rel=1e-5)
    assert fvu(own, heldout) < 0.5  # it learned something
    assert result.summary().splitlines()[2].startswith("**rollout verified")
    assert '(description found by the search, dynamics="auto")' in result.summary()


def test_module_route_gives_the_native_routes_numbers(schuessler):
    folder, net, _, _ = schuessler
    native = rnnschur.analyse(folder / "rnn_net.pt", folder / "heldout.npz", "auto")
    module = rnnschur.analyse(
        net,
        folder / "heldout_no_outputs.npz",
        {"dynamics": "leaky_current", "leak": 0.2, "readout": "state", "timing": "before"},
        recurrent="rnn.weight_hh_l0",
    )
    # no outputs in the file: the module's forward checked against nothing (a WARNING); the
    # description that orders its split reproduces that forward
    assert not module.verification.verified and module.verification.error is None
    assert module.verification.description_error < 1e-5
    assert module.warning.startswith("WARNING: not verified")
    assert module.summary().splitlines()[2].startswith("**module's forward not verified")
    a, b = native.ablation, module.ablation
    assert (a["n_R"] == b["n_R"]).all() and np.allclose(a["mass_removed"], b["mass_removed"])
    np.testing.assert_allclose(a["score"], b["score"], rtol=1e-4)
    assert a["mass_removed"].max() > 0.05


def test_a_mismatched_description_is_refused_before_any_ablation(schuessler, tmp_path):
    folder, _, _, _ = schuessler
    with pytest.raises(verify.RolloutMismatch) as error:
        rnnschur.analyse(
            folder / "rnn_net.pt",
            folder / "heldout.npz",
            {"dynamics": "leaky_current", "leak": 0.2},
        )
    assert re.search(r"relative RMS error 0\.\d+", str(error.value))
    assert "[schuessler_rnn_net]" in str(error.value)


def test_the_module_route_needs_its_split_named(schuessler):
    _, net, heldout, _ = schuessler
    with pytest.raises(ValueError, match='needs its split named.*split="weights"'):
        rnnschur.analyse(net, heldout, recurrent="rnn.weight_hh_l0")
    by_weights = rnnschur.analyse(net, heldout, {"split": "weights"}, recurrent="rnn.weight_hh_l0")
    assert "W_hh's own moduli" in by_weights.verification.line()


def test_arrays_state_dict_file_and_live_module_give_equal_tables(schuessler):
    folder, net, heldout, own = schuessler
    arrays = convert.from_state_dict(folder / "rnn_net.pt")
    data = {"inputs": heldout.inputs, "targets": heldout.targets, "mask": heldout.mask}
    data["outputs"] = own
    description = {"dynamics": "leaky_current", "leak": 0.2, "readout": "state", "timing": "before"}
    routes = {
        "arrays": rnnschur.analyse(arrays, data, description),
        "state_dict": rnnschur.analyse(net.state_dict(), data, description),
        "file": rnnschur.analyse(folder / "rnn_net.pt", folder / "heldout.npz", description),
        "live module": rnnschur.analyse(net, heldout, description),
    }
    first = routes["arrays"]
    for name, result in routes.items():
        assert result.verification.verified, name
        for table in ("ablation", "verdicts", "spectrum", "subspace_control"):
            got, expected = getattr(result, table), getattr(first, table)
            pd.testing.assert_frame_equal(
                got.drop(columns=["model"], errors="ignore"),
                expected.drop(columns=["model"], errors="ignore"),
                obj=f"{name} {table}",
            )


def test_save_refuses_earlier_results_and_force_clears_them(schuessler, tmp_path):
    folder, _, heldout, _ = schuessler
    result = rnnschur.analyse(folder / "rnn_net.pt", folder / "heldout.npz", "auto")
    out = tmp_path / "out"
    files = result.save(out)
    assert {p.name for p in out.iterdir()} == {p.name for p in files.values()}
    stale = out / "readout_refit.csv"
    stale.write_text("an earlier model's refit\n")
    with pytest.raises(FileExistsError, match="already holds results"):
        result.save(out)
    result.save(out, force=True)
    assert not stale.exists()  # no file of the earlier model beside the new ones
    page = (out / "summary.html").read_text()
    assert "rollout verified" in page and "data:image/png;base64," in page
    assert "ε-stabilizer (column eps_stabilizer" in page and "stabilizer: within ±θ" in page
    assert "leaky_current tanh (a = 0.2)" in page
    assert "NaN" not in page
    assert oct((out / "ablation.csv").stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_without_outputs_the_summary_says_not_verified(schuessler):
    folder, _, _, _ = schuessler
    result = rnnschur.analyse(
        folder / "rnn_net.pt",
        folder / "heldout_no_outputs.npz",
        {"dynamics": "leaky_current", "leak": 0.2, "readout": "state", "timing": "before"},
    )
    assert result.summary().splitlines()[2].startswith("**rollout not verified")
    assert result.summary().startswith("# rnn_net: Schur-coordinate ablations")
    assert result.summary().splitlines()[4].startswith("> **WARNING: not verified")


def test_fixed_points_on_request_saved_loaded_and_summarised(schuessler, tmp_path):
    """W_hh = 2I (N_h = 2, discrete tanh): at zero input its stable points are the 4 corners
    (±z*, ±z*), z* = tanh(2 z*); W_hh is its own Schur form, diagonal, so every coupling block
    is empty and each removal keeps all 4."""
    rng = np.random.default_rng(1)
    model = {"W_xh": 3 * np.eye(2), "W_hh": 2 * np.eye(2), "W_hy": np.array([[1.0, -1.0]])}
    pulses = rng.choice([-1.0, 0.0, 1.0], size=(32, 40, 2), p=[0.1, 0.8, 0.1])
    heldout = {"inputs": pulses, "targets": rng.normal(size=(32, 40, 1))}
    with pytest.warns(verify.AnalysisWarning):
        result = rnnschur.analyse(model, heldout, "discrete", fixed_points=True)
    table = result.fixed_points
    fates = table[table["record"] == "fate"].set_index("ablation")
    assert list(fates["condition"]) == ["zero input"] * 4
    assert (fates["n_stable"] == 4).all() and (fates["kept"] == 4).all()
    assert (fates[["moved", "lost", "new"]] == 0).all().all()
    # its attractors are those 4 points (no cycle, no oscillation), each removal keeps them
    assert (fates[["n_attractors", "attractors_kept"]] == 4).all().all()
    assert (
        (fates[["n_cycles", "n_oscillations", "n_unsettled", "attractors_lost"]] == 0).all().all()
    )
    corners = table[(table["record"] == "point") & (table["stability"] == "stable")]
    z = 0.957504  # tanh(2 z) = z
    assert corners["readout"].abs().round(4).tolist().count(0.0) == 8  # (z, z) and (-z, -z)
    assert sorted(corners["readout"].round(4).unique()) == pytest.approx(
        [-2 * z, 0, 2 * z], abs=1e-4
    )
    summary = result.summary()
    assert "| zero input | intact | 4 |" in summary and summary.count("| zero input |") == 4
    assert summary.count(" | 4 | 0 | 0 | 0 | 4 | 0 | 0 | 0 |\n") == 4  # the attractors' columns
    out = tmp_path / "out"
    files = result.save(out)
    assert files["fixed_points_csv"] == out / "fixed_points.csv"
    np.savez(tmp_path / "weights.npz", **model)
    loaded = rnnschur.external.result.Result.load(out, tmp_path / "weights.npz")
    pd.testing.assert_frame_equal(loaded.fixed_points, pd.read_csv(out / "fixed_points.csv"))
    assert len(loaded.fixed_points) == len(table)
    # the command writes the same table (--fixed-points)
    from rnnschur import __main__ as cli

    np.savez(tmp_path / "heldout.npz", **heldout)
    command = ["analyse", str(tmp_path / "weights.npz"), str(tmp_path / "heldout.npz")]
    command += ["--dynamics", "discrete", "--fixed-points", "--out", str(tmp_path / "cli")]
    assert cli.main(command) == 0
    pd.testing.assert_frame_equal(
        pd.read_csv(tmp_path / "cli" / "fixed_points.csv"), loaded.fixed_points
    )
    folder, net, flip_flop_heldout, _ = schuessler
    assert (
        rnnschur.analyse(folder / "rnn_net.pt", folder / "heldout.npz", "auto").fixed_points is None
    )
    with pytest.raises(ValueError, match="fixed_points=True: the fixed-point search needs"):
        rnnschur.analyse(
            net,
            flip_flop_heldout,
            {"split": "weights"},
            recurrent="rnn.weight_hh_l0",
            fixed_points=True,
        )
    with pytest.raises(TypeError, match="fixed_points='yes': must be True or False"):
        rnnschur.analyse(folder / "rnn_net.pt", folder / "heldout.npz", "auto", fixed_points="yes")


class ToolboxFlipFlop(nn.Module):
    """A fixed-point toolbox's example model, as its users write it: a tanh ``nn.RNN`` with both
    biases, an ``nn.Linear`` readout with bias and a trained initial state of its own name."""

    def __init__(self, n_in=3, n_hidden=16, n_out=3):
        super().__init__()
        self.rnn = nn.RNN(n_in, n_hidden, batch_first=True)
        self.readout = nn.Linear(n_hidden, n_out)
        self.initial_hiddens_1xd = nn.Parameter(0.5 * torch.randn(1, n_hidden))

    def forward(self, x):
        h0 = self.initial_hiddens_1xd.expand(x.shape[0], -1).unsqueeze(0).contiguous()
        return self.readout(self.rnn(x, h0)[0])


@pytest.fixture(scope="module")
def toolbox(tmp_path_factory):
    """The toolbox model trained a little on the 3-bit flip-flop, its state_dict saved with
    ``torch.save(model.state_dict())`` and a held-out set with its own outputs."""
    folder = tmp_path_factory.mktemp("toolbox")
    torch.manual_seed(1)
    rng = np.random.default_rng(1)
    net = trained(ToolboxFlipFlop(), rng, 150, 1e-2)
    saved(net, flip_flop.generate(rng, 64), folder, "model.pt")
    return folder, net


def test_a_trained_initial_state_is_found_by_itself(toolbox):
    """The one (1, N_h) parameter nothing else explains is the initial state: ``auto`` reads it
    (and says so in the verification line); the advice a refusal prints, keys="h0=NAME",
    followed literally, extends the detected layout and gives the same tables."""
    folder, net = toolbox
    found = rnnschur.analyse(folder / "model.pt", folder / "heldout.npz", "auto")
    assert found.verification.verified and found.verification.error < 1e-5
    assert "from the model's trained initial state h0" in found.verification.line()
    mapped = rnnschur.analyse(
        folder / "model.pt", folder / "heldout.npz", "auto", keys="h0=initial_hiddens_1xd"
    )
    pd.testing.assert_frame_equal(found.ablation, mapped.ablation)
    # derived, not read back: the initial state matters, so a rollout from zero is not the model
    arrays = convert.from_state_dict(folder / "model.pt")
    np.testing.assert_array_equal(arrays["h0"], net.initial_hiddens_1xd.detach().numpy()[0])
    assert float(net.initial_hiddens_1xd.detach().abs().max()) > 0.1


def test_an_initial_state_is_not_guessed_from_a_gain_or_from_two_candidates(toolbox):
    """An unexplained (N_h,) parameter named as something else (a gain) is not an initial
    state; two named as states are not guessed between."""
    folder, net = toolbox
    state = dict(net.state_dict())
    initial = state.pop("initial_hiddens_1xd")
    assert "h0" not in convert.state_dict_arrays({**state, "gain": torch.ones(16)})
    assert "h0" not in convert.state_dict_arrays({**state, "h0_a": initial, "h0_b": initial})
