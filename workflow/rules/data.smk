rule heldout:
    """The fixed held-out evaluation set of a task."""
    output:
        f"{R}/data/{{task}}/heldout.npz",
    log:
        f"{R}/logs/data/{{task}}.log",
    benchmark:
        f"{R}/benchmarks/data/{{task}}.tsv"
    wildcard_constraints:
        task=DRAWN_TASKS,
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
    wildcard_constraints:
        task=DRAWN_TASKS,
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


rule training_trials:
    """The training trials of a NeuroGym task and seed, drawn once from a random stream of
    their own: every network description and N_h of that task and seed trains on them (batch k
    of a model is trials kB to (k + 1)B - 1). Temporary: deleted when its trainings are done,
    drawn again, the same, if one reruns."""
    output:
        temp(f"{R}/data/{{task}}/training_trials/seed{{seed}}.npz"),
    log:
        f"{R}/logs/data/{{task}}_training_trials_seed{{seed}}.log",
    benchmark:
        f"{R}/benchmarks/data/{{task}}_training_trials_seed{{seed}}.tsv"
    conda:
        "../../envs/train.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        code=lambda w: code("training_trials.py", w.task),
        neurogym=lambda w: neurogym_spec(w.task),
        n=lambda w: training_trials_n(w.task),
        base_seed=config["base_seed"],
    script:
        "../scripts/training_trials.py"
