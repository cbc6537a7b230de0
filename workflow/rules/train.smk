# Training: one job per bundle of models (the seeds of a task, construction and N_h in blocks of
# config training_bundle), one rule per bundle, named train_<task>_<construction>_n<N>_b<block>;
# each model's files are those a model trained alone writes, at the same paths.


for _task, _construction, _size, _block, _seeds in training_bundles():

    rule:
        # Trains the bundle's models as one computation (rnnschur.training.train.train_bundle);
        # stops each early at the target validation score, fails on divergence, keeps the
        # weights at initialisation and every validation step as checkpoints. The params are
        # the bundle (task, construction, N_h, seeds) and one model's training settings (the
        # same for every seed of the bundle).
        name:
            f"train_{_task}_{_construction}_n{_size}_b{_block}"
        input:
            **training_trial_files(_task, _seeds),
            heldout=f"{R}/data/{_task}/heldout.npz",
            # a NeuroGym task's training trials, drawn once per seed (rule training_trials)
        output:
            **trained_model_files(_task, _construction, _size, _seeds),
        log:
            f"{R}/logs/train/{_task}/{_construction}/n{_size}/b{_block}.log",
        benchmark:
            f"{R}/benchmarks/train/{_task}/{_construction}/n{_size}/b{_block}.tsv"
        conda:
            "../../envs/train.yaml"
        threads: 1
        resources:
            mem_mb=bundle_resource(1000, _size, len(_seeds)),
            runtime=bundle_resource(30, _size, len(_seeds)),
            # One GPU per training job when training on CUDA: `--resources gpu=N` (local) or
            # the SLURM executor's native gpu resource keeps -cN from stacking N trainings on
            # one GPU.
            gpu=GPUS_PER_TRAINING,
        params:
            code=code("train.py", _task),
            bundle=training_bundle(_task, _construction, _size, _seeds),
            generator=trial_source(_task),
            training=training_settings(_task, _construction),
            model=task_config(_task)["model"],
            base_seed=config["base_seed"],
            device=config["device"],
            numerics=config["numerics"],
        script:
            "../scripts/train.py"


rule trained:
    """Every model of the run trained (a target: `snakemake -c8 trained`)."""
    input:
        model_files(f"{R}/models/{MODEL}/weights.npz"),
    localrule: True
