"""The config checks of workflow/lib/config_checks.py on configs built in memory (config.yaml,
the quick preset and one change), as the workflow runs them: a wrong key, type or value is
refused with one message that names the key. The workflow-level cases
(tests/workflow/test_bad_config.py) show the same messages come out of snakemake before any job
starts."""

import copy
import os

import config_checks as checks
import instances
import pytest
import yaml

from rnnschur.settings.schema import read_schema

from conftest import REPO

SCHEMA = read_schema()
BASE = yaml.safe_load((REPO / "config.yaml").read_text())
QUICK = yaml.safe_load((REPO / "presets" / "quick.yaml").read_text())


def merged(base: dict, extra: dict) -> dict:
    """``extra`` layered over ``base`` as Snakemake layers config files (mappings merge)."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = value
    return out


def run_checks(extra: dict) -> dict:
    """The workflow's sequence: schema (concise), defaults, NeuroGym, the cross-key checks."""
    from rnnschur.tasks._neurogym import check as check_env

    config = merged(merged(BASE, QUICK), extra)
    checks.check_schema(config, SCHEMA)
    checks.with_defaults(config, SCHEMA)
    neurogym = checks.check_neurogym(config, check_env, {})
    checks.check(config, SCHEMA, list(neurogym))
    instances.check_gap_study(config, SCHEMA, list(neurogym))
    return config


