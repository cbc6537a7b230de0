"""Models trained elsewhere: the import reproduces torch's model, and bad input is refused."""

import numpy as np
import pytest
import torch
from torch import nn

import rnnschur
from rnnschur import io
from rnnschur.ablation import Analysed, evaluate_ablations
from rnnschur.external import analysis as external
from rnnschur.external import convert, heldout
from rnnschur.network import Network
from rnnschur.network.rnn import rollout
from rnnschur.schur import ordered_real_schur
from rnnschur.settings.schema import SCHEMA
from rnnschur.tasks import Batch


class Net(nn.Module):
    def __init__(self, n_in=3, n_hidden=8, n_out=2, layers=1, cell=nn.RNN, **kw):
        super().__init__()
        self.rnn = cell(n_in, n_hidden, num_layers=layers, batch_first=True, **kw)
        self.readout = nn.Linear(n_hidden, n_out)

    def forward(self, x, h0=None):
        h, _ = self.rnn(x, h0)
        return self.readout(h)


def saved(tmp_path, net, name="net.pt"):
    path = tmp_path / name
    torch.save(net.state_dict(), path)
    return path


@pytest.fixture
def net():
    torch.manual_seed(1)
    return Net(nonlinearity="tanh")


def test_state_dict_reproduces_torch_outputs(tmp_path, net):
    x = torch.randn(16, 20, 3)
    h0 = 0.5 * torch.randn(8)
    with torch.no_grad():
        expected = net(x).double().numpy()
        expected_h0 = net(x, h0[None, None, :].expand(1, 16, 8).contiguous()).double().numpy()
    model = convert.from_state_dict(saved(tmp_path, net))
    assert set(model) == {"W_xh", "W_hh", "W_hy", "b_h", "b_y"}
    offsets = {"b_h": model["b_h"], "b_y": model["b_y"]}
    W = (model["W_xh"], model["W_hh"], model["W_hy"])
    outputs = rollout(*W, x.numpy(), dtype=np.float64, **offsets)
    np.testing.assert_allclose(outputs, expected, atol=1e-6)
    with_h0 = rollout(*W, x.numpy(), dtype=np.float64, h0=h0.numpy(), **offsets)
    np.testing.assert_allclose(with_h0, expected_h0, atol=1e-6)
    assert np.abs(with_h0 - outputs).max() > 1e-3  # h0 matters


def test_zero_biases_give_the_papers_rollout(tmp_path, net):
    with torch.no_grad():
        for p in (net.rnn.bias_ih_l0, net.rnn.bias_hh_l0, net.readout.bias):
            p.zero_()
    model = convert.from_state_dict(saved(tmp_path, net))
    x = np.random.default_rng(0).standard_normal((4, 10, 3))
    W = (model["W_xh"], model["W_hh"], model["W_hy"])
    np.testing.assert_array_equal(
        rollout(*W, x, b_h=model["b_h"], b_y=model["b_y"]), rollout(*W, x)
    )


def test_ablations_act_on_W_hh_alone_and_keep_the_biases(net, tmp_path):
    model = convert.from_state_dict(saved(tmp_path, net))
    rng = np.random.default_rng(2)
    inputs = rng.standard_normal((32, 15, 3))
    W = (model["W_xh"], model["W_hh"], model["W_hy"])
    offsets = {"b_h": model["b_h"], "b_y": model["b_y"]}
    targets = rollout(*W, inputs, **offsets) + 0.1 * rng.standard_normal((32, 15, 2))
    batch = Batch(inputs, targets, np.ones((32, 15)))
    schur = ordered_real_schur(model["W_hh"])
    score = external.Score("fvu")
    rows = evaluate_ablations(Analysed(Network(*W, offsets=offsets), schur, batch, score), [0.9])
    full = next(r for r in rows if r["subset"] == "none")
    # The full model's score is the FVU of the biased rollout, computed directly.
    direct = score.score(rollout(*W, inputs, **offsets), batch)
    assert full["score"] == pytest.approx(float(direct), rel=1e-12)
    without = evaluate_ablations(Analysed(Network(*W), schur, batch, score), [0.9])
    assert next(r for r in without if r["subset"] == "none")["score"] != full["score"]


def write_npz(path, **arrays):
    np.savez(path, **arrays)
    return path


