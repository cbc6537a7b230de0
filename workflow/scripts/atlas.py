"""Rule atlas: the coupling atlas's table read solution by solution, its random-effects estimate
across tasks (secondary), their Markdown and what they say (its template's sentences filled
with the table's numbers)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)


import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.io.text import fill, templates  # noqa: E402
from rnnschur.report.page import atlas_parts  # noqa: E402
from rnnschur.studies.beyond.atlas import (  # noqa: E402
    across_markdown,
    across_tasks_table,
    atlas_markdown,
    atlas_table,
    n_decided,
    with_special,
)
from rnnschur.studies.verdicts import Thresholds  # noqa: E402

params = snakemake.params
ablation = pd.read_csv(snakemake.input.ablation)
thresholds = Thresholds(**params.verdicts)
atlas = atlas_table(
    ablation,
    params.alpha,
    thresholds,
    params.fdr,
    params.min_models,
    dict(params.words),
    params.mostly,
)
if snakemake.input.special:
    atlas = with_special(atlas, pd.read_csv(snakemake.input.special[0]))
across = across_tasks_table(atlas, ablation, params.alpha, thresholds)
sentences = templates(snakemake.params.template)
legend = fill(sentences, ("markdown_legend", {"decided": n_decided(atlas), "rows": len(atlas)}))
io.save_csv(snakemake.output.csv, atlas)
io.save_text(snakemake.output.md, atlas_markdown(atlas, legend))
io.save_csv(snakemake.output.across_csv, across)
io.save_text(snakemake.output.across_md, across_markdown(across))
# across tasks, the words are the task restriction's: each task's solutions counted
restriction = pd.read_csv(snakemake.input.restriction, keep_default_na=False)
tasks = pd.read_csv(snakemake.input.restriction_tasks, keep_default_na=False)
parts = atlas_parts(atlas, restriction, tasks)
io.save_text(snakemake.output.readings, "\n\n".join(fill(sentences, p) for p in parts) + "\n")
