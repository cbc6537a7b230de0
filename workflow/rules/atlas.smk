# The coupling atlas (config key atlas, presets/atlas.yaml): one table of every task, network
# description, N_h and coupling block with its verdict decided over the whole atlas, the
# sentences that say what it shows, and one static page (its figures are the registry's
# fig_atlas and fig_atlas_shift, in figures.smk).


rule atlas:
    """Per task, description, construction, N_h and block: the learned solutions' own readings
    of removing the block, counted, and the row's word (beside them, over seeds: the mean harm,
    its interval and the verdict at the atlas's false-discovery rate); per block and
    description, one random-effects estimate across the tasks (secondary); what the atlas says,
    in sentences with their counts (workflow/templates/atlas_readings.md), across tasks from the
    task restriction."""
    input:
        ablation=f"{TABLES}/ablation.csv",
        restriction=f"{TABLES}/task_restriction.csv",
        restriction_tasks=f"{TABLES}/task_restriction_tasks.csv",
        # is each coupling special? (the dose-response verdicts, where that analysis runs)
        special=(
            [f"{TABLES}/dose_response_summary.csv"] if "dose_response" in beyond_analyses() else []
        ),
    output:
        csv=report(f"{TABLES}/atlas.csv", caption="../report/atlas.rst", category="Atlas"),
        md=f"{TABLES}/atlas.md",
        # one estimate per block and description across the tasks (a random effect per task)
        across_csv=f"{TABLES}/atlas_across_tasks.csv",
        across_md=f"{TABLES}/atlas_across_tasks.md",
        readings=report(
            f"{TABLES}/atlas_readings.md", caption="../report/atlas.rst", category="Atlas"
        ),
    log:
        f"{R}/logs/aggregate/atlas.log",
    benchmark:
        f"{R}/benchmarks/aggregate/atlas.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("atlas.py"),
        alpha=config["alpha"],
        verdicts=verdict_settings(),
        fdr=config.get("atlas", {}).get("fdr", 0.05),
        min_models=config["learned"]["min_models"],
        mostly=config["solutions"]["reproduces"],
        words={k: v["words"] for k, v in config.get("atlas", {}).get("descriptions", {}).items()},
        template=template("atlas_readings.md"),
    script:
        "../scripts/atlas.py"


rule atlas_page:
    """The atlas as one static HTML page (workflow/templates/atlas.html): its sentences, its
    figures and its sortable table."""
    input:
        atlas=f"{TABLES}/atlas.csv",
        readings=f"{TABLES}/atlas_readings.md",
        fig_atlas=f"{FIGURES}/fig_atlas.png",
        fig_atlas_shift=f"{FIGURES}/fig_atlas_shift.png",
    output:
        report(f"{R}/atlas.html", caption="../report/atlas_page.rst", category="Atlas"),
    log:
        f"{R}/logs/aggregate/atlas_page.log",
    benchmark:
        f"{R}/benchmarks/aggregate/atlas_page.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("atlas_page.py"),
        template=template("atlas.html"),
        captions=lambda w: {
            name: FIGURE_REGISTRY[name].caption for name in ("fig_atlas", "fig_atlas_shift")
        },
    script:
        "../scripts/atlas_page.py"
