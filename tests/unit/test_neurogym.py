"""NeuroGym tasks through the adapter: the env's own trials, one-hot targets and the response
mask, the choice score, and the task object the analysis jobs see without NeuroGym."""

import warnings

import numpy as np
import pytest

from rnnschur import tasks
from rnnschur.tasks import _neurogym

ENV = "PerceptualDecisionMaking-v0"


def env_trials(seed: int, n: int, **kwargs):
    """n trials straight from NeuroGym, seeded as the adapter seeds it."""
    import neurogym

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = neurogym.make(ENV, **kwargs).unwrapped
    env.seed(seed)
    out = []
    for _ in range(n):
        env.new_trial()
        out.append((env.ob.copy(), env.gt.copy(), dict(env.start_ind), dict(env.end_ind)))
    return out


def test_heldout_is_what_the_env_produces_for_that_seed():
    rng = np.random.default_rng(7)
    seed = int(np.random.default_rng(7).integers(2**31 - 1))  # what draw() takes from rng
    batch = _neurogym.draw(rng, 20, ENV, {"dt": 100})
    expected = env_trials(seed, 20, dt=100)
    lengths = [len(ob) for ob, *_ in expected]
    assert batch.inputs.shape == (20, max(lengths), 3) and batch.targets.shape[2] == 3
    for k, (ob, gt, start, end) in enumerate(expected):
        L = len(ob)
        assert np.array_equal(batch.inputs[k, :L], ob)
        assert np.array_equal(batch.targets[k, :L].argmax(-1), gt)
        assert np.array_equal(batch.targets[k, :L].sum(-1), np.ones(L))  # one-hot
        decision = np.zeros(L)
        decision[start["decision"] : end["decision"]] = 1
        assert np.array_equal(batch.mask[k, :L], decision)
        assert not batch.inputs[k, L:].any() and not batch.targets[k, L:].any()
        assert not batch.mask[k, L:].any()  # padding unscored
    again = _neurogym.draw(np.random.default_rng(7), 20, ENV, {"dt": 100})
    for a, b in zip(
        (batch.inputs, batch.targets, batch.mask), again.__dict__.values(), strict=True
    ):
        assert np.array_equal(a, b)  # same seed, same trials, bit for bit


def test_response_periods_of_other_envs():
    """ReadySetGo answers in its production period, DualDelayMatchSample in test1 and test2."""
    for env, periods in (
        ("ReadySetGo-v0", ["production"]),
        ("DualDelayMatchSample-v0", ["test1", "test2"]),
    ):
        seed = int(np.random.default_rng(3).integers(2**31 - 1))
        batch = _neurogym.draw(np.random.default_rng(3), 4, env, {})
        import neurogym

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trials = neurogym.make(env).unwrapped
        trials.seed(seed)
        for k in range(4):
            trials.new_trial()
            expected = np.zeros(batch.mask.shape[1])
            for p in periods:
                expected[trials.start_ind[p] : trials.end_ind[p]] = 1
            assert np.array_equal(batch.mask[k], expected), (env, k)


def test_choice_score_on_planted_outputs():
    """Actions 0 (fixate, 4 scored steps), 2 (1 step) and 1 (1 step); Cohen's κ by hand."""
    targets = np.zeros((2, 4, 3))
    targets[:, :, 0] = 1
    targets[0, 3] = [0, 0, 1]
    targets[1, 3] = [0, 1, 0]
    mask = np.zeros((2, 4))
    mask[:, 1:] = 1  # six scored steps: fixate on 4, action 2 on 1, action 1 on 1
    outputs = np.zeros((3, 2, 4, 3))  # three models
    outputs[0, :, :, 0] = 1.0  # always fixate: recalls 1, 0, 0
    outputs[1] = targets * 5 - 1  # always right
    outputs[1, 0, 1] = [0, 0, 9]  # except once (a fixation step called action 2)
    outputs[2, :, :, 2] = 1.0  # always action 2
    # model 1: p_o = 5/6; chosen 3/6, 1/6, 2/6 and targets 4/6, 1/6, 1/6 of the six steps, so
    # p_e = (12 + 1 + 2) / 36 and κ = (30/36 − 15/36) / (21/36) = 5/7; constants: p_o = p_e
    assert np.allclose(_neurogym.choice_score(outputs, targets, mask), [0.0, 5 / 7, 0.0])
    single = np.zeros((1, 3, 2))
    single[..., 0] = 1
    assert np.isnan(_neurogym.choice_score(np.zeros((1, 3, 2)), single, np.ones((1, 3))))


