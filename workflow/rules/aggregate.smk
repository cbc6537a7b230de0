MARK_BASIS_DEPENDENT = [("rnnschur.studies.beyond.summaries", "mark_basis_dependent")]
"""Of the summaries, the one function the ablation tables run: another study's edit reruns none."""


rule collect_ablations:
    """One tidy table of every ablation of every model, with whether the model learned its task
    (decided once, in models.csv) and, where the run checks it, whether its T_RR or T_CC
    reading at alpha is basis-dependent."""
    input:
        ablations=model_files(f"{R}/ablation/{MODEL}.csv"),
        models=f"{TABLES}/models.csv",
        basis=basis_models(),
    output:
        report(f"{TABLES}/ablation.csv", caption="../report/ablation.rst", category="Tables"),
    log:
        f"{R}/logs/aggregate/ablation.log",
    benchmark:
        f"{R}/benchmarks/aggregate/ablation.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("collect_ablations.py", parts=MARK_BASIS_DEPENDENT),
        alpha=config["alpha"],
        basis_tolerances=config["basis_dependence"]["tolerances"],
    script:
        "../scripts/collect_ablations.py"


rule task_ablation:
    """One task's ablations with whether each model learned (decided from its own meta files):
    what a figure of that task alone reads, so that drawing it trains no other task."""
    input:
        ablations=lambda w: model_files(f"{R}/ablation/{MODEL}.csv", [w.task]),
        meta=lambda w: model_files(f"{R}/models/{MODEL}/meta.json", [w.task]),
    output:
        f"{TABLES}/by_task/{{task}}/ablation.csv",
    log:
        f"{R}/logs/aggregate/ablation_{{task}}.log",
    benchmark:
        f"{R}/benchmarks/aggregate/ablation_{{task}}.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("collect_ablations.py", parts=MARK_BASIS_DEPENDENT),
        criteria=lambda w: {w.task: learned_criteria()[w.task]},  # its own task's alone
    script:
        "../scripts/collect_ablations.py"


rule collect_models:
    """Training summary and held-out score of every model, and the training curves."""
    input:
        meta=model_files(f"{R}/models/{MODEL}/meta.json"),
        logs=model_files(f"{R}/models/{MODEL}/train_log.csv"),
    output:
        models=report(f"{TABLES}/models.csv", caption="../report/models.rst", category="Tables"),
        curves=f"{TABLES}/training_curves.csv",
    log:
        f"{R}/logs/aggregate/models.log",
    benchmark:
        f"{R}/benchmarks/aggregate/models.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("collect_models.py"),
        criteria=learned_criteria(),
    script:
        "../scripts/collect_models.py"


rule table1:
    """Table 1: copy-task accuracy per alpha, construction and ablation set."""
    input:
        f"{TABLES}/ablation.csv",
    output:
        csv=report(f"{TABLES}/table1.csv", caption="../report/table1.rst", category="Tables"),
        md=f"{TABLES}/table1.md",
    log:
        f"{R}/logs/aggregate/table1.log",
    benchmark:
        f"{R}/benchmarks/aggregate/table1.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("table1.py"),
    script:
        "../scripts/table1.py"


rule paper_vs_reproduced:
    """Every number of the paper beside the reproduced mean and spread over seeds, with the
    sentences of workflow/templates/paper_vs_reproduced.md above them."""
    input:
        ablation=f"{TABLES}/ablation.csv",
    output:
        csv=report(
            f"{TABLES}/paper_vs_reproduced.csv",
            caption="../report/paper_vs_reproduced.rst",
            category="Tables",
        ),
        md=f"{TABLES}/paper_vs_reproduced.md",
        per_seed=f"{TABLES}/paper_vs_reproduced_per_seed.csv",
    log:
        f"{R}/logs/aggregate/paper_vs_reproduced.log",
    benchmark:
        f"{R}/benchmarks/aggregate/paper_vs_reproduced.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("paper_vs_reproduced.py"),
        verdicts=verdict_settings(),
        template=template("paper_vs_reproduced.md"),
    script:
        "../scripts/paper_vs_reproduced.py"


