"""The task instances a config makes, ``<task>__<name>`` (:data:`rnnschur.tasks.INSTANCE`),
each an ordinary task block that the ordinary rules train, decompose and ablate: the coupling
atlas's (one per task and network description, :func:`expand_atlas`) and the gap study's (one
per task and variation, :func:`expand_gap_study`), with the settings each instance takes from
its task and its variation; and a network trained elsewhere's (:func:`expand_external`), which
the ordinary rules decompose and ablate, untrained."""

from __future__ import annotations

import copy

from config_checks import ConfigError, check_generator, key_name

from rnnschur import tasks as task_registry
from rnnschur.external.task import EXTERNAL
from rnnschur.settings.schema import PER_MODEL_MEM_MB, job_estimate
from rnnschur.training.constructions import CONSTRUCTIONS


def expand_atlas(config: dict) -> None:
    """Make the coupling atlas's task blocks (config key ``atlas``): for every task of
    ``atlas.tasks`` and description of ``atlas.descriptions`` a block ``<task>__<description>``
    (:data:`rnnschur.tasks.INSTANCE`), the task's block with the description's ``model``, its
    ``training`` changes, and the atlas's sizes, seeds and constructions; ``run_tasks`` becomes
    those blocks, task-major. ConfigError naming the key of an atlas task without its block or
    an unknown construction."""
    atlas = config["atlas"]
    for task in atlas["tasks"]:
        if task not in config["tasks"]:
            raise ConfigError(
                f"config key atlas.tasks names {task!r}, but tasks.{task} is missing "
                "(the atlas takes each task's generator, held-out trials and training from it)"
            )
    for task in atlas["task_constructions"]:
        if task not in config["tasks"]:
            raise ConfigError(
                f"config key atlas.task_constructions names {task!r}, which has no block in tasks"
            )
    for key, constructions in [("constructions", atlas["constructions"])] + [
        (f"task_constructions.{t}", c) for t, c in atlas["task_constructions"].items()
    ]:
        unknown = [c for c in constructions if c not in CONSTRUCTIONS]
        if unknown:
            raise ConfigError(
                f"config key atlas.{key} names the unknown construction {unknown[0]!r}; "
                f"constructions: {list(CONSTRUCTIONS)}"
            )
    run = []
    for task in atlas["tasks"]:
        constructions = atlas["task_constructions"].get(task, atlas["constructions"])
        for name, description in atlas["descriptions"].items():
            block = copy.deepcopy(config["tasks"][task])
            block["model"] = copy.deepcopy(description["model"])
            block["training"] = {**block["training"], **description["training"]}
            block["training_overrides"] = {
                k: v for k, v in block["training_overrides"].items() if k in constructions
            }
            block.update(
                sizes=list(atlas["sizes"]),
                seeds=list(atlas["seeds"]),
                constructions=list(constructions),
            )
            instance = f"{task}{task_registry.INSTANCE}{name}"
            config["tasks"][instance] = block
            run.append(instance)
    config["run_tasks"] = run


def gap_variations(config: dict) -> dict[str, dict]:
    """The variations of the gap study this run makes (config keys ``gap_study.variations`` and
    ``gap_study.run``: all, none or a list)."""
    run, variations = config["gap_study"]["run"], config["gap_study"]["variations"]
    if run == "none":
        return {}
    return variations if run == "all" else {k: variations[k] for k in run}


