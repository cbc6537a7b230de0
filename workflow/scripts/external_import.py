"""Rule external_import_<name>: a model trained elsewhere in the model layout of its task block
(weights.npz with the 0-d arrays of its network description, given or found by dynamics: auto
from the held-out set's outputs; meta.json with their digest), its held-out set as that task's,
and how it was verified (imported.json, which its tables carry)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io  # noqa: E402
from rnnschur.external import heldout as heldout_sets  # noqa: E402
from rnnschur.external import verify  # noqa: E402
from rnnschur.external.reading import arrays_of, read_network  # noqa: E402
from rnnschur.io.provenance import weights_sha256  # noqa: E402
from rnnschur.network.dynamics import DESCRIPTION_TYPES, Description  # noqa: E402

entry = snakemake.params.model
# the model as the command and rnnschur.analyse read it: its arrays, any initial state, and the
# description its file stores (an .npz's, an nn4n checkpoint's kwargs; else discrete)
initial_state = snakemake.input.initial_state or None
network = read_network(snakemake.input.weights, entry["keys"] or None, None, initial_state).network
# the entry's description, split as the run's config says (config schur_split)
given = {f: entry[f] for f in DESCRIPTION_TYPES if f != "split"}
description = Description(**given, split=snakemake.params.split)
verification = verify.describe(network, snakemake.input.heldout, description)
# the held-out set as the command reads it (its targets checked against the score)
batch, _ = heldout_sets.read(snakemake.input.heldout, network, where="heldout")
heldout_sets.check_targets(batch, entry["score"], snakemake.input.heldout)
io.save_npz(snakemake.output.heldout, inputs=batch.inputs, targets=batch.targets, mask=batch.mask)
arrays = arrays_of(network)
io.save_npz(snakemake.output.weights, **arrays, **io.dynamics_arrays(verification.dynamics))
io.save_json(snakemake.output.meta, {"weights_sha256": weights_sha256(snakemake.output.weights)})
io.save_json(snakemake.output.verification, verification.record())
name = snakemake.params.name
print(f"{name}: arrays {sorted(arrays)}; {verification.line()}", file=sys.stderr)
