"""What a table says, in sentences generated from it with its numbers (docs/results.md and the
README's blocks): the count behind every statement, so the words cannot outrun the table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.learned import TOO_FEW

BLOCK_NAMES = {"T_RR": "−T_RR", "T_CR": "−T_C→R", "T_CC": "−T_CC"}
VERDICTS = ("fragile", "harmless", "inconclusive", "empty", TOO_FEW)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def claims_reading(claims: pd.DataFrame) -> str:
    """E.g. 'Of the 14 claims tested, 9 hold, 1 fails, 1 is a tie within its margin and 3 are
    inconclusive (the observed spread would need 28, 60 and more than 10⁶ seeds).'"""
    tested = claims[claims["n_trained"] > 0]
    if tested.empty:
        return "No claim of the paper was tested: the run trains none of their tasks."
    counts = tested["verdict"].value_counts()
    parts = []
    for verdict, words in (
        ("holds", ("holds", "hold")),
        ("fails", ("fails", "fail")),
        ("equivalent", ("is a tie within its margin", "are ties within their margins")),
        ("inconclusive", ("is inconclusive", "are inconclusive")),
        (TOO_FEW, ("has too few learned models", "have too few learned models")),
    ):
        n = int(counts.get(verdict, 0))
        if n:
            parts.append(f"{n} {words[0] if n == 1 else words[1]}")
    text = f"Of the {len(tested)} claims tested, " + _join(parts)
    open_ = tested[tested["verdict"] == "inconclusive"]
    if len(open_) and "seeds_needed" in open_:
        needed = [_seeds(v) for v in open_["seeds_needed"]]
        text += f" (at their observed spread they would need {_join(needed)} seeds)"
    unlearned = tested[tested["n_learned"] < tested["n_trained"]]
    text += "."
    if len(unlearned):
        text += (
            f" {_count(len(unlearned), 'claim')} left out models that did not learn their task "
            f"({int((unlearned['n_trained'] - unlearned['n_learned']).sum())} model-claims)."
        )
    return text


def profile_reading(profile: pd.DataFrame, groups: str = "tasks") -> str:
    """Per coupling block, how many ``groups`` (rows of the block profile) call it what, e.g.
    '−T_C→R is fragile in 7 of 8 tasks (inconclusive in 1).', and the groups whose models did
    not learn."""
    sentences = []
    for block, name in BLOCK_NAMES.items():
        rows = profile[profile["subset"] == block]
        if rows.empty:
            continue
        counts = rows["verdict"].value_counts()
        lead = max(("fragile", "harmless"), key=lambda v: counts.get(v, 0))
        rest = [f"{v} in {int(counts[v])}" for v in VERDICTS if v != lead and counts.get(v, 0) > 0]
        sentence = f"{name} is {lead} in {int(counts.get(lead, 0))} of {len(rows)} {groups}"
        sentences.append(sentence + (f" ({', '.join(rest)})." if rest else "."))
    if "n_learned" in profile:
        short = profile[profile["n_learned"] < profile["n_trained"]]
        if len(short):
            groups_short = short.drop_duplicates(["task", "construction", "n_hidden"])
            which = ", ".join(
                f"{r.task} {r.n_learned}/{r.n_trained}" for r in groups_short.itertuples()
            )
            sentences.append(
                f"In {_count(len(groups_short), 'group')} some models did not learn their task "
                f"({which} learned); their verdicts count only those that did."
            )
    return " ".join(sentences)


def _seeds(value: float) -> str:
    if not np.isfinite(value):
        return "more than 10⁶"
    return str(int(value))