def expand_gap_study(config: dict) -> list[str]:
    """Make the gap study's task blocks and return their names: for every variation this run
    makes and task of it that the run trains, a block ``<task>__<variation>``
    (:data:`rnnschur.tasks.INSTANCE`), trained, decomposed and ablated by the ordinary rules
    as the atlas's instances are. Its generator and training settings are the variation's
    (:func:`gap_training`), its model the variation's or the task's, one construction and N_h
    (:func:`gap_model`), the variation's seeds (its own, else ``gap_study.seeds``); its held-out
    set and ablation settings are the variation's (``heldout_generator``, ``evaluation``:
    :func:`gap_evaluation`); its random ``stream`` is the task's, so that each model draws what
    the paper config's model of its seed draws and differs from it by the variation alone."""
    instances = []
    for name, variation in gap_variations(config).items():
        for task in variation["tasks"]:
            if task not in config["run_tasks"]:
                continue
            construction, size = gap_model(config, task)
            generator, training = gap_training(config, name, task)
            evaluation = gap_evaluation(config, name, task)
            block = copy.deepcopy(config["tasks"][task])
            block.update(
                generator=generator,
                training=training,
                training_overrides={},
                model=copy.deepcopy(variation.get("model", block["model"])),
                constructions=[construction],
                sizes=[size],
                seeds=list(variation.get("seeds", config["gap_study"]["seeds"])),
                heldout_generator=evaluation["generator"],
                ablation=evaluation["ablation"],
                stream=task,
            )
            instance = f"{task}{task_registry.INSTANCE}{name}"
            config["tasks"][instance] = block
            instances.append(instance)
    return instances


def external_instance(name: str) -> str:
    """The task block of the network trained elsewhere named ``name``: ``external__<name>``."""
    return f"{EXTERNAL}{task_registry.INSTANCE}{name}"


def expand_external(config: dict) -> list[str]:
    """Make a task block ``external__<name>`` for every model of config ``external_models`` and
    return their names: one model (construction ``external``, its N_h as its file holds it,
    seed 0) that rule ``external_import`` writes in the model layout (with its held-out and
    fitting sets as the task's data), so that the ordinary per-model rules (``schur``,
    ``ablate``, ``spectrum``, ``subspace_control``, ``readout_refit``) analyse it with the
    config's settings. Its score is its entry's (``external``, read by
    :func:`rnnschur.tasks.get`); it is scored on its held-out set's own mask
    (``ablation.fvu_steps: masked``); its random stream is ``external`` for every model, so
    that its name draws nothing (the command draws the same). Not a task of ``run_tasks``: no
    table across models reads it. An ``.npz`` is read only as far as its recurrent matrix's
    header (:func:`rnnschur.external.convert.hidden_size`). ConfigError naming the key where
    the model's file cannot be read, or where its N_h would make its per-model jobs declare
    more memory than ``max_job_mem_mb``."""
    from rnnschur.external import convert

    names = []
    for name, entry in config.get("external_models", {}).items():
        keys = convert.parse_keys(entry["keys"]) if entry.get("keys") else None
        try:
            n_hidden = convert.hidden_size(entry["weights"], keys)
        except (OSError, ValueError, KeyError) as error:
            raise ConfigError(
                f"config key external_models.{name}.weights: cannot read {entry['weights']} "
                f"({error})"
            ) from None
        need = job_estimate(PER_MODEL_MEM_MB, n_hidden)
        if need > config["max_job_mem_mb"]:
            raise ConfigError(
                f"config key external_models.{name}.weights holds N_h = {n_hidden}: its "
                f"per-model jobs would declare mem_mb = {need}, above max_job_mem_mb = "
                f"{config['max_job_mem_mb']} (raise it for a larger machine)"
            )
        instance = external_instance(name)
        config["tasks"][instance] = {
            "external": {"score": entry["score"]},
            "constructions": [EXTERNAL],
            "sizes": [n_hidden],
            "seeds": [0],
            "generator": {},
            "checkpoints": [],
            "ablation": {**config["ablation"], "fvu_steps": "masked"},
            "stream": EXTERNAL,  # every one's the same: the name draws nothing
        }
        names.append(instance)
    return names


def training_settings(config: dict, task: str, construction: str) -> dict:
    """A task's training settings (``tasks.<task>.training``) with the construction's
    overrides (``tasks.<task>.training_overrides.<construction>``) applied."""
    settings = dict(config["tasks"][task]["training"])
    settings.update(config["tasks"][task]["training_overrides"].get(construction, {}))
    return settings


def gap_model(config: dict, task: str) -> tuple[str, int]:
    """(construction, N_h) of the gap study's models of a task: dense_orthogonal (the paper's)
    if the task trains it, else its first construction, at the largest N_h."""
    constructions = config["tasks"][task]["constructions"]
    construction = "dense_orthogonal" if "dense_orthogonal" in constructions else constructions[0]
    return construction, max(config["tasks"][task]["sizes"])


