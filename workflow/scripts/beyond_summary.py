"""Rule beyond_summary: one summary table (CSV and Markdown) of a beyond-the-paper analysis."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import aggregate, io  # noqa: E402

summary = getattr(aggregate, snakemake.params.summary)(pd.read_csv(snakemake.input[0]))
io.save_csv(snakemake.output.csv, summary)
numbers = summary.select_dtypes("float").columns
io.save_text(snakemake.output.md, aggregate.markdown(summary, dict.fromkeys(numbers, ".3g")))
