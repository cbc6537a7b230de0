# The gap attribution study: the paper's models retrained under variations of the paper config.


for _variation, _task, _block, _seeds in fidelity_bundles():

    rule:
        # Trains the bundle's models of one variation as one computation (its held-out set
        # follows the variation's generator). The params are one model's (the same for every
        # seed): the script reads the variation, task and seeds from its output paths.
        name:
            f"fidelity_model_{_variation}_{_task}_b{_block}"
        output:
            **{
                f"{kind}_{seed}": f"{R}/fidelity/{_variation}/{_task}/seed{seed}/{kind}.{ext}"
                for seed in _seeds
                for kind, ext in (("weights", "npz"), ("meta", "json"))
            },
        log:
            f"{R}/logs/fidelity/{_variation}/{_task}/b{_block}.log",
        benchmark:
            f"{R}/benchmarks/fidelity/{_variation}/{_task}/b{_block}.tsv"
        conda:
            "../../envs/train.yaml"
        threads: 1
        resources:
            mem_mb=1000 * len(_seeds),
            runtime=30 * len(_seeds),
            gpu=GPUS_PER_TRAINING,
        params:
            code=code("fidelity_model.py", _task),
            bundle={"variation": _variation, "task": _task, "seeds": _seeds},
            setup=fidelity_model(_task),
            settings=fidelity_settings(_variation, _task),
            network=fidelity_network(_variation, _task),
            n_heldout=task_config(_task)["n_heldout"],
            base_seed=config["base_seed"],
            device=config["device"],
            numerics=config["numerics"],
        script:
            "../scripts/fidelity_model.py"


rule fidelity_ablate:
    """Ordered Schur form and all 8 subsets at every alpha of one model of the gap study (a
    change of alpha reruns this, never the training)."""
    input:
        weights=f"{R}/fidelity/{{variation}}/{{task}}/seed{{seed}}/weights.npz",
        meta=f"{R}/fidelity/{{variation}}/{{task}}/seed{{seed}}/meta.json",
    output:
        f"{R}/fidelity/{{variation}}/{{task}}/seed{{seed}}/ablation.csv",
    log:
        f"{R}/logs/fidelity_ablate/{{variation}}/{{task}}/seed{{seed}}.log",
    benchmark:
        f"{R}/benchmarks/fidelity_ablate/{{variation}}/{{task}}/seed{{seed}}.tsv"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        code=lambda w: code("fidelity_ablate.py", w.task),
        n_heldout=lambda w: task_config(w.task)["n_heldout"],
        base_seed=config["base_seed"],
        split=config["schur_split"],
        alpha_grid=config["alpha_grid"],
        evaluation=lambda w: fidelity_evaluation(w.variation, w.task),
    script:
        "../scripts/fidelity_ablate.py"


rule gap_attribution:
    """For every number of the paper, the reproduced value under the paper config and under each
    variation, with the seed spread, and whether it moves toward the paper's; the variations
    ranked by their distance to the paper's Figure 2; and the paper's claims tested under each
    variation."""
    input:
        ablation=f"{TABLES}/ablation.csv",
        variations=fidelity_files(f"{R}/fidelity/{{variation}}/{{task}}/seed{{seed}}/ablation.csv"),
    output:
        csv=report(
            f"{TABLES}/gap_attribution.csv",
            caption="../report/gap_attribution.rst",
            category="Tables",
        ),
        md=f"{TABLES}/gap_attribution.md",
        claims_csv=f"{TABLES}/gap_claims.csv",
        claims_md=f"{TABLES}/gap_claims.md",
        ranking_csv=f"{TABLES}/gap_ranking.csv",
        ranking_md=f"{TABLES}/gap_ranking.md",
    log:
        f"{R}/logs/aggregate/gap_attribution.log",
    benchmark:
        f"{R}/benchmarks/aggregate/gap_attribution.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("gap_attribution.py"),
        variations=fidelity_variations(),
        seeds=config["fidelity"]["seeds"],
        claims=config["claims"],
        verdicts=verdict_settings(),
        criteria=learned_criteria(),
        min_models=config["learned"]["min_models"],
    script:
        "../scripts/gap_attribution.py"
