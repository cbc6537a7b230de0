# rnnschur: ordered real Schur ablations of trained tanh RNNs (arXiv 2606.18457).
# data -> training -> Schur decomposition -> ablation -> tables -> figures; see README.md.
from pathlib import Path

import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version, update_config, validate

min_version("9.19")


configfile: "config.yaml"


def load_preset(name):
    """presets/<name>.yaml (or a path to a YAML file), with a clear message on a syntax error."""
    path = Path(name if name.endswith((".yaml", ".yml")) else f"presets/{name}.yaml")
    if not path.is_file():
        known = sorted(p.stem for p in Path("presets").glob("*.yaml"))
        raise WorkflowError(f"config key preset = {name!r}: no file {path} (presets: {known})")
    try:
        preset = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as error:
        raise WorkflowError(f"preset {path} is not valid YAML: {error}") from None
    if not isinstance(preset, dict):
        raise WorkflowError(f"preset {path} must be a mapping of config keys")
    return preset


# `--config preset=quick` layers presets/quick.yaml over config.yaml; the command line still wins.
if config.get("preset"):
    update_config(config, load_preset(config["preset"]))
    update_config(config, workflow.config_settings.overwrite_config)


report: "workflow/report/workflow.rst"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/train.smk"
include: "workflow/rules/schur.smk"
include: "workflow/rules/ablate.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/figures.smk"


rule all:
    input:
        all_targets(),
    default_target: True