GOOD = {"W_xh": np.ones((4, 2)), "W_hh": np.eye(4), "W_hy": np.ones((1, 4))}


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({**GOOD, "W_hy": np.ones((1, 5))}, r"W_hy \(1, 5\) must be \(N_y, N_h = 4\)"),
        ({**GOOD, "W_xh": np.ones((3, 2))}, r"W_xh \(3, 2\) must be \(N_h = 4, N_x\)"),
        ({**GOOD, "W_hh": np.ones((4, 3))}, "is not square"),
        ({**GOOD, "b_h": np.ones(3)}, r"b_h has shape \(3,\), expected \(4,\)"),
        ({**GOOD, "W_hh": np.full((4, 4), np.nan)}, "W_hh has NaN or inf"),
        ({"W_xh": GOOD["W_xh"], "W_hh": GOOD["W_hh"]}, "missing W_hy"),
        ({**GOOD, "bias": np.ones(4)}, "unknown arrays"),
        (
            {"W_xh": np.ones((0, 2)), "W_hh": np.ones((0, 0)), "W_hy": np.ones((1, 0))},
            r"W_hh is empty \(0, 0\): no recurrent network",
        ),
        ({**GOOD, "W_hh": np.diag([1e300, 1, 1, 1])}, "W_hh has an entry of size 1e.300: beyond"),
        ({**GOOD, "b_h": np.full(4, -2e150)}, "b_h has an entry of size 2e.150"),
    ],
)
def test_bad_npz_models_are_refused_naming_the_file(tmp_path, arrays, message):
    path = write_npz(tmp_path / "model.npz", **arrays)
    with pytest.raises(io.ArtifactError, match=message) as error:
        convert.load_model_file(path)
    assert str(path) in str(error.value)


def test_pickled_npz_is_refused_never_loaded(tmp_path):
    path = tmp_path / "model.npz"
    np.savez(path, **GOOD, extra=np.array([{"evil": 1}], dtype=object))
    with pytest.raises(io.ArtifactError, match="pickled Python objects"):
        convert.load_model_file(path)


GATED_AND_STACKED = [
    (dict(cell=nn.GRU), r"a GRU \(rnn.weight_hh_l0 \(24, 8\) holds 3 recurrent matrices"),
    (dict(cell=nn.LSTM), r"an LSTM \(rnn.weight_hh_l0 \(32, 8\) holds 4 recurrent matrices"),
    (
        dict(layers=2, nonlinearity="tanh"),
        r"a stacked RNN of 2 layers \(rnn.weight_hh_l0, rnn.weight_hh_l1\); only the first "
        r"layer's rnn.weight_hh_l0 would be read",
    ),
    (
        dict(bidirectional=True, nonlinearity="tanh"),
        r"a bidirectional RNN \(rnn.weight_hh_l0_reverse runs a second recurrent matrix "
        r"backwards in time\); only the forward direction's weight_hh_l0 would be read",
    ),
]
"""Networks torch itself builds that have no one recurrent matrix, with the refusal each gets
(N_h = 8: a GRU stacks 3 gates' 8 × 8 matrices, an LSTM 4)."""


@pytest.mark.parametrize(("kwargs", "message"), GATED_AND_STACKED)
def test_gated_stacked_and_bidirectional_networks_are_refused_saying_why(tmp_path, kwargs, message):
    """As a state_dict file, nested as nn4n saves its checkpoints, and as a live module (also
    when asked to run it as it computes): one line naming the file or module and why."""
    torch.manual_seed(0)
    net = Net(**kwargs)
    path = saved(tmp_path, net)
    nested = tmp_path / "checkpoint.pt"
    torch.save({"model_state_dict": net.state_dict(), "kwargs": {"dims": [3, 8, 2]}}, nested)
    heldout_set = {"inputs": np.zeros((2, 5, 3)), "targets": np.zeros((2, 5, 2))}
    for model, where in ((path, str(path)), (nested, str(nested))):
        with pytest.raises(io.ArtifactError, match=message) as error:
            rnnschur.analyse(model, heldout_set)
        assert str(error.value).startswith(where) and "\n" not in str(error.value)
        assert str(error.value).endswith(convert.ONE_MATRIX)
    for recurrent in (None, "rnn.weight_hh_l0"):
        with pytest.raises(io.ArtifactError, match=message) as error:
            rnnschur.analyse(net, heldout_set, {"split": "weights"}, recurrent=recurrent)
        assert str(error.value).startswith("torch module Net: ")


