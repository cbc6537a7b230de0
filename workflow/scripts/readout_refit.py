"""Rule readout_refit: fixed against refit readout for every ablation of one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import Analysed, scoring_batch  # noqa: E402
from rnnschur.beyond.refit import evaluate_refits  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
fvu_steps = settings["ablation"]["fvu_steps"]
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task, snakemake.params.neurogym)
# The fitting set: one per task, drawn apart from the held-out set (rule fitting).
fitting = io.load_batch(snakemake.input.fitting, network.W_xh.shape[1], network.W_hy.shape[0])
rows = evaluate_refits(
    Analysed(network, schur, scoring_batch(heldout, task, fvu_steps), task),
    settings["alpha"],
    scoring_batch(fitting, task, fvu_steps),
    settings["validation_fraction"],
    list(settings["ridge_grid"]),
)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
