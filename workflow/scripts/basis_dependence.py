"""Rule basis_dependence: each T_RR and T_CC removal of one model in random orders of its
near-equal moduli."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import Analysed, scoring_batch  # noqa: E402
from rnnschur.settings.seeds import job_rng  # noqa: E402
from rnnschur.studies.beyond.orderings import ordering_rows  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task, snakemake.params.neurogym)
batch = scoring_batch(heldout, task, settings["ablation"]["fvu_steps"])
rng = job_rng(settings["base_seed"], "basis_dependence", w.task, w.construction, w.size, w.seed)
rows = ordering_rows(Analysed(network, schur, batch, task), settings["alpha"], settings, rng)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