def gap_training(config: dict, variation: str, task: str) -> tuple[dict, dict]:
    """(generator, training settings) of a gap-study variation's model of a task: the task's,
    changed by the variation's ``generator`` and ``training``, then by its ``per_task`` entry."""
    change = config["gap_study"]["variations"][variation]
    own = change.get("per_task", {}).get(task, {})
    construction, _ = gap_model(config, task)
    generator = {
        **config["tasks"][task]["generator"],
        **change.get("generator", {}),
        **own.get("generator", {}),
    }
    training = {
        **training_settings(config, task, construction),
        **change.get("training", {}),
        **own.get("training", {}),
    }
    return generator, training


def gap_evaluation(config: dict, variation: str, task: str) -> dict:
    """How a gap-study variation's models are ablated and scored: the held-out generator (the
    model's, changed by ``heldout_generator``, then by its ``per_task`` entry's) and the
    ablation settings (``ablation``, changed by the variation's ``evaluation``: hidden noise,
    the FVU's mean and steps)."""
    change = config["gap_study"]["variations"][variation]
    own = change.get("per_task", {}).get(task, {})
    generator, _ = gap_training(config, variation, task)
    return {
        "generator": {
            **generator,
            **change.get("heldout_generator", {}),
            **own.get("heldout_generator", {}),
        },
        "ablation": {
            "hidden_noise": 0.0,
            "fvu_mean": "pooled",
            **config["ablation"],
            **change.get("evaluation", {}),
        },
    }


def check_gap_study(config: dict, schema: dict, neurogym_tasks: list[str]) -> None:
    """The gap study's variations against the tasks they change (after
    :func:`config_checks.check`): the variations it runs exist; each variation's per-task
    blocks name its own tasks; each task block it makes is a valid task block, and its training
    and held-out generators the task's own; the tasks they change that this run trains include
    one with a number of the paper (else its table would come out empty: nothing to attribute);
    :class:`ConfigError` naming the key."""
    from jsonschema import Draft202012Validator

    from rnnschur.studies.paper.gap_study import paper_numbers

    tasks = config["run_tasks"]
    run = config["gap_study"]["run"]
    unknown = set(run) - set(config["gap_study"]["variations"]) if isinstance(run, list) else set()
    if unknown:
        raise ConfigError(
            f"config key gap_study.run names {sorted(unknown)}, which gap_study.variations lacks"
        )
    task_schema = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/task"})
    for name, variation in config["gap_study"]["variations"].items():
        outside = set(variation.get("per_task", {})) - set(variation["tasks"])
        if outside:
            raise ConfigError(
                f"config key gap_study.variations.{name}.per_task names {sorted(outside)}, "
                f"which is not in gap_study.variations.{name}.tasks"
            )
        for task in sorted(set(variation["tasks"]) & set(tasks)):
            trial = copy.deepcopy(config["tasks"][task])
            trial["generator"], trial["training"] = gap_training(config, name, task)
            try:
                for error in task_schema.iter_errors(trial):
                    key = key_name(["tasks", task, *error.absolute_path])
                    raise ConfigError(f"config key {key}: {error.message}")
                if task not in neurogym_tasks:
                    check_generator("generator", task, trial["generator"])
                    held_out = gap_evaluation(config, name, task)["generator"]
                    check_generator("heldout_generator", task, held_out)
            except ConfigError as error:
                raise ConfigError(
                    f"config key gap_study.variations.{name} does not fit tasks.{task}: {error}"
                ) from None
    changed = sorted({t for v in gap_variations(config).values() for t in v["tasks"]} & set(tasks))
    numbered = sorted(set(paper_numbers()["task"]))
    if changed and not set(changed) & set(numbered):
        raise ConfigError(
            f"config key gap_study.variations: the variations this run makes change {changed}, "
            f"none of which has a number of the paper ({numbered}): the study's table would be "
            "empty (gap_study.run: none, or a variation of one of those tasks)"
        )
