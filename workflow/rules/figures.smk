# The figures, one rule each, derived from the registry rnnschur.report.registry.FIGURES (what
# each draws, its caption, when a run draws it); each reads only aggregated tables. The shared
# style is a parameter (its settings, not its path): editing it reruns the figures, moving the run
# does not.


for name, figure in FIGURE_REGISTRY.items():

    rule:
        name:
            name
        input:
            **{argument: f"{TABLES}/{table}.csv" for argument, table in figure.tables.items()},
        output:
            pdf=report(
                f"{FIGURES}/{name}.pdf",
                caption="../report/figure.rst",
                category="Atlas" if figure.needs == "atlas" else "Figures",
            ),
            png=f"{FIGURES}/{name}.png",
        log:
            f"{R}/logs/figures/{name}.log",
        benchmark:
            f"{R}/benchmarks/figures/{name}.tsv"
        localrule: True
        conda:
            "../../envs/analysis.yaml"
        threads: 1
        resources:
            mem_mb=1000,
            runtime=5,
        params:
            code=code("figure.py", functions=(name,)),
            style=STYLE,
            figure=name,
            alpha={"alpha": config["alpha"]} if figure.alpha else {},
            # a function: the caption's braces (S ∪ {T_CC}) are not wildcards
            caption=lambda w, caption=figure.caption: caption,
        script:
            "../scripts/figure.py"
