"""Rules <analysis>_summary: the summary tables (CSV, and Markdown for the summary) of a
beyond-the-paper analysis, from ``summaries.<analysis>``."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies.beyond import summaries  # noqa: E402
from rnnschur.studies.paper import tables  # noqa: E402

analysis = snakemake.params.analysis
results = getattr(summaries, analysis)(pd.read_csv(snakemake.input[0]), snakemake.params.settings)
summary = results.pop("summary")
io.save_csv(snakemake.output.csv, summary)
for key, frame in results.items():
    io.save_csv(snakemake.output[key], frame)
formats = dict.fromkeys(summary.select_dtypes("float").columns, ".3g")
if "step" in formats:  # a mean training step: a count, not a measurement
    formats["step"] = ".0f"
io.save_text(snakemake.output.md, tables.markdown(summary, formats))