def test_a_gru_cell_module_is_refused_naming_its_weight():
    """nn.GRUCell keeps its gates under ``weight_hh`` (no layer suffix)."""
    cell = nn.GRUCell(3, 4)
    with pytest.raises(io.ArtifactError, match=r"a GRU \(weight_hh \(12, 4\) holds 3"):
        convert.refuse_unreadable("cell", cell.state_dict())


def test_an_unreadable_torch_file_is_refused(tmp_path):
    (tmp_path / "junk.pt").write_bytes(b"not a torch file")
    with pytest.raises(io.ArtifactError, match="not a readable torch state_dict"):
        convert.from_state_dict(tmp_path / "junk.pt")


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        (
            {"inputs": np.ones((5, 7, 3)), "targets": np.ones((5, 7, 1))},
            "the model's W_xh takes N_x = 2",
        ),
        ({"inputs": np.ones((5, 7, 2)), "targets": np.ones((5, 7, 2))}, "W_hy gives N_y = 1"),
        (
            {"inputs": np.ones((5, 7, 2)), "targets": np.ones((5, 6, 1))},
            "differ in trials or steps",
        ),
        (
            {"inputs": np.ones((5, 7, 2)), "targets": np.ones((5, 7, 1)), "mask": np.ones((5, 6))},
            r"mask has shape \(5, 6\)",
        ),
        (
            {"inputs": np.ones((5, 7, 2)), "targets": np.ones((5, 7, 1)), "mask": -np.ones((5, 7))},
            r"mask holds \[-1.0\]: its entries must be 0 or 1",
        ),
        (
            {"inputs": np.full((5, 7, 2), np.inf), "targets": np.ones((5, 7, 1))},
            "inputs has NaN or inf",
        ),
        ({"targets": np.ones((5, 7, 1))}, "needs inputs and targets"),
        ({"inputs": np.ones((0, 7, 2)), "targets": np.ones((0, 7, 1))}, "holds no trials"),
        ({"inputs": np.ones((5, 0, 2)), "targets": np.ones((5, 0, 1))}, "holds no time steps"),
    ],
)
def test_bad_heldout_sets_are_refused(tmp_path, arrays, message):
    path = write_npz(tmp_path / "heldout.npz", **arrays)
    with pytest.raises(io.ArtifactError, match=message):
        heldout.load_heldout(path, N_x=2, N_y=1)


def test_the_largest_entry_taken_is_the_bound_itself(tmp_path):
    """An entry at exactly the bound is taken, the next float above it refused."""
    from rnnschur.external.arrays import LARGEST_ENTRY

    at = write_npz(tmp_path / "at.npz", **{**GOOD, "b_h": np.full(4, LARGEST_ENTRY)})
    assert convert.load_model_file(at)["b_h"][0] == LARGEST_ENTRY
    above = np.nextafter(LARGEST_ENTRY, np.inf)
    past = write_npz(tmp_path / "past.npz", **{**GOOD, "b_h": np.full(4, above)})
    with pytest.raises(io.ArtifactError, match="b_h has an entry"):
        convert.load_model_file(past)


def test_weights_whose_rollout_overflows_float32_are_refused_before_any_verdict(tmp_path, capsys):
    """W_hy entries of 1e39 (below the 1e150 bound on an entry) overflow the float32 rollout:
    refused naming the dtype and the weight, no verdict read from the NaN scores; the
    command names the file."""
    from rnnschur import __main__ as cli
    from rnnschur import analyse
    from rnnschur.ablation import RolloutOverflow

    rng = np.random.default_rng(0)
    model = {**GOOD, "W_hh": 0.3 * np.eye(4), "W_hy": np.full((1, 4), 1e39)}
    inputs = rng.normal(size=(12, 6, 2))
    planted = {"inputs": inputs, "targets": rng.normal(size=(12, 6, 1))}
    with pytest.raises(RolloutOverflow, match=r"overflows float32 .* W_hy 1e\+39"):
        analyse(model, planted, n_boot=20)
    weights = write_npz(tmp_path / "big.npz", **model)
    held = write_npz(tmp_path / "h.npz", **planted)
    out = tmp_path / "out"
    assert cli.main(["analyse", str(weights), str(held), "--out", str(out)]) != 0
    said = capsys.readouterr()
    assert f"error: {weights}: the full network's rollout" in said.err, said.err
    assert "fragile" not in said.out + said.err
    assert not out.exists()  # nothing written


