"""Rule rollout_examples: example held-out trials, full model and single-block ablations."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.aggregate import rollout_examples  # noqa: E402
from rnnschur.tasks import Batch  # noqa: E402

frames = []
k = snakemake.params.n_trials
for (task, construction, size, seed), weights, schur, heldout in zip(
    snakemake.params.models,
    snakemake.input.weights,
    snakemake.input.schur,
    snakemake.input.heldout,
    strict=True,
):
    W_xh, W_hh, W_hy = io.load_weights(weights)
    full = io.load_batch(heldout, W_xh.shape[1], W_hy.shape[0])
    batch = Batch(full.inputs[:k], full.targets[:k], full.mask[:k])
    examples = rollout_examples(
        W_xh, W_hh, W_hy, io.load_schur(schur, W_hh), snakemake.params.alpha, batch
    )
    frames.append(examples.assign(task=task, construction=construction, n_hidden=size, seed=seed))
io.save_csv(snakemake.output[0], pd.concat(frames, ignore_index=True))
