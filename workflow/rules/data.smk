rule heldout:
    """The fixed held-out evaluation set of a task."""
    output:
        f"{R}/data/{{task}}/heldout.npz",
    log:
        f"{R}/logs/data/{{task}}.log",
    benchmark:
        f"{R}/benchmarks/data/{{task}}.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        generator=lambda w: task_config(w.task)["generator"],
        n=lambda w: task_config(w.task)["n_heldout"],
        base_seed=config["base_seed"],
    script:
        "../scripts/heldout.py"
