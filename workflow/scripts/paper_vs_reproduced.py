"""Rule paper_vs_reproduced: the paper's numbers beside the reproduced ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.paper.tables import paper_vs_reproduced, paper_vs_reproduced_markdown  # noqa: E402

table = paper_vs_reproduced(pd.read_csv(snakemake.input[0]))
io.save_csv(snakemake.output.csv, table)
io.save_text(snakemake.output.md, paper_vs_reproduced_markdown(table))
