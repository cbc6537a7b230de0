"""Rule gap_attribution: the paper's numbers under the paper config and each variation."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.io import per_seed  # noqa: E402
from rnnschur.studies import learned  # noqa: E402
from rnnschur.studies.paper.claim_tables import claims_grid_markdown  # noqa: E402
from rnnschur.studies.paper.claim_tests import CLAIM_KEYS, claims_per_variation  # noqa: E402
from rnnschur.studies.paper.claims import paper_claims  # noqa: E402
from rnnschur.studies.paper.gap_study import (  # noqa: E402
    GAP_KEYS,
    best_claims_markdown,
    gap_markdown,
    gap_table,
    ranking,
    ranking_markdown,
    variation_rows,
)
from rnnschur.studies.verdicts import Thresholds  # noqa: E402

descriptions = {k: v["description"] for k, v in snakemake.params.variations.items()}
variations = pd.concat(
    [
        variation_rows(pd.read_csv(table), io.load_json(meta))
        for table, meta in zip(snakemake.input.variations, snakemake.input.metas, strict=True)
    ]
)
variations = learned.mark(variations, snakemake.params.criteria)  # no models.csv for these
ablation = pd.read_csv(snakemake.input.ablation)
table = gap_table(ablation, variations, descriptions, snakemake.params.seeds)
per_seed.save(snakemake.output.csv, snakemake.output.per_seed, table, GAP_KEYS)
io.save_text(snakemake.output.md, gap_markdown(table))
# The paper's claims under each variation (the paper config's seeds and the variation's own).
settings, thresholds = snakemake.params.claims, Thresholds(**snakemake.params.verdicts)
claims = paper_claims(thresholds.threshold, settings["much_greater"], settings["margin_s_delta_t"])
paper_seeds = ablation[ablation["seed"].isin(snakemake.params.seeds)]
per_variation = claims_per_variation(
    paper_seeds, variations, claims, thresholds, snakemake.params.min_models
)
per_seed.save(
    snakemake.output.claims_csv,
    snakemake.output.claims_per_seed,
    per_variation,
    [*CLAIM_KEYS, "variation"],
)
io.save_text(snakemake.output.claims_md, claims_grid_markdown(per_variation, "variation"))
ranked = ranking(table)
io.save_csv(snakemake.output.ranking_csv, ranked)
io.save_text(
    snakemake.output.ranking_md,
    ranking_markdown(ranked) + best_claims_markdown(per_variation, ranked),
)
