"""Rule subspace_summary: verdicts of the ablations against their matched controls."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import aggregate, io  # noqa: E402

params = snakemake.params
verdicts = aggregate.subspace_verdicts(
    pd.read_csv(snakemake.input[0]), params.effect_floor, params.ratio
)
summary = aggregate.subspace_summary(verdicts)
io.save_csv(snakemake.output.verdicts, verdicts)
io.save_csv(snakemake.output.csv, summary)
numbers = summary.select_dtypes("float").columns
io.save_text(snakemake.output.md, aggregate.markdown(summary, dict.fromkeys(numbers, ".3g")))