def _times(ratio: float) -> str:
    """A ratio to two significant digits, without an exponent (99, 7.7, 120)."""
    return format(float(f"{ratio:.2g}"), "g")


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def gap_reading(gaps: pd.DataFrame) -> str:
    """What the gap study shows (``gap_attribution.csv``): how many of the paper's numbers the
    paper config's seeds contain, how many a variation moves toward the paper or brings within
    its seeds' range, the variation that moves the most, and per task the full-model FVU
    against the paper's with the closest variation."""
    keys = ["task", "subset", "quantity"]
    base = gaps[gaps["variation"] == "paper_config"]
    others = gaps[gaps["variation"] != "paper_config"]
    n = len(base)
    toward = others[others["moves"] == "toward"]
    inside = toward[toward["paper_in_range"].astype(bool)]
    text = (
        f"Of the {n} numbers the paper reports, the paper config's seeds contain "
        f"{int(base['paper_in_range'].astype(bool).sum())}; for "
        f"{toward[keys].drop_duplicates().shape[0]} at least one variation moves the mean toward "
        f"the paper, and for {inside[keys].drop_duplicates().shape[0]} one brings the paper's "
        "value within its seeds' range."
    )
    if len(others):
        counts = others.groupby("variation", sort=False)["moves"].value_counts().unstack()
        counts = counts.reindex(columns=["toward", "away"]).fillna(0).astype(int)
        best = counts.sort_values(["toward", "away"], ascending=[False, True]).index[0]
        applies = int((others["variation"] == best).sum())
        text += (
            f" No variation moves every number toward the paper: the one that moves the most, "
            f"{best}, moves {counts.loc[best, 'toward']} of the {applies} it applies to toward "
            f"it and {counts.loc[best, 'away']} away."
        )
    fvus = []
    for r in base[base["quantity"] == "fvu"].itertuples(index=False):
        ratio = r.paper_value / r.mean
        words = f"{_times(ratio)}× lower" if ratio >= 1 else f"{_times(1 / ratio)}× higher"
        rivals = others[(others["task"] == r.task) & (others["quantity"] == "fvu")]
        rivals = rivals[rivals["subset"] == r.subset]
        closest = ""
        if len(rivals):
            c = rivals.loc[rivals["distance"].idxmin()]
            closest = f", closest {c['variation']} {c['mean']:.3g}"
        fvus.append(f"{r.task} {r.mean:.3g} against {r.paper_value:.3g} ({words}{closest})")
    if fvus:
        text += f" Full-model FVU, the paper config's against the paper's: {_join(fvus)}."
    return text


def _off(value: float, target: float) -> str:
    """'2.9× higher', '99× lower', 'equal' or 'of the wrong sign' against ``target``."""
    if not value > 0:
        return "of the wrong sign"
    ratio = value / target
    if _times(ratio) == "1":
        return "equal to two digits"
    return f"{_times(ratio)}× higher" if ratio > 1 else f"{_times(1 / ratio)}× lower"


def _number_name(task: str, subset: str, quantity: str) -> str:
    """E.g. 'sine S_ΔT(−T_C→R)', 'flip-flop full FVU'."""
    quantity_names = {"fvu": "FVU", "delta_fvu": "ΔFVU", "s_delta_t": "S_ΔT"}
    task_names = {"flip_flop": "flip-flop", "context_integration": "context"}
    name = task_names.get(task, task)
    if subset == "none":
        return f"{name} full {quantity_names.get(quantity, quantity)}"
    return f"{name} {quantity_names.get(quantity, quantity)}({BLOCK_NAMES.get(subset, subset)})"


