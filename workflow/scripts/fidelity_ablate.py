"""Rule fidelity_ablate: every ablation of one model of the gap study, at every alpha."""

import json
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from types import SimpleNamespace  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import (  # noqa: E402
    evaluate_ablations,
    evaluation_noise,  # noqa: E402
    scoring_batch,
)
from rnnschur.schur import ordered_real_schur  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
meta = json.loads(open(snakemake.input.meta).read())
W_xh, W_hh, W_hy = io.load_weights(snakemake.input.weights)
dynamics = io.load_dynamics(snakemake.input.weights, params.split)
module = tasks.get(w.task)
generator, ablation = params.evaluation["generator"], params.evaluation["ablation"]
heldout = tasks.draw_heldout(w.task, params.n_heldout, params.base_seed, **generator)
noise = evaluation_noise(
    heldout, W_hh.shape[0], ablation["hidden_noise"], dynamics, params.base_seed, w.task, w.seed
)
rows = evaluate_ablations(
    W_xh,
    W_hh,
    W_hy,
    ordered_real_schur(W_hh, leak=dynamics.split_leak),
    list(params.alpha_grid),
    scoring_batch(heldout, module, ablation["fvu_steps"]),
    module,
    epsilon=ablation["epsilon"],
    mass_floor=ablation["mass_floor"],
    dynamics=dynamics,
    noise=noise,
    fvu_mean=ablation["fvu_mean"],
)
model = SimpleNamespace(
    task=w.task, construction=meta["construction"], size=meta["n_hidden"], seed=w.seed
)
summary = {k: meta["summary"][k] for k in ("steps", "reached_target", "best_step")}
rows = [{"variation": w.variation} | row | summary for row in io.labelled(rows, model)]
io.save_rows(snakemake.output[0], rows)
