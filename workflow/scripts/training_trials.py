"""Rule training_trials: draw the training trials of one NeuroGym task and seed, once."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import time  # noqa: E402

from rnnschur import io, tasks  # noqa: E402

task, seed = snakemake.wildcards.task, int(snakemake.wildcards.seed)
params = snakemake.params
started = time.perf_counter()
trials = tasks.draw_training_trials(task, params.neurogym, params.n, params.base_seed, seed)
io.save_npz(snakemake.output[0], **trials.arrays())
print(
    f"{task} seed {seed}: {params.n} training trials, {len(trials.observations)} steps, "
    f"{time.perf_counter() - started:.1f} s",
    file=sys.stderr,
)