CASES = [
    # (name, extra config file, text expected in the message)
    ("a gap study without seeds", "gap_study: {seeds: []}\n", "config key gap_study.seeds"),
    (
        # the paper gives no number of perceptual_decision: the study's table would be empty
        "a gap study with no number of the paper",
        "gap_study: {run: all, variations: {v: {description: d, tasks: [perceptual_decision]}}}\n",
        "the variations this run makes change ['perceptual_decision'], none of which has a number",
    ),
    (
        "unknown key",
        "alhpa: 0.9\n",
        "config key alhpa: not a key here ('alhpa' was unexpected); close: ['alpha', 'atlas']",
    ),
    (
        "a renamed key",
        "fidelity: {run: none}\n",
        "config key fidelity: not a key here ('fidelity' was unexpected); renamed 'gap_study'",
    ),
    ("wrong type", "alpha: high\n", "config key alpha: "),
    ("alpha zero", "alpha: 0\nalpha_grid: [0, 0.9]\n", "alpha"),
    ("alpha above one", "alpha: 1.5\n", "config key alpha: "),
    ("empty alpha grid", "alpha_grid: []\n", "config key alpha_grid: "),
    ("alpha outside the grid", "alpha: 0.8\n", "config key alpha = 0.8 must be one of alpha_grid"),
    (
        "odd N_h for dense_normal",
        "tasks:\n  copy:\n    sizes: [15]\n",
        "config key tasks.copy.sizes has 15, but dense_normal needs an even N_h",
    ),
    (
        "unknown task",
        "run_tasks: [parity]\n",
        "config key run_tasks names the unknown task 'parity'",
    ),
    (
        "settings of an unknown task",
        "tasks:\n  parity: {constructions: [cayley], sizes: [8], seeds: [0],"
        " training: {lr: 0.1, batch_size: 2, max_steps: 1}}\n",
        "config key tasks names the unknown task 'parity'",
    ),
    (
        "unknown construction",
        "tasks:\n  copy:\n    constructions: [sparse]\n",
        "config key tasks.copy.constructions names the unknown construction 'sparse'",
    ),
    ("negative seed", "tasks:\n  copy:\n    seeds: [-1]\n", "config key tasks.copy.seeds.0: "),
    ("duplicate seeds", "tasks:\n  copy:\n    seeds: [0, 0]\n", "config key tasks.copy.seeds: "),
    (
        "zero steps",
        "tasks:\n  copy:\n    training: {max_steps: 0}\n",
        "config key tasks.copy.training.max_steps: ",
    ),
    ("lr zero", "tasks:\n  sine:\n    training: {lr: 0}\n", "config key tasks.sine.training.lr: "),
    (
        "lr negative",
        "tasks:\n  sine:\n    training: {lr: -0.1}\n",
        "config key tasks.sine.training.lr: ",
    ),
    (
        "size below two",
        "tasks:\n  flip_flop:\n    sizes: [1]\n",
        "config key tasks.flip_flop.sizes.0: ",
    ),
    (
        "fractional generator setting",
        "tasks:\n  flip_flop:\n    generator: {n_bits: 2.5}\n",
        "config key tasks.flip_flop.generator.n_bits: 2.5 is not of type 'integer'",
    ),
    (
        "unknown generator setting",
        "tasks:\n  sine:\n    generator: {frequency: 2}\n",
        "config key tasks.sine.generator: Additional properties are not allowed ('frequency'",
    ),
    ("unknown device", "device: gpu\n", "config key device: "),
    ("unknown beyond_models", "beyond_models: some\n", "config key beyond_models: "),
    (
        "more principal components than units",
        "subspace_control: {n_components: 16}\n",
        "config key subspace_control.n_components = 16 must be below every N_h",
    ),
    (
        "refit grid empty",
        "readout_refit: {ridge_grid: []}\n",
        "config key readout_refit.ridge_grid: ",
    ),
    (
        "override of an untrained construction",
        "tasks:\n  sine:\n    training_overrides: {cayley: {lr: 0.01}}\n",
        "tasks.sine.training_overrides names ['cayley']",
    ),
    (
        "unknown generator variant",
        "tasks:\n  flip_flop:\n    generator: {variant: mine}\n",
        "config key tasks.flip_flop.generator.variant: 'mine' is not one of",
    ),
    ("claims level of one", "claims: {level: 1}\n", "config key claims.level: "),
    (
        "variation changing an unknown training key",
        "gap_study:\n  variations:\n    v: {description: d, tasks: [sine], training: {lrate: 1}}\n",
        "'lrate' was unexpected",
    ),
    (
        "variation with a generator key its task lacks",
        "gap_study:\n  variations:\n    v: {description: d, tasks: [sine], generator: {bits: 2}}\n",
        "config key gap_study.variations.v does not fit tasks.sine",
    ),
    (
        "variation for an unknown task",
        "gap_study:\n  variations:\n    v: {description: d, tasks: [parity]}\n",
        "config key gap_study.variations.v.tasks names the unknown task 'parity'",
    ),
    (
        "variation with a per-task change for a task it does not train",
        "gap_study:\n  variations:\n    v: {description: d, tasks: [sine],"
        " per_task: {flip_flop: {training: {lr: 0.1}}}}\n",
        "config key gap_study.variations.v.per_task names ['flip_flop'], which is not in "
        "gap_study.variations.v.tasks",
    ),
    (
        "variation with a held-out generator key its task lacks",
        "gap_study:\n  variations:\n    v: {description: d, tasks: [sine],"
        " per_task: {sine: {heldout_generator: {n_bits: 2}}}}\n",
        "config key gap_study.variations.v does not fit tasks.sine: config key heldout_generator:",
    ),
    (
        "variation with an unknown FVU mean",
        "gap_study:\n  variations:\n    v: {description: d, tasks: [sine],"
        " evaluation: {fvu_mean: median}}\n",
        "config key gap_study.variations.v.evaluation.fvu_mean: ",
    ),
    (
        "an unknown initial W_hh",
        "tasks:\n  sine:\n    training: {W_hh_init: identity}\n",
        "config key tasks.sine.training.W_hh_init: ",
    ),
    (
        "gap_study run names an unknown variation",
        "gap_study: {run: [nosuch]}\n",
        "gap_study.run names ['nosuch']",
    ),
    (
        "external model without its held-out set",
        "external_models:\n  m: {weights: w.npz}\n",
        "'heldout' is a required property",
    ),
    (
        "unknown io_init",
        "tasks:\n  sine:\n    training: {io_init: xavier}\n",
        "config key tasks.sine.training.io_init: ",
    ),
    (
        "unknown NeuroGym env, with close names",
        "tasks:\n  pdm: {neurogym: {env: PerceptualDecisionMakin-v0}, constructions: [cayley],"
        " sizes: [8], seeds: [0], training: {lr: 0.1, batch_size: 2, max_steps: 1}}\n",
        "config key tasks.pdm.neurogym: unknown NeuroGym env 'PerceptualDecisionMakin-v0'; "
        "close: ['PerceptualDecisionMaking-v0'",
    ),
    (
        "a kwarg the NeuroGym env does not take",
        "tasks:\n  pdm: {neurogym: {env: GoNogo-v0, kwargs: {coherence: 3}},"
        " constructions: [cayley], sizes: [8], seeds: [0],"
        " training: {lr: 0.1, batch_size: 2, max_steps: 1}}\n",
        "config key tasks.pdm.neurogym: env GoNogo-v0 takes no argument 'coherence'",
    ),
    (
        "a NeuroGym block with a generator block",
        "tasks:\n  pdm: {neurogym: {env: GoNogo-v0}, generator: {length: 3},"
        " constructions: [cayley], sizes: [8], seeds: [0],"
        " training: {lr: 0.1, batch_size: 2, max_steps: 1}}\n",
        "config key tasks.pdm: a neurogym block and a generator block together",
    ),
    (
        "a leaky network with a leak above one",
        "tasks:\n  sine:\n    model: {dynamics: leaky, leak: 1.5}\n",
        "config key tasks.sine.model.leak: ",
    ),
    (
        "a discrete network with a leak",
        "tasks:\n  sine:\n    model: {dynamics: discrete, leak: 0.2}\n",
        "config key tasks.sine.model: discrete dynamics have leak 1",
    ),
    (
        "an unknown nonlinearity",
        "tasks:\n  sine:\n    model: {nonlinearity: sigmoid}\n",
        "config key tasks.sine.model.nonlinearity: ",
    ),
]


