"""Rule external_analyse: the paper's analysis of one model trained elsewhere."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from pathlib import Path  # noqa: E402

from rnnschur import external, io, models  # noqa: E402

model, heldout, fitting = external.load_inputs(
    models.load_npz_model(snakemake.input.weights),
    snakemake.input.heldout,
    fitting=snakemake.input.fitting or None,
)
external.analyse(
    model,
    heldout,
    external.Settings(**snakemake.params.settings),
    Path(snakemake.output.summary_md).parent,
    snakemake.wildcards.name,
    fitting,
    progress=lambda line: print(line, file=sys.stderr),
    dynamics=io.load_dynamics(snakemake.input.weights, snakemake.params.split),
)
