"""Rule ablate: all coupling subsets at every alpha for one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.ablation import Analysed, evaluation_noise, model_ablations  # noqa: E402
from rnnschur.external.task import scoring_task  # noqa: E402
from rnnschur.studies.solutions import model_reading  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = scoring_task(w.task, params.neurogym)  # an external model's too
ablation = params.ablation  # config ablation, or a gap-study variation's own evaluation
# hidden noise at evaluation (a gap-study variation): one draw of the model's stream, shared by
# every ablation; none otherwise
noise = evaluation_noise(
    heldout,
    network.n_hidden,
    ablation.get("hidden_noise", 0.0),
    network.dynamics,
    params.base_seed,
    params.stream,
    w.seed,
)
# this solution's own reading of each ablation: a bootstrap over its held-out trials
solution = model_reading(params.verdicts, params.bootstrap, params.base_seed, params.stream, w.seed)
analysed = Analysed.scored(network, schur, heldout, task, ablation["fvu_steps"])
rows = model_ablations(analysed, params.alpha_grid, ablation, solution, noise=noise)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
