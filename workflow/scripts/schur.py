"""Rule schur: ordered real Schur form of a trained W_hh, checked in the code path."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.schur import ordered_real_schur  # noqa: E402

# the weights training wrote, read (and so checked whole) first: their digest is the one
# meta.json recorded (a file copied over them since is refused, naming it)
network = io.load_network(snakemake.input.weights)
digest = io.load_json(snakemake.input.meta).get("weights_sha256")
io.require(snakemake.input.meta, digest is not None, "records no weights_sha256 (retrain)")
io.check_digest(snakemake.input.weights, digest, f"training recorded in {snakemake.input.meta}")
W_hh, dynamics = network.W_hh, network.dynamics
schur = ordered_real_schur(W_hh, leak=dynamics.split_leak(snakemake.params.split))
print(f"{dynamics.describe()}, blocks ordered by the moduli of a = {schur.leak:g}", file=sys.stderr)
io.save_schur(snakemake.output[0], schur, digest)
error = np.linalg.norm(W_hh - schur.Q @ schur.T @ schur.Q.T) / np.linalg.norm(W_hh)
print(f"rho = {schur.spectral_radius:.4f}, ||W - QTQ'||/||W|| = {error:.2e}", file=sys.stderr)
