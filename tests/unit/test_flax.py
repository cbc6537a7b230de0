"""A Flax network's parameters as ``flax.serialization.to_bytes`` writes them, read without Flax.

Planted (always run): parameters encoded here in Flax's msgpack format (extension 1: shape,
dtype name, C-order bytes; flax 0.12 ``serialization._ndarray_to_bytes``), with outputs from
Flax's SimpleCell equations written out in the x·W convention:
h_t = tanh(x_t K_i + b_i + h_{t−1} K_h), y_t = h_t K + b. Trained (where Flax is installed,
``pip install flax``): a linen ``SimpleCell`` network trained by Flax and optax, saved with
``to_bytes``, verified against Flax's own ``apply``. Gated and two-cell networks are refused.
"""

import msgpack
import numpy as np
import pytest

import rnnschur
from rnnschur import io
from rnnschur.external import convert, flax_file


def encode(tree) -> bytes:
    """``tree`` (nested dicts of arrays) as Flax's msgpack bytes."""

    def ext(x):
        data = msgpack.packb((x.shape, x.dtype.name, x.tobytes("C")), use_bin_type=True)
        return msgpack.ExtType(1, data)

    return msgpack.packb(tree, default=ext, strict_types=True)


def planted(rng, n_x=3, n_h=6, n_y=2, nnx=False):
    i, h = ("dense_i", "dense_h") if nnx else ("i", "h")
    cell = {
        i: {"kernel": rng.normal(size=(n_x, n_h)), "bias": rng.normal(size=n_h)},
        h: {"kernel": rng.normal(size=(n_h, n_h)) / np.sqrt(n_h)},
    }
    dense = {"kernel": rng.normal(size=(n_h, n_y)), "bias": rng.normal(size=n_y)}
    if nnx:
        return {"rnn": {"cell": cell}, "out": dense}, cell, dense, (i, h)
    return {"params": {"SimpleCell_0": cell, "Dense_0": dense}}, cell, dense, (i, h)


def simple_cell_outputs(cell, dense, names, x):
    """Flax's SimpleCell (tanh) and Dense on x (n, T, N_x), in the x·W convention."""
    i, h = names
    state = np.zeros((x.shape[0], cell[h]["kernel"].shape[0]))
    outputs = []
    for t in range(x.shape[1]):
        state = np.tanh(x[:, t] @ cell[i]["kernel"] + cell[i]["bias"] + state @ cell[h]["kernel"])
        outputs.append(state @ dense["kernel"] + dense["bias"])
    return np.stack(outputs, axis=1)


@pytest.mark.parametrize("nnx", [False, True])
def test_planted_flax_bytes_are_read_transposed_and_verified(tmp_path, nnx):
    rng = np.random.default_rng(0)
    tree, cell, dense, names = planted(rng, nnx=nnx)
    (tmp_path / "params.msgpack").write_bytes(encode(tree))
    model = convert.load_model_file(tmp_path / "params.msgpack")
    np.testing.assert_array_equal(model["W_hh"], cell[names[1]]["kernel"].T)
    np.testing.assert_array_equal(model["W_xh"], cell[names[0]]["kernel"].T)
    np.testing.assert_array_equal(model["W_hy"], dense["kernel"].T)
    x = rng.normal(size=(8, 15, 3))
    y = simple_cell_outputs(cell, dense, names, x)
    held = {"inputs": x, "targets": y, "outputs": y}
    result = rnnschur.analyse(tmp_path / "params.msgpack", held, "auto", score="fvu")
    assert result.verification.verified and result.verification.error < 1e-10
    assert result.verification.dynamics.nonlinearity == "tanh"


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ({g: {"kernel": np.ones((4, 4))} for g in ("hi", "hf", "hg", "ho")}, "an LSTM cell"),
        ({g: {"kernel": np.ones((4, 4))} for g in ("hr", "hz", "hn")}, "a GRU cell"),
        ({"i": {"kernel": np.ones((3, 16))}, "h": {"kernel": np.ones((4, 16))}}, "an LSTM"),
    ],
)
def test_gated_flax_cells_are_refused_saying_why(tmp_path, cell, message):
    tree = {"params": {"Cell_0": cell, "Dense_0": {"kernel": np.ones((4, 1))}}}
    (tmp_path / "p.msgpack").write_bytes(encode(tree))
    with pytest.raises(io.ArtifactError, match=message) as error:
        convert.load_model_file(tmp_path / "p.msgpack")
    assert str(error.value).startswith(str(tmp_path / "p.msgpack"))
    assert str(error.value).endswith(convert.ONE_MATRIX)


def test_two_cells_are_refused_naming_the_one_that_would_be_read(tmp_path):
    """nn.Bidirectional and a stack of two nn.RNN both leave two SimpleCells."""
    rng = np.random.default_rng(1)
    tree, cell, dense, _ = planted(rng)
    tree["params"]["SimpleCell_1"] = cell
    (tmp_path / "p.msgpack").write_bytes(encode(tree))
    with pytest.raises(
        io.ArtifactError,
        match="2 recurrent cells .params/SimpleCell_0, params/SimpleCell_1.: a stacked or "
        "bidirectional RNN; only params/SimpleCell_0 would be read",
    ):
        convert.load_model_file(tmp_path / "p.msgpack")
    (tmp_path / "junk.msgpack").write_bytes(b"\xc1not msgpack")
    with pytest.raises(io.ArtifactError, match="not Flax's msgpack bytes"):
        convert.load_model_file(tmp_path / "junk.msgpack")


def test_a_simplecell_network_trained_by_flax_is_read_and_verified(tmp_path):
    jax = pytest.importorskip("jax")
    nn = pytest.importorskip("flax.linen")
    serialization = pytest.importorskip("flax.serialization")
    optax = pytest.importorskip("optax")
    from rnnschur.tasks import flip_flop

    class Net(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(3)(nn.RNN(nn.SimpleCell(16))(x))

    rng = np.random.default_rng(0)
    train, heldout = (flip_flop.generate(rng, n) for n in (256, 32))
    net, optimizer = Net(), optax.adam(0.02)
    params = net.init(jax.random.key(0), train.inputs[:1].astype(np.float32))
    state = optimizer.init(params)

    @jax.jit
    def step(params, state, x, y):
        loss, grads = jax.value_and_grad(lambda p: ((net.apply(p, x) - y) ** 2).mean())(params)
        updates, state = optimizer.update(grads, state)
        return optax.apply_updates(params, updates), state, loss

    x, y = train.inputs.astype(np.float32), train.targets.astype(np.float32)
    for _ in range(150):
        params, state, loss = step(params, state, x, y)
    (tmp_path / "net.msgpack").write_bytes(serialization.to_bytes(params))
    outputs = np.asarray(net.apply(params, heldout.inputs.astype(np.float32)))
    held = {"inputs": heldout.inputs, "targets": heldout.targets, "outputs": outputs}
    result = rnnschur.analyse(tmp_path / "net.msgpack", held, "auto", score="fvu")
    assert result.verification.verified and result.verification.error < 1e-5
    assert result.verification.dynamics.nonlinearity == "tanh"  # SimpleCell's default
    np.testing.assert_array_equal(
        flax_file.read(tmp_path / "net.msgpack")["W_hh"],
        params["params"]["SimpleCell_0"]["h"]["kernel"].T,
    )
    assert result.ablation.query("subset == 'none'")["score"].iloc[0] < 0.5  # trained
