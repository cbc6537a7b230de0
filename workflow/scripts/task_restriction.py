"""Rule task_restriction: each task's solutions counted per block, and the word across tasks."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.io.text import fill, templates  # noqa: E402
from rnnschur.studies.restriction import restriction, restriction_markdown, task_readings  # noqa: E402

p = snakemake.params
tasks = task_readings(pd.read_csv(snakemake.input[0]), p.alpha, p.mostly, p.min_models, p.level)
across = restriction(tasks)
io.save_csv(snakemake.output.csv, across)
io.save_csv(snakemake.output.tasks, tasks)
legend = fill(templates(p.template), ("legend", {"mostly": p.mostly, "min_models": p.min_models}))
io.save_text(snakemake.output.md, restriction_markdown(tasks, across, legend))
