"""A CTRNN nobody here wrote: nn4n 1.1.1's ``CTRNN`` (PyPI), trained on the 3-bit flip-flop,
through both routes. Its equations: z_t = (1 − a) z_{t−1} + a (W_hid relu(z_{t−1}) + b_hid +
W_in u_t + b_in), a = dt/τ, read after the update from relu(z_t) (PsychRNN's Basic form).

- The key-map route (the bias sum) finds a = 0.2 and is exact: every ablation's FVU equals an
  independent computation that writes W̃ into nn4n's own model and runs nn4n's own forward.
- The module route runs stock nn4n (its ``eval()`` returns None) from nn4n's own save file
  (``{"model_state_dict", "kwargs"}``), and verifies the forward that scores.
- A module built with the wrong kwargs, or run with the wrong input layout, is refused
  whenever the held-out file has the model's outputs; planted mis-built modules too.
"""

import re

import numpy as np
import pandas as pd
import pytest
import torch
from nn4n.model import CTRNN
from torch import nn

import rnnschur
from rnnschur import __main__ as cli
from rnnschur import io
from rnnschur.external import convert, verify
from rnnschur.network.dynamics import DESCRIPTION_TYPES, Dynamics
from rnnschur.schur import coupling_masks
from rnnschur.tasks import flip_flop

HIDDEN = "recurrent_layer.hidden_layer.weight"
KEYS = (
    "W_xh=recurrent_layer.input_layer.weight,W_hh=recurrent_layer.hidden_layer.weight,"
    "W_hy=readout_layer.weight,"
    "b_h=recurrent_layer.input_layer.bias+recurrent_layer.hidden_layer.bias,"
    "b_y=readout_layer.bias"
)
KWARGS = {"dims": [3, 32, 3], "activation": "relu", "dt": 20, "tau": 100, "biases": "normal"}


def nn4n_outputs(net, inputs):
    """nn4n's own forward (time-first) on batch-first inputs, batch-first float64 outputs."""
    net.eval()
    with torch.no_grad():
        y = net(torch.tensor(inputs.swapaxes(0, 1), dtype=torch.float32))[0]
    return y.double().numpy().swapaxes(0, 1)


def fvu(outputs, targets):
    """Eq. (7) without a mask, written here: Σ (ŷ − y)² / Σ (y − ȳ)², ȳ per output line."""
    return float(((outputs - targets) ** 2).sum() / ((targets - targets.mean((0, 1))) ** 2).sum())


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """nn4n's CTRNN (N_h = 32, relu, a = 0.2, biases on) trained with Adam on the flip-flop;
    nn4n's own save file, and held-out sets with and without its own outputs."""
    folder = tmp_path_factory.mktemp("nn4n")
    torch.manual_seed(0)
    net = CTRNN(**KWARGS)
    optimiser = torch.optim.Adam(net.parameters(), lr=3e-3)
    rng = np.random.default_rng(0)
    net.train()
    for _ in range(250):
        batch = flip_flop.generate(rng, 32, length=50)
        x = torch.tensor(batch.inputs.swapaxes(0, 1), dtype=torch.float32)
        y = torch.tensor(batch.targets.swapaxes(0, 1), dtype=torch.float32)
        loss = ((net(x)[0] - y) ** 2).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    net.eval()
    held = flip_flop.generate(np.random.default_rng(1), 48, length=50)
    own = nn4n_outputs(net, held.inputs)
    assert fvu(own, held.targets) < 0.5  # it learned something
    net.save(str(folder / "ctrnn.pt"))  # nn4n's own save file
    np.savez(folder / "heldout.npz", inputs=held.inputs, targets=held.targets, outputs=own)
    np.savez(folder / "no_outputs.npz", inputs=held.inputs, targets=held.targets)
    return folder, net, held, own


