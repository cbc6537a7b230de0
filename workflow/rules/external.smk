# Models trained elsewhere (config key external_models): the paper's analysis on each.


rule external_import:
    """A model trained elsewhere as the workflow's weights.npz (W_xh, W_hh, W_hy and any of b_h,
    b_y, h0) with its network description, checked against the held-out set's outputs where it
    has them (dynamics: auto finds it there); a torch state_dict is converted here, the only
    step that needs torch."""
    input:
        weights=lambda w: config["external_models"][w.name]["weights"],
        heldout=lambda w: config["external_models"][w.name]["heldout"],
        initial_state=lambda w: config["external_models"][w.name]["initial_state"] or [],
    output:
        weights=f"{R}/external/{{name}}/weights.npz",
        verification=f"{R}/external/{{name}}/imported.json",
    log:
        f"{R}/logs/external/{{name}}_import.log",
    benchmark:
        f"{R}/benchmarks/external/{{name}}_import.tsv"
    conda:
        "../../envs/train.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("external_import.py"),
        model=lambda w: config["external_models"][w.name],
        split=config["schur_split"],
        numerics=config["numerics"],
    script:
        "../scripts/external_import.py"


rule external_analyse:
    """Ordered Schur form, all 8 subsets at every alpha, spectrum, subspace control, readout
    refit (with a fitting set) and verdict per block of one model: its tables."""
    input:
        weights=f"{R}/external/{{name}}/weights.npz",
        verification=f"{R}/external/{{name}}/imported.json",
        heldout=lambda w: config["external_models"][w.name]["heldout"],
        fitting=lambda w: config["external_models"][w.name]["fitting"] or [],
    output:
        **external_files(external_names.TABLE_NAMES),
    log:
        f"{R}/logs/external/{{name}}_analyse.log",
    benchmark:
        f"{R}/benchmarks/external/{{name}}.tsv"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        code=code("external_analyse.py"),
        settings=lambda w: external_settings(w.name),
        numerics=config["numerics"],
    script:
        "../scripts/external_analyse.py"


rule external_profile:
    """The ablation profile of one external model, drawn from its ablation table in the shared
    style."""
    input:
        ablation=f"{R}/external/{{name}}/ablation.csv",
        analysis=f"{R}/external/{{name}}/analysis.json",
    output:
        pdf=report(
            f"{R}/external/{{name}}/profile.pdf",
            caption="../report/external.rst",
            category="External models",
        ),
        png=f"{R}/external/{{name}}/profile.png",
    log:
        f"{R}/logs/external/{{name}}_profile.log",
    benchmark:
        f"{R}/benchmarks/external/{{name}}_profile.tsv"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("external_profile.py", functions=("fig_external_profile", "save")),
        style=STYLE,  # the shared style, as every figure
    script:
        "../scripts/external_profile.py"


rule external_summary:
    """The summaries of one external model (Markdown, and HTML with the profile embedded), from
    its tables and figure."""
    input:
        **external_files(external_names.TABLE_NAMES),
        png=f"{R}/external/{{name}}/profile.png",
        weights=f"{R}/external/{{name}}/weights.npz",
    output:
        md=f"{R}/external/{{name}}/summary.md",
        html=report(
            f"{R}/external/{{name}}/summary.html",
            caption="../report/external.rst",
            category="External models",
        ),
    log:
        f"{R}/logs/external/{{name}}_summary.log",
    benchmark:
        f"{R}/benchmarks/external/{{name}}_summary.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("external_summary.py", functions=("fig_external_profile", "save")),
    script:
        "../scripts/external_summary.py"
