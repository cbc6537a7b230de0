# One rule per figure; each reads only aggregated tables. The shared style is a parameter (its
# settings, not its path): editing it reruns the figures, moving the run does not.


rule fig1_copy_ablation:
    input:
        ablation=f"{TABLES}/ablation.csv",
    output:
        pdf=report(
            f"{FIGURES}/fig1_copy_ablation.pdf",
            caption="../report/fig1_copy_ablation.rst",
            category="Figures",
        ),
        png=f"{FIGURES}/fig1_copy_ablation.png",
    log:
        f"{R}/logs/figures/fig1_copy_ablation.log",
    benchmark:
        f"{R}/benchmarks/figures/fig1_copy_ablation.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        style=STYLE,
        alpha=config["alpha"],
    script:
        "../scripts/fig1_copy_ablation.py"


rule fig2_neuro_ablation:
    input:
        ablation=f"{TABLES}/ablation.csv",
    output:
        pdf=report(
            f"{FIGURES}/fig2_neuro_ablation.pdf",
            caption="../report/fig2_neuro_ablation.rst",
            category="Figures",
        ),
        png=f"{FIGURES}/fig2_neuro_ablation.png",
    log:
        f"{R}/logs/figures/fig2_neuro_ablation.log",
    benchmark:
        f"{R}/benchmarks/figures/fig2_neuro_ablation.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        style=STYLE,
        alpha=config["alpha"],
    script:
        "../scripts/fig2_neuro_ablation.py"


rule fig_schur_spectra:
    input:
        eigenvalues=f"{TABLES}/spectra.csv",
        abs_T=f"{TABLES}/schur_abs_T.csv",
    output:
        pdf=report(
            f"{FIGURES}/fig_schur_spectra.pdf",
            caption="../report/fig_schur_spectra.rst",
            category="Figures",
        ),
        png=f"{FIGURES}/fig_schur_spectra.png",
    log:
        f"{R}/logs/figures/fig_schur_spectra.log",
    benchmark:
        f"{R}/benchmarks/figures/fig_schur_spectra.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        style=STYLE,
    script:
        "../scripts/fig_schur_spectra.py"


rule fig_training_curves:
    input:
        curves=f"{TABLES}/training_curves.csv",
    output:
        pdf=report(
            f"{FIGURES}/fig_training_curves.pdf",
            caption="../report/fig_training_curves.rst",
            category="Figures",
        ),
        png=f"{FIGURES}/fig_training_curves.png",
    log:
        f"{R}/logs/figures/fig_training_curves.log",
    benchmark:
        f"{R}/benchmarks/figures/fig_training_curves.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        style=STYLE,
    script:
        "../scripts/fig_training_curves.py"


rule fig_task_rollouts:
    input:
        examples=f"{TABLES}/rollout_examples.csv",
    output:
        pdf=report(
            f"{FIGURES}/fig_task_rollouts.pdf",
            caption="../report/fig_task_rollouts.rst",
            category="Figures",
        ),
        png=f"{FIGURES}/fig_task_rollouts.png",
    log:
        f"{R}/logs/figures/fig_task_rollouts.log",
    benchmark:
        f"{R}/benchmarks/figures/fig_task_rollouts.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        style=STYLE,
    script:
        "../scripts/fig_task_rollouts.py"


rule fig_gap_attribution:
    input:
        gaps=f"{TABLES}/gap_attribution.csv",
    output:
        pdf=report(
            f"{FIGURES}/fig_gap_attribution.pdf",
            caption="../report/fig_gap_attribution.rst",
            category="Figures",
        ),
        png=f"{FIGURES}/fig_gap_attribution.png",
    log:
        f"{R}/logs/figures/fig_gap_attribution.log",
    benchmark:
        f"{R}/benchmarks/figures/fig_gap_attribution.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        style=STYLE,
    script:
        "../scripts/fig_gap_attribution.py"


rule fig_block_profile:
    input:
        profile=f"{TABLES}/block_profile.csv",
    output:
        pdf=report(
            f"{FIGURES}/fig_block_profile.pdf",
            caption="../report/fig_block_profile.rst",
            category="Figures",
        ),
        png=f"{FIGURES}/fig_block_profile.png",
    log:
        f"{R}/logs/figures/fig_block_profile.log",
    benchmark:
        f"{R}/benchmarks/figures/fig_block_profile.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        style=STYLE,
    script:
        "../scripts/fig_block_profile.py"
