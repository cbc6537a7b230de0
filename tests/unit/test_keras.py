"""A network Keras trained and saved (Keras 3 on its torch backend): one ``SimpleRNN`` and a
``Dense`` readout, read from its ``.keras`` file and its ``.weights.h5`` without Keras, and
verified against the outputs Keras's own ``predict`` computes. Keras's layer:
h_t = φ(x_t K + h_{t−1} U + b), y_t = h_t V + c (x·W), so W_hh = Uᵀ, read from Keras's own
``get_weights``. Gated, stacked and bidirectional Keras models are refused saying why."""

import os
import warnings

os.environ.setdefault("KERAS_BACKEND", "torch")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rnnschur  # noqa: E402
from rnnschur import io  # noqa: E402
from rnnschur.external import convert, keras_file, verify  # noqa: E402
from rnnschur.tasks import flip_flop  # noqa: E402


def sequential(*layers, n_in=3):
    return keras.Sequential([keras.Input((None, n_in)), *layers])


def trained(activation, use_bias):
    """A SimpleRNN of 16 units trained by Keras on the 3-bit flip-flop (30 epochs), with its
    held-out set and Keras's own outputs on it."""
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    train, heldout = (flip_flop.generate(rng, n) for n in (256, 32))
    model = sequential(
        keras.layers.SimpleRNN(16, activation=activation, use_bias=use_bias, return_sequences=True),
        keras.layers.Dense(3),
    )
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    model.fit(train.inputs, train.targets, epochs=30, batch_size=256, verbose=0)
    outputs = np.asarray(model.predict(heldout.inputs.astype(np.float32), verbose=0))
    held = {"inputs": heldout.inputs, "targets": heldout.targets, "outputs": outputs}
    return model, held


@pytest.mark.parametrize(("activation", "use_bias"), [("tanh", True), ("relu", False)])
def test_a_keras_simplernn_is_read_from_both_files_and_verified(tmp_path, activation, use_bias):
    model, held = trained(activation, use_bias)
    model.save(tmp_path / "net.keras")
    model.save_weights(tmp_path / "net.weights.h5")
    K, U, *b = model.layers[0].get_weights()
    V, c = model.layers[1].get_weights()
    arrays, stored = keras_file.read(tmp_path / "net.keras")
    np.testing.assert_array_equal(arrays["W_hh"], U.T)
    np.testing.assert_array_equal(arrays["W_xh"], K.T)
    np.testing.assert_array_equal(arrays["W_hy"], V.T)
    np.testing.assert_array_equal(arrays["b_y"], c)
    assert ("b_h" in arrays) == use_bias
    assert stored.nonlinearity == activation and stored.kind == "discrete"
    with warnings.catch_warnings():  # a short training: the relu one scores FVU 0.58
        warnings.simplefilter("ignore", verify.AnalysisWarning)
        whole = rnnschur.analyse(tmp_path / "net.keras", held, score="fvu")
        weights = rnnschur.analyse(tmp_path / "net.weights.h5", held, "auto", score="fvu")
    for result in (whole, weights):
        assert result.verification.verified and result.verification.error < 1e-5
        assert result.verification.dynamics.nonlinearity == activation
    assert weights.verification.found_by == "auto" and whole.verification.found_by == "given"
    assert whole.verdicts.equals(weights.verdicts)
    full = whole.ablation.query("subset == 'none'")["score"].iloc[0]
    assert full < 0.8  # trained: better than the targets' mean (FVU 1)


REFUSED = [
    (lambda: keras.layers.LSTM(4, return_sequences=True), "an LSTM"),
    (lambda: keras.layers.GRU(4, return_sequences=True), "a GRU"),
    (
        lambda: keras.layers.Bidirectional(keras.layers.SimpleRNN(4, return_sequences=True)),
        "a Bidirectional layer|is a Bidirectional layer",
    ),
]


@pytest.mark.parametrize(("layer", "message"), REFUSED)
def test_gated_and_bidirectional_keras_models_are_refused_saying_why(tmp_path, layer, message):
    model = sequential(layer(), keras.layers.Dense(1))
    model.save(tmp_path / "net.keras")
    model.save_weights(tmp_path / "net.weights.h5")
    for name in ("net.keras", "net.weights.h5"):
        with pytest.raises(io.ArtifactError, match=message) as error:
            convert.load_model_file(tmp_path / name)
        assert str(error.value).startswith(str(tmp_path / name))
        assert str(error.value).endswith(convert.ONE_MATRIX)


def test_a_stacked_keras_rnn_is_refused_naming_the_layer_that_would_be_read(tmp_path):
    model = sequential(
        keras.layers.SimpleRNN(4, return_sequences=True),
        keras.layers.SimpleRNN(4, return_sequences=True),
        keras.layers.Dense(1),
    )
    model.save(tmp_path / "net.keras")
    model.save_weights(tmp_path / "net.weights.h5")
    with pytest.raises(io.ArtifactError, match="a stacked RNN of 2 layers .SimpleRNN, SimpleRNN"):
        convert.load_model_file(tmp_path / "net.keras")
    with pytest.raises(
        io.ArtifactError,
        match="a stacked RNN of 2 layers .layers/simple_rnn, layers/simple_rnn_1.; only "
        "layers/simple_rnn would be read",
    ):
        convert.load_model_file(tmp_path / "net.weights.h5")


def test_a_keras_file_with_a_key_map_or_a_nonlinear_readout_is_refused(tmp_path):
    model = sequential(
        keras.layers.SimpleRNN(4, return_sequences=True),
        keras.layers.Dense(1, activation="sigmoid"),
    )
    model.save(tmp_path / "net.keras")
    with pytest.raises(io.ArtifactError, match="the Dense readout's activation is 'sigmoid'"):
        convert.load_model_file(tmp_path / "net.keras")
    with pytest.raises(io.ArtifactError, match="a keras file is read by its layers"):
        convert.load_model_file(tmp_path / "net.keras", {"h0": ["x"]})


def test_files_that_are_not_keras_models_are_refused_naming_them(tmp_path):
    import h5py

    with h5py.File(tmp_path / "other.weights.h5", "w") as h5:
        h5["W"] = np.ones((2, 2))
    (tmp_path / "junk.keras").write_bytes(b"not a zip")
    for name, message in (
        ("other.weights.h5", "no 'layers' group: not a Keras 3 weights file"),
        ("junk.keras", "not a readable Keras file"),
        ("absent.keras", "file not found"),
    ):
        with pytest.raises(io.ArtifactError, match=message) as error:
            convert.load_model_file(tmp_path / name)
        assert str(error.value).startswith(str(tmp_path / name))