BATTERY = (
    "PerceptualDecisionMaking-v0",
    "ContextDecisionMaking-v0",
    "DelayMatchSample-v0",
    "GoNogo-v0",
    "ReadySetGo-v0",
    "DelayComparison-v0",
    "MultiSensoryIntegration-v0",
    "DualDelayMatchSample-v0",
)


@pytest.mark.parametrize("env", BATTERY)
def test_a_constant_output_scores_zero_on_every_battery_env(env):
    """Always fixate, or always any one action: exactly 0; the targets themselves: 1."""
    batch = _neurogym.draw(np.random.default_rng(0), 64, env, {"dt": 100})
    n, T, K = batch.targets.shape
    for action in range(K):
        constant = np.zeros((n, T, K))
        constant[..., action] = 1.0
        score = _neurogym.choice_score(constant, batch.targets, batch.mask)
        assert score == pytest.approx(0.0, abs=1e-12), (env, action)
    assert _neurogym.choice_score(batch.targets, batch.targets, batch.mask) == 1.0
    # the hit rate a constant answer gets is what this score no longer gives
    fixate = np.zeros((n, T, K))
    fixate[..., 0] = 1.0
    hit_rate = (
        (fixate.argmax(-1) == batch.targets.argmax(-1)) * batch.mask
    ).sum() / batch.mask.sum()
    if env == "ReadySetGo-v0":  # the "go" is one step of the production period
        assert hit_rate > 0.9


@pytest.mark.parametrize("env", BATTERY)
def test_neurogyms_own_per_trial_correctness_replays_the_heldout_trials(env):
    """The env stepped with the targets' choices answers every trial right, but for GoNogo,
    whose no-go trials NeuroGym counts 0 however they are answered; always fixating answers
    none; a replay on other trials than the held-out ones is refused."""
    kwargs = {"dt": 100}
    batch = _neurogym.draw(np.random.default_rng(3), 48, env, kwargs)
    replay = lambda outputs: _neurogym.trial_performance(  # noqa: E731
        np.random.default_rng(3), 48, env, kwargs, batch, outputs
    )
    oracle = replay(batch.targets)
    if env == "GoNogo-v0":
        go = batch.targets[..., 1].max(axis=1) > 0
        np.testing.assert_array_equal(oracle, go.astype(float))
    else:
        assert (oracle == 1).all()
    fixate = np.zeros_like(batch.targets)
    fixate[..., 0] = 1.0
    assert (replay(fixate) == 0).all()
    if env != "ReadySetGo-v0":  # always answering 1 passes a share of trials: not chance-corrected
        always = np.zeros_like(batch.targets)
        always[..., 1] = 1.0
        assert 0.25 < replay(always).mean() < 0.9
    with pytest.raises(ValueError, match="not the held-out trial"):
        _neurogym.trial_performance(np.random.default_rng(4), 48, env, kwargs, batch, batch.targets)


def test_analysis_jobs_see_the_task_from_its_spec_without_neurogym():
    spec = {"env": ENV, "kwargs": {"dt": 100}, "dims": [3, 3]}
    task = tasks.get("pdm", spec)
    assert task.SCORE == "choice" and task.HIGHER_IS_BETTER and task.dims() == (3, 3)
    assert tasks.defaults("pdm") == {}
    with pytest.raises(KeyError, match="unknown task 'nope'.*needs its spec"):
        tasks.get("nope")
    # without dims (a data or training job's params), the env itself says them
    assert tasks.get("pdm", {"env": ENV, "kwargs": {"dt": 100}}).dims() == (3, 3)


def test_check_refuses_and_measures():
    assert _neurogym.check(ENV, {"dt": 50}) == (3, 3)
    with pytest.raises(ValueError, match="close: \\['PerceptualDecisionMaking-v0'"):
        _neurogym.check("PerceptualDecisionMakin-v0", {})
    with pytest.raises(ValueError, match="takes no argument 'wobble'"):
        _neurogym.check(ENV, {"wobble": 1})


