"""Rules collect_ablations and task_ablation: the per-model ablation tables as one (every
task's, or one task's), with whether each model learned its task (the decision of models.csv,
or of the task's own meta files: a figure of one task needs no other task's models) and, for
the whole table where the run checks it, which T_RR and T_CC readings are basis-dependent (at
the largest tolerance)."""

import json
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies import learned  # noqa: E402
from rnnschur.studies.beyond.summaries import mark_basis_dependent  # noqa: E402
from rnnschur.studies.paper.tables import model_summary  # noqa: E402

frame = pd.concat([pd.read_csv(path) for path in snakemake.input.ablations], ignore_index=True)
if "models" in snakemake.input.keys():
    models = pd.read_csv(snakemake.input.models)
    basis = None
    if snakemake.input.basis:
        basis = pd.read_csv(snakemake.input.basis)
        basis = basis[basis["tolerance"] == max(snakemake.params.basis_tolerances)]
    frame = mark_basis_dependent(frame, basis, snakemake.params.alpha)
else:
    metas = [json.loads(open(path).read()) for path in snakemake.input.meta]
    models = model_summary(metas, snakemake.params.criteria)
io.save_csv(snakemake.output[0], learned.join(frame, models))
