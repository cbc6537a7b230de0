"""The workflow's config, checked: presets, the JSON schema and the checks across keys that the
schema cannot express, each refusing a config with one :class:`ConfigError` that names the key
(and, for a misspelt key, the closest valid ones), before any job starts.

``workflow/rules/common.smk`` calls :func:`read_preset`, :func:`check_schema`, then Snakemake's
own ``validate`` (which fills in the schema's defaults), :func:`expand_atlas` where the config
has an ``atlas`` (and ``validate`` again, for the blocks it makes), :func:`check_neurogym` and
:func:`check`; the tests call the same functions on configs built in memory. jsonschema (a
dependency of Snakemake) and yaml are imported where used: the rest of the library needs
neither.
"""

from __future__ import annotations

import copy
import csv
import difflib
import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from rnnschur import tasks as task_registry
from rnnschur.network.dynamics import Dynamics
from rnnschur.settings.schema import PER_MODEL_MEM_MB, job_estimate
from rnnschur.training.constructions import CONSTRUCTIONS


class ConfigError(ValueError):
    """A config the workflow refuses; the message names the key."""


PLAIN_PATH = "^[^{}<>|]+$"
"""The schema's pattern of a path the workflow reads as an input (external_models)."""


def read_yaml(path: Path) -> object:
    """A config file's YAML (safe: no Python objects), refusing a key given twice in one
    mapping (YAML's loaders keep the last silently) with a :class:`ConfigError` naming the key,
    its line and the file; a syntax error names its line."""
    import yaml

    class Strict(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            keys = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *alias`: merged below
                    continue
                key = self.construct_object(key_node, deep=True)
                if key in keys:
                    line = key_node.start_mark.line + 1
                    raise ConfigError(f"{path}, line {line}: config key {key!r} is given twice")
                keys.add(key)
            return super().construct_mapping(node, deep)

    try:
        return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=Strict)
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path} is not UTF-8 text (byte {error.object[error.start]:#04x} at position "
            f"{error.start}); save it as UTF-8"
        ) from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{path} is not valid YAML: {error}") from None


def check_config_files(paths: list) -> None:
    """Each config file the workflow read (``paths``: Snakemake's ``workflow.configfiles``,
    every ``--configfile`` and every ``configfile:`` directive, a host Snakefile's own where
    the workflow is a module) read strictly (:func:`read_yaml`): Snakemake's own reading keeps
    the last of two equal keys without a word."""
    for path in paths:
        read_yaml(Path(path))


def read_preset(name: str, presets: Path) -> dict:
    """``presets/<name>.yaml`` (or a path to a YAML file), with a clear message on a missing
    file or a syntax error (with its line)."""

    path = Path(name) if name.endswith((".yaml", ".yml")) else presets / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in presets.glob("*.yaml"))
        raise ConfigError(f"config key preset = {name!r}: no file {path} (presets: {known})")
    preset = read_yaml(path) or {}
    if not isinstance(preset, dict):
        raise ConfigError(f"preset {path} must be a mapping of config keys")
    return preset


def key_name(path) -> str:
    return ".".join(map(str, path))


SAFE_NAME = re.compile(r"^[A-Za-z0-9_]+$")
"""A task or instance name: letters, digits and underscores (``<task>__<label>``), nothing
that could leave a folder when it becomes a path component."""


def non_finite(value, path: tuple = (), seen: set | None = None) -> tuple[str, float] | None:
    """(key, value) of the first NaN or ±inf anywhere in ``value``, else None: JSON schema's
    ranges let them through (every comparison with NaN is false). Each container is visited
    once (``seen``): YAML aliases share one object, so a small file of nested aliases (a
    billion leaves by expansion) is walked in as many steps as it has lines."""
    if isinstance(value, float) and not math.isfinite(value):
        return key_name(path) or "(top level)", value
    if isinstance(value, dict | list):
        seen = set() if seen is None else seen
        if id(value) in seen:
            return None
        seen.add(id(value))
        children = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in children:
            found = non_finite(child, (*path, key), seen)
            if found:
                return found
    return None


MAX_VALUES = 100_000
"""The most values a config may hold once its YAML aliases are expanded (the paper's config
holds about a thousand, the atlas's tens of thousands): beyond, a few lines of nested aliases
would be expanded into billions by whatever copies or prints the config."""


def expanded_size(value, memo: dict | None = None) -> int:
    """The number of values in ``value`` with every shared container counted at each place it
    appears (as ``json.dumps`` or a deep copy would write it), computed visiting each container
    once (``memo``), so an alias bomb is sized in as many steps as it has lines."""
    if not isinstance(value, dict | list):
        return 1
    memo = {} if memo is None else memo
    if id(value) not in memo:
        memo[id(value)] = 1  # a container holding itself counts once
        children = value.values() if isinstance(value, dict) else value
        memo[id(value)] = 1 + sum(expanded_size(child, memo) for child in children)
    return memo[id(value)]


def check_size(config: dict) -> None:
    """A config that expands to more than :data:`MAX_VALUES` values is refused, naming the
    deepest key whose value alone is too large (ConfigError)."""
    memo: dict = {}
    if expanded_size(config, memo) <= MAX_VALUES:
        return
    path, value = [], config
    while isinstance(value, dict | list):
        children = value.items() if isinstance(value, dict) else enumerate(value)
        large = [(k, v) for k, v in children if expanded_size(v, memo) > MAX_VALUES]
        if not large:
            break
        key, value = large[0]
        path.append(key)
    raise ConfigError(
        f"config key {key_name(path) or '(top level)'} expands to {expanded_size(value, memo):,}"
        f" values (nested YAML aliases?); a config may hold at most {MAX_VALUES:,}"
    )


RENAMED = {"fidelity": "gap_study"}
"""Top-level config keys that have a new name: an old config is told the new one."""


def schema_error(config: dict, schema: dict) -> str | None:
    """The most relevant way ``config`` breaks ``schema``, in one line that names the key:
    ``config key tasks.sine.trainig: not a key here; close: ['training']`` for a misspelt key,
    a NaN or an infinity wherever a number stands, else the key and the schema's message; None
    for a config the schema accepts."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    found = non_finite(config)
    if found:
        return f"config key {found[0]} = {found[1]}: a number must be finite (not NaN or inf)"
    names = [("tasks", list(config.get("tasks", {}))), ("run_tasks", config.get("run_tasks", []))]
    for key, tasks in names:
        unsafe = [t for t in tasks if not SAFE_NAME.match(str(t))]
        if unsafe:
            return (
                f"config key {key} names the task {unsafe[0]!r}: a task name may use letters, "
                "digits and underscores only"
            )

    error = best_match(Draft202012Validator(schema).iter_errors(config))
    if error is None:
        return None
    where = list(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        instance = error.instance if isinstance(error.instance, dict) else {}
        unexpected = [k for k in instance if k not in allowed]
        name = unexpected[0] if unexpected else "?"
        close = difflib.get_close_matches(str(name), allowed, n=3, cutoff=0.6)
        hint = f"close: {close}" if close else f"keys here: {allowed}"
        if not where and name in RENAMED:
            hint = f"renamed {RENAMED[name]!r}"
        key = key_name([*where, name])
        return f"config key {key}: not a key here ('{name}' was unexpected); {hint}"
    if error.validator == "pattern" and error.validator_value == PLAIN_PATH:
        return (
            f"config key {key_name(where)} = {error.instance!r}: a path here may not hold "
            "{, }, <, > or | (Snakemake reads them as wildcards or path variables); rename the file"
        )
    return f"config key {key_name(where) or '(top level)'}: {error.message}"


def check_schema(config: dict, schema: dict) -> None:
    """:class:`ConfigError` from :func:`schema_error` where the config breaks the schema."""
    message = schema_error(config, schema)
    if message:
        raise ConfigError(message)


def with_defaults(config: dict, schema: dict) -> dict:
    """``config`` with every default of ``schema`` filled in where a key is absent (as
    Snakemake's ``validate`` fills them), in place; for the tests, which build configs without
    Snakemake."""
    from jsonschema import Draft202012Validator, validators

    def set_defaults(validator, properties, instance, schema):
        for name, sub in properties.items():
            if isinstance(instance, dict) and "default" in sub:
                instance.setdefault(name, copy.deepcopy(sub["default"]))
        yield from Draft202012Validator.VALIDATORS["properties"](
            validator, properties, instance, schema
        )

    Filling = validators.extend(Draft202012Validator, {"properties": set_defaults})
    for _ in Filling(schema).iter_errors(config):
        pass
    return config


def check_generator(where: str, task: str, generator: dict) -> None:
    """Refuse a generator setting of ``task`` that its module's PARAMETERS do not allow, naming
    the key (``where``); fill in the module's defaults."""
    from jsonschema import Draft202012Validator

    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": task_registry.get(task).PARAMETERS,
    }
    for error in Draft202012Validator(schema).iter_errors(generator):
        raise ConfigError(f"config key {key_name([where, *error.absolute_path])}: {error.message}")
    for key, value in task_registry.defaults(task).items():
        generator.setdefault(key, value)


def neurogym_env(env: str, kwargs: dict) -> tuple[int, int]:
    """(N_x, N_y) of a NeuroGym env with its kwargs (:func:`rnnschur.tasks.neurogym_dims`),
    once it has drawn one trial: a kwarg the env takes but cannot use (``dt: 0``) fails here,
    as a ValueError naming the env and its kwargs, not in the first job."""
    import numpy as np

    from rnnschur.tasks import _neurogym

    dims = task_registry.neurogym_dims(env, kwargs)
    try:
        _neurogym.draw(np.random.default_rng(0), 1, env, kwargs)
    except Exception as error:  # whatever the env raises: it cannot make a trial
        raise ValueError(
            f"env {env} with kwargs {kwargs} cannot draw a trial ({type(error).__name__}: {error})"
        ) from None
    return dims


def check_neurogym(config: dict, check_env: Callable, checked: dict) -> dict[str, dict]:
    """{task: {"env", "kwargs", "dims"}} of every task that comes from NeuroGym
    (``tasks.<name>.neurogym``), each checked: not a generator's name, no generator block
    beside it, an env and kwargs that ``check_env(env, kwargs) -> (N_x, N_y)`` accepts
    (``checked`` caches its answers by env and kwargs, and gains the new ones)."""
    specs = {}
    for task, settings in config["tasks"].items():
        if "neurogym" not in settings:
            continue
        block = settings["neurogym"]
        if task in task_registry.names():
            raise ConfigError(
                f"config key tasks.{task}.neurogym: {task} is a generator module's task; "
                "give the NeuroGym task another name"
            )
        if settings.get("generator"):
            raise ConfigError(
                f"config key tasks.{task}: a neurogym block and a generator block together; "
                "a NeuroGym task is configured by its env's kwargs"
            )
        kwargs = block.get("kwargs", {})
        key = json.dumps([block["env"], kwargs], sort_keys=True)
        if key not in checked:
            try:
                checked[key] = list(check_env(block["env"], kwargs))
            except (ValueError, TypeError) as error:
                raise ConfigError(f"config key tasks.{task}.neurogym: {error}") from None
        specs[task] = {"env": block["env"], "kwargs": kwargs, "dims": checked[key]}
    return specs


def _check_names(config: dict, neurogym_tasks: list[str]) -> None:
    """Every task and construction the config names is in its registry."""
    known = task_registry.names() + tuple(neurogym_tasks)
    known += tuple(t for t in config["tasks"] if task_registry.task_of(t) in task_registry.names())
    places = [("run_tasks", config["run_tasks"]), ("tasks", list(config["tasks"]))]
    places += [
        (f"gap_study.variations.{name}.tasks", variation["tasks"])
        for name, variation in config["gap_study"]["variations"].items()
    ]
    for key, names in places:
        unknown = [t for t in names if t not in known]
        if unknown:
            raise ConfigError(
                f"config key {key} names the unknown task {unknown[0]!r}; tasks: {list(known)} "
                "(a task is a module of src/rnnschur/tasks)"
            )
    for task, settings in config["tasks"].items():
        places = [("constructions", settings["constructions"])]
        places += [("training_overrides", list(settings.get("training_overrides", {})))]
        for key, names in places:
            unknown = [k for k in names if k not in CONSTRUCTIONS]
            if unknown:
                raise ConfigError(
                    f"config key tasks.{task}.{key} names the unknown construction "
                    f"{unknown[0]!r}; constructions: {list(CONSTRUCTIONS)}"
                )
        odd = [n for n in settings["sizes"] if n % 2]
        for construction in settings["constructions"]:
            if CONSTRUCTIONS[construction].even_sizes and odd:
                raise ConfigError(
                    f"config key tasks.{task}.sizes has {odd[0]}, but {construction} needs an "
                    "even N_h"
                )


HELDOUT_BYTES = 10
"""Memory of a per-model job per held-out entry (trial × step × hidden unit): the held-out
hidden states of a rollout in float32 and the copies a score takes, measured at paper scale
(the copy task's ablate job: 145 MB at 1024 × 136 × 72 entries, flip-flop's 69 MB at
1024 × 25 × 64: 9.2 bytes an entry above a 54 MB base)."""


def check_sizes(config: dict) -> None:
    """Every N_h whose one-model training job would declare more memory than
    ``max_job_mem_mb`` is refused (a cluster would queue it, a laptop swap), and every
    generated task whose held-out set (trials × steps × N_h, :data:`HELDOUT_BYTES` an entry)
    would take more than that in one per-model job."""
    ceiling = config["max_job_mem_mb"]
    for task in config["run_tasks"]:
        settings = config["tasks"][task]
        for size in settings["sizes"]:
            need = job_estimate(PER_MODEL_MEM_MB, size)
            if need > ceiling:
                raise ConfigError(
                    f"config key tasks.{task}.sizes has N_h = {size}: its training job would "
                    f"declare {need} MB, above max_job_mem_mb = {ceiling} (raise it for a "
                    "larger machine)"
                )
        generated = task_registry.task_of(task) in task_registry.names()
        if not generated or not settings["sizes"] or "n_heldout" not in settings:
            continue  # NeuroGym tasks: their trials come from the environment
        trial = task_registry.get(task).generate(
            np.random.default_rng(0), 1, **settings.get("generator", {})
        )
        steps, trials = trial.inputs.shape[1], settings["n_heldout"]
        need = int(HELDOUT_BYTES * trials * steps * max(settings["sizes"]) / 2**20)
        if need > ceiling:
            raise ConfigError(
                f"config key tasks.{task}.n_heldout = {trials}: {trials} trials of {steps} steps "
                f"at N_h = {max(settings['sizes'])} take about {need} MB in each per-model job, "
                f"above max_job_mem_mb = {ceiling}"
            )


def check_results_dir(results_dir: str, root: Path) -> None:
    """``results_dir`` may hold no control character or brace, may not lie inside the
    workflow's own source folders (``root``: the workflow's top folder), and must be a folder
    results may be written to, as the command's ``--out`` must
    (:func:`rnnschur.external.saving.check_out_folder`: not the root or a system folder,
    writable)."""
    from rnnschur.external.saving import OutFolderError, check_out_folder

    if any(ord(c) < 32 or ord(c) == 127 for c in results_dir):
        raise ConfigError(
            f"config key results_dir = {results_dir!r} holds a control character (a newline?)"
        )
    if "{" in results_dir or "}" in results_dir:
        raise ConfigError(
            f"config key results_dir = {results_dir!r} holds a brace: the rules would read it "
            "as a wildcard"
        )
    try:
        where = check_out_folder(results_dir)
    except OutFolderError as error:  # its message opens with the folder as given
        reason = str(error).removeprefix(results_dir)
        raise ConfigError(f"config key results_dir = {results_dir!r}{reason}") from None
    for source in ("src", "workflow", "presets", "profiles", "envs", "tests", "docs", "bench"):
        inside = (root / source).resolve()
        if where == inside or inside in where.parents:
            raise ConfigError(
                f"config key results_dir = {results_dir!r} lies inside the workflow's own "
                f"{source}/ folder"
            )


def check_device(device: str, cuda_available: Callable[[], bool]) -> None:
    """``device: cuda…`` is refused where torch has no CUDA (``cuda_available``: asked only
    for a CUDA device, so a CPU run does not import torch)."""
    if device.startswith("cuda") and not cuda_available():
        raise ConfigError(
            f"config key device = {device!r}, but this torch has no CUDA (a CPU-only install "
            "or no GPU): use device: cpu"
        )


def _check_models(config: dict) -> None:
    """Every network description the config names is one (e.g. a discrete network has leak 1)."""
    blocks = [(f"tasks.{t}.model", s.get("model", {})) for t, s in config["tasks"].items()]
    blocks += [
        (f"gap_study.variations.{name}.model", v["model"])
        for name, v in config["gap_study"]["variations"].items()
        if "model" in v
    ]
    for key, block in blocks:
        try:
            Dynamics.from_config(block)
        except ValueError as error:
            raise ConfigError(f"config key {key}: {error}") from None


def check_predictions(path: str | None) -> None:
    """The confirmation's predictions file (config ``confirmation.predictions``) is a CSV with
    the columns :data:`rnnschur.studies.paper.confirmation.PREDICTION_COLUMNS`, if one is named."""
    if path is None:
        return
    from rnnschur.studies.paper.confirmation import PREDICTION_COLUMNS

    where = f"config key confirmation.predictions = {path!r}"
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle), [])
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{where}: cannot be read ({error})") from None
    missing = [c for c in PREDICTION_COLUMNS if c not in header]
    if missing:
        raise ConfigError(f"{where}: the file lacks the columns {missing}")


def check(config: dict, schema: dict, neurogym_tasks: list[str]) -> None:
    """The checks across keys that the JSON schema cannot express, on a config whose defaults
    are filled in; fills in each generator task's generator defaults."""

    tasks = config["run_tasks"]
    _check_names(config, neurogym_tasks)
    _check_models(config)
    for task, settings in config["tasks"].items():
        if task not in neurogym_tasks:
            check_generator(f"tasks.{task}.generator", task, settings.setdefault("generator", {}))
    missing = [t for t in tasks if t not in config["tasks"]]
    if missing:
        raise ConfigError(
            f"config key run_tasks names {missing}, but tasks.{missing[0]} is missing"
        )
    check_sizes(config)
    words = config["solutions"]
    if not words["does_not"] < words["reproduces"]:
        raise ConfigError(
            f"config key solutions.does_not = {words['does_not']} must lie below "
            f"solutions.reproduces = {words['reproduces']}"
        )
    check_predictions(config["confirmation"]["predictions"])
    chosen = config["beyond_analyses"]
    if chosen != "all":
        from rnnschur.studies.beyond.registry import ANALYSES

        unknown = [name for name in chosen if name not in ANALYSES]
        if unknown:
            raise ConfigError(
                f"config key beyond_analyses names {unknown}: analyses are {list(ANALYSES)}"
            )
    from rnnschur.schur import check_alpha  # here: the config check loads no SciPy otherwise

    try:
        check_alpha(config["alpha"], config["alpha_grid"])
    except ValueError as error:
        raise ConfigError(f"config key {error}") from None
    k = config["subspace_control"]["n_components"]
    too_small = {t: s for t in tasks for s in config["tasks"][t]["sizes"] if s <= k}
    if too_small:
        raise ConfigError(
            f"config key subspace_control.n_components = {k} must be below every N_h, "
            f"but tasks.{next(iter(too_small))}.sizes has {next(iter(too_small.values()))}"
        )
    for task in tasks:
        settings = config["tasks"][task]
        unused = set(settings["training_overrides"]) - set(settings["constructions"])
        if unused:
            raise ConfigError(
                f"config key tasks.{task}.training_overrides names {sorted(unused)}, "
                f"which is not in tasks.{task}.constructions"
            )


def style_settings(path: Path) -> dict[str, str]:
    """The matplotlib settings of a style file ({key: value} as written): a parameter of every
    figure rule, so that an edit reruns the figures and a moved run (another absolute path)
    does not."""
    settings = {}
    for line in Path(path).read_text().splitlines():
        key, _, value = line.split("#", 1)[0].partition(":")
        if value.strip():
            settings[key.strip()] = value.strip()
    return settings


def load_checked(path: Path) -> dict:
    """The NeuroGym envs already checked (``path``: a JSON cache in the working directory),
    for the installed NeuroGym version only; empty where NeuroGym is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        current = version("neurogym")
    except PackageNotFoundError:
        return {}
    try:
        saved = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {"version": current}
    return saved if saved.get("version") == current else {"version": current}


def save_checked(path: Path, checked: dict) -> None:
    """Write the cache of :func:`load_checked`; a read-only working directory checks again."""
    try:
        Path(path).parent.mkdir(exist_ok=True)
        Path(path).write_text(json.dumps(checked, sort_keys=True))
    except OSError:
        pass
