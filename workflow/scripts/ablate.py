"""Rule ablate: all coupling subsets at every alpha for one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import (  # noqa: E402
    Analysed,
    Scoring,
    evaluate_ablations,
    evaluation_noise,
    scoring_batch,
)
from rnnschur.seeds import job_rng  # noqa: E402
from rnnschur.solutions import Reading  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task, params.neurogym)
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
analysed = Analysed(network, schur, scoring_batch(heldout, task, ablation["fvu_steps"]), task)
# this solution's own reading of each ablation: a bootstrap over its held-out trials
solution = Reading(
    params.verdicts["threshold"],
    params.verdicts["level"],
    params.bootstrap,
    int(job_rng(params.base_seed, "bootstrap", params.stream, w.seed).integers(2**62)),
)
rows = evaluate_ablations(
    analysed,
    list(params.alpha_grid),
    Scoring.from_config(ablation),
    noise=noise,
    solution=solution,
)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
