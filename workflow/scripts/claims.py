"""Rule claims: the paper's claims tested over seeds, at its N_h and at every N_h trained; how
their verdicts move with the settings; the paper's own numbers through the same rules."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.io import per_seed  # noqa: E402
from rnnschur.studies.paper.claim_tables import claims_grid_markdown, claims_markdown  # noqa: E402
from rnnschur.studies.paper.claim_tests import (  # noqa: E402
    CLAIM_KEYS,
    SENSITIVITY_KEYS,
    claims_by_size,
    claims_sensitivity,
    evaluate_claims,
)
from rnnschur.studies.paper.claims import paper_claims  # noqa: E402
from rnnschur.studies.paper.reported_verdicts import paper_readings, paper_readings_markdown  # noqa: E402
from rnnschur.studies.profile import sensitivity_markdown  # noqa: E402
from rnnschur.studies.verdicts import Thresholds  # noqa: E402

settings, thresholds = snakemake.params.claims, Thresholds(**snakemake.params.verdicts)
min_models = snakemake.params.min_models
claims = paper_claims(thresholds.threshold, settings["much_greater"], settings["margin_s_delta_t"])
ablation = pd.read_csv(snakemake.input[0])
table = evaluate_claims(ablation, claims, thresholds, min_models)
per_seed.save(snakemake.output.csv, snakemake.output.per_seed, table, CLAIM_KEYS)
io.save_text(snakemake.output.md, claims_markdown(table, snakemake.params.basis_tolerance))
by_size = claims_by_size(ablation, claims, thresholds, min_models)
per_seed.save(snakemake.output.by_size_csv, snakemake.output.by_size_per_seed, by_size, CLAIM_KEYS)
io.save_text(snakemake.output.by_size_md, claims_grid_markdown(by_size, "n_hidden", basis=True))
moved = claims_sensitivity(
    ablation, thresholds, settings["much_greater"], settings["margin_s_delta_t"], min_models
)
io.save_csv(snakemake.output.sensitivity_csv, moved)
io.save_text(snakemake.output.sensitivity_md, sensitivity_markdown(moved, SENSITIVITY_KEYS))
readings = paper_readings(thresholds)
io.save_csv(snakemake.output.readings_csv, readings)
io.save_text(snakemake.output.readings_md, paper_readings_markdown(readings, thresholds))
