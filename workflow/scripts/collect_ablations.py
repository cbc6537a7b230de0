"""Rule collect_ablations: the per-model ablation tables as one, with whether each model
learned its task (the decision of models.csv)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io, learned  # noqa: E402

frame = pd.concat([pd.read_csv(path) for path in snakemake.input.ablations], ignore_index=True)
io.save_csv(snakemake.output[0], learned.join(frame, pd.read_csv(snakemake.input.models)))