def test_the_key_map_route_is_exact_against_nn4ns_own_forward(trained):
    folder, net, held, own = trained
    result = rnnschur.analyse(folder / "ctrnn.pt", folder / "heldout.npz", "auto", keys=KEYS)
    d = result.dynamics
    assert (d.kind, d.leak, d.nonlinearity, d.readout, d.timing) == (
        "leaky_current",
        0.2,
        "relu",
        "rate",
        "after",
    )
    assert result.verification.verified and result.verification.error < 1e-5
    assert "psychrnn_basic = nn4n_ctrnn" in result.summary()
    # every ablation: W̃ = Q (T − T ⊙ mask) Qᵀ written into nn4n's model, nn4n's forward
    parameter = dict(net.named_parameters())[HIDDEN]
    original = parameter.detach().clone()
    Q, T = result.schur.Q, result.schur.T
    try:
        for alpha in (0.85, 0.9, 0.95):
            masks = coupling_masks(result.schur, alpha)
            for block, mask in masks.items():
                W_tilde = Q @ np.where(mask, 0.0, T) @ Q.T
                with torch.no_grad():
                    parameter.copy_(torch.from_numpy(W_tilde))
                theirs = fvu(nn4n_outputs(net, held.inputs), held.targets)
                row = result.ablation.query("subset == @block and alpha == @alpha").iloc[0]
                assert row["score"] == pytest.approx(theirs, rel=1e-5, abs=1e-7), (alpha, block)
    finally:
        with torch.no_grad():
            parameter.copy_(original)
    full = result.ablation.query("subset == 'none'")["score"]
    assert full.to_numpy() == pytest.approx(fvu(own, held.targets), rel=1e-5)
    assert "b_h (max |·|" in result.summary()  # the biases it has, not "no biases"


def test_nn4ns_own_save_file_is_read_with_its_layout_and_its_stored_description(trained):
    """No key map and no description given: the layout is detected (the two biases summed),
    the description is the one its stored kwargs give (leaky_current relu, a = dt/τ = 0.2) and
    is verified against its outputs; "auto" finds the same."""
    folder, _, held, own = trained
    given = rnnschur.analyse(folder / "ctrnn.pt", folder / "heldout.npz")
    keyed = rnnschur.analyse(folder / "ctrnn.pt", folder / "heldout.npz", "auto", keys=KEYS)
    assert given.dynamics == keyed.dynamics == Dynamics("leaky_current", 0.2, "relu")
    assert given.verification.verified and given.verification.found_by != "auto"
    np.testing.assert_allclose(given.ablation["score"], keyed.ablation["score"], rtol=1e-12)
    found = rnnschur.analyse(folder / "ctrnn.pt", folder / "heldout.npz", "auto")
    assert found.dynamics == given.dynamics and found.verification.found_by == "auto"


def test_stock_nn4n_runs_through_the_module_route_from_its_own_save_file(trained, tmp_path, capsys):
    folder, _, held, own = trained
    module = ["--torch-module", "nn4n.model:CTRNN", "--recurrent", HIDDEN, "--time-first"]
    args = ["analyse", str(folder / "ctrnn.pt"), str(folder / "heldout.npz"), *module]
    assert (
        cli.main([*args, "--keys", KEYS, "--dynamics", "auto", "--out", str(tmp_path / "m")]) == 0
    )
    printed = capsys.readouterr().out
    assert "state_dict read from 'model_state_dict'; built with its stored init kwargs" in printed
    assert '"dt": 20, "tau": 100' in printed  # the values it was built with
    assert "module's forward verified against the model's own outputs" in printed
    summary = (tmp_path / "m" / "summary.md").read_text()
    assert summary.splitlines()[2].startswith("**module's forward verified")
    assert "recurrent_layer.hidden_layer.bias (max |·|" in summary  # its biases, named
    native = rnnschur.analyse(folder / "ctrnn.pt", folder / "heldout.npz", "auto", keys=KEYS)
    import pandas as pd

    ablation = pd.read_csv(tmp_path / "m" / "ablation.csv")
    assert (ablation["n_R"] == native.ablation["n_R"]).all()
    np.testing.assert_allclose(ablation["score"], native.ablation["score"], rtol=1e-5)


def misbuilt():
    """nn4n's CTRNN built as a user who forgot the kwargs that its state_dict does not store
    (dt, tau): nn4n's default a = 0.1 for a network trained at 0.2."""
    return CTRNN(**{k: v for k, v in KWARGS.items() if k not in ("dt", "tau")})