@pytest.mark.parametrize("name, text, expected", CASES, ids=[c[0] for c in CASES])
def test_refused_naming_the_key(name, text, expected):
    with pytest.raises(checks.ConfigError) as refused:
        run_checks(yaml.safe_load(text))
    assert expected in str(refused.value)
    assert "\n" not in str(refused.value)  # one line


LAYERED = {
    "leaky_relu": ("leaky",),
    "neurogym_leaky": ("neurogym_battery",),
    "atlas_published": ("atlas",),
    "atlas_quick": ("atlas",),
    "quick_studies": ("quick", "studies"),
}
"""The presets layered over others, and those, in order."""
PAPER_LAYERS = {"studies"}
"""The layers of the paper-scale run itself (its models shared): they write into its folder."""


def test_the_paper_config_and_every_preset_pass():
    """Every preset (over the one it is layered on) passes the schema and writes into a folder
    of its own, never the paper-scale run's; the same preset with its first key misspelled is
    refused, naming that key (so the check read this preset)."""

    def layered(preset, misspell=False):
        layers = [yaml.safe_load(preset.read_text())]
        for base in reversed(LAYERED.get(preset.stem, ())):  # layered over other presets
            layers.insert(0, yaml.safe_load((REPO / "presets" / f"{base}.yaml").read_text()))
        if misspell:
            first = next(iter(layers[-1]))
            layers[-1] = {f"{first}_x": layers[-1][first]}
        config = merged(BASE, {})
        for layer in layers:
            config = merged(config, layer)
        return config

    folders = {}
    for preset in sorted((REPO / "presets").glob("*.yaml")):
        config = layered(preset)
        checks.check_schema(config, SCHEMA)
        checks.with_defaults(config, SCHEMA)
        paper_layer = preset.stem in PAPER_LAYERS
        assert (config["results_dir"] == BASE["results_dir"]) == paper_layer, preset.stem
        folders.setdefault(config["results_dir"], []).append(preset.stem)
        first = next(iter(yaml.safe_load(preset.read_text())))
        with pytest.raises(checks.ConfigError, match=f"{first}_x"):
            checks.check_schema(layered(preset, misspell=True), SCHEMA)
    # a preset layered over another (a published variant of it) may share that one's folder
    for names in folders.values():
        names = [n for n in names if n not in PAPER_LAYERS]
        assert len(set(names) - set(LAYERED)) <= 1, names


