"""What a finished run cost, from the benchmark file Snakemake writes for every job
(``<results>/benchmarks/<rule>/…/<job>.tsv``; a beyond-the-paper analysis under
``benchmarks/beyond/<analysis>``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def job_costs(results: Path) -> pd.DataFrame:
    """One row per benchmark file: rule (the first folder; ``beyond/<analysis>`` apart), s
    (wall seconds) and cpu (CPU seconds as the benchmark samples them)."""
    rows = []
    bench = Path(results) / "benchmarks"
    for path in sorted(bench.rglob("*.tsv")):
        parts = path.relative_to(bench).parts
        rule = "/".join(parts[:2]) if parts[0] == "beyond" else parts[0]
        frame = pd.read_csv(path, sep="\t")
        rows.append({"rule": rule, "s": frame["s"].sum(), "cpu": frame["cpu_time"].sum()})
    return pd.DataFrame(rows, columns=["rule", "s", "cpu"])