def test_a_module_built_with_the_wrong_kwargs_is_refused_whenever_outputs_are_given(
    trained, tmp_path, capsys
):
    folder, net, _, _ = trained
    wrong = misbuilt()
    wrong.load_state_dict(net.state_dict())
    for network, keys in ((rnnschur.Description(split="weights"), None), ("auto", KEYS)):
        with pytest.raises(verify.RolloutMismatch, match="module's own forward, as built") as e:
            rnnschur.analyse(
                wrong, folder / "heldout.npz", network, recurrent=HIDDEN, time_first=True, keys=keys
            )
        assert "init_kwargs=..., e.g. dt and tau" in str(e.value)
    torch.save(net.state_dict(), tmp_path / "bare.pt")  # a bare state_dict: no kwargs stored
    kwargs = '{"dims": [3, 32, 3], "activation": "relu", "biases": "normal"}'
    module = ["--torch-module", "nn4n.model:CTRNN", "--recurrent", HIDDEN, "--time-first"]
    args = ["analyse", str(tmp_path / "bare.pt"), str(folder / "heldout.npz"), *module]
    out = tmp_path / "out"
    assert cli.main([*args, "--init-kwargs", kwargs, "--split", "weights", "--out", str(out)]) == 3
    assert "--init-kwargs ..., e.g. dt and tau" in capsys.readouterr().err
    assert not out.exists()


def test_forgetting_time_first_is_refused_naming_the_flag(trained, tmp_path, capsys):
    folder, net, _, _ = trained
    with pytest.raises(verify.RolloutMismatch, match=r"other input layout \(time_first=True\)"):
        rnnschur.analyse(net, folder / "heldout.npz", {"split": "weights"}, recurrent=HIDDEN)
    module = ["--torch-module", "nn4n.model:CTRNN", "--recurrent", HIDDEN, "--split", "weights"]
    args = ["analyse", str(folder / "ctrnn.pt"), str(folder / "heldout.npz"), *module]
    assert cli.main([*args, "--out", str(tmp_path / "o")]) == 3
    assert "other input layout (--time-first)" in capsys.readouterr().err


def test_without_outputs_every_route_warns_not_verified(trained, capsys):
    folder, net, _, _ = trained
    module = rnnschur.analyse(
        net, folder / "no_outputs.npz", {"split": "weights"}, recurrent=HIDDEN, time_first=True
    )
    lines = module.summary().splitlines()
    assert lines[2].startswith("**module's forward not verified")
    assert lines[4].startswith("> **WARNING: not verified")
    wrong_leak = rnnschur.analyse(
        folder / "ctrnn.pt",
        folder / "no_outputs.npz",
        {"dynamics": "leaky_current", "leak": 0.1, "nonlinearity": "relu"},
        keys=KEYS,
    )
    lines = wrong_leak.summary().splitlines()
    assert lines[2].startswith("**rollout not verified")
    assert lines[4].startswith("> **WARNING: not verified")


class Planted(nn.Module):
    """A batch-first CTRNN (relu, current form, read from the rate after the update, biases
    on) and the ways to build it wrong: another leak, the time axis transposed, the readout
    from the state instead of the rate, the input bias left out."""

    def __init__(self, a=0.2, transposed=False, reads="rate", input_bias=True):
        super().__init__()
        self.a, self.transposed, self.reads, self.input_bias = a, transposed, reads, input_bias
        torch.manual_seed(7)
        self.W_in = nn.Linear(3, 16)
        self.W_rec = nn.Linear(16, 16)
        self.out = nn.Linear(16, 2)
        with torch.no_grad():
            self.W_rec.weight.mul_(4.0)
            self.W_in.bias.add_(0.5)

    def forward(self, x):
        if self.transposed:
            x = x.transpose(0, 1)
        z = torch.zeros(x.shape[0], 16, dtype=x.dtype)
        read = []
        for t in range(x.shape[1]):
            drive = self.W_in(x[:, t]) if self.input_bias else x[:, t] @ self.W_in.weight.T
            z = (1 - self.a) * z + self.a * (self.W_rec(torch.relu(z)) + drive)
            read.append(self.out(torch.relu(z) if self.reads == "rate" else z))
        y = torch.stack(read, 1)
        return y.transpose(0, 1) if self.transposed else y


