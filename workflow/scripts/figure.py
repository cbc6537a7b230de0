"""Rules of rnnschur.report.registry.FIGURES: one figure from its tables, with the shared style."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib  # noqa: E402

matplotlib.use("Agg")  # a job draws to files; the library chooses no backend
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402
from rnnschur.report.registry import FIGURES  # noqa: E402

params = snakemake.params
plt.style.use(params.style)
tables = {
    argument: pd.read_csv(snakemake.input[argument]) for argument in FIGURES[params.figure].tables
}
fig = getattr(figures, params.figure)(**tables, **params.alpha)
figures.save(fig, snakemake.output)
