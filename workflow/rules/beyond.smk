# Beyond the paper: four questions it leaves open. Every rule here is derived from the registry
# rnnschur.studies.beyond.registry.ANALYSES: per analysis one job per model, a summary and a figure, all at
# `alpha`; names and paths follow its conventions (see the module's docstring).


# The per-model files an analysis may read (Analysis.reads).
MODEL_INPUTS = {
    "weights": f"{R}/models/{MODEL}/weights.npz",
    "schur": f"{R}/schur/{MODEL}.npz",
    "heldout": f"{R}/data/{{task}}/heldout.npz",
    "checkpoints": f"{R}/models/{MODEL}/checkpoints.npz",
    "fitting": f"{R}/data/{{task}}/fitting.npz",
}


for name, analysis in ANALYSES.items():
    # The table its figure draws: the tidy table, or one its summary writes.
    figure_table = f"{name}_{analysis.figure_reads}" if analysis.figure_reads else name

    rule:
        name:
            name
        input:
            **{key: MODEL_INPUTS[key] for key in analysis.reads},
        output:
            f"{R}/beyond/{name}/{MODEL}.csv",
        log:
            f"{R}/logs/beyond/{name}/{MODEL}.log",
        benchmark:
            f"{R}/benchmarks/beyond/{name}/{MODEL}.tsv"
        group:
            "post"
        conda:
            "../../envs/analysis.yaml"
        threads: 1
        resources:
            mem_mb=analysis.mem_mb,
            runtime=analysis.runtime,
        params:
            code=lambda w, name=name: code(f"{name}.py", w.task),
            neurogym=lambda w: neurogym_spec(w.task),
            analysis=name,
            settings=lambda w, name=name: analysis_settings(name, w.task),
            numerics=config["numerics"],
        # The script path is formatted when the job runs: through params, not the loop variable.
        script:
            "../scripts/{params.analysis}.py"

    rule:
        name:
            f"{name}_summary"
        input:
            f"{TABLES}/{name}.csv",
        output:
            **{key: f"{TABLES}/{name}_{key}.csv" for key in analysis.tables},
            csv=report(
                f"{TABLES}/{name}_summary.csv",
                caption="../report/beyond_summary.rst",
                category="Beyond the paper",
            ),
            md=f"{TABLES}/{name}_summary.md",
        log:
            f"{R}/logs/aggregate/{name}_summary.log",
        benchmark:
            f"{R}/benchmarks/aggregate/{name}_summary.tsv"
        localrule: True
        conda:
            "../../envs/analysis.yaml"
        threads: 1
        resources:
            mem_mb=1000,
            runtime=5,
        params:
            code=code("beyond_summary.py", parts=[("rnnschur.studies.beyond.summaries", name)]),
            analysis=name,
            settings=summary_settings(name),
            caption=analysis.summary_caption,
        script:
            "../scripts/beyond_summary.py"

    rule:
        name:
            f"fig_{name}"
        input:
            table=f"{TABLES}/{figure_table}.csv",
        output:
            pdf=report(
                f"{FIGURES}/fig_{name}.pdf",
                caption="../report/figure.rst",
                category="Beyond the paper",
            ),
            png=f"{FIGURES}/fig_{name}.png",
        log:
            f"{R}/logs/figures/fig_{name}.log",
        benchmark:
            f"{R}/benchmarks/figures/fig_{name}.tsv"
        localrule: True
        conda:
            "../../envs/analysis.yaml"
        threads: 1
        resources:
            mem_mb=1000,
            runtime=5,
        params:
            code=code("fig_beyond.py", functions=(f"fig_{name}",)),
            style=STYLE,
            analysis=name,
            caption=analysis.figure_caption,
        script:
            "../scripts/fig_beyond.py"


rule collect_beyond:
    """One tidy table per analysis over every model."""
    input:
        lambda w: beyond_files(f"{R}/beyond/{w.analysis}/{MODEL}.csv"),
    output:
        f"{TABLES}/{{analysis}}.csv",
    log:
        f"{R}/logs/aggregate/{{analysis}}.log",
    benchmark:
        f"{R}/benchmarks/aggregate/{{analysis}}.tsv"
    wildcard_constraints:
        analysis="|".join(ANALYSES),
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    params:
        code=code("concatenate.py"),
    script:
        "../scripts/concatenate.py"
