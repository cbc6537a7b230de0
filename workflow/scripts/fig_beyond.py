"""Rule fig_beyond: a beyond-the-paper figure (``figures.<name>``) from its tidy table."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur import figures  # noqa: E402

plt.style.use(snakemake.input.style)
fig = getattr(figures, snakemake.wildcards.figure)(pd.read_csv(snakemake.input.table))
figures.save(fig, snakemake.output)
