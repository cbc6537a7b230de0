"""Rule basis_sensitivity: Schur against eigen coordinates for one trained W_hh."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.settings.seeds import job_rng  # noqa: E402
from rnnschur.studies.beyond import basis  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
# the weights checked against the Schur file's digest (and that against W_hh)
network, schur, _ = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
W_hh = network.W_hh
rng = job_rng(settings["base_seed"], "basis_sensitivity", w.task, w.construction, w.size, w.seed)
E = basis.perturbations(rng, W_hh, settings["relative_perturbation"], settings["n_draws"])
rows = basis.sensitivity_rows(W_hh, schur, settings["alpha"], E)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
