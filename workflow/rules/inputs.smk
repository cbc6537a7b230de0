# The input functions and file lists of the stages (the rules are in their stage files;
# Snakemake's lint keeps functions apart from rules), after common.smk's config access.


# per task: what its data, training and ablation jobs read of its block


def heldout_source(task):
    """What draws a task's held-out trials: its trial source, or a gap-study instance's own
    held-out generator (config gap_study.variations.<v>.heldout_generator)."""
    return task_config(task).get("heldout_generator") or trial_source(task)


def ablation_settings(task):
    """How a task's models are ablated and scored (config ablation), or a gap-study instance's
    own (its variation's evaluation: hidden noise, the FVU's mean and steps)."""
    return task_config(task).get("ablation", config["ablation"])


def stream(task):
    """The name of a task's random stream: its own, or for a gap-study instance its task's (the
    paper config's model of a seed and its variations draw the same)."""
    return task_config(task).get("stream", task)


# train


def trains_on_drawn_trials(task):
    """Whether a task's models train on trials drawn once per task and seed (rule
    training_trials): a NeuroGym task's, whose drawing costs several times a training step;
    the generator tasks draw each batch from the model's own stream, as the paper's models do."""
    return task in NEUROGYM_TASKS


def training_trials_n(source):
    """How many trials the training_trials job of the task ``source`` draws: the most that any
    model of it (an instance's too) trains on: (train_set_batches or max_steps) x batch_size.
    A larger budget extends the set, whose first trials stay the same."""
    budgets = [
        (settings.get("train_set_batches") or settings["max_steps"]) * settings["batch_size"]
        for task in TASKS + GAP_STUDY
        if trains_on_drawn_trials(task) and task_registry.task_of(task) == source
        for construction in task_config(task)["constructions"]
        for settings in [training_settings(task, construction)]
    ]
    return max(budgets)


def training_trial_files(task, seeds):
    """{trials_<seed>: path} of the training trials of a bundle's models (none for a generator
    task): its task's (an instance's: the task it is an instance of), one file per seed."""
    if not trains_on_drawn_trials(task):
        return {}
    source = task_registry.task_of(task)
    return {f"trials_{seed}": f"{R}/data/{source}/training_trials/seed{seed}.npz" for seed in seeds}


MODEL_FILES = {
    "weights": "weights.npz",
    "meta": "meta.json",
    "log_csv": "train_log.csv",
    "checkpoints": "checkpoints.npz",
}
"""The files of one trained model, under results/models/{MODEL}/."""


def training_bundles():
    """(task, construction, N_h, block, seeds) of every training job (the run's tasks and the
    gap study's instances): a task's seeds in blocks by value, block b holding seeds b*K to
    b*K + K - 1 (K = config training_bundle), so that a new seed changes one block only."""
    K = config["training_bundle"]
    bundles = []
    for task in TASKS + GAP_STUDY:
        settings = task_config(task)
        blocks = {}
        for seed in sorted(settings["seeds"]):
            blocks.setdefault(seed // K, []).append(seed)
        for construction in settings["constructions"]:
            for size in settings["sizes"]:
                bundles += [(task, construction, size, b, s) for b, s in sorted(blocks.items())]
    return bundles


def training_bundle(task, construction, size, seeds):
    """The bundle param of a training job; a gap-study instance's names its random stream
    (its task's: the seeds of the paper config's models)."""
    bundle = {"task": task, "construction": construction, "size": size, "seeds": seeds}
    if stream(task) != task:
        bundle["stream"] = stream(task)
    return bundle


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
        "ablation": ablation_settings(task),
        "base_seed": config["base_seed"],
        "stream": stream(task),
        "generator": task_config(task)["generator"],
        "checkpoints": task_config(task)["checkpoints"],
        "schur_split": config["schur_split"],
    }
    return {**config.get(name, {}), **{key: shared[key] for key in ANALYSES[name].uses}}


def summary_settings(name):
    """What the summary of analysis ``name`` reads of the config: its own settings and the
    shared ones its registry entry's ``summary_uses`` names; of the learned criteria, the run's
    tasks' (the models it reads: a layer that adds the gap study's instances changes nothing)."""
    shared = {
        "verdicts": verdict_settings(),
        "learned": {t: c for t, c in learned_criteria().items() if t in TASKS},
        "min_models": config["learned"]["min_models"],
    }
    uses = ANALYSES[name].summary_uses
    return {**config.get(name, {}), **{key: shared[key] for key in uses}}


def basis_models():
    """The basis dependence per model (its largest tolerance is read), where the run checks it."""
    if "basis_dependence" in beyond_analyses():
        return f"{TABLES}/basis_dependence_models.csv"
    return []


def beyond_files(pattern):
    """``pattern`` for the models of the beyond-the-paper analyses (config key beyond_models)."""
    if config["beyond_models"] == "all":
        return model_files(pattern)
    if config["beyond_models"] == "representative":
        return representative_files(pattern)
    return []


# gap study


def gap_files(pattern):
    """``pattern`` with {task} (an instance <task>__<variation>), {construction}, {size}, {seed}
    filled for every model of the gap study."""
    return model_files(pattern, GAP_STUDY)


def gap_variations():
    """{variation: its config block} of the variations this run makes."""
    return instances.gap_variations(config)


# external


def external_files(names):
    """{key: path} of an external model's files ``names`` (declared once, in rnnschur.external:
    TABLE_NAMES, FIGURE_NAMES, SUMMARY_NAMES for its three jobs)."""
    return {name.replace(".", "_"): f"{R}/external/{{name}}/{name}" for name in names}


def external_settings(name):
    """rnnschur.external.settings.Settings of an external model: its entry's score and the
    run's config at each setting's key (what the command takes as options, so that it writes
    the same tables)."""
    from rnnschur.external.settings import Settings

    return Settings.from_config(config, config["external_models"][name]["score"])


def external_model(name):
    """The model path (MODEL's) of the external model ``name``: its task block's one model."""
    task = instances.external_instance(name)
    (size,) = task_config(task)["sizes"]
    return f"{task}/{EXTERNAL_TASK}/n{size}/seed0"


def external_model_files(name):
    """The per-model files the workflow's rules make of the external model ``name``, which its
    tables are assembled from (rnnschur.external.analysis.from_model_files)."""
    model = external_model(name)
    task = instances.external_instance(name)
    files = {
        "weights": f"{R}/models/{model}/weights.npz",
        "schur": f"{R}/schur/{model}.npz",
        "heldout": f"{R}/data/{task}/heldout.npz",
        "verification": f"{R}/external/{name}/imported.json",
        "ablation": f"{R}/ablation/{model}.csv",
        "spectrum": f"{R}/views/spectra/{model}.csv",
        "subspace_control": f"{R}/beyond/subspace_control/{model}.csv",
    }
    if config["external_models"][name]["fitting"]:
        files["readout_refit"] = f"{R}/beyond/readout_refit/{model}.csv"
    return files


EXTERNAL_FILES = external_files(EXTERNAL_OUTPUT_NAMES)
