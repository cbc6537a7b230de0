"""Rules of rnnschur.report.registry.FIGURES: one figure from its tables, with the shared style."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib.style  # noqa: E402  (the figures draw on their own Agg canvas: no pyplot)
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402
from rnnschur.report.registry import FIGURES  # noqa: E402

params = snakemake.params
matplotlib.style.use(params.style)
tables = {
    argument: pd.read_csv(snakemake.input[argument]) for argument in FIGURES[params.figure].tables
}
fig = getattr(figures, params.figure)(**tables, **params.alpha)
figures.save(fig, snakemake.output)
