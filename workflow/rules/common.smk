# Config access, target lists and wildcard constraints (nothing else).
from snakemake.exceptions import WorkflowError

R = config["results_dir"].rstrip("/")
TASKS = config["run_tasks"]
NEURO_TASKS = [t for t in TASKS if t != "copy"]


def _check_config():
    """Checks across keys that the JSON schema cannot express."""
    missing = [t for t in TASKS if t not in config["tasks"]]
    if missing:
        raise WorkflowError(f"config key run_tasks names {missing}, but tasks.{missing[0]} is missing")
    if config["alpha"] not in config["alpha_grid"]:
        raise WorkflowError(
            f"config key alpha = {config['alpha']} must be one of alpha_grid {config['alpha_grid']}"
        )
    for task in TASKS:
        settings = config["tasks"][task]
        unused = set(settings["training_overrides"]) - set(settings["constructions"])
        if unused:
            raise WorkflowError(
                f"config key tasks.{task}.training_overrides names {sorted(unused)}, "
                f"which is not in tasks.{task}.constructions"
            )


_check_config()


def task_config(task):
    return config["tasks"][task]


def training_settings(task, construction):
    """The task's training settings with the construction's overrides applied."""
    settings = dict(task_config(task)["training"])
    settings.update(task_config(task)["training_overrides"].get(construction, {}))
    return settings


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


def representative_models():
    """Per task and construction: the largest N_h and the first seed."""
    return [
        (t, k, max(task_config(t)["sizes"]), task_config(t)["seeds"][0])
        for t in TASKS
        for k in task_config(t)["constructions"]
    ]


MODEL = "{task}/{construction}/n{size}/seed{seed}"
TABLES = f"{R}/tables"
FIGURES = f"{R}/figures"


def figure_names():
    names = ["fig_schur_spectra", "fig_training_curves"]
    if "copy" in TASKS:
        names.append("fig1_copy_ablation")
    if NEURO_TASKS:
        names += ["fig2_neuro_ablation", "fig_task_rollouts"]
    return names


def all_targets():
    tables = ["ablation.csv", "models.csv", "paper_vs_reproduced.csv", "paper_vs_reproduced.md"]
    if "copy" in TASKS:
        tables += ["table1.csv", "table1.md"]
    return [f"{TABLES}/{t}" for t in tables] + [
        f"{FIGURES}/{name}.{ext}" for name in figure_names() for ext in ("pdf", "png")
    ]


wildcard_constraints:
    task="|".join(["copy", "flip_flop", "sine", "context_integration"]),
    construction="|".join(["dense_default", "dense_orthogonal", "dense_normal", "cayley"]),
    size=r"\d+",
    seed=r"\d+",
