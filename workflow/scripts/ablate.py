"""Rule ablate: all coupling subsets at every alpha for one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import Analysed, Scoring, evaluate_ablations, scoring_batch  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task, params.neurogym)
heldout = scoring_batch(heldout, task, params.fvu_steps)
scoring = Scoring(params.epsilon, params.mass_floor)
analysed = Analysed(network, schur, heldout, task)
rows = evaluate_ablations(analysed, list(params.alpha_grid), scoring)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
