"""Rules that collect per-model tables: concatenate them into one."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402

frame = pd.concat([pd.read_csv(path) for path in snakemake.input], ignore_index=True)
io.save_csv(snakemake.output[0], frame)
