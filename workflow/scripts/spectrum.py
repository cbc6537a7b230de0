"""Rule spectrum: one model's ordered eigenvalues and |T| as long tables."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.schur import spectrum_rows  # noqa: E402

# the weights checked against the Schur file's digest (and that against W_hh)
_, schur, _ = io.load_model(snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout)
eigenvalues, abs_T = spectrum_rows(schur, snakemake.params.alpha)
io.save_rows(snakemake.output.eigenvalues, io.labelled(eigenvalues, snakemake.wildcards))
io.save_rows(snakemake.output.abs_T, io.labelled(abs_T, snakemake.wildcards))