def test_targets_whose_variance_overflows_are_named_as_such():
    targets = np.where(np.arange(40).reshape(8, 5, 1) % 2, 1e160, -1e160)
    batch = Batch(np.zeros((8, 5, 2)), targets, np.ones((8, 5)))
    with pytest.raises(io.ArtifactError, match=r"h.npz: the targets' variance overflows float64"):
        heldout.check_targets(batch, "fvu", "h.npz")


def test_an_alpha_given_twice_is_refused():
    from rnnschur.external.settings import Settings

    with pytest.raises(ValueError, match=r"α \[0.9\] given twice"):
        Settings(alpha_grid=(0.9, 0.9, 0.85))
    assert Settings(alpha_grid=(0.85, 0.9)).alpha_grid == (0.85, 0.9)


def test_a_heldout_without_mask_scores_every_step(tmp_path):
    path = write_npz(tmp_path / "h.npz", inputs=np.ones((2, 3, 2)), targets=np.ones((2, 3, 1)))
    assert heldout.load_heldout(path, 2, 1).mask.tolist() == [[1, 1, 1], [1, 1, 1]]


def test_verdicts_follow_their_definitions():
    import pandas as pd

    rows = pd.DataFrame(
        {
            "alpha": 0.9,
            "subset": ["none", "T_RR", "T_CR", "T_CC"],
            "n_R": 2,
            "mass_removed": [0.0, 0.005, 0.3, 0.2],  # T_RR below the mass floor 0.01
            "score": [0.01, 0.01, 0.5, 0.0297],
            "delta_score": [0.0, 0.0, 0.49, 0.0197],
            "discrepancy": [0.0, 0.0, 0.4, 0.02],
            "eps_stabilizer": [True, True, False, True],
            "harm_low": [np.nan, 0.0, 0.45, 0.015],
            "harm_high": [np.nan, 0.0, 0.52, 0.025],
            "reading": ["", "absent", "fragile", "undecided"],  # the solution's own
        }
    )
    verdicts = external.block_verdicts(rows, 0.9, "fvu").set_index("subset")
    # the harm share ΔFVU / (1 − FVU(W)): 0.49/0.99 above θ = 0.02, 0.0197/0.99 just below
    assert verdicts["harm_share"].to_dict() == {
        "T_RR": 0.0,
        "T_CR": pytest.approx(0.49 / 0.99),
        "T_CC": pytest.approx(0.0197 / 0.99),
    }
    # the solution's own reading, as the workflow reads every trained network (not the point
    # share against θ: 0.0199 is below θ, yet its interval straddles it); an ε-stabilizer is
    # a column beside the verdict, not a verdict
    assert verdicts["verdict"].to_dict() == {
        "T_RR": "absent",
        "T_CR": "fragile",
        "T_CC": "undecided",
    }
    assert verdicts.loc["T_CR", "harm_low"] == 0.45
    assert verdicts["eps_stabilizer"].to_dict() == {"T_RR": True, "T_CR": False, "T_CC": True}


def test_the_commands_and_the_apis_defaults_are_the_configs():
    """One set of defaults: the command's flags and analyse()'s Settings are the config
    schema's (keys alpha, alpha_grid, ablation.epsilon, ablation.mass_floor, verdicts.threshold
    and level, solutions.bootstrap, base_seed, subspace_control, schur_split, readout_refit),
    each read here from the schema file itself, key by key; a key the schema gives no default
    is refused by name."""
    import yaml

    from rnnschur import __main__ as cli
    from rnnschur.external.settings import Settings

    schema = yaml.safe_load(SCHEMA.read_text())
    top = schema["properties"]

    def default(*path):
        node = top[path[0]]
        for key in path[1:]:
            node = node["properties"][key]
        return node["default"]

    expected = {
        "alpha": default("alpha"),
        "alpha_grid": tuple(default("alpha_grid")),
        "epsilon": default("ablation", "epsilon"),
        "mass_floor": default("ablation", "mass_floor"),
        "threshold": default("verdicts", "threshold"),
        "level": default("verdicts", "level"),
        "n_boot": default("solutions", "bootstrap"),
        "seed": default("base_seed"),
        "subspace_components": default("subspace_control", "n_components"),
        "subspace_draws": default("subspace_control", "n_draws"),
        "subspace_trials": default("subspace_control", "n_trials"),
        "subspace_variance": default("subspace_control", "variance"),
        "split": default("schur_split"),
        "validation_fraction": default("readout_refit", "validation_fraction"),
        "ridge_grid": tuple(default("readout_refit", "ridge_grid")),
    }
    settings = Settings()
    assert {k: getattr(settings, k) for k in expected} == expected
    from rnnschur.settings.schema import default as schema_default

    with pytest.raises(KeyError, match="config key tasks: the schema gives no default"):
        schema_default("tasks")
    with pytest.raises(KeyError, match="config key ablation.epsilonn: not in the schema"):
        schema_default("ablation.epsilonn")
    args = cli.parser().parse_args(["analyse", "w.npz", "h.npz", "--out", "o"])
    flags = {**cli.settings_of(args), "alpha_grid": tuple(args.alpha_grid)}
    assert {k: flags[k] for k in expected if k in flags} == {
        k: v for k, v in expected.items() if k in flags
    }


