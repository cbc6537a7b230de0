"""Rule atlas: the coupling atlas's table, its Markdown and what it says."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.beyond.atlas import atlas_markdown, atlas_table, with_special  # noqa: E402
from rnnschur.report.readings import atlas_reading  # noqa: E402
from rnnschur.verdicts import Thresholds  # noqa: E402

params = snakemake.params
atlas = atlas_table(
    pd.read_csv(snakemake.input.ablation),
    params.alpha,
    Thresholds(**params.verdicts),
    params.fdr,
    params.min_models,
    dict(params.words),
)
if snakemake.input.special:
    atlas = with_special(atlas, pd.read_csv(snakemake.input.special[0]))
io.save_csv(snakemake.output.csv, atlas)
io.save_text(snakemake.output.md, atlas_markdown(atlas))
io.save_text(snakemake.output.readings, atlas_reading(atlas))
