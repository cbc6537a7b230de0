"""The numbers the paper reports (arXiv 2606.18457), to set beside the reproduced ones.

Each entry: (task, construction, N_h, alpha, subset, quantity, value, spread, note). ``value`` is
NaN where the paper gives words, not a number (the note then quotes them); ``spread`` is the
paper's SEM over seeds where it gives one.
"""

from __future__ import annotations

import math

from rnnschur.studies.verdicts import Verdict, harm_share

NAN = math.nan
FIG1_ORDER = (  # the ablation sets in the order of the paper's Figure 1
    "none",
    "T_CC",
    "T_RR",
    "T_RR+T_CC",
    "T_CR",
    "T_CR+T_CC",
    "T_RR+T_CR",
    "T_RR+T_CR+T_CC",
)
_FIG1_ORTHOGONAL = (1.00, 1.00, 0.876, 0.875, 0.639, 0.639, 0.624, 0.624)
_FIG1_CAYLEY = (1.0, 1.0, NAN, NAN, 1.0, NAN, NAN, NAN)  # NaN: "≈1"

REPORTED: list[tuple] = []
for subset, orth, cayley in zip(FIG1_ORDER, _FIG1_ORTHOGONAL, _FIG1_CAYLEY, strict=True):
    REPORTED.append(
        ("copy", "dense_orthogonal", 72, 0.9, subset, "accuracy", orth, NAN, "Figure 1")
    )
    note = "Figure 1" if not math.isnan(cayley) else "Figure 1: ≈1"
    REPORTED.append(("copy", "cayley", 72, 0.9, subset, "accuracy", cayley, NAN, note))
for alpha in (0.85, 0.9, 0.95):
    for construction, n_R, cross in (("dense_orthogonal", 64, 0.634), ("cayley", 68, 1.0)):
        REPORTED += [
            ("copy", construction, 72, alpha, "none", "n_R", n_R, NAN, "Table 1"),
            ("copy", construction, 72, alpha, "none", "accuracy", 1.0, NAN, "Table 1"),
            ("copy", construction, 72, alpha, "T_CC", "accuracy", 1.0, NAN, "Table 1"),
            (
                "copy",
                construction,
                72,
                alpha,
                "T_CR",
                "accuracy",
                cross,
                NAN,
                "Table 1 (the text says 0.639)"
                if construction == "dense_orthogonal"
                else "Table 1",
            ),
        ]
_FIG2 = (
    ("flip_flop", "none", "fvu", 0.0048, NAN, "Figure 2: full model"),
    ("flip_flop", "T_CR", "delta_fvu", 9.45e-2, 9.35e-3, "Figure 2"),
    ("flip_flop", "T_CC", "delta_fvu", 4.96e-2, 5.39e-3, "Figure 2"),
    ("flip_flop", "T_RR", "delta_fvu", NAN, NAN, "Figure 2: almost none"),
    ("sine", "none", "fvu", 0.0036, NAN, "Figure 2: full model"),
    ("sine", "T_CC", "delta_fvu", 2.08, 0.23, "Figure 2"),
    ("sine", "T_CC", "s_delta_t", 12.3, 1.5, "Figure 2"),
    ("sine", "T_CR", "delta_fvu", 1.73, 0.34, "Figure 2"),
    ("sine", "T_CR", "s_delta_t", 21.1, 5.1, "Figure 2"),
    ("sine", "T_RR", "delta_fvu", NAN, NAN, "Figure 2: little"),
    ("context_integration", "none", "fvu", 0.0104, NAN, "Figure 2: full model"),
    ("context_integration", "T_CC", "delta_fvu", 0.94, 0.03, "Figure 2"),
    ("context_integration", "T_CR", "delta_fvu", 0.37, 0.16, "Figure 2"),
)
for task, subset, quantity, value, spread, note in _FIG2:
    REPORTED.append((task, "dense_orthogonal", 64, 0.9, subset, quantity, value, spread, note))

COLUMNS = (
    "task",
    "construction",
    "paper_n_hidden",
    "alpha",
    "subset",
    "quantity",
    "paper_value",
    "paper_sem",
    "paper_note",
)


def reported_value(
    task: str, subset: str, quantity: str, construction: str = "dense_orthogonal"
) -> float:
    """The paper's number for (task, subset, quantity) at α = 0.9 (NaN where it gives words)."""
    for entry in REPORTED:
        if entry[0] == task and entry[1] == construction and entry[3] == 0.9:
            if entry[4] == subset and entry[5] == quantity:
                return float(entry[6])
    return NAN


