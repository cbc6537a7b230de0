"""Rule fig_schur_spectra: eigenvalues and |T| of the representative models."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

plt.style.use(snakemake.params.style)
fig = figures.fig_schur_spectra(
    pd.read_csv(snakemake.input.eigenvalues), pd.read_csv(snakemake.input.abs_T)
)
figures.save(fig, snakemake.output)
