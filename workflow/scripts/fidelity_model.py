"""Rule fidelity_model: train one model of the gap study."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import dataclasses  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.dynamics import Dynamics  # noqa: E402
from rnnschur.provenance import software_versions  # noqa: E402
from rnnschur.seeds import job_rng  # noqa: E402
from rnnschur.training.train import TrainSettings, train  # noqa: E402

w, params = snakemake.wildcards, snakemake.params
construction, size = params.model
generator, training = params.settings
training = dict(training, curriculum=tuple(training.get("curriculum", ())))
# The same seeds as the main models, so a variation differs from them by its settings alone; the
# held-out set follows the variation's generator.
heldout = tasks.draw_heldout(w.task, params.n_heldout, params.base_seed, **generator)
rng = job_rng(params.base_seed, w.task, construction, size, int(w.seed))
name = f"fidelity/{w.variation}/{w.task}/seed{w.seed}"
settings = TrainSettings(**training, device=params.device)
dynamics = Dynamics.from_config(params.network)
model = train(w.task, generator, construction, size, settings, rng, heldout, name, dynamics)
io.save_npz(
    snakemake.output.weights,
    W_xh=model.W_xh,
    W_hh=model.W_hh,
    W_hy=model.W_hy,
    **io.dynamics_arrays(dynamics),
)
io.save_json(
    snakemake.output.meta,
    {
        "variation": w.variation,
        "task": w.task,
        "construction": construction,
        "n_hidden": size,
        "seed": int(w.seed),
        "generator": generator,
        "model": dynamics.as_dict(),
        "effective_training": dataclasses.asdict(settings),
        "summary": model.summary,
        "versions": software_versions(),
    },
)
print(f"{name}: {model.summary}", file=sys.stderr)
