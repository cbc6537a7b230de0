"""Rule claims: the paper's claims tested over seeds."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.claims import claims_markdown, evaluate_claims, paper_claims  # noqa: E402

settings = snakemake.params.claims
claims = paper_claims(settings["tolerance_accuracy"], settings["much_greater"])
table = evaluate_claims(pd.read_csv(snakemake.input[0]), claims, settings["level"])
io.save_csv(snakemake.output.csv, table)
io.save_text(snakemake.output.md, claims_markdown(table))
