"""Rule external_summary: the summaries of one external model, from its tables and figure."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from pathlib import Path  # noqa: E402

from rnnschur.external.result import Result  # noqa: E402

folder = Path(snakemake.output.md).parent
Result.load(folder, snakemake.input.weights).save_summary(folder)
