"""Rule collect_models: training summaries and held-out training curves of every model."""

import json
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies.paper.tables import model_summary  # noqa: E402

metas = [json.loads(open(path).read()) for path in snakemake.input.meta]
io.save_csv(snakemake.output.models, model_summary(metas, snakemake.params.criteria))
curves = []
for meta, path in zip(metas, snakemake.input.logs, strict=True):
    log = pd.read_csv(path).dropna(subset=["validation_score"])
    curves.append(
        log.assign(
            task=meta["task"],
            construction=meta["construction"],
            n_hidden=meta["n_hidden"],
            seed=meta["seed"],
            metric=meta["metric"],
        )
    )
io.save_csv(snakemake.output.curves, pd.concat(curves, ignore_index=True))