def test_defaults_are_filled_as_the_schema_gives_them():
    config = run_checks({})
    assert config["learned"]["fvu_max"] == 0.1 and config["verdicts"]["power"] == 0.8
    assert config["tasks"]["sine"]["generator"]  # the module's defaults, filled in


def test_a_misspelt_key_names_the_closest_valid_ones():
    with pytest.raises(checks.ConfigError, match=r"tasks.sine.trainig: .*close: \['training'\]"):
        run_checks({"tasks": {"sine": {"trainig": {"lr": 0.1}}}})


def test_a_preset_with_a_yaml_syntax_error_names_file_and_line(tmp_path):
    (tmp_path / "broken.yaml").write_text("tasks:\n  copy: {sizes: [16\n")
    with pytest.raises(checks.ConfigError, match="(?s)broken.yaml is not valid YAML.*line 3"):
        checks.read_preset("broken", tmp_path)
    with pytest.raises(checks.ConfigError, match="no file .*nosuch.yaml .*'broken'"):
        checks.read_preset("nosuch", tmp_path)


def test_a_variation_changes_its_tasks_in_order_task_variation_per_task():
    config = run_checks(
        yaml.safe_load(
            "gap_study:\n  run: [v]\n  variations:\n    v:\n      description: d\n"
            "      tasks: [sine, flip_flop]\n      training: {lr: 0.01, keep_best: false}\n"
            "      per_task: {sine: {training: {lr: 0.02}, heldout_generator: {length: 60}}}\n"
            "      evaluation: {hidden_noise: 0.05}\n"
        )
    )
    generator, training = instances.gap_training(config, "v", "sine")
    assert training["lr"] == 0.02 and training["keep_best"] is False
    assert training["batch_size"] == config["tasks"]["sine"]["training"]["batch_size"]
    assert generator["length"] == config["tasks"]["sine"]["generator"]["length"]  # trains as before
    assert instances.gap_training(config, "v", "flip_flop")[1]["lr"] == 0.01
    evaluation = instances.gap_evaluation(config, "v", "sine")
    assert evaluation["generator"]["length"] == 60
    assert evaluation["ablation"]["hidden_noise"] == 0.05
    assert evaluation["ablation"]["fvu_mean"] == "pooled"
    assert evaluation["ablation"]["epsilon"] == config["ablation"]["epsilon"]
    flip_flop = instances.gap_evaluation(config, "v", "flip_flop")["generator"]
    assert flip_flop == instances.gap_training(config, "v", "flip_flop")[0]


