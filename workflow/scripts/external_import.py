"""Rule external_import: a model trained elsewhere as the workflow's weights.npz, with the
0-d arrays of its network description (given, or found by dynamics: auto from the held-out
set's outputs)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.external import convert, verify  # noqa: E402

entry, path = snakemake.params.model, snakemake.input.weights
keys = convert.parse_keys(entry["keys"]) if entry["keys"] else None
model = convert.load_model_file(path, keys)
description = verify.describe(
    model,
    snakemake.input.heldout,
    entry["dynamics"],
    stored=io.load_dynamics(path) if str(path).endswith(".npz") else None,
    leak=entry["leak"],
    nonlinearity=entry["nonlinearity"],
    readout=entry["readout"],
    timing=entry["timing"],
    split=snakemake.params.split,
    initial_state=snakemake.input.initial_state or None,
)
if snakemake.input.initial_state:
    model = {**model, "h0": io.load_npz(snakemake.input.initial_state, ("h0",))["h0"]}
io.save_npz(snakemake.output[0], **model, **io.dynamics_arrays(description.dynamics))
print(f"{snakemake.wildcards.name}: arrays {sorted(model)}; {description.line()}", file=sys.stderr)
