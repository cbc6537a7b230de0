"""Training rule (one per bundle): train a bundle of models as one computation and write each
model's weights, checkpoints, training log and meta data, as a model trained alone writes them
(a NeuroGym task's models on the training trials drawn once for their task and seed)."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import dataclasses  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.io.provenance import software_versions, weights_sha256  # noqa: E402
from rnnschur.network.dynamics import Dynamics  # noqa: E402
from rnnschur.network.rnn import rollout  # noqa: E402
from rnnschur.settings.seeds import job_rng  # noqa: E402
from rnnschur.training.train import (  # noqa: E402
    LOG_COLUMNS,
    TrainSettings,
    train_bundle,
    training_trials_needed,
)

started = time.time()
# NumPy's BLAS (and torch, for the Cayley map) take their threads from OMP_NUM_THREADS, which
# Snakemake sets to the rule's threads.
print(
    f"threads: rule {snakemake.threads}, OMP_NUM_THREADS {os.environ.get('OMP_NUM_THREADS')}, "
    f"started {started:.3f}",
    file=sys.stderr,
)
params = snakemake.params
bundle = params.bundle  # the bundle's models; the other params are one model's training
task, construction, size, seeds = (bundle[k] for k in ("task", "construction", "size", "seeds"))
names = [f"{task}/{construction}/n{size}/seed{seed}" for seed in seeds]
training = dict(params.training)
training["curriculum"] = tuple(training.get("curriculum", ()))
settings = TrainSettings(**training, device=params.device)
module = tasks.get(task, params.generator.get("neurogym"))
heldout = io.load_batch(snakemake.input.heldout, *module.dims(**params.generator))
# each model's random stream: its task's (a gap-study instance draws what its task's model draws)
rngs = [
    job_rng(params.base_seed, bundle.get("stream", task), construction, size, seed)
    for seed in seeds
]
dynamics = Dynamics.from_config(params.model)
# a NeuroGym task's training trials, drawn once for its task and seed (rule training_trials)
trials = (
    [
        io.load_trials(snakemake.input[f"trials_{seed}"], training_trials_needed(settings))
        for seed in seeds
    ]
    if f"trials_{seeds[0]}" in snakemake.input.keys()
    else None
)
print(f"bundle of {len(seeds)}: {names}", file=sys.stderr)
models = train_bundle(
    task, params.generator, construction, size, settings, rngs, heldout, names, dynamics, trials
)

family = io.dynamics_arrays(dynamics)  # none for the paper's discrete tanh network
for seed, name, model in zip(seeds, names, models, strict=True):
    if hasattr(module, "heldout_performance"):  # a NeuroGym task: its own per-trial correctness
        outputs = rollout(model.W_xh, model.W_hh, model.W_hy, heldout.inputs, dynamics=dynamics)
        performance = module.heldout_performance(params.base_seed, heldout, outputs)
        model.summary["trial_performance"] = float(performance.mean())
    out = {kind: snakemake.output[f"{kind}_{seed}"] for kind in ("weights", "meta", "log_csv")}
    io.save_rows(out["log_csv"], [dict(zip(LOG_COLUMNS, r, strict=True)) for r in model.log])
    io.save_npz(out["weights"], W_xh=model.W_xh, W_hh=model.W_hh, W_hy=model.W_hy, **family)
    io.save_npz(snakemake.output[f"checkpoints_{seed}"], **model.checkpoints, **family)
    io.save_json(
        out["meta"],
        {
            "task": task,
            "construction": construction,
            "n_hidden": size,
            "seed": seed,
            "base_seed": params.base_seed,
            "generator": params.generator,
            "training": training,
            "model": dynamics.as_dict(),
            "effective_training": dataclasses.asdict(settings),
            "metric": module.SCORE,
            "summary": model.summary,
            # what every later job checks the weights file against (rule schur)
            "weights_sha256": weights_sha256(out["weights"]),
            "versions": software_versions(),
        },
    )
    print(f"{name}: {model.summary}", file=sys.stderr)
print(f"finished {time.time():.3f}", file=sys.stderr)
