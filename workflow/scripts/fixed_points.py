"""Rule fixed_points: the fixed points of one model under constant inputs, intact and with each
coupling block removed at α, and what each removal does to the stable ones."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import scoring_batch  # noqa: E402
from rnnschur.studies import fixed_point_study  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task, snakemake.params.neurogym)
rows = fixed_point_study.model_rows(
    network, schur, heldout, w.task, fixed_point_study.Study.from_settings(settings)
)
# the full model's held-out score, so that the summary reads the models that learned alone
batch = scoring_batch(heldout, task, settings["ablation"]["fvu_steps"])
full = {"metric": task.SCORE, "full_score": float(task.score(network.rollout(batch.inputs), batch))}
io.save_rows(snakemake.output[0], io.labelled([full | r for r in rows], w))
