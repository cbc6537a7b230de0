"""Rule ablate: all coupling subsets at every alpha for one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import evaluate_ablations, scoring_batch  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
W_xh, W_hh, W_hy, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task)
dynamics = io.load_dynamics(snakemake.input.weights)
heldout = scoring_batch(heldout, task, params.fvu_steps)
rows = evaluate_ablations(
    W_xh,
    W_hh,
    W_hy,
    schur,
    list(params.alpha_grid),
    heldout,
    task,
    epsilon=params.epsilon,
    mass_floor=params.mass_floor,
    dynamics=dynamics,
)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
