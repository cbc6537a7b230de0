# Models trained elsewhere (config key external_models): the paper's analysis on each.


for _name in config["external_models"]:

    rule:
        """A model trained elsewhere in the model layout of its task block external__<name>
        (weights.npz with its network description, meta.json with their digest) and its
        held-out set as that task's, checked against the held-out set's outputs where it has
        them (dynamics: auto finds it there; imported.json says how); a torch state_dict is
        converted here, the only step that needs torch. The ordinary per-model rules (schur,
        ablate, spectrum, subspace_control, readout_refit) then analyse it."""
        name:
            f"external_import_{_name}"
        input:
            weights=config["external_models"][_name]["weights"],
            heldout=config["external_models"][_name]["heldout"],
            initial_state=config["external_models"][_name]["initial_state"] or [],
        output:
            weights=external_model_files(_name)["weights"],
            meta=external_model_files(_name)["weights"].replace("weights.npz", "meta.json"),
            heldout=external_model_files(_name)["heldout"],
            verification=external_model_files(_name)["verification"],
        log:
            f"{R}/logs/external/{_name}_import.log",
        benchmark:
            f"{R}/benchmarks/external/{_name}_import.tsv"
        conda:
            "../../envs/external.yaml"
        threads: 1
        resources:
            mem_mb=1000,
            runtime=5,
        params:
            code=code("external_import.py"),
            name=_name,
            model=config["external_models"][_name],
            split=config["schur_split"],
            numerics=config["numerics"],
        script:
            "../scripts/external_import.py"

    if config["external_models"][_name]["fitting"]:

        rule:
            """A model trained elsewhere's fitting set as its task block's (for the readout
            refit)."""
            name:
                f"external_fitting_{_name}"
            input:
                config["external_models"][_name]["fitting"],
            output:
                f"{R}/data/{instances.external_instance(_name)}/fitting.npz",
            log:
                f"{R}/logs/external/{_name}_fitting.log",
            benchmark:
                f"{R}/benchmarks/external/{_name}_fitting.tsv"
            localrule: True
            conda:
                "../../envs/analysis.yaml"
            threads: 1
            resources:
                mem_mb=1000,
                runtime=5,
            params:
                code=code("external_fitting.py"),
                score=config["external_models"][_name]["score"],
            script:
                "../scripts/external_fitting.py"


rule external_tables:
    """The tables of one external model (its Schur form, every ablation, the verdict per
    block, the spectrum, the subspace control and, with a fitting set, the readout refit) as
    the command writes them, assembled from the per-model rules' files of its task block."""
    input:
        unpack(lambda w: external_model_files(w.name)),
    output:
        **external_files(external_names.TABLE_NAMES),
    log:
        f"{R}/logs/external/{{name}}_tables.log",
    benchmark:
        f"{R}/benchmarks/external/{{name}}.tsv"
    localrule: True
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        code=code("external_tables.py"),
        settings=lambda w: external_settings(w.name),
    script:
        "../scripts/external_tables.py"


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
        code=code("external_profile.py", functions=("fig_external_profile",)),
        style=STYLE,  # the shared style, as every figure
    script:
        "../scripts/external_profile.py"


rule external_summary:
    """The summaries of one external model (Markdown, and HTML with the profile embedded), from
    its tables and figure."""
    input:
        **external_files(external_names.TABLE_NAMES),
        png=f"{R}/external/{{name}}/profile.png",
        weights=lambda w: external_model_files(w.name)["weights"],
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
        code=code("external_summary.py", functions=("fig_external_profile",)),
    script:
        "../scripts/external_summary.py"
