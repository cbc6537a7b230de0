"""Rule paper_vs_reproduced: the paper's numbers beside the reproduced ones, each agreeing or
differing, under the sentences of its template (workflow/templates/paper_vs_reproduced.md)
filled with the table's numbers."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)


import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.io import per_seed  # noqa: E402
from rnnschur.io.text import fill, templates  # noqa: E402
from rnnschur.studies.paper.tables import (  # noqa: E402
    NUMBER_KEYS,
    agreement_parts,
    paper_vs_reproduced,
    paper_vs_reproduced_markdown,
)

level = snakemake.params.verdicts["level"]
table = paper_vs_reproduced(pd.read_csv(snakemake.input.ablation), level)
per_seed.save(snakemake.output.csv, snakemake.output.per_seed, table, NUMBER_KEYS)
sentences = fill(templates(snakemake.params.template), agreement_parts(table))
io.save_text(snakemake.output.md, sentences + "\n\n" + paper_vs_reproduced_markdown(table))
