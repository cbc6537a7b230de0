"""Rule checkpoint_ablation: ablations on the chosen checkpoints of one training run."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import Scoring, scoring_batch  # noqa: E402
from rnnschur.studies.beyond.along_training import evaluate_checkpoints, select_checkpoints  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
ablation = settings["ablation"]
task = tasks.get(w.task, snakemake.params.neurogym)
checkpoints = io.load_checkpoints(snakemake.input.checkpoints)
dynamics = io.load_dynamics(snakemake.input.checkpoints)
heldout = io.load_batch(
    snakemake.input.heldout, checkpoints["W_xh"].shape[-1], checkpoints["W_hy"].shape[-2]
)
selected = select_checkpoints(
    checkpoints["step"],
    checkpoints["validation_score"],
    settings["checkpoints"]["milestones"],
    settings["checkpoints"]["steps"],
    task.HIGHER_IS_BETTER,
)
print(f"checkpoints: {selected}", file=sys.stderr)
rows = evaluate_checkpoints(
    checkpoints,
    selected,
    settings["alpha"],
    scoring_batch(heldout, task, ablation["fvu_steps"]),
    task,
    Scoring(ablation["epsilon"], ablation["mass_floor"]),
    dynamics,
    settings["schur_split"],
)
io.save_rows(snakemake.output[0], io.labelled(rows, w))
