"""Rule fidelity_ablate: every ablation of one model of the gap study, at every alpha."""

import json
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from types import SimpleNamespace  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import (  # noqa: E402
    Analysed,
    Scoring,
    evaluate_ablations,
    evaluation_noise,
    scoring_batch,
)
from rnnschur.schur import ordered_real_schur  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
meta = json.loads(open(snakemake.input.meta).read())
network = io.load_network(snakemake.input.weights)
module = tasks.get(w.task)
generator, ablation = params.evaluation["generator"], params.evaluation["ablation"]
heldout = tasks.draw_heldout(w.task, params.n_heldout, params.base_seed, **generator)
noise = evaluation_noise(
    heldout,
    network.n_hidden,
    ablation["hidden_noise"],
    network.dynamics,
    params.base_seed,
    w.task,
    w.seed,
)
analysed = Analysed(
    network,
    ordered_real_schur(network.W_hh, leak=network.dynamics.split_leak(params.split)),
    scoring_batch(heldout, module, ablation["fvu_steps"]),
    module,
)
rows = evaluate_ablations(
    analysed,
    list(params.alpha_grid),
    Scoring.from_config(ablation),
    noise=noise,
)
model = SimpleNamespace(
    task=w.task, construction=meta["construction"], size=meta["n_hidden"], seed=w.seed
)
summary = {k: meta["summary"][k] for k in ("steps", "reached_target", "best_step")}
rows = [{"variation": w.variation} | row | summary for row in io.labelled(rows, model)]
io.save_rows(snakemake.output[0], rows)
