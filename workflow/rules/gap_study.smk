# The gap attribution study: the paper's models retrained under variations of the paper config.
# Its models are task instances <task>__<variation> (workflow/lib/instances.py's expand_gap_study), trained,
# decomposed and ablated by the ordinary rules; the study keeps only its own tables.


rule gap_attribution:
    """For every number of the paper, the reproduced value under the paper config and under each
    variation, with the seed spread, and whether it moves toward the paper's; the variations
    ranked by their distance to the paper's Figure 2; and the paper's claims tested under each
    variation."""
    input:
        ablation=f"{TABLES}/ablation.csv",
        variations=gap_files(f"{R}/ablation/{MODEL}.csv"),
        metas=gap_files(f"{R}/models/{MODEL}/meta.json"),
    output:
        csv=report(
            f"{TABLES}/gap_attribution.csv",
            caption="../report/gap_attribution.rst",
            category="Tables",
        ),
        md=f"{TABLES}/gap_attribution.md",
        per_seed=f"{TABLES}/gap_attribution_per_seed.csv",
        claims_csv=f"{TABLES}/gap_claims.csv",
        claims_per_seed=f"{TABLES}/gap_claims_per_seed.csv",
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
        variations=gap_variations(),
        seeds=config["gap_study"]["seeds"],
        claims=config["claims"],
        verdicts=verdict_settings(),
        criteria=learned_criteria(),
        min_models=config["learned"]["min_models"],
    script:
        "../scripts/gap_attribution.py"
