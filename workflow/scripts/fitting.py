"""Rule fitting: draw the fitting set of one task for the readout refit."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.settings.seeds import job_rng  # noqa: E402

task, params = snakemake.wildcards.task, snakemake.params
batch = tasks.get(task, params.generator.get("neurogym")).generate(
    job_rng(params.base_seed, "refit", task), params.n, **params.generator
)
io.save_npz(snakemake.output[0], inputs=batch.inputs, targets=batch.targets, mask=batch.mask)
print(
    f"{task}: {batch.inputs.shape[0]} fitting trials of {batch.inputs.shape[1]} steps",
    file=sys.stderr,
)
