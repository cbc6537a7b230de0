"""A network as PsychRNN saves it: examples/psychrnn/basic.npz, written by PsychRNN 1.0.0's own
``model.save`` (examples/psychrnn/make_psychrnn.py; the tests need neither PsychRNN nor
TensorFlow), with its held-out set and its own outputs from ``model.test``.

Its Basic RNN, written out here from PsychRNN's source (``backend/models/basic.py``):
s_t = (1 − a) s_{t−1} + a (W_rec relu(s_{t−1}) + W_in u_t + b_rec), y_t = W_out relu(s_t) + b_out,
a = dt/τ = 10/100, s_0 = init_state; the file holds the effective weights (masks applied).
"""

import shutil
from pathlib import Path

import numpy as np
import pytest

import rnnschur
from rnnschur import __main__ as cli
from rnnschur import io
from rnnschur.external import verify
from rnnschur.schur import coupling_masks

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "psychrnn"
MODEL, HELDOUT = EXAMPLE / "basic.npz", EXAMPLE / "heldout.npz"
LEAK = 10 / 100


def saved():
    """The file's arrays as PsychRNN wrote them (its object entry left out)."""
    with np.load(MODEL, allow_pickle=False) as data:
        return {k: data[k].astype(np.float64) for k in data.files if k != "dale_ratio"}


def psychrnn_forward(weights, inputs, W_rec):
    """PsychRNN's Basic forward (module docstring), with ``W_rec`` in place of its own."""
    relu = lambda z: np.maximum(z, 0.0)  # noqa: E731
    state = np.repeat(weights["init_state"], len(inputs), axis=0)
    outputs = []
    for t in range(inputs.shape[1]):
        drive = relu(state) @ W_rec.T + inputs[:, t] @ weights["W_in"].T + weights["b_rec"]
        state = (1 - LEAK) * state + LEAK * drive
        outputs.append(relu(state) @ weights["W_out"].T + weights["b_out"])
    return np.stack(outputs, axis=1)


def fvu(outputs, targets, mask):
    """Eq. (7) over the masked entries, ȳ per output line: written out here."""
    y_bar = (targets * mask).sum((0, 1)) / mask.sum((0, 1))
    return float((mask * (outputs - targets) ** 2).sum() / (mask * (targets - y_bar) ** 2).sum())


@pytest.fixture(scope="module")
def result():
    with pytest.warns(verify.AnalysisWarning, match="dale_ratio"):
        return rnnschur.analyse(MODEL, HELDOUT, "auto")


def test_the_forward_written_here_is_psychrnns():
    """The equations above reproduce the outputs PsychRNN's own model.test gave."""
    weights = saved()
    with np.load(HELDOUT) as held:
        ours = psychrnn_forward(weights, held["inputs"].astype(float), weights["W_rec"])
        assert np.abs(ours - held["outputs"]).max() < 1e-5


def test_psychrnns_own_file_is_read_verified_and_named(result):
    d = result.dynamics
    assert (d.kind, d.leak, d.nonlinearity, d.readout, d.timing) == (
        "leaky_current",
        pytest.approx(LEAK),
        "relu",
        "rate",
        "after",
    )
    assert result.verification.verified and result.verification.error < 1e-5
    assert result.shapes["offsets"] == ["b_h", "b_y", "h0"]  # h0: its (1, N_rec) init_state
    assert "psychrnn_basic" in result.summary()


def test_every_single_block_ablation_equals_psychrnns_equations_with_W_tilde(result):
    weights = saved()
    with np.load(HELDOUT) as held:
        inputs, targets, mask = (held[k].astype(float) for k in ("inputs", "targets", "mask"))
    Q, T = result.schur.Q, result.schur.T
    for alpha in (0.85, 0.9, 0.95):
        for block, keep in coupling_masks(result.schur, alpha).items():
            W_tilde = Q @ np.where(keep, 0.0, T) @ Q.T
            theirs = fvu(psychrnn_forward(weights, inputs, W_tilde), targets, mask)
            row = result.ablation.query("subset == @block and alpha == @alpha").iloc[0]
            assert row["score"] == pytest.approx(theirs, rel=1e-5, abs=1e-7), (alpha, block)


def test_the_command_reads_the_file_as_psychrnn_wrote_it(tmp_path, capsys):
    args = ["analyse", str(MODEL), str(HELDOUT), "--dynamics", "auto", "--out", str(tmp_path)]
    assert cli.main(args) == 0
    printed = capsys.readouterr().out
    assert "read as PsychRNN's model.save; not read: Dale_rec" in printed
    assert "dale_ratio" in printed and "rollout verified" in printed
    assert (tmp_path / "ablation.csv").is_file() and (tmp_path / "summary.md").is_file()


def test_without_its_initial_state_the_message_names_it_first(tmp_path):
    """The same file without init_state: no description reproduces the outputs, and the
    first likely cause named is the trained initial state; no torch advice for an .npz."""
    weights = {k: v for k, v in saved().items() if k != "init_state"}
    np.savez(tmp_path / "no_init.npz", **weights)
    with pytest.raises(verify.RolloutMismatch) as refused:
        with pytest.warns(verify.AnalysisWarning):
            rnnschur.analyse(tmp_path / "no_init.npz", HELDOUT, "auto")
    message = str(refused.value)
    assert message.index("(1) a trained initial state not given") < message.index("(2) noise")
    assert "recurrent=NAME" not in message
    shutil.copy(HELDOUT, tmp_path / "heldout.npz")  # given with the initial state: verified
    np.savez(tmp_path / "h0.npz", h0=saved()["init_state"][0])
    with pytest.warns(verify.AnalysisWarning):
        found = rnnschur.analyse(
            tmp_path / "no_init.npz", HELDOUT, "auto", initial_state=tmp_path / "h0.npz"
        )
    assert found.verification.verified


