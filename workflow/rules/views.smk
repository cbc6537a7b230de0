# What the descriptive figures show: per representative model its ordered spectrum and |T|, and
# example held-out trials (FVU tasks); one job per model, then one table each.


rule spectrum:
    """Ordered eigenvalues and |T| of one model."""
    input:
        weights=f"{R}/models/{MODEL}/weights.npz",
        schur=f"{R}/schur/{MODEL}.npz",
        # read for io.load_model's checks only (the weights' digest among them)
        heldout=f"{R}/data/{{task}}/heldout.npz",
    output:
        eigenvalues=f"{R}/views/spectra/{MODEL}.csv",
        abs_T=f"{R}/views/schur_abs_T/{MODEL}.csv",
    log:
        f"{R}/logs/views/spectrum/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/views/spectrum/{MODEL}.tsv"
    group:
        "post"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        code=code("spectrum.py"),
        alpha=config["alpha"],
        numerics=config["numerics"],
    script:
        "../scripts/spectrum.py"


rule rollout_example:
    """Held-out example trials of one model: target, full model and each single-block
    ablation."""
    input:
        weights=f"{R}/models/{MODEL}/weights.npz",
        schur=f"{R}/schur/{MODEL}.npz",
        heldout=f"{R}/data/{{task}}/heldout.npz",
    output:
        f"{R}/views/rollout_examples/{MODEL}.csv",
    log:
        f"{R}/logs/views/rollout/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/views/rollout/{MODEL}.tsv"
    group:
        "post"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        code=lambda w: code("rollout_example.py", w.task),
        alpha=config["alpha"],
        n_trials=3,
        numerics=config["numerics"],
    script:
        "../scripts/rollout_example.py"


rule collect_views:
    """The representative models' spectra, |T| and example trials as three tables."""
    input:
        lambda w: representative_files(
            f"{R}/views/{w.view}/{MODEL}.csv", FVU_TASKS if w.view == "rollout_examples" else None
        ),
    output:
        f"{TABLES}/{{view}}.csv",
    log:
        f"{R}/logs/aggregate/{{view}}.log",
    benchmark:
        f"{R}/benchmarks/aggregate/{{view}}.tsv"
    wildcard_constraints:
        view="spectra|schur_abs_T|rollout_examples",
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("concatenate.py"),
    script:
        "../scripts/concatenate.py"
