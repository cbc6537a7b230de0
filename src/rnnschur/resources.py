"""What one model's jobs need: the memory a training or per-model job declares for its N_h,
held against the config's ``max_job_mem_mb`` by the workflow's checks and by an external
model's analysis (:func:`memory_warning`), before anything runs."""

from __future__ import annotations

from rnnschur.schema import default

PER_MODEL_MEM_MB = 1000
"""The memory a training or per-model job declares per model up to N_h = 128
(:func:`job_estimate`)."""


def job_estimate(base: float, size: int, n_models: int = 1) -> int:
    """A training or per-model job's resource (mem_mb or runtime in minutes): ``base`` per
    model up to N_h = 128, then growing as N_h^1.5, as a training step and a held-out rollout do
    (bench/bench_scaling.py; measured peaks at N_h = 256: 0.52 GB training, 0.45 GB ablation),
    times the models of a bundle."""
    return int(base * max(1.0, (size / 128) ** 1.5) * n_models)


def memory_warning(n_hidden: int) -> str | None:
    """A warning, before an external model's analysis runs, where its N_h would make the
    workflow's per-model jobs declare more memory than the schema's default
    ``max_job_mem_mb`` (the workflow refuses such a model; the command warns); None else."""
    need, ceiling = job_estimate(PER_MODEL_MEM_MB, n_hidden), default("max_job_mem_mb")
    if need <= ceiling:
        return None
    return (
        f"WARNING: N_h = {n_hidden}: one model this size takes about {need} MB by the "
        f"workflow's estimate, above max_job_mem_mb = {ceiling} (config key max_job_mem_mb; "
        "the workflow refuses it): the analysis may run for many minutes or swap"
    )
