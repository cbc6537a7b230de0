"""Rule fig_gap_attribution: plot from the gap attribution table."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

plt.style.use(snakemake.params.style)
fig = figures.fig_gap_attribution(pd.read_csv(snakemake.input.gaps))
figures.save(fig, snakemake.output)
