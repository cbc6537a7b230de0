"""Rule external_analyse: the paper's analysis of one model trained elsewhere, its tables."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from pathlib import Path  # noqa: E402

import rnnschur  # noqa: E402
from rnnschur import io  # noqa: E402
from rnnschur.external import verify  # noqa: E402

# The description as external_import found and verified it (checked again; how it was found
# kept, so the summary says it as the command's does).
weights = snakemake.input.weights
verification = verify.Verification.from_record(
    io.load_dynamics(weights), io.load_json(snakemake.input.verification)
)
result = rnnschur.analyse(
    weights,
    snakemake.input.heldout,
    verification,
    fitting=snakemake.input.fitting or None,
    name=snakemake.wildcards.name,
    progress=lambda line: print(line, file=sys.stderr),
    **snakemake.params.settings,
)
result.save_tables(Path(snakemake.output.ablation_csv).parent)
