"""Rule external_tables: one external model's tables, as the command writes them, assembled
from the files the per-model rules made of its task block."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from pathlib import Path  # noqa: E402

from rnnschur.external.analysis import from_model_files  # noqa: E402

settings = snakemake.params.settings  # rnnschur.external.settings.Settings, from the config
result = from_model_files(snakemake.wildcards.name, dict(snakemake.input.items()), settings)
result.save_tables(Path(snakemake.output.ablation_csv).parent)
print(result, file=sys.stderr)
