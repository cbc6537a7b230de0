"""Gap-study training rule (one per bundle): train a bundle of one variation's models."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import dataclasses  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.dynamics import Dynamics  # noqa: E402
from rnnschur.provenance import software_versions  # noqa: E402
from rnnschur.seeds import job_rng  # noqa: E402
from rnnschur.training.train import TrainSettings, train_bundle  # noqa: E402

params = snakemake.params
# The bundle's models; the other params are one model's settings.
variation, task, seeds = (params.bundle[k] for k in ("variation", "task", "seeds"))
construction, size = params.setup
generator, training = params.settings
training = dict(training, curriculum=tuple(training.get("curriculum", ())))
# The same seeds as the main models, so a variation differs from them by its settings alone; the
# held-out set follows the variation's generator.
heldout = tasks.draw_heldout(task, params.n_heldout, params.base_seed, **generator)
rngs = [job_rng(params.base_seed, task, construction, size, seed) for seed in seeds]
names = [f"fidelity/{variation}/{task}/seed{seed}" for seed in seeds]
settings = TrainSettings(**training, device=params.device)
dynamics = Dynamics.from_config(params.network)
models = train_bundle(task, generator, construction, size, settings, rngs, heldout, names, dynamics)
for seed, name, model in zip(seeds, names, models, strict=True):
    io.save_npz(
        snakemake.output[f"weights_{seed}"],
        W_xh=model.W_xh,
        W_hh=model.W_hh,
        W_hy=model.W_hy,
        **io.dynamics_arrays(dynamics),
    )
    io.save_json(
        snakemake.output[f"meta_{seed}"],
        {
            "variation": variation,
            "task": task,
            "construction": construction,
            "n_hidden": size,
            "seed": seed,
            "generator": generator,
            "model": dynamics.as_dict(),
            "effective_training": dataclasses.asdict(settings),
            "summary": model.summary,
            "versions": software_versions(),
        },
    )
    print(f"{name}: {model.summary}", file=sys.stderr)
