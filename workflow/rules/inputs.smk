# The input functions and file lists of the stages (the rules are in their stage files;
# Snakemake's lint keeps functions apart from rules), after common.smk's config access.


# train


MODEL_FILES = {
    "weights": "weights.npz",
    "meta": "meta.json",
    "log_csv": "train_log.csv",
    "checkpoints": "checkpoints.npz",
}
"""The files of one trained model, under results/models/{MODEL}/."""


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


# beyond


def beyond_analyses():
    """The beyond-the-paper analyses this run makes (config keys beyond_analyses and
    beyond_models), in the registry's order."""
    if config["beyond_models"] == "none":
        return []
    chosen = config["beyond_analyses"]
    return [name for name in ANALYSES if chosen == "all" or name in chosen]


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


def summary_settings(name):
    """What the summary of analysis ``name`` reads of the config: its own settings and the
    shared ones its registry entry's ``summary_uses`` names."""
    shared = {
        "verdicts": verdict_settings(),
        "learned": learned_criteria(),
        "min_models": config["learned"]["min_models"],
    }
    uses = ANALYSES[name].summary_uses
    return {**config.get(name, {}), **{key: shared[key] for key in uses}}


def beyond_files(pattern):
    """``pattern`` for the models of the beyond-the-paper analyses (config key beyond_models)."""
    if config["beyond_models"] == "all":
        return model_files(pattern)
    if config["beyond_models"] == "representative":
        return representative_files(pattern)
    return []


# fidelity


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


# external


def external_files(names):
    """{key: path} of an external model's files ``names`` (declared once, in rnnschur.external:
    TABLE_NAMES, FIGURE_NAMES, SUMMARY_NAMES for its three jobs)."""
    return {name.replace(".", "_"): f"{R}/external/{{name}}/{name}" for name in names}


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


EXTERNAL_FILES = external_files(EXTERNAL_OUTPUT_NAMES)
