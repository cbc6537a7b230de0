"""Rule block_profile: per task and single coupling block, the harm of removing it over seeds,
and which verdicts move with θ and the mass floor halved and doubled."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies.paper import tables  # noqa: E402
from rnnschur.studies.profile import (  # noqa: E402
    PROFILE_KEYS,
    block_profile,
    sensitivity,
    sensitivity_markdown,
)
from rnnschur.studies.verdicts import Thresholds  # noqa: E402

params = snakemake.params
ablation = pd.read_csv(snakemake.input[0])
thresholds = Thresholds(**params.verdicts)
profile = block_profile(ablation, params.alpha, thresholds, params.min_models)
io.save_csv(snakemake.output.csv, profile)
numbers = profile.select_dtypes("float").columns
io.save_text(snakemake.output.md, tables.markdown(profile, dict.fromkeys(numbers, ".3g")))
moved = sensitivity(
    lambda t: block_profile(ablation, params.alpha, t, params.min_models), PROFILE_KEYS, thresholds
)
io.save_csv(snakemake.output.sensitivity_csv, moved)
io.save_text(snakemake.output.sensitivity_md, sensitivity_markdown(moved, PROFILE_KEYS))