def test_an_entry_of_python_objects_the_model_needs_is_refused_by_name(tmp_path):
    weights = saved()
    weights["W_rec"] = np.array([weights["W_rec"]], dtype=object)  # pickled by np.savez
    np.savez(tmp_path / "pickled.npz", **weights)
    with pytest.raises(io.ArtifactError, match="entry 'W_rec' holds pickled Python objects"):
        rnnschur.analyse(tmp_path / "pickled.npz", HELDOUT, "auto")


def test_psychrnns_lstm_is_refused_naming_its_gates(tmp_path):
    """PsychRNN's LSTM saves its four gates' weights beside a W_rec its forward never runs
    (psychrnn 1.0, ``backend/models/lstm.py``): planted as its ``model.save`` lays them out."""
    N = saved()["W_rec"].shape[0]
    N_concat = N + saved()["W_in"].shape[1]
    gates = {k: np.ones((N_concat, N)) for k in ("W_f", "W_i", "W_c", "W_o")}
    np.savez(tmp_path / "lstm.npz", **saved(), **gates)
    with pytest.raises(
        io.ArtifactError,
        match="PsychRNN's LSTM .its gates' weights W_f, W_i, "
        "W_c, W_o; its W_rec is not what it runs.; refused: the method needs one",
    ):
        rnnschur.analyse(tmp_path / "lstm.npz", HELDOUT, "auto")


def test_the_split_is_said_one_way_in_the_table_and_the_summary(result, tmp_path):
    """spectrum.csv names both moduli with the ρ each is compared with: in_R is modulus_P ≥
    α rho_P, modulus_P = |1 − a + aλ| of the λ in the same row; here W's own rule would split
    otherwise, and the summary states the rule that chose R with its numbers."""
    import pandas as pd

    result.save_tables(tmp_path)
    spectrum = pd.read_csv(tmp_path / "spectrum.csv")
    lam = spectrum["real"] + 1j * spectrum["imag"]
    np.testing.assert_allclose(spectrum["modulus_W"], np.abs(lam), rtol=1e-12)
    np.testing.assert_allclose(spectrum["modulus_P"], np.abs(1 - LEAK + LEAK * lam), rtol=1e-12)
    assert np.allclose(spectrum["leak"], LEAK)
    assert np.allclose(spectrum["rho_W"], np.abs(lam).max())
    by_P = spectrum["modulus_P"] >= spectrum["alpha"] * spectrum["rho_P"]
    by_W = spectrum["modulus_W"] >= spectrum["alpha"] * spectrum["rho_W"]
    assert (spectrum["in_R"] == by_P).all() and not (spectrum["in_R"] == by_W).all()
    rho = spectrum["rho_P"].iloc[0]
    assert f"|1 − a + aλ| ≥ α ρ(P) = 0.9 × {rho:.4g}" in result.summary()


@pytest.mark.parametrize(
    ("score", "targets", "message"),
    [
        ("fvu", lambda y: np.full(y.shape, 0.7), "do not vary over the masked entries"),
        ("accuracy", lambda y: (y > 0.5).astype(float), r"targets hold 0, 1 \(0/1 targets: give"),
        ("accuracy", lambda y: y, "compares the sign of each output with a target of ±1"),
    ],
)
def test_a_held_out_set_its_score_cannot_read_is_refused_naming_it(
    tmp_path, score, targets, message
):
    """Constant targets (0.7 in float64: eq. 7's normaliser is 2e-24, rounding error, not 0)
    under FVU; 0/1 or real targets under sign accuracy: refused before anything is scored,
    naming the file."""
    with np.load(HELDOUT) as held:
        arrays = {k: held[k] for k in held.files}
    arrays["targets"] = targets(arrays["targets"])
    np.savez(tmp_path / "held.npz", **arrays)
    with pytest.raises(io.ArtifactError, match=message) as refused:
        with pytest.warns(verify.AnalysisWarning):
            rnnschur.analyse(MODEL, tmp_path / "held.npz", "auto", score=score)
    assert "held.npz" in str(refused.value)


def test_a_partial_key_map_extends_an_npz_models_own_names(tmp_path):
    """An .npz with the model's own names and a trained initial state under a name of its own:
    keys="h0=init" reads W_xh, W_hh, W_hy by their names and h0 from "init"."""
    from rnnschur.external import arrays, convert

    rng = np.random.default_rng(0)
    own = {"W_xh": rng.normal(size=(4, 2)), "W_hh": rng.normal(size=(4, 4))}
    own["W_hy"] = rng.normal(size=(1, 4))
    np.savez(tmp_path / "m.npz", **own, init=np.arange(4.0))
    model = arrays.load_npz_model(tmp_path / "m.npz", convert.parse_keys("h0=init"))
    assert sorted(model) == ["W_hh", "W_hy", "W_xh", "h0"]
    np.testing.assert_array_equal(model["h0"], np.arange(4.0))