@pytest.mark.parametrize(
    "wrong",
    [{"a": 0.1}, {"transposed": True}, {"reads": "state"}, {"input_bias": False}],
    ids=["leak", "time_axis", "readout_variable", "missing_bias"],
)
def test_planted_misbuilt_modules_are_refused(wrong, tmp_path):
    true = Planted().eval()
    rng = np.random.default_rng(3)
    inputs = rng.standard_normal((20, 24, 3))
    with torch.no_grad():
        own = true(torch.tensor(inputs, dtype=torch.float32)).double().numpy()
    heldout = {"inputs": inputs, "targets": own, "outputs": own}
    assert rnnschur.analyse(
        true, heldout, {"split": "weights"}, recurrent="W_rec.weight"
    ).verification.verified
    built = Planted(**wrong).eval()
    built.load_state_dict(true.state_dict())
    with pytest.raises(verify.RolloutMismatch, match="module's own forward, as built"):
        rnnschur.analyse(built, heldout, {"split": "weights"}, recurrent="W_rec.weight")


@pytest.mark.parametrize("nest", ["state_dict", "model", "net", "model_state_dict"])
def test_nested_checkpoints_are_read_with_the_nesting_named(nest, tmp_path):
    torch.manual_seed(2)
    rnn, fc = nn.RNN(3, 8, batch_first=True), nn.Linear(8, 2)
    state = {**{f"rnn.{k}": v for k, v in rnn.state_dict().items()}, "fc.weight": fc.weight}
    torch.save(state, tmp_path / "bare.pt")
    torch.save({nest: state, "epoch": 3, "kwargs": {"hidden": 8}}, tmp_path / "nested.pt")
    torch.save({"checkpoint": {"net": state}}, tmp_path / "unknown.pt")
    bare = convert.from_state_dict(tmp_path / "bare.pt")
    nested = convert.from_state_dict(tmp_path / "nested.pt")
    assert bare.keys() == nested.keys() and all(np.array_equal(bare[k], nested[k]) for k in bare)
    from rnnschur.external.torch_module import read_checkpoint

    checkpoint = read_checkpoint(tmp_path / "nested.pt")
    assert checkpoint.nesting == nest and checkpoint.kwargs == {"hidden": 8}
    with pytest.raises(
        io.ArtifactError, match=r"no state_dict found.*keys found: \['checkpoint'\]"
    ):
        convert.from_state_dict(tmp_path / "unknown.pt")


def arrays(rng):
    return {
        "W_xh": rng.standard_normal((4, 2)),
        "W_hh": 0.5 * rng.standard_normal((4, 4)),
        "W_hy": rng.standard_normal((1, 4)),
    }


