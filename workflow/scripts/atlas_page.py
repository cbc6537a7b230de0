"""Rule atlas_page: the coupling atlas as one static HTML page, its template's
(workflow/templates/atlas.html)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from pathlib import Path  # noqa: E402

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.report.page import atlas_page  # noqa: E402

captions = snakemake.params.captions
figures = {
    name: (captions[name], Path(snakemake.input[name]).read_bytes())
    for name in ("fig_atlas", "fig_atlas_shift")
}
page = atlas_page(
    pd.read_csv(snakemake.input.atlas),
    Path(snakemake.input.readings).read_text(),
    figures,
    snakemake.params.template,
)
io.save_text(snakemake.output[0], page)
