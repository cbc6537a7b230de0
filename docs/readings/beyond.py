"""What the analyses beyond the paper say, in sentences with their counts: the subspace
control, the readout refit, Schur against eigen coordinates, training's checkpoints and the
dose-response study."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.text import and_list
from rnnschur.report.page import BLOCK_NAMES
from rnnschur.studies.paper.claims import TASK_NAMES
from rnnschur.studies.verdicts import Verdict

from .words import counted as _count


def subspace_reading(summary: pd.DataFrame) -> str:
    """How often a random perturbation of the same norm and overlap explains an ablation's harm
    (``subspace_control_summary.csv``), per verdict, and on how many held-out trials."""
    n = int(summary["n_models"].sum())
    explained = int(summary["n_explained"].sum())
    saturated = int(summary["n_saturated"].sum()) if "n_saturated" in summary else 0
    rows = summary["verdict"].value_counts()
    text = (
        f"In {explained} of {n} model-ablations (block, subspace and side) an overlap-matched "
        "random perturbation of the same norm does as much harm, within the ratio (not both "
        "near chance): there the ablation's effect is as large as where it perturbs predicts."
    )
    if saturated:
        text += (
            f" In {saturated} more both are near chance (saturated: each takes at least "
            "80 % of the learned performance), where the harm cannot tell where a perturbation "
            "lies, only that it is large."
        )
    text += (
        " By row (the verdict of most seeds): "
        + and_list([f"{v} {int(rows[v])}" for v in rows.index])
        + f" of {len(summary)}."
    )
    if "n_trials" in summary:
        trials, heldout = int(summary["n_trials"].min()), int(summary["n_heldout"].max())
        text += f" Scored on {trials} of the {heldout} held-out trials."
    return text


def refit_shares(summary: pd.DataFrame, control: bool = False) -> dict[tuple, float]:
    """Per (task, construction, N_h, block) of ``readout_refit_summary.csv``, the share of a
    single-block ablation's harm that a refit readout recovers: (fixed − refit) / (fixed − full)
    for an FVU, the same with the signs of an accuracy; only where the fixed readout loses more
    than 0.01 (below, there is no harm to recover). ``control``: the same of each ablation's
    control (a removal of its norm from the other blocks)."""
    fixed, refit = (
        ("control_fixed_score", "control_refit_score")
        if control
        else (
            "fixed_score",
            "refit_score",
        )
    )
    shares = {}
    keys = ["task", "construction", "n_hidden"]
    for (task, construction, size), rows in summary.groupby(keys, sort=False):
        full = rows[rows["subset"] == "none"]
        if full.empty or fixed not in rows:
            continue
        sign = 1.0 if rows["metric"].iloc[0] == "fvu" else -1.0
        base = float(full["fixed_score"].iloc[0])
        for r in rows[rows["subset"].isin(list(BLOCK_NAMES))].to_dict("records"):
            lost = sign * (r[fixed] - base)
            if lost > 0.01:
                shares[(task, construction, size, r["subset"])] = (
                    sign * (r[fixed] - r[refit]) / lost
                )
    return shares


def refit_reading(summary: pd.DataFrame) -> str:
    """How much of each single-block ablation's harm a refit readout recovers
    (:func:`refit_shares` of ``readout_refit_summary.csv``), and of its control's."""
    shares = refit_shares(summary)
    if not shares:
        return "No single-block ablation loses more than 0.01 with the fixed readout."
    parts = [(v, f"{t} {c} {BLOCK_NAMES[b]}") for (t, c, _, b), v in shares.items()]
    values = np.array(list(shares.values()))
    low, high = min(parts), max(parts)
    controls = {k: v for k, v in refit_shares(summary, control=True).items() if k in shares}
    return (
        f"A readout refit on the ablated network recovers a median {np.median(values):.0%} of "
        f"the harm of the {len(values)} single-block ablations that lose more than 0.01 "
        f"(least {low[0]:.0%}, {low[1]}; most {high[0]:.0%}, {high[1]})."
        + (
            " Above 100 %, the refit ablated network beats the full one's fixed readout."
            if high[0] > 1
            else ""
        )
        + (
            f" Its control, the same norm removed from the other blocks, loses more than 0.01 in "
            f"{len(controls)} of them, and a refit recovers a median "
            f"{np.median(list(controls.values())):.0%} there."
            if controls
            else " Its control, the same norm removed from the other blocks, loses more than "
            "0.01 in none of them."
        )
        + " What a refit does not recover is lost from the state itself, not only from the "
        "readout's alignment."
    )


