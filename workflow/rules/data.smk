rule heldout:
    """The fixed held-out evaluation set of a task."""
    output:
        f"{R}/data/{{task}}/heldout.npz",
    log:
        f"{R}/logs/data/{{task}}.log",
    benchmark:
        f"{R}/benchmarks/data/{{task}}.tsv"
    localrule: True
    # the training env: a NeuroGym task's trials need neurogym (which imports torch)
    conda:
        "../../envs/train.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=lambda w: code("heldout.py", w.task),
        generator=lambda w: heldout_source(w.task),
        n=lambda w: task_config(w.task)["n_heldout"],
        base_seed=config["base_seed"],
    script:
        "../scripts/heldout.py"


rule fitting:
    """The fitting set of a task for the readout refit (beyond the paper): drawn apart from the
    held-out set, the same for every model of the task."""
    output:
        f"{R}/data/{{task}}/fitting.npz",
    log:
        f"{R}/logs/data/{{task}}_fitting.log",
    benchmark:
        f"{R}/benchmarks/data/{{task}}_fitting.tsv"
    localrule: True
    # the training env: a NeuroGym task's trials need neurogym (which imports torch)
    conda:
        "../../envs/train.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=lambda w: code("fitting.py", w.task),
        generator=lambda w: trial_source(w.task),
        n=config["readout_refit"]["n_trials"],
        base_seed=config["base_seed"],
    script:
        "../scripts/fitting.py"
