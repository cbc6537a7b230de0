"""The config's JSON schema, shipped with the package: every key's documentation and default.

The workflow validates its config against it (``workflow/lib/workflow_setup.py``, where
Snakemake's ``validate`` fills in the defaults); the command's options and
:class:`rnnschur.external.settings.Settings` take their defaults from it (:func:`default`), so a
model analysed from a notebook is read with the settings a workflow run would use. What one
model's jobs declare for its N_h (:func:`job_estimate`) is held against ``max_job_mem_mb``
here too, by the workflow's checks and before an external model's analysis.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from pathlib import Path

SCHEMA = Path(__file__).with_name("config.schema.yaml")
"""The schema's file (YAML)."""


def read_schema(path: Path = SCHEMA) -> dict:
    """The config's JSON schema (YAML; libyaml's loader where PyYAML was built with it)."""
    import yaml

    with open(path) as file:
        return yaml.load(file, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def default(key: str) -> object:
    """The schema's default of the config key ``key`` (dotted: ``"ablation.epsilon"``), a
    list as a tuple, a mapping as a copy of its own; a KeyError names a key the schema does not
    have or gives no default."""
    node = _node(key)
    if "default" not in node:
        raise KeyError(f"config key {key}: the schema gives no default")
    value = copy.deepcopy(node["default"])
    return tuple(value) if isinstance(value, list) else value


def field(key: str):
    """A dataclass field whose default is the schema's for config key ``key``, read when an
    instance takes the default (:func:`default`), not at import; ``metadata["key"]`` names it."""
    return dataclasses.field(default_factory=functools.partial(default, key), metadata={"key": key})


BOUNDS = {
    "minimum": (lambda v, b: v >= b, "≥"),
    "exclusiveMinimum": (lambda v, b: v > b, ">"),
    "maximum": (lambda v, b: v <= b, "≤"),
    "exclusiveMaximum": (lambda v, b: v < b, "<"),
}
"""The schema's bounds of a number: (whether a value keeps it, the bound's sign)."""


def out_of_bounds(key: str, value) -> str | None:
    """Why ``value`` (a number, or a list whose items the schema bounds) lies outside the
    schema's bounds of config key ``key``, e.g. "must be ≤ 1 (config key ablation.mass_floor)";
    None where it lies inside. The bounds the workflow's config is checked against, so a
    setting given elsewhere (the command's options) is held to the same ones."""
    node = _node(key)
    rules, values = (
        (node.get("items", {}), value)
        if isinstance(value, list | tuple)
        else (
            node,
            [value],
        )
    )
    for item in values:
        for word, (keeps, sign) in BOUNDS.items():
            if word in rules and not keeps(item, rules[word]):
                return f"must be {sign} {rules[word]} (config key {key})"
    return None


def _node(key: str) -> dict:
    """The schema of config key ``key`` (dotted); a KeyError names a key it does not have."""
    node = {"properties": _schema()}
    for part in key.split("."):
        node = node.get("properties", {}).get(part)
        if node is None:
            raise KeyError(f"config key {key}: not in the schema")
    return node


@functools.cache
def _schema() -> dict:
    return read_schema()["properties"]


PER_MODEL_MEM_MB = 1000
"""The memory a training or per-model job declares per model up to N_h = 128
(:func:`job_estimate`)."""


def job_estimate(base: float, size: int, n_models: int = 1) -> int:
    """A training or per-model job's resource (mem_mb or runtime in minutes): ``base`` per
    model up to N_h = 128, then growing as N_h^1.5, as a training step and a held-out rollout do
    (bench/bench_scaling.py; measured peaks at N_h = 256: 0.52 GB training, 0.45 GB ablation),
    times the models of a bundle."""
    return int(base * max(1.0, (size / 128) ** 1.5) * n_models)


def memory_warning(n_hidden: int) -> str | None:
    """A warning, before an external model's analysis runs, where its N_h would make the
    workflow's per-model jobs declare more memory than the schema's default
    ``max_job_mem_mb`` (the workflow refuses such a model; the command warns); None else."""
    need, ceiling = job_estimate(PER_MODEL_MEM_MB, n_hidden), default("max_job_mem_mb")
    if need <= ceiling:
        return None
    return (
        f"WARNING: N_h = {n_hidden}: one model this size takes about {need} MB by the "
        f"workflow's estimate, above max_job_mem_mb = {ceiling} (config key max_job_mem_mb; "
        "the workflow refuses it): the analysis may run for many minutes or swap"
    )
