"""Rule external_import: a model trained elsewhere as the workflow's weights.npz, with the
0-d arrays that name its network family."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import convert, io, models  # noqa: E402
from rnnschur.dynamics import DISCRETE  # noqa: E402
from rnnschur.dynamics import resolve as resolve_dynamics  # noqa: E402

entry, path = snakemake.params.model, snakemake.input.weights
keys = convert.parse_keys(entry["keys"]) if entry["keys"] else None
model = convert.load_model_file(path, keys)
if snakemake.input.initial_state:
    h0 = io.load_npz(snakemake.input.initial_state, ("h0",))["h0"]
    model = models.check_model({**model, "h0": h0}, snakemake.input.initial_state)
stored = io.load_dynamics(path) if str(path).endswith(".npz") else DISCRETE
try:
    dynamics = resolve_dynamics(
        stored, entry["dynamics"], entry["leak"], entry["nonlinearity"], snakemake.params.split
    )
except ValueError as error:
    raise io.ArtifactError(f"{path}: {error}") from None
io.save_npz(snakemake.output[0], **model, **io.dynamics_arrays(dynamics))
print(f"{snakemake.wildcards.name}: arrays {sorted(model)}, {dynamics.describe()}", file=sys.stderr)