@pytest.mark.parametrize(
    "bad, kind",
    [
        (lambda W: W.astype(complex) + 1e-3j, "complex128"),
        (lambda W: W > 0, "bool"),
        (lambda W: W.astype(str), "<U"),
        (lambda W: W.astype(object), "object"),
        (lambda W: "not an array", "<U"),
        (lambda W: torch.tensor(W, dtype=torch.complex64), "complex64 tensor"),
    ],
    ids=["complex", "bool", "string", "object", "text", "complex_tensor"],
)
def test_arrays_that_are_not_real_numbers_are_refused_naming_them(bad, kind, tmp_path, capsys):
    rng = np.random.default_rng(0)
    model = arrays(rng)
    heldout = {"inputs": rng.standard_normal((3, 5, 2)), "targets": rng.standard_normal((3, 5, 1))}
    with pytest.raises(io.ArtifactError, match=f"W_hh: is a {kind}"):
        rnnschur.analyse({**model, "W_hh": bad(model["W_hh"])}, heldout)
    with pytest.raises(io.ArtifactError, match=f"inputs: is a {kind}"):
        rnnschur.analyse(model, {**heldout, "inputs": bad(heldout["inputs"])})
    if kind in ("complex128", "bool", "<U"):  # what an .npz can hold without pickle
        np.savez(tmp_path / "m.npz", **{**model, "W_hh": bad(model["W_hh"])})
        np.savez(tmp_path / "h.npz", **heldout)
        args = ["analyse", str(tmp_path / "m.npz"), str(tmp_path / "h.npz")]
        assert cli.main([*args, "--out", str(tmp_path / "out")]) == 2
        assert "W_hh: is a" in capsys.readouterr().err
        assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "argument, value",
    [
        ("leak", "0.2"),
        ("time_first", "yes"),
        ("dynamics", 3),
        ("keys", ["W_xh"]),
        ("recurrent", 1),
        ("tolerance", "1e-3"),
    ],
)
def test_python_arguments_of_the_wrong_type_are_refused_naming_them(argument, value):
    rng = np.random.default_rng(0)
    heldout = {"inputs": rng.standard_normal((3, 5, 2)), "targets": rng.standard_normal((3, 5, 1))}
    description = {argument: value} if argument in DESCRIPTION_TYPES else None
    options = {} if description else {argument: value}
    named = f"{argument}={value!r} is a" if argument != "tolerance" else "tolerance must be a"
    with pytest.raises(TypeError, match=re.escape(named)):
        rnnschur.analyse(arrays(rng), heldout, description, **options)


def test_the_description_is_one_value_and_its_fields_are_named():
    rng = np.random.default_rng(0)
    heldout = {"inputs": rng.standard_normal((3, 5, 2)), "targets": rng.standard_normal((3, 5, 1))}
    with pytest.raises(
        TypeError, match=r'not dynamics=\'leaky\', leak=0.5 but description=\{"dynamics"'
    ):
        rnnschur.analyse(arrays(rng), heldout, dynamics="leaky", leak=0.5)
    with pytest.raises(TypeError, match="description has no field 'leek'; its fields are"):
        rnnschur.analyse(arrays(rng), heldout, {"dynamics": "leaky", "leek": 0.5})
    with pytest.raises(ValueError, match="leak=nan"):
        rnnschur.Description("leaky", float("nan"))
    # every form of the same description gives the same tables
    forms = [
        rnnschur.Description("leaky", 0.5),
        {"dynamics": "leaky", "leak": 0.5},
        Dynamics("leaky", 0.5, "tanh"),
    ]
    model = arrays(rng)
    tables = [rnnschur.analyse(model, heldout, f).ablation for f in forms]
    # the one network value carries its own description: no description given, the same tables
    network = rnnschur.Network(**model, dynamics=Dynamics("leaky", 0.5, "tanh"))
    tables.append(rnnschur.analyse(network, heldout).ablation)
    for table in tables[1:]:
        pd.testing.assert_frame_equal(table, tables[0])
    # and its description is the one read: as discrete, the tables differ
    discrete = rnnschur.analyse(rnnschur.Network(**model), heldout).ablation
    assert not discrete["score"].equals(tables[0]["score"])


@pytest.mark.parametrize("tolerance", [float("inf"), float("nan"), 0.1, 0.5, 0.0, -1e-3])
def test_the_tolerance_is_bounded(tolerance):
    rng = np.random.default_rng(0)
    heldout = {"inputs": rng.standard_normal((3, 5, 2)), "targets": rng.standard_normal((3, 5, 1))}
    with pytest.raises(ValueError, match=r"tolerance=.*must lie in \(0, 0.1\)"):
        rnnschur.analyse(arrays(rng), heldout, tolerance=tolerance)
    assert verify.check_tolerance(0.0999) == 0.0999  # just inside


def test_messages_to_a_python_caller_name_the_python_argument():
    rng = np.random.default_rng(0)
    heldout = {"inputs": rng.standard_normal((3, 5, 2)), "targets": rng.standard_normal((3, 5, 1))}
    with pytest.raises(ValueError) as error:
        rnnschur.analyse(arrays(rng), heldout, "auto")
    assert 'dynamics="auto" needs the model\'s own outputs' in str(error.value)
    assert "--" not in str(error.value)
    with pytest.raises(ValueError) as error:
        rnnschur.analyse(arrays(rng), heldout, "leaky")
    assert "give leak=A" in str(error.value) and "--" not in str(error.value)
    assert cli.as_flags(str(error.value)).startswith("--dynamics leaky needs its leak")


