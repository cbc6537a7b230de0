"""Rule dose_response: each block of one model removed by fractions ε, beside random
perturbations of the same norm."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import Analysed, scoring_batch  # noqa: E402
from rnnschur.settings.seeds import job_rng  # noqa: E402
from rnnschur.studies.beyond.dose_response import dose_response  # noqa: E402
from rnnschur.tasks import Batch  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task, snakemake.params.neurogym)
fvu_steps = settings["ablation"]["fvu_steps"]
n = settings["n_trials"]
batch = scoring_batch(
    Batch(heldout.inputs[:n], heldout.targets[:n], heldout.mask[:n]), task, fvu_steps
)
fitting = io.load_batch(snakemake.input.fitting, network.W_xh.shape[1], network.W_hy.shape[0])
rng = job_rng(settings["base_seed"], "dose_response", w.task, w.construction, w.size, w.seed)
rows = dose_response(
    Analysed(network, schur, batch, task),
    settings["alpha"],
    settings,
    rng,
    scoring_batch(fitting, task, fvu_steps),
)
scored_on = {"n_trials": len(batch.inputs), "n_heldout": len(heldout.inputs)}
io.save_rows(snakemake.output[0], io.labelled([r | scored_on for r in rows], w))
