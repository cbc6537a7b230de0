"""Rule train: train one model and write its weights, training log and meta data."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import dataclasses  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.dynamics import Dynamics  # noqa: E402
from rnnschur.provenance import software_versions  # noqa: E402
from rnnschur.rnn import rollout  # noqa: E402
from rnnschur.seeds import job_rng  # noqa: E402
from rnnschur.tasks._neurogym import NeurogymTask, heldout_performance  # noqa: E402
from rnnschur.training.train import LOG_COLUMNS, TrainSettings, train  # noqa: E402

started = time.time()
# NumPy's BLAS (and torch, for the Cayley map) take their threads from OMP_NUM_THREADS, which
# Snakemake sets to the rule's threads.
print(
    f"threads: rule {snakemake.threads}, OMP_NUM_THREADS {os.environ.get('OMP_NUM_THREADS')}, "
    f"started {started:.3f}",
    file=sys.stderr,
)
w, params = snakemake.wildcards, snakemake.params
name = f"{w.task}/{w.construction}/n{w.size}/seed{w.seed}"
training = dict(params.training)
training["curriculum"] = tuple(training.get("curriculum", ()))
settings = TrainSettings(**training, device=params.device)
module = tasks.get(w.task)
heldout = io.load_batch(snakemake.input.heldout, *module.dims(**params.generator))
rng = job_rng(params.base_seed, w.task, w.construction, int(w.size), int(w.seed))

dynamics = Dynamics.from_config(params.model)
model = train(
    w.task, params.generator, w.construction, int(w.size), settings, rng, heldout, name, dynamics
)

if isinstance(module, NeurogymTask):  # NeuroGym's own per-trial correctness, reported
    outputs = rollout(model.W_xh, model.W_hh, model.W_hy, heldout.inputs, dynamics=dynamics)
    performance = heldout_performance(w.task, params.base_seed, heldout, outputs)
    model.summary["trial_performance"] = float(performance.mean())

io.save_rows(snakemake.output.log_csv, [dict(zip(LOG_COLUMNS, r, strict=True)) for r in model.log])
family = io.dynamics_arrays(dynamics)  # none for the paper's discrete tanh network
io.save_npz(snakemake.output.weights, W_xh=model.W_xh, W_hh=model.W_hh, W_hy=model.W_hy, **family)
io.save_npz(snakemake.output.checkpoints, **model.checkpoints, **family)
io.save_json(
    snakemake.output.meta,
    {
        "task": w.task,
        "construction": w.construction,
        "n_hidden": int(w.size),
        "seed": int(w.seed),
        "base_seed": params.base_seed,
        "generator": params.generator,
        "training": training,
        "model": dynamics.as_dict(),
        "effective_training": dataclasses.asdict(settings),
        "metric": module.SCORE,
        "summary": model.summary,
        "versions": software_versions(),
    },
)
print(f"{name}: {model.summary}", file=sys.stderr)
print(f"finished {time.time():.3f}", file=sys.stderr)
