import numpy as np
import pytest

from rnnschur import tasks
from rnnschur.settings.seeds import job_rng
from rnnschur.training.train import TrainingDiverged, TrainSettings, train

PARAMS = {"n_symbols": 3, "symbol_dim": 3, "n_lags": 6}


def settings(**overrides) -> TrainSettings:
    return TrainSettings(
        **{
            "lr": 3e-3,
            "batch_size": 16,
            "max_steps": 40,
            "eval_every": 20,
            "clip_grad_norm": 1.0,
            **overrides,
        }
    )


def heldout():
    return tasks.get("copy").generate(job_rng(0, "heldout"), 32, **PARAMS)


def run(construction="dense_orthogonal", seed=0, **overrides):
    """One copy model of ``seed`` trained alone."""
    return train(
        "copy",
        PARAMS,
        construction,
        8,
        settings(**overrides),
        job_rng(0, construction, 8, seed),
        heldout(),
        name=f"copy/{construction}",
    )


@pytest.mark.parametrize(
    "construction", ["dense_default", "dense_orthogonal", "dense_normal", "cayley"]
)
def test_same_seed_same_weights(construction):
    a, b = run(construction), run(construction)
    for x, y in ((a.W_xh, b.W_xh), (a.W_hh, b.W_hh), (a.W_hy, b.W_hy)):
        assert np.array_equal(x, y)
    assert a.log == b.log
    assert 0 <= a.summary["heldout_accuracy"] <= 1


def test_training_lowers_the_loss():
    model = run(max_steps=300, eval_every=100, lr=1e-2)
    losses = [row[1] for row in model.log]
    assert np.mean(losses[-20:]) < 0.8 * np.mean(losses[:20])


def test_curriculum_advances_and_early_stopping_stops():
    model = run("cayley", curriculum=(2, 6), curriculum_threshold=0.0, target_score=0.0)
    horizons = [row[5] for row in model.log]
    assert horizons[0] == 2 and horizons[-1] == 6
    assert model.summary["reached_target"] and model.summary["steps"] == 20


def test_divergence_names_model_step_and_loss():
    with pytest.raises(
        TrainingDiverged, match=r"copy/dense_default diverged: loss \S+ at step \d+"
    ):
        run("dense_default", lr=1e3, clip_grad_norm=None, max_steps=200)


def test_keep_best_returns_the_best_evaluated_weights():
    model = run(max_steps=60, eval_every=20, keep_best=True, lr=0.05)
    scores = [row[3] for row in model.log if row[3] == row[3]]  # evaluated steps
    assert model.summary["best_validation_accuracy"] == max(scores)
    assert model.summary["best_step"] == 20 * (1 + scores.index(max(scores)))
    assert model.summary["kept_best"]
    last = run(max_steps=60, eval_every=20, keep_best=False, lr=0.05)
    same_until_best = model.summary["best_step"] == 60
    assert same_until_best == np.array_equal(model.W_hh, last.W_hh)


def test_checkpoints_hold_the_initial_and_every_validated_weights():
    model = run(max_steps=60, eval_every=20, keep_best=True, lr=0.05)
    c = model.checkpoints
    assert list(c["step"]) == [0, 20, 40, 60]
    assert c["W_hh"].shape == (4, 8, 8) and c["W_xh"].shape[0] == c["W_hy"].shape[0] == 4
    scores = [row[3] for row in model.log if row[3] == row[3]]
    np.testing.assert_array_equal(c["validation_score"][1:], scores)
    best = list(c["step"]).index(model.summary["best_step"])
    assert np.array_equal(c["W_hh"][best], model.W_hh)  # keep_best returns a checkpoint
    assert np.array_equal(c["W_hh"][-1], run(max_steps=60, eval_every=20, lr=0.05).W_hh)
    # Step 0 is the construction's initial matrix: orthogonal here.
    np.testing.assert_allclose(c["W_hh"][0] @ c["W_hh"][0].T, np.eye(8), atol=1e-6)


