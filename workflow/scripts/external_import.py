"""Rule external_import: a model trained elsewhere as the workflow's weights.npz."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import convert, io, models  # noqa: E402

model = convert.load_model_file(snakemake.input.weights, snakemake.params.nonlinearity)
if snakemake.input.initial_state:
    h0 = io.load_npz(snakemake.input.initial_state, ("h0",))["h0"]
    model = models.check_model({**model, "h0": h0}, snakemake.input.initial_state)
io.save_npz(snakemake.output[0], **model)
print(f"{snakemake.wildcards.name}: arrays {sorted(model)}", file=sys.stderr)
