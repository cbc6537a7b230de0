"""Rule block_profile: per task and single coupling block, the harm of removing it over seeds."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.paper import tables  # noqa: E402
from rnnschur.paper.claims import block_profile  # noqa: E402

params = snakemake.params
profile = block_profile(
    pd.read_csv(snakemake.input[0]),
    params.alpha,
    params.level,
    params.fragile_effect,
    params.min_models,
)
io.save_csv(snakemake.output.csv, profile)
numbers = profile.select_dtypes("float").columns
io.save_text(snakemake.output.md, tables.markdown(profile, dict.fromkeys(numbers, ".3g")))
