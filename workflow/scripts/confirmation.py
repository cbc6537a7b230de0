"""Rule confirmation: the preregistered predictions judged on this run's solutions."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies.paper.confirmation import confirm, confirmation_markdown  # noqa: E402

if not snakemake.input.predictions:
    raise SystemExit(
        "no predictions to confirm: set config key confirmation.predictions "
        "(e.g. --configfile presets/confirm.yaml)"
    )
table = confirm(pd.read_csv(snakemake.input.predictions), pd.read_csv(snakemake.input.reproduction))
io.save_csv(snakemake.output.csv, table)
io.save_text(snakemake.output.md, confirmation_markdown(table, snakemake.params.level))