def test_the_gap_study_is_task_instances_the_ordinary_rules_run():
    config = run_checks(
        yaml.safe_load(
            "run_tasks: [sine, flip_flop]\n"
            "gap_study:\n  run: [v]\n  seeds: [0, 1]\n  variations:\n    v:\n"
            "      description: d\n      tasks: [sine, context_integration]\n"
            "      training: {lr: 0.01}\n      model: {dynamics: leaky, leak: 0.5}\n"
            "      per_task: {sine: {heldout_generator: {length: 60}}}\n"
            "      evaluation: {hidden_noise: 0.05}\n"
        )
    )
    # context_integration is not run: its instance is not made
    assert instances.expand_gap_study(config) == ["sine__v"]
    block, sine = config["tasks"]["sine__v"], config["tasks"]["sine"]
    assert block["stream"] == "sine"  # the seeds of the paper config's sine models
    assert (block["generator"], block["training"]) == instances.gap_training(config, "v", "sine")
    assert block["model"] == config["gap_study"]["variations"]["v"]["model"] != sine["model"]
    assert (block["model"]["dynamics"], block["model"]["leak"]) == ("leaky", 0.5)
    assert block["seeds"] == [0, 1] and block["sizes"] == [max(sine["sizes"])]
    assert block["constructions"] == ["dense_orthogonal"]
    assert block["heldout_generator"]["length"] == 60 and sine["generator"]["length"] != 60
    assert block["ablation"]["hidden_noise"] == 0.05
    none = run_checks(yaml.safe_load("gap_study: {run: none}\n"))
    assert instances.expand_gap_study(none) == []


def test_the_style_parameter_reads_a_style_file_as_written(tmp_path):
    style = tmp_path / "s.mplstyle"
    style.write_text("# a comment\nfont.size: 8  # small\naxes.grid : True\n\nlines.linewidth:\n")
    assert checks.style_settings(style) == {"font.size": "8", "axes.grid": "True"}


def test_the_neurogym_check_cache_is_kept_per_version(tmp_path):
    from importlib.metadata import version

    path = tmp_path / ".snakemake" / "checked.json"
    assert checks.load_checked(path) == {"version": version("neurogym")}  # nothing saved yet
    checks.save_checked(path, {"version": version("neurogym"), "GoNogo-v0 {}": [3, 2]})
    assert checks.load_checked(path)["GoNogo-v0 {}"] == [3, 2]
    path.write_text('{"version": "0.0.1", "GoNogo-v0 {}": [3, 2]}')  # another NeuroGym
    assert checks.load_checked(path) == {"version": version("neurogym")}


def test_non_finite_numbers_are_found_wherever_they_stand():
    from config_checks import non_finite

    key, value = non_finite({"a": 1.0, "b": [0.1, {"c": float("nan")}]})
    assert key == "b.1.c" and value != value  # NaN
    assert non_finite({"x": "nan", "y": [1, 2.5], "z": {"w": True}}) is None
    assert non_finite({"fvu_max": float("-inf")})[0] == "fvu_max"


def test_results_dir_and_device_and_sizes_are_bounded(tmp_path):
    from config_checks import (
        ConfigError,
        check_device,
        check_results_dir,
        check_sizes,
        job_estimate,
    )

    check_results_dir(str(tmp_path / "results"), REPO)
    for bad, words in (
        ("/", "filesystem's root"),
        (str(REPO / "src" / "x"), "src/ folder"),
        ("results\n\n.. raw:: html\n\n   <img src=x onerror=alert(1)>", "control character"),
        ("results/{task}", "brace: the rules would read it as a wildcard"),
    ):
        with pytest.raises(ConfigError, match=words):
            check_results_dir(bad, REPO)
    check_device("cpu", lambda: pytest.fail("asked for CUDA on a CPU config"))
    check_device("cuda:1", lambda: True)
    with pytest.raises(ConfigError, match="device = 'cuda'.*no CUDA"):
        check_device("cuda", lambda: False)
    # 1000 MB up to N_h = 128, growing as N_h^1.5: N_h = 1024 is 1000·8^1.5 ≈ 22,627 MB
    assert job_estimate(1000, 64) == 1000 and job_estimate(1000, 1024) == 22627
    config = {"run_tasks": ["copy"], "tasks": {"copy": {"sizes": [72, 1024]}}}
    check_sizes(config | {"max_job_mem_mb": 24000})
    with pytest.raises(ConfigError, match="tasks.copy.sizes has N_h = 1024: .* 22627 MB"):
        check_sizes(config | {"max_job_mem_mb": 20000})


