"""Rule schur: ordered real Schur form of a trained W_hh, checked in the code path."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import numpy as np  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.schur import ordered_real_schur  # noqa: E402

network = io.load_network(snakemake.input.weights)
W_hh, dynamics = network.W_hh, network.dynamics
schur = ordered_real_schur(W_hh, leak=dynamics.split_leak(snakemake.params.split))
print(f"{dynamics.describe()}, blocks ordered by the moduli of a = {schur.leak:g}", file=sys.stderr)
io.save_schur(snakemake.output[0], schur)
error = np.linalg.norm(W_hh - schur.Q @ schur.T @ schur.Q.T) / np.linalg.norm(W_hh)
print(f"rho = {schur.spectral_radius:.4f}, ||W - QTQ'||/||W|| = {error:.2e}", file=sys.stderr)
