"""Rule subspace_control: overlaps of one model's ablations and their matched controls."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.ablation import Analysed  # noqa: E402
from rnnschur.external.task import scoring_task  # noqa: E402
from rnnschur.settings.seeds import job_rng  # noqa: E402
from rnnschur.studies.beyond import subspace  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = scoring_task(w.task, snakemake.params.neurogym)  # an external model's too
analysed = Analysed.scored(network, schur, heldout, task, settings["ablation"]["fvu_steps"])
# the model's stream: its task's (an external model's, every one's the same)
identity = (settings["stream"], w.construction, w.size, w.seed)
rng = job_rng(settings["base_seed"], "subspace_control", *identity)
# the table says on how many of the held-out trials it was scored (config subspace_control.n_trials)
rows = subspace.model_rows(analysed, settings, rng)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
