"""Rule readout_refit: fixed against refit readout for every ablation of one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import scoring_batch  # noqa: E402
from rnnschur.refit import evaluate_refits  # noqa: E402
from rnnschur.seeds import job_rng  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
settings = params.settings
W_xh, W_hh, W_hy, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task)
# The fitting set: one per task, drawn apart from the held-out set (and the same for every model).
fitting = task.generate(
    job_rng(params.base_seed, "refit", w.task), settings["n_trials"], **params.generator
)
rows = evaluate_refits(
    W_xh,
    W_hh,
    W_hy,
    schur,
    params.alpha,
    scoring_batch(fitting, task, params.fvu_steps),
    scoring_batch(heldout, task, params.fvu_steps),
    task,
    settings["validation_fraction"],
    list(settings["ridge_grid"]),
)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
