"""Rule reproduction: the paper's claims read solution by solution, one screen."""

import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies.paper.claims import paper_claims  # noqa: E402
from rnnschur.studies.paper.reproduction import (  # noqa: E402
    GLOSSARY,
    SENSITIVITY_KEYS,
    reproduction,
    reproduction_markdown,
    word_sensitivity,
)
from rnnschur.studies.profile import sensitivity_markdown  # noqa: E402
from rnnschur.studies.verdicts import Thresholds  # noqa: E402

p = snakemake.params
verdicts, words = p.verdicts, p.solutions | {"min_models": p.min_models}


def make_claims(threshold):
    return paper_claims(threshold, p.claims["much_greater"], p.claims["margin_s_delta_t"])


# the basis dependence where the run checked it, at its largest tolerance
tolerance = max(p.basis_tolerances) if snakemake.input.basis else None
basis = None
if tolerance is not None:
    basis = pd.read_csv(snakemake.input.basis)
    basis = basis[basis["tolerance"] == tolerance]
ablation = pd.read_csv(snakemake.input.ablation)
thresholds = Thresholds(**verdicts)
table = reproduction(ablation, make_claims(thresholds.threshold), thresholds, words, basis)
io.save_csv(snakemake.output.csv, table)
io.save_text(
    snakemake.output.md,
    reproduction_markdown(table, words, GLOSSARY, verdicts["level"], tolerance),
)
moved = word_sensitivity(ablation, make_claims, thresholds, words, basis)
io.save_csv(snakemake.output.sensitivity_csv, moved)
io.save_text(snakemake.output.sensitivity_md, sensitivity_markdown(moved, SENSITIVITY_KEYS))
