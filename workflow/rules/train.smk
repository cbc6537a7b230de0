rule train:
    """Train one model; stops early at the target validation score, fails on divergence.

    Keeps the weights at initialisation and at every validation step as checkpoints."""
    input:
        heldout=f"{R}/data/{{task}}/heldout.npz",
    output:
        weights=f"{R}/models/{MODEL}/weights.npz",
        meta=f"{R}/models/{MODEL}/meta.json",
        log_csv=f"{R}/models/{MODEL}/train_log.csv",
        checkpoints=f"{R}/models/{MODEL}/checkpoints.npz",
    log:
        f"{R}/logs/train/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/train/{MODEL}.tsv"
    conda:
        "../../envs/train.yaml"
    threads: 1
    resources:
        mem_mb=per_model(1000),
        runtime=per_model(30),
        # One GPU per training job when training on CUDA: `--resources gpu=N` (local) or the
        # SLURM executor's native gpu resource keeps -cN from stacking N trainings on one GPU.
        gpu=GPUS_PER_TRAINING,
    params:
        generator=lambda w: trial_source(w.task),
        training=lambda w: training_settings(w.task, w.construction),
        model=lambda w: task_config(w.task)["model"],
        base_seed=config["base_seed"],
        device=config["device"],
        numerics=config["numerics"],
    script:
        "../scripts/train.py"