def printed_precision(task: str, quantity: str, value: float) -> float:
    """Half a unit in the last digit the paper prints for a number: the paper's 1.00 stands for
    anything in [0.995, 1.005). The copy task's accuracies are printed to two decimals (1.00)
    or three (0.876), n_R as integers; the Figure 2 numbers as written (0.0945, 2.08, 0.94)."""
    if task == "copy" and quantity == "accuracy":
        return 0.005 if value == 1.0 else 0.0005
    if quantity == "n_R":
        return 0.5
    if not math.isfinite(value):
        return 0.0
    decimals = len(repr(float(value)).split(".")[1]) if "e" not in repr(float(value)) else 4
    return 0.5 * 10.0**-decimals


COPY_SHARE_PRECISION = 0.02
"""The precision of a copy claim's statistic computed from the paper's printed accuracies:
two accuracies at ±0.005 over the learned 1/2 of a perfect controller."""


def reported_share(task: str, subset: str, construction: str = "dense_orthogonal") -> float:
    """The paper's number for an ablation at α = 0.9 on the harm-share scale of
    :mod:`rnnschur.studies.verdicts`: (acc(W) − acc(W̃)) / (acc(W) − 1/2) for the copy task, ΔFVU /
    (1 − FVU(W)) for the Figure 2 tasks (NaN where the paper gives words)."""

    if task == "copy":
        full = reported_value(task, "none", "accuracy", construction)
        return harm_share("accuracy", full, reported_value(task, subset, "accuracy", construction))
    full = reported_value(task, "none", "fvu", construction)
    if subset == "none":
        return 0.0
    return harm_share("fvu", full, full + reported_value(task, subset, "delta_fvu", construction))


def reported_share_per_mass(task: str, subset: str) -> float:
    """The paper's S_ΔT on the harm-share scale: S_ΔT / (1 − FVU(W))."""
    full = reported_value(task, "none", "fvu")
    return reported_value(task, subset, "s_delta_t") / (1.0 - full)


READINGS = (
    ("copy", "T_CC", Verdict.HARMLESS, "§3: removing T_CC keeps the mean replay accuracy at 1.00"),
    (
        "copy",
        "T_RR",
        Verdict.FRAGILE,
        "§3: removing T_RR gives a different, intermediate class (0.876)",
    ),
    (
        "copy",
        "T_CR",
        Verdict.FRAGILE,
        "§3: removing T_C→R moves the model to another class (0.639)",
    ),
    ("flip_flop", "T_CR", Verdict.FRAGILE, "Figure 2: ΔFVU 0.0945 ± 0.0094, 20× the full FVU"),
    ("flip_flop", "T_CC", Verdict.FRAGILE, "Figure 2: ΔFVU 0.0496 ± 0.0054, 10× the full FVU"),
    ("flip_flop", "T_RR", Verdict.HARMLESS, "Figure 2: −T_RR 'almost none'"),
    ("sine", "T_CC", Verdict.FRAGILE, "Figure 2: ΔFVU 2.08 ± 0.23"),
    ("sine", "T_CR", Verdict.FRAGILE, "Figure 2: ΔFVU 1.73 ± 0.34"),
    ("sine", "T_RR", Verdict.HARMLESS, "Figure 2: −T_RR 'little'"),
    ("context_integration", "T_CC", Verdict.FRAGILE, "Figure 2: ΔFVU 0.94 ± 0.03"),
    ("context_integration", "T_CR", Verdict.FRAGILE, "Figure 2: ΔFVU 0.37 ± 0.16"),
)
"""How the paper reads each single-block ablation of its dense orthogonal models (task, block,
reading, where it says so): the readings a verdict scale must give back from the paper's own
numbers (:func:`rnnschur.studies.paper.reported_verdicts.paper_readings`)."""


def reported_sem(task: str, subset: str, quantity: str) -> float:
    """The paper's SEM over seeds for (task, subset, quantity) at α = 0.9 (NaN where none)."""
    for entry in REPORTED:
        if entry[:2] == (task, "dense_orthogonal") and entry[3] == 0.9:
            if entry[4] == subset and entry[5] == quantity:
                return float(entry[7])
    return NAN
