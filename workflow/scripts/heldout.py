"""Rule heldout: draw the fixed held-out evaluation set of one task."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402

task = snakemake.wildcards.task
params = snakemake.params
batch = tasks.draw_heldout(task, params.n, params.base_seed, **params.generator)
io.save_npz(snakemake.output[0], inputs=batch.inputs, targets=batch.targets, mask=batch.mask)
print(
    f"{task}: {batch.inputs.shape[0]} held-out trials of {batch.inputs.shape[1]} steps",
    file=sys.stderr,
)