def test_the_report_builds_no_text_from_the_config():
    """The report's description rendered as Snakemake renders it (Jinja, then docutils) with
    every string of the config a payload: no raw HTML, no script and no javascript: link
    reaches the page; only numbers of the config are shown."""
    import jinja2
    from docutils.core import publish_parts

    payload = "javascript:alert(1)\n\n.. raw:: html\n\n   <img src=x onerror=alert(1)>\n"
    config = {"results_dir": payload, "alpha": 0.9, "alpha_grid": [0.85, 0.9, 0.95]}
    config |= {"preset": payload, "run_tasks": [payload]}
    template = (REPO / "workflow" / "report" / "workflow.rst").read_text()
    text = jinja2.Template(template).render(snakemake=type("S", (), {"config": config}))
    page = publish_parts(text, writer_name="html")["html_body"]
    for bad in ("<img", "onerror", "javascript:", "<script"):
        assert bad not in page, bad
    assert "α=0.9" in page and "0.85, 0.9, 0.95" in page


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_results_dir_that_cannot_be_written_is_named(tmp_path):
    from config_checks import ConfigError, check_results_dir

    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(ConfigError, match=f"{locked} cannot be written"):
            check_results_dir(str(locked / "results"), REPO)
    finally:
        locked.chmod(0o755)


def test_a_yaml_alias_bomb_is_walked_once_per_container_and_refused_by_its_key():
    """Nine levels of ten aliases (a billion leaves when expanded, 536 bytes of YAML) under
    an unknown key: refused naming the key; the walk for NaN meets each shared container once
    (a planted counting list, shared 100 ways, is iterated once)."""
    levels = ["a0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"]
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    bomb = yaml.safe_load("bomb:\n" + "\n".join(f"  {line}" for line in levels))
    with pytest.raises(checks.ConfigError, match="config key bomb: not a key here"):
        checks.check_schema(merged(BASE, bomb), SCHEMA)

    class Counted(list):
        iterations = 0

        def __iter__(self):
            Counted.iterations += 1
            return super().__iter__()

    inner = Counted([1.0, 2.0])
    middle = [inner] * 10
    assert checks.non_finite({"x": [middle] * 10}) is None
    assert Counted.iterations == 1


def test_a_key_given_twice_is_refused_naming_it_its_line_and_its_file(tmp_path):
    twice = tmp_path / "twice.yaml"
    twice.write_text("tasks:\n  copy:\n    seeds: [0]\n    sizes: [8]\n    seeds: [1]\n")
    with pytest.raises(checks.ConfigError, match=r"twice.yaml, line 5: config key 'seeds' is"):
        checks.check_config_files([twice])
    (tmp_path / "p.yaml").write_text("alpha: 0.9\nresults_dir: a\nresults_dir: b\n")
    with pytest.raises(checks.ConfigError, match="line 3: config key 'results_dir' is given"):
        checks.read_preset("p", tmp_path)
    merged_keys = tmp_path / "merge.yaml"  # a merge key and a key that overrides a merged one
    merged_keys.write_text("base: &b {lr: 0.1, steps: 2}\nrun:\n  <<: *b\n  lr: 0.2\n")
    assert checks.read_yaml(merged_keys)["run"] == {"lr": 0.2, "steps": 2}
    for preset in sorted((REPO / "presets").glob("*.yaml")):  # every preset reads strictly
        checks.read_yaml(preset)
    once = tmp_path / "once.yaml"
    once.write_text("tasks:\n  copy: {seeds: [0]}\n  sine: {seeds: [0]}\n")
    checks.check_config_files([once])  # the same key in two mappings is no repeat
    assert checks.read_yaml(once) == {"tasks": {"copy": {"seeds": [0]}, "sine": {"seeds": [0]}}}


