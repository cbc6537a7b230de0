# Config loading and validation (the checks are rnnschur.config's), config access, target lists
# and wildcard constraints.
import json
import os
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import update_config, validate

# The workflow's own folder (presets, src, style): every path the workflow reads from its own tree
# starts here, so it runs with -s/-d from any folder and as a Snakemake module.
ROOT = Path(workflow.current_basedir).parents[1]

# The library in src/ is importable by every job, also in the rules' conda environments and on
# cluster nodes (jobs inherit this environment); an installed rnnschur is used when src/ is absent.
os.environ.update(
    PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
)


# The registries of tasks, constructions and beyond-the-paper analyses (light imports: NumPy).
sys.path.insert(0, str(ROOT / "src"))
from rnnschur import tasks as task_registry  # noqa: E402
from rnnschur.config import (  # noqa: E402
    ConfigError,
    check_neurogym,
    check_schema,
    read_preset,
    read_schema,
)
from rnnschur.config import check as check_config  # noqa: E402
from rnnschur import config as config_lib  # noqa: E402

# The shared matplotlib style, as a parameter of every figure rule.
STYLE = config_lib.style_settings(ROOT / "workflow" / "style.mplstyle")
from rnnschur.beyond.registry import ANALYSES  # noqa: E402
from rnnschur.training.constructions import CONSTRUCTIONS  # noqa: E402
from rnnschur import external as external_names  # noqa: E402
from rnnschur.external import OUTPUT_NAMES as EXTERNAL_OUTPUT_NAMES  # noqa: E402
from rnnschur.report.registry import FIGURES as FIGURE_REGISTRY  # noqa: E402
from rnnschur.training.numerics import job_environment  # noqa: E402
from rnnschur.tasks import _neurogym as neurogym_specs  # noqa: E402

sys.path.insert(0, str(ROOT / "workflow" / "lib"))
from code_fingerprint import fingerprint  # noqa: E402

FIGURE_MODULE = "rnnschur.report.figures"
LIBRARY = Path(task_registry.__file__).resolve().parents[2]  # the rnnschur the jobs import


def code(script, task=None, functions=()):
    """The fingerprint of the library code a rule's ``script`` runs (workflow/lib/
    code_fingerprint.py), a param of every rule: an edit of that code reruns the rule's jobs.
    ``task``: its generator module counts too (the registry imports it by name); ``functions``:
    of the figures module, only these functions count (one figure's edit reruns that figure)."""
    extra = ()
    if task is not None:
        name = task_registry.task_of(task)
        extra = (
            (
                f"rnnschur.tasks.{name}"
                if name in task_registry.names()
                else "rnnschur.tasks._neurogym"
            ),
        )
    return fingerprint(
        ROOT / "workflow" / "scripts" / script,
        LIBRARY,
        extra,
        tuple((FIGURE_MODULE, f) for f in functions),
    )


# Snakemake's scheduler starts one more 1-s wake-up timer per finished job (workflow/lib): keep
# one, so that the snakemake process does not take CPU time from the jobs; only where this is the
# main workflow (a host that uses it as a module runs its own scheduler as it chooses).
if Path(workflow.main_snakefile).resolve() == (ROOT / "Snakefile").resolve():
    import snakemake  # noqa: E402

    import snakemake_scheduler  # noqa: E402

    snakemake_scheduler.apply(snakemake.__version__)


def config_checked(check, *args):
    """``check(*args)``, its rnnschur.config.ConfigError as Snakemake's WorkflowError: one line
    naming the key, before any job starts."""
    try:
        return check(*args)
    except ConfigError as error:
        raise WorkflowError(str(error)) from None


# `--config preset=quick` layers presets/quick.yaml over config.yaml; the command line still wins.
if config.get("preset"):
    update_config(config, config_checked(read_preset, config["preset"], ROOT / "presets"))
    update_config(config, workflow.config_settings.overwrite_config)
SCHEMA = read_schema(ROOT / "workflow" / "schemas" / "config.schema.yaml")
config_checked(check_schema, config, SCHEMA)  # one line naming the key (and close ones)
validate(config, "../schemas/config.schema.yaml")  # fills in the schema's defaults
# The coupling atlas: one task block per task and network description (run_tasks becomes them).
if config.get("atlas"):
    config_checked(config_lib.expand_atlas, config)
    validate(config, "../schemas/config.schema.yaml")  # the new blocks' defaults

