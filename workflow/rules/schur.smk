rule schur:
    """Ordered real Schur decomposition of a trained W_hh (independent of alpha)."""
    input:
        weights=f"{R}/models/{MODEL}/weights.npz",
        meta=f"{R}/models/{MODEL}/meta.json",
    output:
        f"{R}/schur/{MODEL}.npz",
    log:
        f"{R}/logs/schur/{MODEL}.log",
    benchmark:
        f"{R}/benchmarks/schur/{MODEL}.tsv"
    group:
        "post"
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        code=code("schur.py"),
        split=config["schur_split"],
        numerics=config["numerics"],
    script:
        "../scripts/schur.py"
