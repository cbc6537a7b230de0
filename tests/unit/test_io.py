import numpy as np
import pytest

from rnnschur import io
from rnnschur.schur import ordered_real_schur


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "out.npz"
    with pytest.raises(RuntimeError), io.atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []


def test_truncated_npz_is_named(tmp_path):
    path = tmp_path / "weights.npz"
    io.save_npz(path, W_xh=np.ones((3, 2)), W_hh=np.eye(3), W_hy=np.ones((1, 3)))
    assert io.load_weights(path)[1].shape == (3, 3)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(io.ArtifactError, match="weights.npz.*truncated"):
        io.load_weights(path)


def test_missing_and_inconsistent_weights(tmp_path):
    with pytest.raises(io.ArtifactError, match="not found"):
        io.load_weights(tmp_path / "none.npz")
    path = tmp_path / "w.npz"
    io.save_npz(path, W_xh=np.ones((4, 2)), W_hh=np.eye(3), W_hy=np.ones((1, 3)))
    with pytest.raises(io.ArtifactError, match=r"W_xh \(4, 2\) must be \(N_h = 3, N_x\)"):
        io.load_weights(path)
    io.save_npz(path, W_xh=np.ones((3, 2)), W_hh=np.eye(3) * np.nan, W_hy=np.ones((1, 3)))
    with pytest.raises(io.ArtifactError, match="NaN"):
        io.load_weights(path)


def test_schur_that_does_not_reconstruct_W_is_refused(tmp_path):
    W = np.random.default_rng(0).standard_normal((6, 6))
    path = tmp_path / "schur.npz"
    io.save_schur(path, ordered_real_schur(W))
    assert io.load_schur(path, W).T.shape == (6, 6)
    with pytest.raises(io.ArtifactError, match="schur.npz.*QTQ"):
        io.load_schur(path, W + 0.1)


def test_heldout_shapes_are_checked(tmp_path):
    path = tmp_path / "heldout.npz"
    io.save_npz(path, inputs=np.zeros((4, 5, 2)), targets=np.zeros((4, 5, 1)), mask=np.ones((4, 5)))
    assert io.load_batch(path, 2, 1).inputs.shape == (4, 5, 2)
    with pytest.raises(io.ArtifactError, match="inputs have 2 lines, expected 3"):
        io.load_batch(path, 3, 1)
    io.save_npz(path, inputs=np.zeros((4, 5, 2)), targets=np.zeros((4, 6, 1)), mask=np.ones((4, 5)))
    with pytest.raises(io.ArtifactError, match="shapes disagree"):
        io.load_batch(path)


def test_checkpoints_are_checked_like_weights(tmp_path):
    path = tmp_path / "checkpoints.npz"
    stacks = {"W_xh": np.ones((2, 3, 2)), "W_hh": np.ones((2, 3, 3)), "W_hy": np.ones((2, 1, 3))}
    io.save_npz(path, step=np.array([0, 10]), validation_score=np.array([0.5, 0.9]), **stacks)
    assert list(io.load_checkpoints(path)["step"]) == [0, 10]
    io.save_npz(path, step=np.array([0, 10, 20]), validation_score=np.zeros(3), **stacks)
    with pytest.raises(
        io.ArtifactError, match=r"checkpoints.npz: W_hh has shape \(2, 3, 3\), not a stack of 3"
    ):
        io.load_checkpoints(path)
    stacks["W_hy"] = np.ones((2, 1, 4))
    io.save_npz(path, step=np.array([0, 10]), validation_score=np.zeros(2), **stacks)
    with pytest.raises(io.ArtifactError, match=r"W_hy \(2, 1, 4\) must be \(…, N_y, N_h = 3\)"):
        io.load_checkpoints(path)
    path.write_bytes(path.read_bytes()[:50])
    with pytest.raises(io.ArtifactError, match="truncated"):
        io.load_checkpoints(path)