def test_a_python_caller_hears_every_warning_as_a_python_warning(trained):
    folder, net, _, _ = trained
    with pytest.warns(verify.AnalysisWarning, match="WARNING: not verified"):
        rnnschur.analyse(
            net, folder / "no_outputs.npz", {"split": "weights"}, recurrent=HIDDEN, time_first=True
        )
    with pytest.warns(verify.AnalysisWarning, match="far from a working network.*init_kwargs"):
        rnnschur.analyse(net, folder / "no_outputs.npz", {"split": "weights"}, recurrent=HIDDEN)


def test_a_module_split_by_its_weights_claims_no_description(trained, tmp_path):
    folder, net, _, _ = trained
    result = rnnschur.analyse(
        net, folder / "heldout.npz", {"split": "weights"}, recurrent=HIDDEN, time_first=True
    )
    record = result.verification.as_dict()
    assert record["verified"] and record["description"] is None and record["catalogue"] is None
    assert not record["description_verified"]
    assert "- description: none needed" in result.summary()
    assert "catalogue" not in result.summary()
    # its arrays are read (nn4n's layout), so a description given for the split is checked
    wrong = {"dynamics": "leaky_current", "leak": 0.5, "nonlinearity": "relu"}
    with pytest.raises(verify.RolloutMismatch, match=r"a = 0\.2"):
        rnnschur.analyse(net, folder / "heldout.npz", wrong, recurrent=HIDDEN, time_first=True)
    right = {**wrong, "leak": 0.2}
    given = rnnschur.analyse(net, folder / "heldout.npz", right, recurrent=HIDDEN, time_first=True)
    assert given.verification.verified and given.verification.as_dict()["description_verified"]
    assert "leaky_current relu (a = 0.2), for the split only (verified against the module" in (
        given.summary()
    )


def test_the_command_says_which_kwargs_built_the_module(trained, tmp_path, capsys):
    folder, _, _, _ = trained
    kwargs = '{"dims": [3, 32, 3], "activation": "relu", "biases": "normal"}'
    module = ["--torch-module", "nn4n.model:CTRNN", "--recurrent", HIDDEN, "--time-first"]
    args = ["analyse", str(folder / "ctrnn.pt"), str(folder / "no_outputs.npz"), *module]
    assert (
        cli.main([*args, "--init-kwargs", kwargs, "--split", "weights", "--out", str(tmp_path)])
        == 0
    )
    printed = capsys.readouterr().out
    assert f"built with --init-kwargs {kwargs} (the kwargs it stores are not used)" in printed


@pytest.mark.parametrize(
    "setting, value",
    [
        ("seed", "1"),
        ("threshold", "0.02"),
        ("epsilon", "x"),
        ("mass_floor", None),
        ("alpha", "0.9"),
        ("alpha_grid", "0.9"),
        ("subspace_draws", 1.5),
    ],
)
def test_settings_of_the_wrong_type_are_refused_naming_them(setting, value):
    rng = np.random.default_rng(0)
    heldout = {"inputs": rng.standard_normal((3, 5, 2)), "targets": rng.standard_normal((3, 5, 1))}
    with pytest.raises(TypeError, match=f"^{setting}"):
        rnnschur.analyse(arrays(rng), heldout, **{setting: value})


@pytest.mark.parametrize("kind", ["foo", "LEAKY"])
def test_an_unknown_update_is_named_as_unknown(kind):
    rng = np.random.default_rng(0)
    heldout = {"inputs": rng.standard_normal((3, 5, 2)), "targets": rng.standard_normal((3, 5, 1))}
    with pytest.raises(ValueError, match=f"dynamics='{kind}': must be one of"):
        rnnschur.analyse(arrays(rng), heldout, kind)
    result = rnnschur.analyse(arrays(rng), heldout, {"dynamics": "leaky", "leak": np.float32(0.5)})
    assert result.dynamics.leak == 0.5  # a NumPy number is a number