def test_adam_and_clipping_equal_torchs():
    """rnnschur.training.optimiser.Adam and clip_grad_norm take the steps torch.optim.Adam and
    torch.nn.utils.clip_grad_norm_ take, on the same gradients (float64)."""
    import torch

    from rnnschur.training.optimiser import Adam, clip_grad_norm

    rng = np.random.default_rng(8)
    ours = [rng.standard_normal(s) for s in ((4, 3), (5,))]
    theirs = [torch.tensor(p.copy(), requires_grad=True) for p in ours]
    adam, torch_adam = Adam(ours), torch.optim.Adam(theirs, lr=0.01)
    for step in range(5):
        grads = [rng.standard_normal(p.shape) * (10.0 if step % 2 else 0.1) for p in ours]
        for p, g in zip(theirs, grads, strict=True):
            p.grad = torch.tensor(g.copy())
        torch.nn.utils.clip_grad_norm_(theirs, 1.0)
        clip_grad_norm(grads, 1.0)
        for g, p in zip(grads, theirs, strict=True):
            np.testing.assert_allclose(g, p.grad.numpy(), rtol=1e-12)
        for group in torch_adam.param_groups:
            group["lr"] = 0.01 / (step + 1)
        torch_adam.step()
        adam.step(grads, 0.01 / (step + 1))
        for p, q in zip(ours, theirs, strict=True):
            np.testing.assert_allclose(p, q.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_retained_memory_changes_the_speed_not_the_weights():
    """Under glibc, mallopt takes the settings (True); a process that never sets them trains
    the same weights, bit for bit, as one that does (training sets them itself)."""
    import platform
    import subprocess
    import sys

    from rnnschur.settings.numerics import retain_freed_memory

    assert retain_freed_memory() is (platform.libc_ver()[0] == "glibc")
    code = (
        "import hashlib, numpy as np\n"
        "import rnnschur.settings.numerics as n, rnnschur.training.train as t\n"
        "from rnnschur import tasks\n"
        "{patch}"
        "held = tasks.get('sine').generate(np.random.default_rng(0), 8)\n"
        "s = t.TrainSettings(lr=3e-3, batch_size=64, max_steps=30, eval_every=10, n_validation=8)\n"
        "m = t.train('sine', dict(), 'dense_orthogonal', 48, s, np.random.default_rng(1), held)\n"
        "w = m.W_hh.tobytes() + m.W_xh.tobytes() + m.W_hy.tobytes()\n"
        "print(hashlib.sha256(w).hexdigest())\n"
    )
    hashes = [
        subprocess.run(
            [sys.executable, "-c", code.format(patch=patch)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for patch in ("", "t.retain_freed_memory = lambda: False\n")
    ]
    assert hashes[0] == hashes[1] and len(hashes[0].strip()) == 64


def test_W_hh_gain_scales_the_constructions_draw_and_gaussian_draws_its_own():
    base = run(max_steps=1).checkpoints["W_hh"][0]
    half = run(max_steps=1, W_hh_gain=0.5).checkpoints["W_hh"][0]
    np.testing.assert_array_equal(half, 0.5 * base)  # the same draw, scaled
    gaussian = run(max_steps=1, W_hh_init="gaussian", W_hh_gain=2.0).checkpoints["W_hh"][0]
    assert not np.allclose(gaussian @ gaussian.T, 4 * np.eye(8))  # not a scaled orthogonal
    with pytest.raises(ValueError, match="cayley"):
        run("cayley", W_hh_gain=0.5)
    with pytest.raises(ValueError, match="W_hh_init"):
        run(W_hh_init="identity")


def test_loss_over_all_steps_trains_on_the_unscored_steps_too():
    masked, everywhere = run(max_steps=5), run(max_steps=5, loss_steps="all")
    assert masked.log[0][1] != everywhere.log[0][1]  # the first loss already differs
    np.testing.assert_array_equal(masked.checkpoints["W_hh"][0], everywhere.checkpoints["W_hh"][0])
    with pytest.raises(ValueError, match="loss_steps"):
        run(loss_steps="some")


def bundle(construction="dense_orthogonal", seeds=(0, 1, 2), **overrides):
    """The models of ``seeds`` trained as one bundle, with the settings of :func:`run`."""
    from rnnschur.training.train import train_bundle

    rngs = [job_rng(0, construction, 8, seed) for seed in seeds]
    names = [f"copy/{construction}/seed{seed}" for seed in seeds]
    return train_bundle(
        "copy", PARAMS, construction, 8, settings(**overrides), rngs, heldout(), names
    )


def same_bits(a, b):
    for key in ("W_xh", "W_hh", "W_hy"):
        assert getattr(a, key).tobytes() == getattr(b, key).tobytes(), key
    for key, stack in a.checkpoints.items():
        assert stack.tobytes() == b.checkpoints[key].tobytes(), key
    assert a.log == b.log
    drop = {"wall_seconds", "bundle_size"}
    assert {k: v for k, v in a.summary.items() if k not in drop} == {
        k: v for k, v in b.summary.items() if k not in drop
    }


@pytest.mark.parametrize("K", [1, 3, 8])
def test_a_bundle_trains_each_model_to_the_bits_it_gets_alone(K):
    """Curriculum stages and early stops that differ by seed, clipping, hidden noise."""
    overrides = {
        "curriculum": (2, 4, 6),
        "curriculum_threshold": 0.6,
        "target_score": 0.7,
        "hidden_noise": 0.05,
        "max_steps": 60,
        "eval_every": 5,
    }
    trained = bundle(seeds=tuple(range(K)), **overrides)
    for seed, model in enumerate(trained):
        same_bits(model, run("dense_orthogonal", seed, **overrides))
        assert model.summary["bundle_size"] == K
    if K == 8:  # the stack changed on the way: models stopped early, horizons apart
        assert len({m.summary["steps"] for m in trained}) > 1
        first_change = {[r[5] for r in m.log].index(4) for m in trained}
        assert len(first_change) > 1


@pytest.mark.parametrize("construction", ["dense_default", "dense_normal", "cayley"])
def test_a_bundle_of_each_construction_keeps_the_bits(construction):
    for seed, model in enumerate(bundle(construction)):
        same_bits(model, run(construction, seed))


def test_a_bundle_of_trials_of_different_lengths_keeps_the_bits():
    """A NeuroGym env pads each batch to its longest trial: the models' batches differ in
    length at a step (ReadySetGo), and each model still gets the bits it gets alone."""
    from rnnschur.tasks import _neurogym
    from rnnschur.training.train import train_bundle

    env, kwargs = "ReadySetGo-v0", {"dt": 100}
    generator = {"neurogym": {"env": env, "kwargs": kwargs}}  # the training job's params
    lengths = {
        tuple(_neurogym.draw(job_rng(0, "rsg", s), 4, env, kwargs).inputs.shape[1] for s in (0, 1))
    }
    assert all(a != b for a, b in lengths)  # two streams, batches of two lengths
    options = dict(lr=1e-3, batch_size=4, max_steps=4, eval_every=2, n_validation=8)
    check = TrainSettings(**options)
    held = tasks.draw_heldout("rsg", 8, 0, **generator)
    rngs = lambda: [job_rng(0, "rsg", s) for s in (0, 1)]  # noqa: E731
    together = train_bundle(
        "rsg", generator, "dense_orthogonal", 8, check, rngs(), held, ["a", "b"]
    )
    for rng, model in zip(rngs(), together, strict=True):
        alone = train_bundle("rsg", generator, "dense_orthogonal", 8, check, [rng], held, ["x"])[0]
        same_bits(model, alone)


def test_a_model_on_trials_drawn_once_trains_as_on_those_batches_drawn_live(monkeypatch):
    """Training on a training set drawn once (batch k at step k + 1) gives the bits of training
    on the same batches handed out step by step by the task's generate; the model's own stream
    draws only its weights and validation set. A fixed training set takes its first trials.
    Too few trials, or a curriculum beside them, are refused by name."""
    from rnnschur.tasks import _neurogym
    from rnnschur.training.train import train_bundle

    env, kwargs = "ReadySetGo-v0", {"dt": 100}
    generator = {"neurogym": {"env": env, "kwargs": kwargs}}
    options = dict(lr=1e-3, batch_size=4, max_steps=6, eval_every=3, n_validation=8)
    settings = TrainSettings(**options)
    held = tasks.draw_heldout("pd", 8, 0, **generator)
    trials = _neurogym.draw_trials(job_rng(0, "trials"), 24, env, kwargs)
    lengths = {trials.batch(4 * k, 4 * k + 4).inputs.shape[1] for k in range(6)}
    assert len(lengths) > 1  # batches of different lengths
    once = train_bundle(
        "pd",
        generator,
        "dense_orthogonal",
        8,
        settings,
        [job_rng(0, "m")],
        held,
        ["a"],
        trials=[trials],
    )[0]

    handed = []
    live_generate = _neurogym.NeurogymTask.generate

    def generate(self, rng, n, **params):
        if n != settings.batch_size:  # the validation set, from the model's stream
            return live_generate(self, rng, n, **params)
        handed.append(n)
        return trials.batch(4 * (len(handed) - 1), 4 * len(handed))

    monkeypatch.setattr(_neurogym.NeurogymTask, "generate", generate)
    live = train_bundle(
        "pd", generator, "dense_orthogonal", 8, settings, [job_rng(0, "m")], held, ["b"]
    )[0]
    same_bits(once, live)
    assert len(handed) == settings.max_steps
    fixed = TrainSettings(**dict(options, train_set_batches=2))
    on = [
        train_bundle(
            "pd",
            generator,
            "dense_orthogonal",
            8,
            fixed,
            [job_rng(0, "m")],
            held,
            ["d"],
            trials=[t],
        )[0]
        for t in (trials, _first_trials(trials, 8))
    ]
    same_bits(*on)
    assert not np.array_equal(on[0].W_hh, once.W_hh)
    for bad, match in (
        (dict(options, max_steps=7), "24 training trials, 28 needed"),
        (dict(options, curriculum=(2, 4)), "cannot follow a curriculum"),
    ):
        with pytest.raises(ValueError, match=match):
            train_bundle(
                "pd",
                generator,
                "dense_orthogonal",
                8,
                TrainSettings(**bad),
                [job_rng(0, "m")],
                held,
                ["c"],
                trials=[trials],
            )


def _first_trials(trials, n):
    """The first ``n`` trials of a :class:`rnnschur.tasks.Trials` set."""
    steps = trials.lengths[:n].sum()
    return tasks.Trials(
        trials.observations[:steps],
        trials.actions[:steps],
        trials.mask[:steps],
        trials.lengths[:n],
        trials.n_actions,
    )


def test_a_fixed_training_set_is_drawn_once_and_reshuffled_every_epoch():
    """From the definition, with a copy of the stream: the set drawn at the first batch, then
    per epoch a permutation of its trials cut into batches."""
    from rnnschur.training.train import fixed_training_set

    module = tasks.get("flip_flop")
    params = {"n_bits": 2, "length": 12}
    settings = TrainSettings(lr=1e-3, batch_size=4, max_steps=10, train_set_batches=3)
    batches = fixed_training_set(job_rng(0, "set"), module, params, settings)
    got = [next(batches) for _ in range(6)]  # two epochs
    rng = job_rng(0, "set")
    data = module.generate(rng, 12, **params)
    for epoch in range(2):
        order = rng.permutation(12)
        for k in range(3):
            pick = order[4 * k : 4 * k + 4]
            mine = got[3 * epoch + k]
            assert np.array_equal(mine.inputs, data.inputs[pick])
            assert np.array_equal(mine.targets, data.targets[pick])
            assert np.array_equal(mine.mask, data.mask[pick])
    assert not np.array_equal(got[0].inputs, got[3].inputs)  # reshuffled