rule claims:
    """Each claim of the paper that the reproduction can test: per-seed statistic, t interval
    over seeds, sign test and verdict; and the same at every N_h trained (claims_by_size)."""
    input:
        f"{TABLES}/ablation.csv",
    output:
        csv=report(f"{TABLES}/claims.csv", caption="../report/claims.rst", category="Tables"),
        md=f"{TABLES}/claims.md",
        per_seed=f"{TABLES}/claims_per_seed.csv",
        by_size_csv=f"{TABLES}/claims_by_size.csv",
        by_size_per_seed=f"{TABLES}/claims_by_size_per_seed.csv",
        by_size_md=f"{TABLES}/claims_by_size.md",
        sensitivity_csv=f"{TABLES}/claims_sensitivity.csv",
        sensitivity_md=f"{TABLES}/claims_sensitivity.md",
        readings_csv=f"{TABLES}/paper_readings.csv",
        readings_md=f"{TABLES}/paper_readings.md",
    log:
        f"{R}/logs/aggregate/claims.log",
    benchmark:
        f"{R}/benchmarks/aggregate/claims.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("claims.py"),
        claims=config["claims"],
        verdicts=verdict_settings(),
        min_models=config["learned"]["min_models"],
        # what "basis-dependent" beside a claim means (ablation.csv's flag, the largest)
        basis_tolerance=max(config["basis_dependence"]["tolerances"]),
    script:
        "../scripts/claims.py"


rule reproduction:
    """What reproduces, at the paper's unit: each claim of the paper as k of n trained
    solutions showing it, the paper's printed numbers beside ours, and the word; the
    solutions whose reading depends on an order nothing fixes named, where the run checks it;
    and each word with θ and the mass floor halved and doubled (reproduction_sensitivity)."""
    input:
        ablation=f"{TABLES}/ablation.csv",
        basis=basis_models(),
    output:
        csv=report(
            f"{TABLES}/reproduction.csv",
            caption="../report/reproduction.rst",
            category="Tables",
        ),
        md=f"{TABLES}/reproduction.md",
        sensitivity_csv=f"{TABLES}/reproduction_sensitivity.csv",
        sensitivity_md=f"{TABLES}/reproduction_sensitivity.md",
    log:
        f"{R}/logs/aggregate/reproduction.log",
    benchmark:
        f"{R}/benchmarks/aggregate/reproduction.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("reproduction.py"),
        claims=config["claims"],
        verdicts=verdict_settings(),
        solutions=config["solutions"],
        min_models=config["learned"]["min_models"],
        basis_tolerances=config["basis_dependence"]["tolerances"],
    script:
        "../scripts/reproduction.py"


rule confirmation:
    """The preregistered confirmation (docs/preregistration.md): each predicted claim judged
    on this run's solutions, confirmed, not confirmed or untestable."""
    input:
        reproduction=f"{TABLES}/reproduction.csv",
        predictions=config["confirmation"]["predictions"] or [],
    output:
        csv=report(
            f"{TABLES}/confirmation.csv",
            caption="../report/confirmation.rst",
            category="Tables",
        ),
        md=f"{TABLES}/confirmation.md",
    log:
        f"{R}/logs/aggregate/confirmation.log",
    benchmark:
        f"{R}/benchmarks/aggregate/confirmation.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("confirmation.py"),
        level=config["verdicts"]["level"],
    script:
        "../scripts/confirmation.py"


rule block_profile:
    """Per task and single coupling block: the harm of removing it, its t interval over seeds,
    and a verdict on the harm-share scale (rnnschur.studies.verdicts); and which verdicts move with θ
    and the mass floor halved and doubled."""
    input:
        f"{TABLES}/ablation.csv",
    output:
        csv=report(
            f"{TABLES}/block_profile.csv",
            caption="../report/block_profile.rst",
            category="Tables",
        ),
        md=f"{TABLES}/block_profile.md",
        sensitivity_csv=f"{TABLES}/block_profile_sensitivity.csv",
        sensitivity_md=f"{TABLES}/block_profile_sensitivity.md",
    log:
        f"{R}/logs/aggregate/block_profile.log",
    benchmark:
        f"{R}/benchmarks/aggregate/block_profile.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("block_profile.py"),
        alpha=config["alpha"],
        verdicts=verdict_settings(),
        min_models=config["learned"]["min_models"],
    script:
        "../scripts/block_profile.py"


rule task_restriction:
    """Per family of networks and coupling block: each task's solutions counted as fragile and
    as stabilizers, and across the tasks task-restricted, universal, harmless or undecided."""
    input:
        f"{TABLES}/ablation.csv",
    output:
        csv=report(
            f"{TABLES}/task_restriction.csv",
            caption="../report/task_restriction.rst",
            category="Tables",
        ),
        tasks=f"{TABLES}/task_restriction_tasks.csv",
        md=f"{TABLES}/task_restriction.md",
    log:
        f"{R}/logs/aggregate/task_restriction.log",
    benchmark:
        f"{R}/benchmarks/aggregate/task_restriction.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("task_restriction.py"),
        template=template("task_restriction.md"),
        alpha=config["alpha"],
        mostly=config["solutions"]["reproduces"],
        min_models=config["learned"]["min_models"],
        level=config["verdicts"]["level"],
    script:
        "../scripts/task_restriction.py"
