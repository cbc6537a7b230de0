"""Rule claims: the paper's claims tested over seeds, at its N_h and at every N_h trained."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.paper.claims import (  # noqa: E402
    claims_by_size,
    claims_grid_markdown,
    claims_markdown,
    claims_sensitivity,
    evaluate_claims,
    paper_claims,
)

settings = snakemake.params.claims
claims = paper_claims(
    settings["tolerance_accuracy"],
    settings["much_greater"],
    settings["margin_delta_fvu"],
    settings["margin_s_delta_t"],
)
ablation = pd.read_csv(snakemake.input[0])
table = evaluate_claims(ablation, claims, settings["level"], snakemake.params.min_models)
io.save_csv(snakemake.output.csv, table)
io.save_text(snakemake.output.md, claims_markdown(table))
by_size = claims_by_size(ablation, claims, settings["level"], snakemake.params.min_models)
io.save_csv(snakemake.output.by_size_csv, by_size)
io.save_text(snakemake.output.by_size_md, claims_grid_markdown(by_size, "n_hidden"))
# How the verdicts move with the accuracy tolerance (the bound of harmless, inert, unchanged).
sensitivity = claims_sensitivity(
    ablation,
    settings["sensitivity_tolerances"],
    settings,
    settings["level"],
    snakemake.params.min_models,
)
io.save_csv(snakemake.output.sensitivity_csv, sensitivity)
io.save_text(
    snakemake.output.sensitivity_md, claims_grid_markdown(sensitivity, "tolerance_accuracy")
)