SETTING_KEYS = {
    "alpha": "alpha",
    "alpha_grid": "alpha_grid",
    "epsilon": "ablation.epsilon",
    "mass_floor": "ablation.mass_floor",
    "threshold": "verdicts.threshold",
    "level": "verdicts.level",
    "n_boot": "solutions.bootstrap",
    "subspace_components": "subspace_control.n_components",
    "subspace_draws": "subspace_control.n_draws",
    "subspace_trials": "subspace_control.n_trials",
    "subspace_variance": "subspace_control.variance",
    "seed": "base_seed",
    "split": "schur_split",
    "validation_fraction": "readout_refit.validation_fraction",
    "ridge_grid": "readout_refit.ridge_grid",
}
"""Each setting of analyse() and the config key it stands for (docs/usage.md's names)."""


def test_each_default_is_read_from_its_own_config_key(monkeypatch):
    """With a planted schema whose defaults all differ (the real one shares 0.01 between ε and
    the mass floor), Settings() and the command hold each key's own planted value."""
    import copy

    from rnnschur import __main__ as cli
    from rnnschur.external.settings import Settings
    from rnnschur.settings import schema

    planted = {
        "alpha": 0.91,
        "alpha_grid": [0.81, 0.91],
        "ablation.epsilon": 0.011,
        "ablation.mass_floor": 0.012,
        "verdicts.threshold": 0.013,
        "verdicts.level": 0.014,
        "solutions.bootstrap": 25,
        "subspace_control.n_components": 16,
        "subspace_control.n_draws": 17,
        "subspace_control.n_trials": 18,
        "subspace_control.variance": 0.019,
        "base_seed": 20,
        "schur_split": "weights",
        "readout_refit.validation_fraction": 0.021,
        "readout_refit.ridge_grid": [0.022],
        "verdicts.power": 0.823,
    }
    properties = copy.deepcopy(schema._schema())
    for key, value in planted.items():
        node = {"properties": properties}
        for part in key.split("."):
            node = node["properties"][part]
        assert node["default"] != value, key  # a plant the real schema does not already hold
        node["default"] = value
    monkeypatch.setattr(schema, "_schema", lambda: properties)

    def as_read(value):
        return tuple(value) if isinstance(value, list) else value

    settings = Settings()
    for name, key in SETTING_KEYS.items():
        assert getattr(settings, name) == as_read(planted[key]), name
    args = cli.parser().parse_args(["analyse", "w.npz", "h.npz", "--out", "o"])
    flags = {**cli.settings_of(args), "alpha_grid": tuple(args.alpha_grid)}
    for name in set(flags) & set(SETTING_KEYS):
        assert flags[name] == as_read(planted[SETTING_KEYS[name]]), name
    # the method's and the studies' own defaults come from the same keys
    from rnnschur.ablation import Scoring
    from rnnschur.studies.solutions import Reading
    from rnnschur.studies.verdicts import Thresholds

    assert (Scoring().epsilon, Scoring().mass_floor) == (0.011, 0.012)
    assert Thresholds() == Thresholds(0.013, 0.012, 0.014, 0.823)
    assert (Reading().threshold, Reading().level, Reading().n_boot) == (0.013, 0.014, 25)
