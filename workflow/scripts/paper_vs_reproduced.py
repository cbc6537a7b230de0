"""Rule paper_vs_reproduced: the paper's numbers beside the reproduced ones, each agreeing or
differing."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.io import per_seed  # noqa: E402
from rnnschur.studies.paper.tables import (  # noqa: E402
    NUMBER_KEYS,
    agreement_reading,
    paper_vs_reproduced,
    paper_vs_reproduced_markdown,
)

table = paper_vs_reproduced(pd.read_csv(snakemake.input[0]), snakemake.params.verdicts["level"])
per_seed.save(snakemake.output.csv, snakemake.output.per_seed, table, NUMBER_KEYS)
io.save_text(
    snakemake.output.md, agreement_reading(table) + "\n\n" + paper_vs_reproduced_markdown(table)
)