def test_trials_are_drawn_without_neurogyms_plotting_and_equal_its_full_import():
    """A fresh process draws trials without importing torch or stable-baselines3 (the stand-in
    for neurogym's plotting module), and the trials equal those of a process that
    imported neurogym whole first; the stand-in says what it is when called."""
    import subprocess
    import sys

    code = (
        "import sys, hashlib, numpy as np\n"
        "{first}"
        "from rnnschur.tasks import _neurogym\n"
        "b = _neurogym.draw(np.random.default_rng(3), 16, 'GoNogo-v0', {{'dt': 100}})\n"
        "h = hashlib.sha256(b.inputs.tobytes() + b.targets.tobytes() + b.mask.tobytes())\n"
        "heavy = [m for m in ('torch', 'stable_baselines3') if m in sys.modules]\n"
        "print(h.hexdigest(), heavy)\n"
    )
    run = lambda first: subprocess.run(  # noqa: E731
        [sys.executable, "-W", "ignore", "-c", code.format(first=first)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split(maxsplit=1)
    light_hash, light_heavy = run("")
    full_hash, full_heavy = run("import neurogym\n")
    assert light_heavy.strip() == "[]"
    assert "torch" in full_heavy  # the full import does load them: the check can fail
    assert light_hash == full_hash
    with pytest.raises(RuntimeError, match="plotting is not loaded"):
        _neurogym._plotting_not_loaded()


@pytest.mark.parametrize("env", ["ReadySetGo-v0", "DualDelayMatchSample-v0"])
def test_trials_drawn_once_give_the_batches_draw_gives(env):
    """A training set drawn once (:func:`draw_trials`) and cut into batches: batch k is what
    :func:`draw` gives for those trials, bit for bit (each padded to its own longest trial),
    and the first batch is draw's from the same rng state."""
    kwargs = {"dt": 100}
    trials = _neurogym.draw_trials(np.random.default_rng(5), 60, env, kwargs)
    whole = _neurogym.draw(np.random.default_rng(5), 60, env, kwargs)
    first = _neurogym.draw(np.random.default_rng(5), 10, env, kwargs)
    assert all(
        np.array_equal(a, b) and a.dtype == b.dtype
        for a, b in zip(trials.batch(0, 10).__dict__.values(), first.__dict__.values(), strict=True)
    )
    lengths = set()
    for k in range(6):
        batch = trials.batch(10 * k, 10 * (k + 1))
        T = batch.inputs.shape[1]
        lengths.add(T)
        assert T == trials.lengths[10 * k : 10 * (k + 1)].max()
        for mine, drawn in zip(batch.__dict__.values(), whole.__dict__.values(), strict=True):
            assert np.array_equal(mine, drawn[10 * k : 10 * (k + 1), :T])
    if env == "ReadySetGo-v0":
        assert len(lengths) > 1  # batches of different lengths: the padding is per batch
    with pytest.raises(IndexError):
        trials.batch(50, 61)


def test_training_trials_are_a_stream_of_their_own_per_task_and_seed(tmp_path):
    """The same for every instance of a task (an atlas description) and seed, another for
    another seed; saved and read back the same; too few refused by name."""
    from rnnschur import io

    spec = {"env": ENV, "kwargs": {"dt": 100}}
    a = tasks.draw_training_trials("pd__leaky", spec, 40, 0, 3)
    b = tasks.draw_training_trials("pd__discrete", spec, 40, 0, 3)
    c = tasks.draw_training_trials("pd", spec, 40, 0, 4)
    assert np.array_equal(a.observations, b.observations)
    assert not np.array_equal(a.batch(0, 20).inputs, c.batch(0, 20).inputs)
    io.save_npz(tmp_path / "t.npz", **a.arrays())
    back = io.load_trials(tmp_path / "t.npz", 40)
    assert all(
        np.array_equal(x, y)
        for x, y in zip(a.arrays().values(), back.arrays().values(), strict=True)
    )
    with pytest.raises(io.ArtifactError, match="40 trials, 41 needed"):
        io.load_trials(tmp_path / "t.npz", 41)
