"""Rule rollout_example: example held-out trials of one model, full and single-block ablations."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.report import views  # noqa: E402
from rnnschur.tasks import Batch  # noqa: E402

k = snakemake.params.n_trials
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
batch = Batch(heldout.inputs[:k], heldout.targets[:k], heldout.mask[:k])
rows = views.rollout_rows(network, schur, snakemake.params.alpha, batch)
io.save_rows(snakemake.output[0], io.labelled(rows, snakemake.wildcards))
