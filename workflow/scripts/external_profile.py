"""Rule external_profile: the ablation profile of one external model, from its table."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import json  # noqa: E402

import matplotlib.style  # noqa: E402  (the figures draw on their own Agg canvas: no pyplot)
import pandas as pd  # noqa: E402

from rnnschur.report import figures  # noqa: E402

matplotlib.style.use(snakemake.params.style)
record = json.loads(open(snakemake.input.analysis).read())
ablation = pd.read_csv(snakemake.input.ablation)
figure = figures.fig_external_profile(ablation, record["settings"]["alpha"], record["name"])
figures.save(figure, [snakemake.output.pdf, snakemake.output.png])
