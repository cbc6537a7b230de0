"""Rule ablate: all coupling subsets at every alpha for one model."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import evaluate_ablations  # noqa: E402
from rnnschur.tasks import Batch  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
W_xh, W_hh, W_hy = io.load_weights(snakemake.input.weights)
schur = io.load_schur(snakemake.input.schur, W_hh)
heldout = io.load_batch(snakemake.input.heldout, W_xh.shape[1], W_hy.shape[0])
task = tasks.get(w.task)
if task.SCORE == "fvu" and params.fvu_steps == "all":
    heldout = Batch(heldout.inputs, heldout.targets, np.ones_like(heldout.mask))
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
)
frame = pd.DataFrame(rows)
frame.insert(0, "task", w.task)
frame.insert(1, "construction", w.construction)
frame.insert(2, "n_hidden", int(w.size))
frame.insert(3, "seed", int(w.seed))
io.save_csv(snakemake.output[0], frame)