# Portable bits (config key numerics): every job, local or on a cluster node, inherits the pinned
# kernel choice from this environment (a library reads it when a job's process loads it).
os.environ.update(job_environment(config["numerics"]))


def cuda_available():
    """Whether torch sees a CUDA device (imported only for a CUDA config: torch costs 1.3 s)."""
    import torch

    return torch.cuda.is_available()


config_checked(config_lib.check_results_dir, config["results_dir"], ROOT)
if config["check_device"]:
    config_checked(config_lib.check_device, config["device"], cuda_available)
R = config["results_dir"].rstrip("/")
GPUS_PER_TRAINING = 1 if config["device"].startswith("cuda") else 0


def per_model(base):
    """A per-model job's resource (mem_mb or runtime in minutes) for its N_h
    (rnnschur.config.job_estimate)."""
    return lambda wildcards: config_lib.job_estimate(base, int(wildcards.size))


TASKS = config["run_tasks"]


# NeuroGym envs already checked in this working directory, with their (N_x, N_y), per NeuroGym
# version: a dry run need not import NeuroGym again.
NEUROGYM_CHECKED = Path(".snakemake") / "rnnschur_neurogym_checked.json"


def _neurogym_tasks():
    """Check each task that comes from NeuroGym (tasks.<name>.neurogym) and pass them to every
    job (rnnschur.tasks._neurogym.SPECS_VARIABLE); NeuroGym is imported here only if the
    config names one, and only for an env not checked before in this working directory."""
    blocks = [t for t, s in config["tasks"].items() if "neurogym" in s]
    checked = config_lib.load_checked(NEUROGYM_CHECKED) if blocks else {}

    def check_env(env, kwargs):
        from rnnschur.tasks._neurogym import check  # imports NeuroGym: a second or two

        return check(env, kwargs)

    specs = config_checked(check_neurogym, config, check_env, checked)
    if blocks:
        config_lib.save_checked(NEUROGYM_CHECKED, checked)
    os.environ[neurogym_specs.SPECS_VARIABLE] = json.dumps(specs, sort_keys=True)
    return list(specs)


NEUROGYM_TASKS = _neurogym_tasks()


config_checked(check_config, config, SCHEMA, NEUROGYM_TASKS)
# Tasks scored by FVU (Figure 2 and the example rollouts): the paper's neuroscience tasks and any
# task added with SCORE = "fvu".
FVU_TASKS = [t for t in TASKS if task_registry.get(t).SCORE == "fvu"]


def task_config(task):
    return config["tasks"][task]


def trial_source(task):
    """What draws a task's trials, in the params of its data and training jobs (a change of it
    reruns them): its generator's settings, or a NeuroGym task's env and kwargs (which its
    generate and dims take and ignore; the analysis jobs know the task from NEUROGYM_TASKS)."""
    if task in NEUROGYM_TASKS:
        return {"neurogym": task_config(task)["neurogym"]}
    return task_config(task)["generator"]


def learned_criteria():
    """{task: criterion of learned} (rnnschur.learned: the top-level learned block, then the
    task's own)."""
    shared = {k: v for k, v in config["learned"].items() if k != "min_models"}
    return {t: {**shared, **s.get("learned", {})} for t, s in config["tasks"].items()}


def verdict_settings():
    """rnnschur.verdicts.Thresholds of every verdict (config verdicts, ablation.mass_floor)."""
    return {**config["verdicts"], "mass_floor": config["ablation"]["mass_floor"]}


def training_settings(task, construction):
    """The task's training settings with the construction's overrides applied."""
    return config_lib.training_settings(config, task, construction)


