"""The config's JSON schema, shipped with the package: every key's documentation and default.

The workflow validates its config against it (``workflow/lib/workflow_setup.py``, where
Snakemake's ``validate`` fills in the defaults); the command's options and
:class:`rnnschur.external.analysis.Settings` take their defaults from it (:func:`default`), so a
model analysed from a notebook is read with the settings a workflow run would use.
"""

from __future__ import annotations

import copy
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
    node = {"properties": _schema()}
    for part in key.split("."):
        node = node.get("properties", {}).get(part)
        if node is None:
            raise KeyError(f"config key {key}: not in the schema")
    if "default" not in node:
        raise KeyError(f"config key {key}: the schema gives no default")
    value = copy.deepcopy(node["default"])
    return tuple(value) if isinstance(value, list) else value


@functools.cache
def _schema() -> dict:
    return read_schema()["properties"]