def basis_reading(summary: pd.DataFrame) -> str:
    """Schur against eigen coordinates (``basis_sensitivity_summary.csv``): the range of κ(V),
    the largest eigen-vs-Schur difference, the −T_C→R amplification through either basis."""
    where = summary.assign(name=summary["task"] + " " + summary["construction"])
    lo, hi = where.loc[where["kappa_V"].idxmin()], where.loc[where["kappa_V"].idxmax()]
    return (
        f"The eigenvector matrix's condition number κ(V) (median over seeds) runs from "
        f"{lo['kappa_V']:.3g} ({lo['name']}, N_h = {int(lo['n_hidden'])}) to {hi['kappa_V']:.3g} "
        f"({hi['name']}, N_h = {int(hi['n_hidden'])}). As a check of the code (the two routes "
        "build the same W̃ by construction, so this is no finding), the ablations through "
        f"eigen and Schur coordinates differ by at most "
        f"{summary['eigen_schur_difference'].max():.2g}; "
        f"−T_C→R amplifies a perturbation by {summary['schur_T_CR'].min():.3g}–"
        f"{summary['schur_T_CR'].max():.3g} through Schur coordinates against "
        f"{summary['eigen_T_CR'].min():.3g}–{summary['eigen_T_CR'].max():.3g} through eigen ones."
    )


def basis_dependence_reading(summary: pd.DataFrame) -> str:
    """What ``basis_dependence_summary.csv`` says at each task's largest N_h, per tolerance:
    where a T_RR or T_CC reading is basis-dependent (k of the solutions where the block is
    present, and the largest spread), and where no reading is."""
    from rnnschur.studies.verdicts import largest_size

    out = []
    for tolerance, rows in largest_size(summary).groupby("tolerance", sort=True):
        moved = rows[rows["n_basis_dependent"] > 0]
        parts = [
            f"{TASK_NAMES.get(r.task, r.task)} {r.construction} {BLOCK_NAMES[r.block]} in "
            f"{r.n_basis_dependent} of {r.n_models - r.n_absent} (spread up to {r.spread_max:.2g})"
            for r in moved.itertuples(index=False)
        ]
        where = f"With the moduli within {tolerance:g} ρ of each other taken as equal"
        if parts:
            out.append(f"{where}, a reading is basis-dependent in: {'; '.join(parts)}.")
        else:
            out.append(f"{where}, no T_RR or T_CC reading is basis-dependent.")
    return " ".join(out) + (
        " A basis-dependent reading depends on an order of the Schur modes that nothing in "
        "the network fixes: read it as one of several equally valid answers."
    )


def checkpoint_reading(summary: pd.DataFrame) -> str:
    """When training stops (``checkpoint_ablation_summary.csv``): per task and construction,
    each block's score at the first milestone checkpoint and at the kept (best) one."""
    sentences = []
    for (task, construction), rows in summary.groupby(["task", "construction"], sort=False):
        first = rows[rows["selection"] == "milestone"].head(1)
        best = rows[rows["selection"] == "best"].head(1)
        if first.empty or best.empty:
            continue
        f, b = first.iloc[0], best.iloc[0]
        blocks = [f"{BLOCK_NAMES[k]} {f[k]:.3g} → {b[k]:.3g}" for k in BLOCK_NAMES if k in summary]
        sentences.append(
            f"{task} {construction}: full {f['none']:.3g} at step {f['step']:.0f} (milestone "
            f"{f['selection_value']:g}) → {b['none']:.3g} at step {b['step']:.0f} (best); "
            + ", ".join(blocks)
            + "."
        )
    return (
        "Scores of the full and each ablated model, at the first milestone checkpoint → at the "
        "kept one: " + " ".join(sentences)
    )


DOSE_ORDER = (Verdict.LOAD_BEARING, Verdict.SYMMETRY, Verdict.MILDER, Verdict.LIKE_ANY)
DOSE_NAMED = 4
"""At most this many groups of one verdict are named in the sentence; more are counted."""


def _group_name(r) -> str:
    """'sine dense_orthogonal N_h = 64 −T_C→R': one group of a dose-response summary."""
    task = TASK_NAMES.get(r.task, r.task)
    return f"{task} {r.construction} N_h = {r.n_hidden} {BLOCK_NAMES[r.block]}"


