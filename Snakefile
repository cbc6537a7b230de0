# rnnschur: ordered real Schur ablations of trained tanh RNNs (arXiv 2606.18457).
# data -> training -> Schur decomposition -> ablation -> tables -> figures; see README.md.
from snakemake.utils import min_version, validate

min_version("9.19")


configfile: "config.yaml"


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
