"""Rule spectra: eigenvalues and |T| of the representative models as long tables."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.aggregate import spectrum_tables  # noqa: E402
from rnnschur.schur import OrderedSchur  # noqa: E402

eigenvalues, abs_T = [], []
for (task, construction, size, seed), path in zip(
    snakemake.params.models, snakemake.input.schur, strict=True
):
    data = io.load_npz(path, ("Q", "T", "eigenvalues", "block_starts"))
    schur = OrderedSchur(data["Q"], data["T"], data["block_starts"], data["eigenvalues"])
    ev, T = spectrum_tables(schur, snakemake.params.alpha)
    identity = {"task": task, "construction": construction, "n_hidden": size, "seed": seed}
    eigenvalues.append(ev.assign(**identity))
    abs_T.append(T.assign(**identity))
io.save_csv(snakemake.output.eigenvalues, pd.concat(eigenvalues, ignore_index=True))
io.save_csv(snakemake.output.abs_T, pd.concat(abs_T, ignore_index=True))
