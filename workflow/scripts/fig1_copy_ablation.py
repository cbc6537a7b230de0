"""Rule fig1_copy_ablation: plot from the tidy ablation table."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

plt.style.use(snakemake.params.style)
fig = figures.fig1_copy_ablation(pd.read_csv(snakemake.input.ablation), snakemake.params.alpha)
figures.save(fig, snakemake.output)