def training_bundles():
    """(task, construction, N_h, block, seeds) of every training job: a task's seeds in blocks
    by value, block b holding seeds b*K to b*K + K - 1 (K = config training_bundle), so that a
    new seed changes one block only."""
    K = config["training_bundle"]
    bundles = []
    for task in TASKS:
        settings = task_config(task)
        blocks = {}
        for seed in sorted(settings["seeds"]):
            blocks.setdefault(seed // K, []).append(seed)
        for construction in settings["constructions"]:
            for size in settings["sizes"]:
                bundles += [(task, construction, size, b, s) for b, s in sorted(blocks.items())]
    return bundles


def bundle_resource(base, size, n_models):
    """A bundle's resource: ``base`` per model (per_model's growth with N_h) times its models."""
    return config_lib.job_estimate(base, size, n_models)


def trained_model_files(task, construction, size, seeds):
    """{output key: path} of every model file of a bundle (key: kind and seed)."""
    model = f"{R}/models/{task}/{construction}/n{size}"
    return {
        f"{kind}_{seed}": f"{model}/seed{seed}/{name}"
        for seed in seeds
        for kind, name in MODEL_FILES.items()
    }


def fidelity_bundles():
    """(variation, task, block, seeds) of every training job of the gap study: its seeds in
    blocks by value, as the main models' (config training_bundle)."""
    K = config["training_bundle"]
    out = []
    for name, variation in fidelity_variations().items():
        blocks = {}
        for seed in sorted(variation_seeds(name)):
            blocks.setdefault(seed // K, []).append(seed)
        out += [
            (name, task, block, seeds)
            for task in variation["tasks"]
            if task in TASKS
            for block, seeds in sorted(blocks.items())
        ]
    return out


def models(task):
    """(construction, size, seed) of every model of a task."""
    c = task_config(task)
    return [(k, n, s) for k in c["constructions"] for n in c["sizes"] for s in c["seeds"]]


def model_files(pattern, tasks=None):
    """``pattern`` with {task}, {construction}, {size}, {seed} filled for every model."""
    return [
        pattern.format(task=t, construction=k, size=n, seed=s)
        for t in (TASKS if tasks is None else tasks)
        for k, n, s in models(t)
    ]


def representative_models(tasks=None):
    """Per task and construction: the largest N_h and the first seed."""
    return [
        (t, k, max(task_config(t)["sizes"]), task_config(t)["seeds"][0])
        for t in (TASKS if tasks is None else tasks)
        for k in task_config(t)["constructions"]
    ]


def representative_files(pattern, tasks=None):
    """``pattern`` with {task}, {construction}, {size}, {seed} filled for each representative."""
    return [
        pattern.format(task=t, construction=k, size=n, seed=s)
        for t, k, n, s in representative_models(tasks)
    ]


def beyond_files(pattern):
    """``pattern`` for the models of the beyond-the-paper analyses (config key beyond_models)."""
    if config["beyond_models"] == "all":
        return model_files(pattern)
    if config["beyond_models"] == "representative":
        return representative_files(pattern)
    return []


MODEL = "{task}/{construction}/n{size}/seed{seed}"
MODEL_FILES = {
    "weights": "weights.npz",
    "meta": "meta.json",
    "log_csv": "train_log.csv",
    "checkpoints": "checkpoints.npz",
}
"""The files of one trained model, under results/models/{MODEL}/."""


def external_files(names):
    """{key: path} of an external model's files ``names`` (declared once, in rnnschur.external:
    TABLE_NAMES, FIGURE_NAMES, SUMMARY_NAMES for its three jobs)."""
    return {name.replace(".", "_"): f"{R}/external/{{name}}/{name}" for name in names}


EXTERNAL_FILES = external_files(EXTERNAL_OUTPUT_NAMES)


def external_settings(name):
    """rnnschur.external.analysis.Settings of an external model, from its entry and the shared keys."""
    return {
        "score": config["external_models"][name]["score"],
        "alpha": config["alpha"],
        "alpha_grid": tuple(config["alpha_grid"]),
        "epsilon": config["ablation"]["epsilon"],
        "mass_floor": config["ablation"]["mass_floor"],
        "threshold": config["verdicts"]["threshold"],
        "subspace_components": config["subspace_control"]["n_components"],
        "subspace_draws": config["subspace_control"]["n_draws"],
        "seed": config["base_seed"],
    }


def fidelity_model(task):
    """(construction, N_h) of the gap study's models of a task (rnnschur.config.gap_model)."""
    return config_lib.gap_model(config, task)


def fidelity_files(pattern):
    """``pattern`` with {variation}, {task}, {seed} filled for every model of the gap study."""
    return [
        pattern.format(variation=name, task=task, seed=seed)
        for name, variation in fidelity_variations().items()
        for task in variation["tasks"]
        if task in TASKS
        for seed in variation_seeds(name)
    ]


def variation_seeds(name):
    """The seeds of a variation: its own (a combination confirmed on fresh seeds), else the
    study's (config fidelity.seeds)."""
    return config["fidelity"]["variations"][name].get("seeds", config["fidelity"]["seeds"])


def fidelity_variations():
    """The variations of the gap study to run (config keys fidelity.variations, fidelity.run)."""
    run = config["fidelity"]["run"]
    variations = config["fidelity"]["variations"]
    if run == "none":
        return {}
    return variations if run == "all" else {k: variations[k] for k in run}


def fidelity_settings(variation, task):
    """(generator, training settings) of a variation's model of a task."""
    return config_lib.gap_training(config, variation, task)


def fidelity_evaluation(variation, task):
    """The held-out generator and the ablation settings of a variation's model of a task."""
    return config_lib.gap_evaluation(config, variation, task)


def fidelity_network(variation, task):
    """The network family of a variation's model of a task (its own, else the task's)."""
    return config["fidelity"]["variations"][variation].get("model", task_config(task)["model"])


def analysis_settings(name, task):
    """What one job of analysis ``name`` reads of the config: its own settings (config key
    ``name``) and the shared ones its registry entry uses."""
    shared = {
        "alpha": config["alpha"],
        "ablation": config["ablation"],
        "base_seed": config["base_seed"],
        "generator": task_config(task)["generator"],
        "checkpoints": task_config(task)["checkpoints"],
        "schur_split": config["schur_split"],
    }
    return {**config.get(name, {}), **{key: shared[key] for key in ANALYSES[name].uses}}


TABLES = f"{R}/tables"
FIGURES = f"{R}/figures"


def figure_names():
    """The figures this run draws: each of the registry's whose need the run meets, and one per
    beyond-the-paper analysis where they run."""
    meets = {
        "models": True,
        "copy": "copy" in TASKS,
        "fvu": bool(FVU_TASKS),
        "gap study": bool(fidelity_files("{variation}{task}{seed}")),
        "atlas": bool(config.get("atlas")),
    }
    names = [name for name, figure in FIGURE_REGISTRY.items() if meets[figure.needs]]
    if config["beyond_models"] != "none":
        names += [f"fig_{name}" for name in ANALYSES]
    return names


def all_targets():
    external = [
        EXTERNAL_FILES[key].format(name=name)
        for name in config["external_models"]
        for key in ("summary_md", "summary_html", "profile_pdf")
    ]
    if not TASKS:
        return external
    tables = ["ablation.csv", "models.csv", "paper_vs_reproduced.csv", "paper_vs_reproduced.md"]
    tables += ["claims.csv", "claims.md", "claims_by_size.csv", "claims_by_size.md"]
    tables += ["claims_sensitivity.md", "paper_readings.csv", "paper_readings.md"]
    tables += ["block_profile.csv", "block_profile.md", "block_profile_sensitivity.md"]
    if fidelity_files("{variation}{task}{seed}"):
        tables += [
            f"gap_{name}.{ext}"
            for name in ("attribution", "claims", "ranking")
            for ext in ("csv", "md")
        ]
    if "copy" in TASKS:
        tables += ["table1.csv", "table1.md"]
    if config.get("atlas"):
        tables += ["atlas.csv", "atlas.md", "atlas_readings.md"]
    if config["beyond_models"] != "none":
        for name, analysis in ANALYSES.items():
            tables += [f"{name}_summary.csv", f"{name}_summary.md"]
            tables += [f"{name}_{key}.csv" for key in analysis.tables]
    return (
        [f"{TABLES}/{t}" for t in tables]
        + [f"{FIGURES}/{name}.{ext}" for name in figure_names() for ext in ("pdf", "png")]
        + ([f"{R}/atlas.html"] if config.get("atlas") else [])  # the atlas's one page
        + external
    )


wildcard_constraints:
    task="|".join(dict.fromkeys(task_registry.names() + tuple(NEUROGYM_TASKS) + tuple(TASKS))),
    construction="|".join(CONSTRUCTIONS),
    size=r"\d+",
    seed=r"\d+",
    variation=r"[A-Za-z0-9_]+",
    name=r"[A-Za-z0-9_]+",
