# rnnschur: ordered real Schur ablations of trained tanh RNNs (arXiv 2606.18457).
# data -> training -> Schur decomposition -> ablation -> tables -> figures; see README.md.
from pathlib import Path

from snakemake.utils import min_version

min_version("9.19")


# The paper config, read from the workflow's own folder (so -d and module use find it); a user's
# own settings go on top with --configfile (or `config:` in a module declaration).
configfile: Path(workflow.basedir) / "config.yaml"


report: "workflow/report/workflow.rst"


# common.smk applies a preset, validates the config against the schema (before any job starts)
# and defines the targets.
include: "workflow/rules/common.smk"
include: "workflow/rules/inputs.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/train.smk"
include: "workflow/rules/schur.smk"
include: "workflow/rules/ablate.smk"
include: "workflow/rules/beyond.smk"
include: "workflow/rules/views.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/gap_study.smk"
include: "workflow/rules/atlas.smk"
include: "workflow/rules/external.smk"
include: "workflow/rules/figures.smk"


# After every invocation that ran jobs: which commit made them (<results_dir>/run.json).
onsuccess:
    workflow_setup.record_run(R, ROOT)


rule all:
    default_target: True
    input:
        all_targets(),