def test_save_rows_writes_what_pandas_writes(tmp_path):
    import pandas as pd

    rows = [
        {"a": 0.1, "b": 1, "c": "x, y", "d": True, "e": np.nan, "f": np.float64(1 / 3)},
        {"a": 2.0, "b": 3, "c": "z", "d": np.bool_(False), "e": 1e-300, "f": np.float64(-0.0)},
    ]
    io.save_rows(tmp_path / "rows.csv", rows)
    io.save_csv(tmp_path / "pandas.csv", pd.DataFrame(rows))
    assert (tmp_path / "rows.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes()
    back = pd.read_csv(tmp_path / "rows.csv")
    assert back["f"].iloc[0] == 1 / 3 and np.isnan(back["e"].iloc[0])  # full precision


def test_labelled_rows_lead_with_the_model():
    model = type("W", (), {"task": "sine", "construction": "cayley", "size": "16", "seed": "2"})
    rows = io.labelled([{"subset": "none", "score": 0.5}], model)
    assert list(rows[0]) == ["task", "construction", "n_hidden", "seed", "subset", "score"]
    assert rows[0]["n_hidden"] == 16 and rows[0]["seed"] == 2


def test_a_schur_file_of_another_format_version_is_refused(tmp_path):
    from rnnschur.schur import ordered_real_schur

    W = np.random.default_rng(0).standard_normal((5, 5))
    path = tmp_path / "s.npz"
    io.save_schur(path, ordered_real_schur(W))
    assert io.load_schur(path, W).T.shape == (5, 5)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    np.savez(path, **(arrays | {"format_version": np.array(io.FORMAT_VERSION + 1)}))
    with pytest.raises(io.ArtifactError, match="written in format 2"):
        io.load_schur(path, W)


def test_a_network_is_read_once_with_its_offsets_and_description(tmp_path):
    from rnnschur.network import Network
    from rnnschur.network.dynamics import Dynamics
    from rnnschur.network.rnn import rollout

    rng = np.random.default_rng(4)
    W_xh, W_hh, W_hy = rng.standard_normal((5, 2)), rng.standard_normal((5, 5)) / 3, np.ones((1, 5))
    dynamics = Dynamics("leaky", 0.3, "relu")
    path = tmp_path / "w.npz"
    b_h = rng.standard_normal(5)
    io.save_npz(path, W_xh=W_xh, W_hh=W_hh, W_hy=W_hy, b_h=b_h, **io.dynamics_arrays(dynamics))
    network = io.load_network(path)
    assert network.dynamics == dynamics and list(network.offsets) == ["b_h"]
    x = rng.standard_normal((3, 7, 2))
    direct = rollout(W_xh, W_hh, W_hy, x, b_h=b_h, dynamics=dynamics)
    np.testing.assert_array_equal(network.rollout(x), direct)
    stack = np.stack([W_hh, 0.5 * W_hh])
    np.testing.assert_array_equal(
        network.rollout(x, stack)[1], rollout(W_xh, 0.5 * W_hh, W_hy, x, b_h=b_h, dynamics=dynamics)
    )
    with pytest.raises(ValueError, match="unknown offsets"):
        Network(W_xh, W_hh, W_hy, offsets={"bias": b_h})
    # the α split is the analysis's: one network, two splits
    assert dynamics.split_leak("propagator") == 0.3 and dynamics.split_leak("weights") == 1.0
    with pytest.raises(ValueError, match="split"):
        dynamics.split_leak("eigen")


def test_a_weights_file_replaced_after_its_schur_form_is_refused_naming_it(tmp_path):
    """Another model's weights copied over the file the Schur form was made from: refused
    naming the weights file (not the Schur file), even where the other model's W_hh would
    pass the Schur form's own checks (here the same W_hh, another readout)."""
    rng = np.random.default_rng(1)
    W = rng.standard_normal((5, 5))
    weights, schur, heldout = tmp_path / "weights.npz", tmp_path / "schur.npz", tmp_path / "h.npz"
    io.save_npz(weights, W_xh=np.ones((5, 2)), W_hh=W, W_hy=np.ones((1, 5)))
    io.save_npz(
        heldout, inputs=np.zeros((3, 4, 2)), targets=np.zeros((3, 4, 1)), mask=np.ones((3, 4))
    )
    from rnnschur.io.provenance import weights_sha256

    io.save_schur(schur, ordered_real_schur(W), weights_sha256(weights))
    assert io.load_model(weights, schur, heldout)[0].W_hh.shape == (5, 5)
    io.save_npz(weights, W_xh=np.ones((5, 2)), W_hh=W, W_hy=2 * np.ones((1, 5)))
    with pytest.raises(io.ArtifactError, match=r"weights\.npz: its arrays' sha256 is .* replaced"):
        io.load_model(weights, schur, heldout)


def test_the_weights_digest_is_of_the_arrays_not_the_zip(tmp_path):
    """The same arrays written twice (other zip time stamps) have one digest; one entry changed
    by one ulp changes it."""
    from rnnschur.io.provenance import weights_sha256

    W = np.eye(3)
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    io.save_npz(first, W_hh=W, b=np.zeros(3))
    io.save_npz(second, b=np.zeros(3), W_hh=W.copy())
    assert weights_sha256(first) == weights_sha256(second)
    io.save_npz(second, W_hh=np.nextafter(W, 2), b=np.zeros(3))
    assert weights_sha256(first) != weights_sha256(second)


def test_a_zip_bomb_is_refused_from_its_headers_before_it_is_read(tmp_path):
    """Planted: an .npz whose one entry claims 4 GiB of float64 zeros (its header, a few bytes
    of deflated data): refused naming the file and the size, in well under a second, without
    the memory to read it; and an .npz of a model with an unknown entry is refused by name
    before any entry is read."""
    import resource
    import time
    import zipfile

    from rnnschur import io
    from rnnschur.external.arrays import load_npz, load_npz_model

    bomb = tmp_path / "bomb.npz"
    header = np.lib.format.header_data_from_array_1_0(np.zeros(1))
    header["shape"] = (2**29,)  # 2^29 float64: 4 GiB once read
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("W_hh.npy", "w") as entry:
            np.lib.format.write_array_header_1_0(entry, header)
            entry.write(b"\0" * 2**20)  # the start of the data: the header decides
    before, start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.perf_counter()
    with pytest.raises(io.ArtifactError, match=r"bomb.npz: its arrays would take 4 GiB"):
        load_npz(bomb, ("W_hh",))  # a user's file: sized before it is read
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB
    assert time.perf_counter() - start < 1.0 and grown < 200 * 1024
    model = tmp_path / "model.npz"
    np.savez(model, W_xh=np.eye(2), W_hh=np.eye(2), W_hy=np.eye(2), X=np.zeros(3))
    with pytest.raises(io.ArtifactError, match=r"model.npz: unknown arrays \['X'\]"):
        load_npz_model(model)


def test_a_list_in_a_sentence_names_every_word_once_the_last_after_and():
    from rnnschur.io.text import and_list

    assert and_list([]) == ""
    assert and_list(["copy"]) == "copy"
    assert and_list(["copy", "sine"]) == "copy and sine"
    words = [f"w{k}" for k in range(5)]
    said = and_list(iter(words))  # any iterable, read once
    head, last = said.rsplit(" and ", 1)
    assert head.split(", ") == words[:-1] and last == words[-1]
