"""Rule readout_refit: fixed against refit readout for every ablation of one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.ablation import Analysed  # noqa: E402
from rnnschur.external.task import scoring_task  # noqa: E402
from rnnschur.settings.seeds import job_rng  # noqa: E402
from rnnschur.studies.beyond import refit  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = scoring_task(w.task, snakemake.params.neurogym)  # an external model's too
# The fitting set: one per task, drawn apart from the held-out set (rule fitting), or an
# external model's own.
fitting = io.load_batch(snakemake.input.fitting, network.W_xh.shape[1], network.W_hy.shape[0])
analysed = Analysed.scored(network, schur, heldout, task, settings["ablation"]["fvu_steps"])
# the model's stream: its task's (an external model's, every one's the same), as the command's
identity = (settings["stream"], w.construction, w.size, w.seed)
rng = job_rng(settings["base_seed"], "readout_refit", *identity)
rows = refit.model_rows(analysed, fitting, settings, rng)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
