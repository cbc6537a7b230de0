"""Rule table1: Table 1 of the paper (copy task) as CSV and Markdown."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies.paper.tables import table1, table1_markdown  # noqa: E402

table = table1(pd.read_csv(snakemake.input[0]))
io.save_csv(snakemake.output.csv, table)
io.save_text(snakemake.output.md, table1_markdown(table))
