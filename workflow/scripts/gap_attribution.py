"""Rule gap_attribution: the paper's numbers under the paper config and each variation."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.gaps import gap_markdown, gap_table  # noqa: E402

descriptions = {k: v["description"] for k, v in snakemake.params.variations.items()}
variations = pd.concat([pd.read_csv(path) for path in snakemake.input.variations])
table = gap_table(
    pd.read_csv(snakemake.input.ablation), variations, descriptions, snakemake.params.seeds
)
io.save_csv(snakemake.output.csv, table)
io.save_text(snakemake.output.md, gap_markdown(table))