def test_a_config_is_sized_with_its_aliases_expanded_in_linear_time():
    """Planted: 9 levels of 10 aliases (10^9 values once expanded, 10 lines of YAML) inside a
    NeuroGym task's kwargs: refused naming the key, in well under a second; a container that
    holds itself is sized once; the paper's config is far below the cap."""
    import time

    levels = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefghi", "bcdefghij", strict=True)
    )
    kwargs = yaml.safe_load(levels)
    config = {"tasks": {"pdm": {"neurogym": {"env": "X", "kwargs": kwargs}}}}
    assert checks.expanded_size(kwargs["j"]) == sum(10**k for k in range(11))
    start = time.perf_counter()
    with pytest.raises(checks.ConfigError, match=r"tasks\.pdm\.neurogym\.kwargs\.e expands"):
        checks.check_size(config)
    assert time.perf_counter() - start < 1.0
    looped: list = []
    looped.append(looped)
    assert checks.expanded_size(looped) == 2
    checks.check_size(merged(BASE, QUICK))  # the paper's config with the quick preset: passes


def test_an_external_model_too_large_for_max_job_mem_mb_is_refused_naming_both(
    tmp_path, monkeypatch
):
    """N_h = 2000: its per-model jobs would declare 1000·(2000/128)^1.5 = 61,763 MB, above the
    default max_job_mem_mb = 24,000; refused naming the entry's key and the bound. The command
    warns before it reads the held-out set (the progress line comes first)."""
    import numpy as np

    import rnnschur

    weights = tmp_path / "big.npz"
    arrays = {
        "W_xh": np.zeros((2000, 1)),
        "W_hh": np.zeros((2000, 2000)),
        "W_hy": np.zeros((1, 2000)),
    }
    np.savez(weights, **arrays)
    entry = {"weights": str(weights), "heldout": "h.npz", "score": "fvu"}
    config = {
        "external_models": {"big": entry},
        "max_job_mem_mb": 24000,
        "tasks": {},
        "ablation": {},
    }
    with pytest.raises(checks.ConfigError) as refused:
        instances.expand_external(config)
    assert str(refused.value) == (
        "config key external_models.big.weights holds N_h = 2000: its per-model jobs would "
        "declare mem_mb = 61763, above max_job_mem_mb = 24000 (raise it for a larger machine)"
    )
    instances.expand_external(config | {"max_job_mem_mb": 61763})  # at the bound: taken
    # planned from the recurrent matrix's header alone: the file's arrays are never loaded
    loads = []
    original = np.lib.format.read_array
    monkeypatch.setattr(
        np.lib.format, "read_array", lambda *a, **k: loads.append(1) or original(*a, **k)
    )
    instances.expand_external(config | {"max_job_mem_mb": 61763})
    assert loads == []

    said = []

    def progress(line):
        said.append(line)
        raise InterruptedError  # stop here: nothing has run yet

    with pytest.raises(InterruptedError):
        rnnschur.analyse(weights, tmp_path / "absent.npz", progress=progress)
    assert said == [
        "WARNING: N_h = 2000: one model this size takes about 61763 MB by the workflow's "
        "estimate, above max_job_mem_mb = 24000 (config key max_job_mem_mb; the workflow "
        "refuses it): the analysis may run for many minutes or swap"
    ]


def test_a_held_out_set_too_large_for_one_job_is_refused_naming_its_key():
    """The flip-flop task's 25-step trials at N_h = 64: 10 bytes an entry, so 24,000 MB hold
    24,000 · 2^20 / (10 · 25 · 64) = 1,572,864 trials; one more is refused."""
    settings = {"sizes": [64], "n_heldout": 1_572_864, "generator": {}}
    config = {"max_job_mem_mb": 24000, "run_tasks": ["flip_flop"], "tasks": {"flip_flop": settings}}
    checks.check_sizes(config)
    settings["n_heldout"] += 10_000
    with pytest.raises(checks.ConfigError, match="config key tasks.flip_flop.n_heldout = 1582864"):
        checks.check_sizes(config)
