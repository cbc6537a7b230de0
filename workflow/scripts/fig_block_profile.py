"""Rule fig_block_profile: the task × block heat map from the block profile table."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

plt.style.use(snakemake.params.style)
fig = figures.fig_block_profile(pd.read_csv(snakemake.input.profile))
figures.save(fig, snakemake.output)
