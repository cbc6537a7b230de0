"""Rules fig_<analysis>: a beyond-the-paper figure (``figures.fig_<analysis>``) from its table."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib.style  # noqa: E402  (the figures draw on their own Agg canvas: no pyplot)
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

matplotlib.style.use(snakemake.params.style)
draw = getattr(figures, f"fig_{snakemake.params.analysis}")
figures.save(draw(pd.read_csv(snakemake.input.table)), snakemake.output)
