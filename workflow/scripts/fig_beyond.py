"""Rules fig_<analysis>: a beyond-the-paper figure (``figures.fig_<analysis>``) from its table."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib  # noqa: E402

matplotlib.use("Agg")  # a job draws to files; the library chooses no backend
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

plt.style.use(snakemake.params.style)
draw = getattr(figures, f"fig_{snakemake.params.analysis}")
figures.save(draw(pd.read_csv(snakemake.input.table)), snakemake.output)
