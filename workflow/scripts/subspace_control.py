"""Rule subspace_control: overlaps of one model's ablations and their matched controls."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import Analysed, scoring_batch  # noqa: E402
from rnnschur.beyond import subspace  # noqa: E402
from rnnschur.seeds import job_rng  # noqa: E402
from rnnschur.tasks import Batch  # noqa: E402

w, settings = snakemake.wildcards, snakemake.params.settings
network, schur, heldout = io.load_model(
    snakemake.input.weights, snakemake.input.schur, snakemake.input.heldout
)
task = tasks.get(w.task, snakemake.params.neurogym)
n = settings["n_trials"]
batch = scoring_batch(
    Batch(heldout.inputs[:n], heldout.targets[:n], heldout.mask[:n]),
    task,
    settings["ablation"]["fvu_steps"],
)

_, hidden = network.rollout(batch.inputs, return_hidden=True)
axes, variance_ratio = subspace.principal_axes(hidden)
k = subspace.components_for_variance(variance_ratio, settings["variance"])
subspaces = {
    "top_pcs": axes[:, : settings["n_components"]],
    "variance_pcs": axes[:, :k],
    "readout": subspace.readout_subspace(network.W_hy),
}
print(
    f"subspace dimensions: { {name: b.shape[1] for name, b in subspaces.items()} }", file=sys.stderr
)
rng = job_rng(settings["base_seed"], "subspace_control", w.task, w.construction, w.size, w.seed)
analysed = Analysed(network, schur, batch, task)
rows = subspace.evaluate_controls(analysed, settings["alpha"], subspaces, settings["n_draws"], rng)
# the table says on how many of the held-out trials it was scored (config subspace_control.n_trials)
scored_on = {"n_trials": len(batch.inputs), "n_heldout": len(heldout.inputs)}
io.save_rows(snakemake.output[0], io.labelled([r | scored_on for r in rows], w))
