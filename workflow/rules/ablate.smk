rule ablate:
    """All 8 coupling subsets at every alpha of the grid, one batched rollout per model."""
    input:
        weights=f"{R}/models/{MODEL}/weights.npz",
        schur=f"{R}/schur/{MODEL}.npz",
        heldout=f"{R}/data/{{task}}/heldout.npz",
    output:
        f"{R}/ablation/{MODEL}.csv",
    log:
        f"{R}/logs/ablate/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/ablate/{MODEL}.tsv"
    group:
        "post"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=per_model(1000),
        runtime=per_model(10),
    params:
        code=lambda w: code("ablate.py", w.task),
        neurogym=lambda w: neurogym_spec(w.task),
        alpha_grid=config["alpha_grid"],
        ablation=lambda w: ablation_settings(w.task),
        stream=lambda w: stream(w.task),
        base_seed=config["base_seed"],
        verdicts=verdict_settings(),
        bootstrap=config["solutions"]["bootstrap"],
        numerics=config["numerics"],
    script:
        "../scripts/ablate.py"
