"""The tables' presentation on planted frames: whole numbers as integers, the paper's numbers
beside the models that learned."""

import numpy as np
import pandas as pd

from rnnschur.io.text import fill, templates
from rnnschur.studies.paper import tables

from conftest import REPO


def agreement_text(frame: pd.DataFrame) -> str:
    """The sentences of rule paper_vs_reproduced: its template filled with ``frame``'s
    numbers."""
    template = REPO / "workflow" / "templates" / "paper_vs_reproduced.md"
    return fill(templates(template.read_text()), tables.agreement_parts(frame))


def test_markdown_prints_whole_numbers_as_integers_and_gaps_as_dashes():
    frame = pd.DataFrame(
        {
            "N_h": [64.0, np.nan],  # float only because of the gap
            "step": [1152.0, 3840.0],  # '.3g' would print 1.15e+03
            "fvu": [0.001234, 2.0],
            "accuracy": [1.0, 0.5],
        }
    )
    text = tables.markdown(frame, {"step": ".3g", "fvu": ".3g", "accuracy": ".3f"})
    assert text.splitlines()[2:] == ["| 64 | 1152 | 0.00123 | 1.000 |", "| — | 3840 | 2 | 0.500 |"]


def test_paper_vs_reproduced_counts_only_the_models_that_learned():
    """Planted: three seeds of the paper's flip-flop model, seed 2 did not learn (FVU 0.9):
    the reproduced FVU is the mean of seeds 0 and 1, 2 of 3 learned."""
    rows = [
        {"task": "flip_flop", "construction": "dense_orthogonal", "n_hidden": 64, "alpha": 0.9}
        | {"seed": seed, "subset": "none", "fvu": fvu, "learned": seed < 2}
        for seed, fvu in ((0, 0.001), (1, 0.003), (2, 0.9))
    ]
    table = tables.paper_vs_reproduced(pd.DataFrame(rows))
    full = table[(table["task"] == "flip_flop") & (table["quantity"] == "fvu")].iloc[0]
    assert full["reproduced_mean"] == 0.002 and full["reproduced_max"] == 0.003
    assert (full["n_seeds"], full["n_trained"]) == (2, 3)
    assert "| 2/3 |" in tables.paper_vs_reproduced_markdown(table[table.index == full.name])


def test_the_agreement_reading_names_each_difference_in_a_sentence_of_its_own():
    from rnnschur.studies.verdicts import Verdict

    rows = [
        ("copy", "none", "n_R", "dense_orthogonal", 0.85, 13.0, 64.0, 0.2, Verdict.DIFFERS),
        ("copy", "T_CR", "accuracy", "cayley", 0.9, 0.5, 0.64, 0.78, Verdict.DIFFERS),
        ("sine", "T_CC", "delta_fvu", "dense_orthogonal", 0.9, 2.0, 2.08, 0.96, Verdict.AGREES),
        ("sine", "none", "fvu", "dense_orthogonal", 0.9, None, 0.0036, None, "—"),
    ]
    columns = ["task", "subset", "quantity", "construction", "alpha", "reproduced_mean"]
    columns += ["paper_value", "factor", "agreement"]
    frame = pd.DataFrame(rows, columns=columns).assign(n_hidden=72, paper_n_hidden=72)
    text = agreement_text(frame)
    assert text.startswith(
        "Of the 3 distinct numbers of the paper with a reproduced interval beside them "
        "(Table 1's three α of the same models count once, 3 comparisons in all), 1 agree"
    )
    assert "), 1 agree" in text
    assert (
        "and 2 differ (2 of the comparisons, each below). Differs: copy full n_R "
        "(dense_orthogonal, α = 0.85), 13 against 64" in text
    )
    assert " Differs: copy −T_C→R accuracy (cayley), 0.5 against 0.64, 0.78×." in text
    sentences = text.split(". ")
    assert len(sentences) == 3 and all(len(s) <= 300 for s in sentences)
    # the same number of the same models at three α is one comparison; it differs if any α does
    table1 = [
        ("copy", "none", "n_R", "cayley", a, 64.0, 68.0, 0.94, w)
        for a, w in ((0.85, Verdict.AGREES), (0.9, Verdict.AGREES), (0.95, Verdict.DIFFERS))
    ]
    frame = pd.DataFrame(table1, columns=columns).assign(n_hidden=72, paper_n_hidden=72)
    text = agreement_text(frame)
    assert text.startswith("Of the 1 distinct numbers") and "), 0 agree" in text
    assert "and 1 differ (1 of the comparisons, each below)." in text
    assert "3 comparisons in all" in text and text.count("Differs:") == 1
    small = agreement_text(frame.assign(n_hidden=16))
    assert "other sizes than the paper's (copy N_h = 16 (the paper's 72))" in small
    # where every number agrees the count says so, with no differing count
    agreeing = agreement_text(frame[frame["agreement"] == Verdict.AGREES])
    assert agreeing.startswith("Each of the 1 distinct numbers of the paper")
    assert "differ" not in agreeing.lower()


def test_paper_in_range_reads_the_paper_to_its_printed_precision():
    """The paper's Table 1 prints 1.00: seeds at 0.9955–0.9968 hold it in their range, as the
    agreement column already says; 0.9940 is outside by more than half its last digit."""
    from rnnschur.studies.paper.tables import paper_vs_reproduced

    def run(accuracies):
        rows = [
            {
                "task": "copy",
                "construction": "cayley",
                "n_hidden": 72,
                "alpha": 0.9,
                "subset": "T_CC",
                "seed": seed,
                "accuracy": accuracy,
                "learned": True,
            }
            for seed, accuracy in enumerate(accuracies)
        ]
        table = paper_vs_reproduced(pd.DataFrame(rows))
        pick = table[
            (table["construction"] == "cayley")
            & (table["subset"] == "T_CC")
            & (table["quantity"] == "accuracy")
            & np.isclose(table["alpha"], 0.9)
            & (table["paper_note"] == "Figure 1")
        ]
        return pick.iloc[0]

    assert run([0.9955, 0.9968, 0.996])["paper_in_range"]
    assert not run([0.9940, 0.9941, 0.993])["paper_in_range"]
