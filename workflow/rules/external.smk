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
        f"{R}/external/{{name}}/weights.npz",
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
        model=lambda w: config["external_models"][w.name],
        split=config["schur_split"],
    script:
        "../scripts/external_import.py"


rule external_analyse:
    """Ordered Schur form, all 8 subsets at every alpha, spectrum, subspace control, readout
    refit (with a fitting set), verdict per block, summary and profile figure of one model."""
    input:
        weights=f"{R}/external/{{name}}/weights.npz",
        heldout=lambda w: config["external_models"][w.name]["heldout"],
        fitting=lambda w: config["external_models"][w.name]["fitting"] or [],
    output:
        **{
            key: (
                report(path, caption="../report/external.rst", category="External models")
                if key in ("summary_html", "profile_pdf")
                else path
            )
            for key, path in EXTERNAL_FILES.items()
        },
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
        model=lambda w: config["external_models"][w.name],
        settings=lambda w: external_settings(w.name),
        split=config["schur_split"],
        style=STYLE,  # the profile figure in the shared style, as every figure
    script:
        "../scripts/external_analyse.py"