def gap_conclusion(ranking: pd.DataFrame, gaps: pd.DataFrame) -> str:
    """The gap study's answer, from ``gap_ranking.csv`` and ``gap_attribution.csv``: the nearest
    variation and how near, per number of Figure 2 the variation that comes closest, the
    numbers no variation brings within a factor of 2, whether any keeps the paper's order of
    full FVUs, and the copy task's n_R and −T_C→R accuracy under each variation of it."""
    from rnnschur.paper.gap_study import BASELINE, FIGURE2_TASKS

    base = ranking[ranking["variation"] == BASELINE]
    if ranking.empty or base.empty:
        return "The gap study did not run."
    base = base.iloc[0]
    best = ranking.iloc[0]
    nearer = ranking[ranking["distance"] < base["distance"]]
    text = (
        f"Ranked by the distance to the paper's Figure 2 numbers (mean |log10 ratio|, in "
        f"decades), the nearest variation is {best['variation']} at {best['distance']:.2f} "
        f"(a factor {_times(10 ** best['distance'])} per number on average), against the paper "
        f"config's {base['distance']:.2f} (a factor {_times(10 ** base['distance'])}); "
        f"{len(nearer)} of the {len(ranking) - 1} others come nearer than the paper config."
    )
    effects = ranking.dropna(subset=["effects_distance"]).sort_values(
        ["effects_distance", "variation"], kind="stable"
    )
    if len(effects):
        e = effects.iloc[0]
        text += (
            f" On the effects alone (ΔFVU and S_ΔT, which no stopping rule sets), the nearest is "
            f"{e['variation']} at {e['effects_distance']:.2f} against the paper config's "
            f"{base['paper_config_effects_distance']:.2f}"
            + (
                f", and {best['variation']} is at {best['effects_distance']:.2f}."
                if e["variation"] != best["variation"]
                else "."
            )
        )
    figure2 = gaps[gaps["task"].isin(FIGURE2_TASKS)]
    closest, remaining = [], []
    for (task, subset, quantity), rows in figure2.groupby(
        ["task", "subset", "quantity"], sort=False
    ):
        paper_value = rows["paper_value"].iloc[0]
        ratio = np.abs(np.log10(rows["mean"].where(rows["mean"] > 0) / paper_value))
        if ratio.isna().all():
            remaining.append(_number_name(task, subset, quantity))
            continue
        c = rows.loc[ratio.idxmin()]
        own = rows[rows["variation"] == BASELINE]["mean"]
        name = _number_name(task, subset, quantity)
        if c["variation"] == BASELINE:
            closest.append(
                f"{name} {c['mean']:.3g}, the paper config's own (paper {paper_value:.3g})"
            )
        else:
            mine = f"; paper config {own.iloc[0]:.3g}" if len(own) else ""
            closest.append(
                f"{name} {c['mean']:.3g} under {c['variation']} (paper {paper_value:.3g}{mine})"
            )
        if ratio.min() > np.log10(2):
            remaining.append(
                f"{_number_name(task, subset, quantity)} ({_off(c['mean'], paper_value)} at best)"
            )
    if closest:
        text += f" Per number, the variation that comes closest: {_join(closest)}."
    if remaining:
        text += (
            f" No variation brings {_count(len(remaining), 'number')} within a factor of 2 of "
            f"the paper's: {_join(remaining)}."
        )
    else:
        text += " Every number comes within a factor of 2 of the paper's under some variation."
    if best["variation"] != BASELINE:
        own = figure2[figure2["variation"] == best["variation"]]
        off = [
            f"{_number_name(r.task, r.subset, r.quantity)} {r.mean:.3g} "
            f"(the paper's {r.paper_value:.3g}: {_off(r.mean, r.paper_value)})"
            for r in own.itertuples(index=False)
            if not (r.mean > 0 and abs(np.log10(r.mean / r.paper_value)) <= np.log10(2))
        ]
        text += (
            f" Under {best['variation']} itself, {_count(len(off), 'number')} of {len(own)} "
            "stay more than a factor of 2 from the paper's" + (f": {_join(off)}." if off else ".")
        )
    if "moves" in gaps:
        parts = []
        for r in ranking.head(6).itertuples(index=False):
            if r.variation == BASELINE:
                continue
            rows = figure2[figure2["variation"] == r.variation]
            toward = int((rows["moves"] == "toward").sum())
            away = int((rows["moves"] == "away").sum())
            parts.append(f"{r.variation} {toward} toward and {away} away")
        if parts:
            text += (
                " Of its numbers, each of the nearest moves (against the paper config): "
                + _join(parts)
                + "."
            )
    ordered = ranking[ranking["fvu_order"] == "yes"]["variation"].tolist()
    text += (
        " The paper's order of full FVUs (sine < flip-flop < context) is kept by "
        + (_join(ordered) if ordered else "no variation")
        + "."
    )
    copy = gaps[(gaps["task"] == "copy") & gaps["quantity"].isin(["n_R", "accuracy"])]
    copy = copy[(copy["quantity"] == "n_R") | (copy["subset"] == "T_CR")]
    parts = []
    for (_, quantity), rows in copy.groupby(["subset", "quantity"], sort=False):
        name = "n_R" if quantity == "n_R" else "−T_C→R accuracy"
        values = _join([f"{r.variation} {r.mean:.3g}" for r in rows.itertuples(index=False)])
        parts.append(f"{name} paper {rows['paper_value'].iloc[0]:.3g}, {values}")
    if parts:
        text += f" Copy (Figure 1): {'; '.join(parts)}."
    return text


def families_reading(profiles: dict[str, pd.DataFrame]) -> str:
    """Per coupling block, its leading verdict in each network family (``{family: block
    profile}``), e.g. '−T_C→R is fragile in 5 of 5 tasks as discrete tanh and 4 of 5 as leaky
    relu.', and the groups with too few learned models."""
    sentences = []
    for block, name in BLOCK_NAMES.items():
        counts = {}
        for family, profile in profiles.items():
            rows = profile[profile["subset"] == block]
            if len(rows):
                counts[family] = (int((rows["verdict"] == "fragile").sum()), len(rows))
        if counts:
            parts = [f"{k} of {n} tasks as {family}" for family, (k, n) in counts.items()]
            sentences.append(f"{name} is fragile in {_join(parts)}.")
    short = []
    for family, profile in profiles.items():
        rows = profile[profile["verdict"] == TOO_FEW].drop_duplicates("task")
        short += [f"{r.task} as {family} ({r.n_learned}/{r.n_trained})" for r in rows.itertuples()]
    if short:
        sentences.append(
            f"Too few models learned for a verdict ({_join(short)} learned): those cells say so."
        )
    return " ".join(sentences)


