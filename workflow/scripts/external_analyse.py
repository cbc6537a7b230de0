"""Rule external_analyse: the paper's analysis of one model trained elsewhere, its tables."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from pathlib import Path  # noqa: E402

import rnnschur  # noqa: E402

# The description stored by external_import; found again where the entry says auto, so the
# summary says how it was found, as the command's does.
auto = snakemake.params.model["dynamics"] == "auto"
result = rnnschur.analyse(
    snakemake.input.weights,
    snakemake.input.heldout,
    "auto" if auto else None,
    split=snakemake.params.split,
    fitting=snakemake.input.fitting or None,
    name=snakemake.wildcards.name,
    progress=lambda line: print(line, file=sys.stderr),
    **snakemake.params.settings,
)
result.save_tables(Path(snakemake.output.ablation_csv).parent)
