# Beyond the paper: four questions it leaves open, one job per model each, all at `alpha`.


rule checkpoint_ablation:
    """All 8 subsets on checkpoints of the training run (when training stops)."""
    input:
        checkpoints=f"{R}/models/{MODEL}/checkpoints.npz",
        heldout=f"{R}/data/{{task}}/heldout.npz",
    output:
        f"{R}/beyond/checkpoint_ablation/{MODEL}.csv",
    log:
        f"{R}/logs/beyond/checkpoint_ablation/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/beyond/checkpoint_ablation/{MODEL}.tsv"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        alpha=config["alpha"],
        selection=lambda w: task_config(w.task)["checkpoints"],
        epsilon=config["ablation"]["epsilon"],
        mass_floor=config["ablation"]["mass_floor"],
        fvu_steps=config["ablation"]["fvu_steps"],
    script:
        "../scripts/checkpoint_ablation.py"


rule subspace_control:
    """Overlap of each ablation's dW with activity and readout subspaces, and matched random
    perturbations."""
    input:
        weights=f"{R}/models/{MODEL}/weights.npz",
        schur=f"{R}/schur/{MODEL}.npz",
        heldout=f"{R}/data/{{task}}/heldout.npz",
    output:
        f"{R}/beyond/subspace_control/{MODEL}.csv",
    log:
        f"{R}/logs/beyond/subspace_control/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/beyond/subspace_control/{MODEL}.tsv"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=20,
    params:
        alpha=config["alpha"],
        settings=config["subspace_control"],
        fvu_steps=config["ablation"]["fvu_steps"],
        base_seed=config["base_seed"],
    script:
        "../scripts/subspace_control.py"


rule readout_refit:
    """Held-out score of each ablation with the fixed readout and with a ridge readout refit."""
    input:
        weights=f"{R}/models/{MODEL}/weights.npz",
        schur=f"{R}/schur/{MODEL}.npz",
        heldout=f"{R}/data/{{task}}/heldout.npz",
    output:
        f"{R}/beyond/readout_refit/{MODEL}.csv",
    log:
        f"{R}/logs/beyond/readout_refit/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/beyond/readout_refit/{MODEL}.tsv"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        alpha=config["alpha"],
        settings=config["readout_refit"],
        generator=lambda w: task_config(w.task)["generator"],
        fvu_steps=config["ablation"]["fvu_steps"],
        base_seed=config["base_seed"],
    script:
        "../scripts/readout_refit.py"


rule basis_sensitivity:
    """Eigenvector conditioning, departure from normality, and the spread of the Schur and the
    eigen-coordinate ablation under tiny perturbations of W."""
    input:
        weights=f"{R}/models/{MODEL}/weights.npz",
        schur=f"{R}/schur/{MODEL}.npz",
    output:
        f"{R}/beyond/basis_sensitivity/{MODEL}.csv",
    log:
        f"{R}/logs/beyond/basis_sensitivity/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/beyond/basis_sensitivity/{MODEL}.tsv"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        alpha=config["alpha"],
        settings=config["basis_sensitivity"],
        base_seed=config["base_seed"],
    script:
        "../scripts/basis_sensitivity.py"


BEYOND = ["checkpoint_ablation", "subspace_control", "readout_refit", "basis_sensitivity"]


rule collect_beyond:
    """One tidy table per analysis over every model."""
    input:
        lambda w: beyond_files(f"{R}/beyond/{w.analysis}/{MODEL}.csv"),
    output:
        f"{TABLES}/{{analysis}}.csv",
    log:
        f"{R}/logs/aggregate/{{analysis}}.log",
    wildcard_constraints:
        analysis="|".join(BEYOND),
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    script:
        "../scripts/collect_ablations.py"


rule subspace_summary:
    """Per model the verdict of each ablation against its matched controls; per task the
    summary over seeds."""
    input:
        f"{TABLES}/subspace_control.csv",
    output:
        verdicts=f"{TABLES}/subspace_verdicts.csv",
        csv=report(
            f"{TABLES}/subspace_summary.csv",
            caption="../report/subspace_summary.rst",
            category="Beyond the paper",
        ),
        md=f"{TABLES}/subspace_summary.md",
    log:
        f"{R}/logs/aggregate/subspace_summary.log",
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        effect_floor=config["subspace_control"]["effect_floor"],
        ratio=config["subspace_control"]["ratio"],
    script:
        "../scripts/subspace_summary.py"


rule beyond_summary:
    """Summary over seeds of the readout refit, the basis sensitivity and the checkpoints."""
    input:
        f"{TABLES}/{{analysis}}.csv",
    output:
        csv=report(
            f"{TABLES}/{{analysis}}_summary.csv",
            caption="../report/beyond_summary.rst",
            category="Beyond the paper",
        ),
        md=f"{TABLES}/{{analysis}}_summary.md",
    log:
        f"{R}/logs/aggregate/{{analysis}}_summary.log",
    wildcard_constraints:
        analysis="readout_refit|basis_sensitivity|checkpoint_ablation",
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        summary=lambda w: {
            "readout_refit": "refit_summary",
            "basis_sensitivity": "basis_summary",
            "checkpoint_ablation": "checkpoint_summary",
        }[w.analysis],
    script:
        "../scripts/beyond_summary.py"