def scale_reading(profile: pd.DataFrame, full: pd.DataFrame, memory: int = 64) -> str:
    """Per construction of the scale study: models learned, n_R (mean over the learned models,
    against the task's ``memory`` = s·d dimensions) and each block's verdict, at each N_h
    (``profile``: block_profile.csv; ``full``: the full model's ablation rows at α, with a
    ``learned`` column)."""
    sentences = []
    for construction, rows in profile.groupby("construction", sort=True):
        sizes = sorted(rows["n_hidden"].unique())
        at = "at N_h = " + _join([str(int(s)) for s in sizes])
        models = full[full["construction"] == construction]
        learned = [
            f"{int(models[models['n_hidden'] == s]['learned'].sum())}/"
            f"{int((models['n_hidden'] == s).sum())}"
            for s in sizes
        ]
        n_R = []
        for s in sizes:
            kept = models[(models["n_hidden"] == s) & models["learned"].astype(bool)]["n_R"]
            n_R.append(f"{kept.mean():.1f}" if len(kept) else "—")
        blocks = []
        for block, name in BLOCK_NAMES.items():
            verdicts = [
                rows[(rows["n_hidden"] == s) & (rows["subset"] == block)]["verdict"].iloc[0]
                for s in sizes
            ]
            blocks.append(f"{name} {', '.join(verdicts)}")
        sentences.append(
            f"{construction}: {_join(learned)} models learned {at}; n_R of the learned models "
            f"{', '.join(n_R)} (the task has {memory} dimensions of memory); {'; '.join(blocks)}."
        )
    return " ".join(sentences)


def subspace_reading(summary: pd.DataFrame) -> str:
    """How often a random perturbation of the same norm and overlap explains an ablation's harm
    (``subspace_control_summary.csv``), per verdict, and on how many held-out trials."""
    n = int(summary["n_models"].sum())
    explained = int(summary["n_explained"].sum())
    rows = summary["verdict"].value_counts()
    text = (
        f"In {explained} of {n} model-ablations (block, subspace and side) an overlap-matched "
        "random perturbation of the same norm does as much harm, within the ratio: there the "
        "ablation's effect is explained by where it perturbs. By row (the verdict of most "
        "seeds): " + _join([f"{v} {int(rows[v])}" for v in rows.index]) + f" of {len(summary)}."
    )
    if "n_trials" in summary:
        trials, heldout = int(summary["n_trials"].min()), int(summary["n_heldout"].max())
        text += f" Scored on {trials} of the {heldout} held-out trials."
    return text


def refit_reading(summary: pd.DataFrame) -> str:
    """How much of each single-block ablation's harm a refit readout recovers
    (``readout_refit_summary.csv``): the share (fixed − refit) / (fixed − full) for FVU, the
    same with the signs of accuracy, over the rows whose fixed readout loses more than 0.01."""
    parts, recovered = [], []
    keys = ["task", "construction", "n_hidden"]
    for (task, construction, _), rows in summary.groupby(keys, sort=False):
        full = rows[rows["subset"] == "none"]
        if full.empty:
            continue
        sign = 1.0 if rows["metric"].iloc[0] == "fvu" else -1.0
        base = float(full["fixed_score"].iloc[0])
        for r in rows[rows["subset"].isin(list(BLOCK_NAMES))].itertuples(index=False):
            lost = sign * (r.fixed_score - base)
            if lost > 0.01:
                share = sign * (r.fixed_score - r.refit_score) / lost
                recovered.append(share)
                parts.append((share, f"{task} {construction} {BLOCK_NAMES[r.subset]}"))
    if not recovered:
        return "No single-block ablation loses more than 0.01 with the fixed readout."
    shares = np.array(recovered)
    low, high = min(parts), max(parts)
    return (
        f"A readout refit on the ablated network recovers a median {np.median(shares):.0%} of "
        f"the harm of the {len(shares)} single-block ablations that lose more than 0.01 "
        f"(least {low[0]:.0%}, {low[1]}; most {high[0]:.0%}, {high[1]}"
        + (
            "; above 100 %: the refit ablated network beats the full one's fixed readout"
            if high[0] > 1
            else ""
        )
        + "). What a refit does not recover is lost from the state itself, not only from the "
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
        f"({hi['name']}, N_h = {int(hi['n_hidden'])}); the ablations through eigen and Schur "
        f"coordinates differ by at most {summary['eigen_schur_difference'].max():.2g}, and "
        f"−T_C→R amplifies a perturbation by {summary['schur_T_CR'].min():.3g}–"
        f"{summary['schur_T_CR'].max():.3g} through Schur coordinates against "
        f"{summary['eigen_T_CR'].min():.3g}–{summary['eigen_T_CR'].max():.3g} through eigen ones."
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
