"""Rule external_fitting_<name>: a model trained elsewhere's fitting set as its task block's."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.external import heldout as heldout_sets  # noqa: E402

batch, _ = heldout_sets.read(snakemake.input[0], None, where="fitting")
heldout_sets.check_targets(batch, snakemake.params.score, snakemake.input[0])  # as the command
io.save_npz(snakemake.output[0], inputs=batch.inputs, targets=batch.targets, mask=batch.mask)