def _operator_sentence(summary: pd.DataFrame) -> str:
    """How the groups whose block does more harm than the other couplings of its Frobenius norm
    fare against the other couplings of its operator norm (``excess_other_couplings_operator``,
    reported beside the verdict, not judged; a low-rank block has the larger operator norm of
    the two): in how many those do as much or more, naming them, and how the largest excess
    changes. Groups whose block is absent or whose models are too few are left out."""
    column = "excess_other_couplings_operator"
    if column not in summary:
        return ""
    judged = summary[~summary["verdict"].isin([Verdict.EMPTY, Verdict.TOO_FEW])]
    ahead = judged[judged["excess_other_couplings"] > 0]
    if ahead.empty:
        return ""
    lost = ahead[ahead[column] <= 0]
    top = ahead.loc[ahead["excess_other_couplings"].idxmax()]
    text = (
        f" Matched in operator norm instead of Frobenius norm (reported, not judged), the other "
        f"couplings do at least as much harm as the block in {len(lost)} of the {len(ahead)} "
        "groups whose block does more harm than those of its Frobenius norm"
    )
    if 0 < len(lost) <= DOSE_NAMED:
        text += " (" + and_list([_group_name(r) for r in lost.itertuples()]) + ")"
    return text + (
        f"; the largest excess over the Frobenius-matched ones, {_group_name(top)}'s, is "
        f"{top['excess_other_couplings']:+.2g} and {top[column]:+.2g} over the "
        "operator-matched ones."
    )


def dose_reading(summary: pd.DataFrame) -> str:
    """What the dose-response summary says (``dose_response_summary.csv``): how many block
    groups are load-bearing, a symmetry direction, milder than or like any perturbation of
    their size, naming each group of a verdict (at most :data:`DOSE_NAMED`, else counted by
    task); how many no test decides, and why; where the block's full removal and its controls
    both take at least 80 % of the learned performance (saturated), where a verdict rests on
    the smaller doses; and how the blocks fare against the control matched in operator
    norm."""
    if summary.empty:
        return "No model learned its task: no block was judged against random perturbations."
    counts = summary["verdict"].value_counts()
    decided = [f"{v} {int(counts[v])}" for v in DOSE_ORDER if counts.get(v, 0)]
    others = [f"{v} {int(counts[v])}" for v in counts.index if v not in DOSE_ORDER]
    text = (
        f"Of {_count(len(summary), 'block group')} (task, network, N_h and block): "
        + (and_list(decided) if decided else "none is decided")
        + (f"; the rest: {and_list(others)}" if others else "")
        + ". Each is judged on its excess harm over random perturbations of the same norm, "
        "tested at every dose ε over the seeds against ±θ."
    )
    named = []
    for verdict in DOSE_ORDER:
        rows = summary[summary["verdict"] == verdict]
        if 0 < len(rows) <= DOSE_NAMED:
            items = [
                f"{TASK_NAMES.get(r.task, r.task)} {r.construction} N_h = {r.n_hidden} "
                f"{BLOCK_NAMES[r.block]} ({r.excess_mean:+.2g} "
                f"[{r.excess_ci_low:.2g}, {r.excess_ci_high:.2g}])"
                for r in rows.itertuples()
            ]
            named.append(f"{verdict}: " + and_list(items))
        elif len(rows):  # a long list goes in the table; the sentence counts it by task
            tasks = rows["task"].value_counts()
            by_task = [f"{TASK_NAMES.get(t, t)} {int(n)}" for t, n in tasks.items()]
            named.append(f"{verdict}, by task: " + and_list(by_task) + " (rows in the table)")
    for sentence in named:  # one sentence per verdict
        text += " " + sentence[0].upper() + sentence[1:] + "."
    text += _operator_sentence(summary)
    saturated = summary[(summary["harm_at_full"] >= 0.8) & (summary["control_harm_at_full"] >= 0.8)]
    if len(saturated):
        judged = int(saturated["verdict"].isin(DOSE_ORDER).sum())
        text += (
            f" In {_count(len(saturated), 'group')} the full removal and its controls both take "
            f"at least 80 % of the learned performance (saturated at full removal); {judged} of "
            "them have a verdict, which rests on the smaller doses."
        )
    return text
