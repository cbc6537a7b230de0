"""A wrong config is refused before any job starts, with a message naming the key."""

import pytest

from conftest import copy_workflow, snakemake

pytestmark = pytest.mark.workflow

CASES = [
    # (name, extra config file, text expected in the message)
    ("unknown key", "alhpa: 0.9\n", "'alhpa' was unexpected"),
    ("wrong type", "alpha: high\n", "instance['alpha']"),
    ("alpha zero", "alpha: 0\nalpha_grid: [0, 0.9]\n", "alpha"),
    ("alpha above one", "alpha: 1.5\n", "instance['alpha']"),
    ("empty alpha grid", "alpha_grid: []\n", "instance['alpha_grid']"),
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
    ("negative seed", "tasks:\n  copy:\n    seeds: [-1]\n", "['seeds'][0]"),
    ("duplicate seeds", "tasks:\n  copy:\n    seeds: [0, 0]\n", "['seeds']"),
    ("zero steps", "tasks:\n  copy:\n    training: {max_steps: 0}\n", "['max_steps']"),
    ("lr zero", "tasks:\n  sine:\n    training: {lr: 0}\n", "['lr']"),
    ("lr negative", "tasks:\n  sine:\n    training: {lr: -0.1}\n", "['lr']"),
    ("size below two", "tasks:\n  flip_flop:\n    sizes: [1]\n", "['sizes'][0]"),
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
    ("unknown device", "device: gpu\n", "instance['device']"),
    ("unknown beyond_models", "beyond_models: some\n", "instance['beyond_models']"),
    (
        "more principal components than units",
        "subspace_control: {n_components: 16}\n",
        "config key subspace_control.n_components = 16 must be below every N_h",
    ),
    ("refit grid empty", "readout_refit: {ridge_grid: []}\n", "['ridge_grid']"),
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
    ("claims level of one", "claims: {level: 1}\n", "['level']"),
    (
        "variation changing an unknown training key",
        "fidelity:\n  variations:\n    v: {description: d, tasks: [sine], training: {lrate: 1}}\n",
        "'lrate' was unexpected",
    ),
    (
        "variation with a generator key its task lacks",
        "fidelity:\n  variations:\n    v: {description: d, tasks: [sine], generator: {bits: 2}}\n",
        "config key fidelity.variations.v does not fit tasks.sine",
    ),
    (
        "variation for an unknown task",
        "fidelity:\n  variations:\n    v: {description: d, tasks: [parity]}\n",
        "config key fidelity.variations.v.tasks names the unknown task 'parity'",
    ),
    (
        "fidelity run names an unknown variation",
        "fidelity: {run: [nosuch]}\n",
        "fidelity.run names ['nosuch']",
    ),
    (
        "external model without its held-out set",
        "external_models:\n  m: {weights: w.npz}\n",
        "'heldout' is a required property",
    ),
    ("unknown io_init", "tasks:\n  sine:\n    training: {io_init: xavier}\n", "['io_init']"),
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
        "['leak']",
    ),
    (
        "a discrete network with a leak",
        "tasks:\n  sine:\n    model: {dynamics: discrete, leak: 0.2}\n",
        "config key tasks.sine.model: discrete dynamics have leak 1",
    ),
    (
        "an unknown nonlinearity",
        "tasks:\n  sine:\n    model: {nonlinearity: sigmoid}\n",
        "['nonlinearity']",
    ),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("bad_config"))


@pytest.mark.parametrize("name, text, expected", CASES, ids=[c[0] for c in CASES])
def test_refused_before_any_job(folder, name, text, expected):
    (folder / "extra.yaml").write_text(text)
    result = snakemake(folder, "-c1", "--configfile", "presets/quick.yaml", "extra.yaml")
    assert result.returncode != 0
    assert expected in result.stdout, result.stdout[-3000:]
    assert "Finished jobid" not in result.stdout
    assert not (folder / "results").exists()


def test_task_missing_its_settings(tmp_path):
    folder = copy_workflow(tmp_path)
    config = (folder / "config.yaml").read_text()
    head, _, _ = config.partition("  flip_flop:")
    (folder / "config.yaml").write_text(head)  # only the copy task is configured
    result = snakemake(folder, "-n", "--config", "results_dir=results/x")
    assert result.returncode != 0
    assert "run_tasks names ['flip_flop', 'sine', 'context_integration']" in result.stdout
    assert "tasks.flip_flop is missing" in result.stdout


def test_preset_with_a_yaml_syntax_error(folder):
    (folder / "presets" / "broken.yaml").write_text("tasks:\n  copy: {sizes: [16\n")
    result = snakemake(folder, "-n", "--config", "preset=broken")
    assert result.returncode != 0
    assert "presets/broken.yaml is not valid YAML" in result.stdout  # read from the workflow
    assert "line 3" in result.stdout, result.stdout[-2000:]
    missing = snakemake(folder, "-n", "--config", "preset=nosuch")
    assert "config key preset = 'nosuch': no file " in missing.stdout
    assert f"{folder}/presets/nosuch.yaml" in missing.stdout
    assert "quick" in missing.stdout


def test_preset_key_layers_the_preset_and_the_command_line_wins(folder):
    result = snakemake(folder, "-n", "--config", "preset=quick", "results_dir=results/other")
    assert result.returncode == 0, result.stdout[-2000:]
    assert "results/other/models/copy/cayley/n16/seed1/weights.npz" in result.stdout
    assert "n72" not in result.stdout
