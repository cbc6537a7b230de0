"""Rule fidelity_model: one model of the gap study, from held-out set to ablations."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import dataclasses  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import pandas as pd  # noqa: E402
import torch  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import evaluate_ablations, scoring_batch  # noqa: E402
from rnnschur.provenance import software_versions  # noqa: E402
from rnnschur.schur import ordered_real_schur  # noqa: E402
from rnnschur.seeds import job_rng  # noqa: E402
from rnnschur.train import TrainSettings, train  # noqa: E402

torch.set_num_threads(snakemake.threads)
w, params = snakemake.wildcards, snakemake.params
construction, size = params.model
generator, training = params.settings
training = dict(training, curriculum=tuple(training.get("curriculum", ())))
module = tasks.get(w.task)
# The same seeds as the main models, so a variation differs from them by its settings alone.
heldout = module.generate(
    job_rng(params.base_seed, "heldout", w.task), params.n_heldout, **generator
)
rng = job_rng(params.base_seed, w.task, construction, size, int(w.seed))
name = f"fidelity/{w.variation}/{w.task}/seed{w.seed}"
settings = TrainSettings(**training, device=params.device)
model = train(w.task, generator, construction, size, settings, rng, heldout, name)
schur = ordered_real_schur(model.W_hh)
rows = evaluate_ablations(
    model.W_xh,
    model.W_hh,
    model.W_hy,
    schur,
    list(params.alpha_grid),
    scoring_batch(heldout, module, params.ablation["fvu_steps"]),
    module,
    epsilon=params.ablation["epsilon"],
    mass_floor=params.ablation["mass_floor"],
)
identity = SimpleNamespace(task=w.task, construction=construction, size=size, seed=w.seed)
frame = pd.DataFrame(io.labelled(rows, identity))
frame.insert(0, "variation", w.variation)
for key in ("steps", "reached_target", "best_step"):
    frame[key] = model.summary[key]
io.save_npz(snakemake.output.weights, W_xh=model.W_xh, W_hh=model.W_hh, W_hy=model.W_hy)
io.save_csv(snakemake.output.ablation, frame)
io.save_json(
    snakemake.output.meta,
    {
        "variation": w.variation,
        "task": w.task,
        "construction": construction,
        "n_hidden": size,
        "seed": int(w.seed),
        "generator": generator,
        "effective_training": dataclasses.asdict(settings),
        "summary": model.summary,
        "versions": software_versions(),
    },
)
print(f"{name}: {model.summary}", file=sys.stderr)
