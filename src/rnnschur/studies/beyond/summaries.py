"""Summaries over seeds of the beyond-the-paper analyses, one function per analysis named as in
:data:`rnnschur.studies.beyond.registry.ANALYSES`: ``<name>(table, settings)`` takes the analysis's
tidy table over models and its config settings and returns its tables, ``summary`` first.

All functions take and return pandas DataFrames; none reads or writes files.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur import tasks
from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.schur import COUPLING_BLOCKS
from rnnschur.studies.beyond import subspace
from rnnschur.studies.stats import sem
from rnnschur.studies.verdicts import Verdict, harm_share, largest_size

SATURATED = 0.8
"""A harm share at or above which the network is near chance: an ablation and its matched
control that both reach it are *saturated* (their harms say nothing about where the ablation
perturbs, only that both perturbations are large)."""


def _shares(out: pd.DataFrame, column: str) -> np.ndarray:
    """The harm share of a raw harm column (:func:`rnnschur.studies.verdicts.harm_share`), the full
    score recovered from the ablation's score and harm."""
    shares = np.full(len(out), np.nan)
    metrics = np.array([tasks.score_of(t) for t in out["task"]])
    for metric in np.unique(metrics):
        pick = metrics == metric
        sign = 1.0 if metric == "fvu" else -1.0  # harm: FVU gained, or accuracy/choice lost
        full = out["score"].to_numpy(float)[pick] - sign * out["harm"].to_numpy(float)[pick]
        ablated = full + sign * out[column].to_numpy(float)[pick]
        shares[pick] = harm_share(metric, full, ablated)
    return shares


def subspace_verdicts(controls: pd.DataFrame, floor: float, ratio: float) -> pd.DataFrame:
    """Per model, subset, subspace and side: the ablation's overlap and harm beside the mean
    harm of its controls (``inside``, ``complement``, ``matched``) and the verdict of
    :func:`rnnschur.studies.beyond.subspace.verdict` against the overlap-matched controls; where the
    ablation and its matched control both take at least :data:`SATURATED` of the learned
    performance, *saturated* instead of *explained* (near chance, the harm cannot tell where a
    perturbation lies)."""
    keys = [*MODEL_KEYS, "subset", "subspace", "dim", "side", "chance_overlap", "relative_norm"]
    keys += [k for k in ("n_trials", "n_heldout") if k in controls]  # scored on n of n_heldout
    kept = ["overlap", "harm", "score"]
    ablation = controls[controls["kind"] == "ablation"].set_index(keys)[kept]
    means = controls[controls["kind"] != "ablation"].pivot_table(
        index=keys, columns="kind", values="harm", aggfunc="mean"
    )
    means = means.reindex(columns=["inside", "complement", "matched"])
    out = ablation.join(means.add_suffix("_harm")).reset_index()
    out["verdict"] = [
        subspace.verdict(a, c, floor, ratio)
        for a, c in zip(out["harm"], out["matched_harm"], strict=True)
    ]
    saturated = (_shares(out, "harm") >= SATURATED) & (_shares(out, "matched_harm") >= SATURATED)
    out.loc[saturated & (out["verdict"] == Verdict.EXPLAINED), "verdict"] = Verdict.SATURATED
    return out


def subspace_summary(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per task, construction, subset, subspace and side over the seeds of the largest N_h:
    mean overlap, chance overlap, mean harm of the ablation and of each control kind, and how
    many models' ablation effects their overlap explains."""
    keys = ["task", "construction", "n_hidden", "subset", "subspace", "side"]
    frame = largest_size(verdicts)
    grouped = frame.groupby(keys, sort=False)
    out = grouped[
        [
            c
            for c in (
                "overlap",
                "chance_overlap",
                "harm",
                "matched_harm",
                "inside_harm",
                "complement_harm",
            )
            if c in frame
        ]
    ].mean()
    out["n_models"] = grouped.size()
    for column in ("n_trials", "n_heldout"):  # the held-out trials scored, of how many
        if column in frame:
            out[column] = grouped[column].min().astype(int)
    out["n_explained"] = grouped["verdict"].apply(lambda v: int((v == Verdict.EXPLAINED).sum()))
    out["n_saturated"] = grouped["verdict"].apply(lambda v: int((v == Verdict.SATURATED).sum()))
    out["verdict"] = grouped["verdict"].agg(lambda v: v.value_counts().index[0])
    return out.reset_index()


def refit_summary(refit: pd.DataFrame) -> pd.DataFrame:
    """Fixed against refit readout per task, construction and subset (largest N_h): mean and
    SEM over seeds, and beside them the same two scores after each refit's control (a removal
    of the same norm from the other coupling blocks,
    :func:`rnnschur.studies.beyond.refit.evaluate_refits`) with the share of the norm it reached."""
    keys = ["task", "construction", "n_hidden", "metric", "subset"]
    grouped = largest_size(refit).groupby(keys, sort=False)
    out = pd.DataFrame(
        {
            "fixed_score": grouped["fixed_score"].mean(),
            "fixed_sem": grouped["fixed_score"].agg(sem),
            "refit_score": grouped["refit_score"].mean(),
            "refit_sem": grouped["refit_score"].agg(sem),
            "control_fixed_score": grouped["control_fixed_score"].mean(),
            "control_refit_score": grouped["control_refit_score"].mean(),
            "control_norm_ratio": grouped["control_norm_ratio"].mean(),
            "n_seeds": grouped.size(),
        }
    )
    return out.reset_index()


def basis_summary(basis: pd.DataFrame) -> pd.DataFrame:
    """Per task, construction and N_h, medians over seeds: κ(V), departures from normality, the
    eigen-vs-Schur difference, and the median amplification of the −T_{C→R} ablation through
    eigen and Schur coordinates, of −T_RR, and the largest of any Schur route."""
    keys = ["task", "construction", "n_hidden"]
    per_model = basis.groupby([*keys, "seed"], sort=False)
    model = per_model[["kappa_V", "henrici", "schur_departure", "eigen_schur_difference"]].first()
    amplification = basis.pivot_table(
        index=[*keys, "seed"], columns=["route", "subset"], values="amplification_median"
    )
    model["eigen_T_CR"] = amplification[("eigen", "T_CR")]
    model["schur_T_CR"] = amplification[("schur", "T_CR")]
    model["schur_T_RR"] = amplification[("schur", "T_RR")]
    model["schur_largest"] = amplification["schur"].max(axis=1)
    out = model.groupby(level=keys, sort=False).median()
    out["n_seeds"] = model.groupby(level=keys, sort=False).size()
    return out.reset_index()


def checkpoint_summary(checkpoints: pd.DataFrame) -> pd.DataFrame:
    """Per task, construction and selection (largest N_h): mean step, full and single-block
    scores of the checkpoints chosen for it (``selection`` milestone, step, best or last, with
    its ``selection_value``), over the seeds that have one."""
    frame = largest_size(checkpoints)
    keys = ["task", "construction", "n_hidden", "selection", "selection_value"]
    # groupby with dropna=False, not pivot_table: selection_value is NaN for best and last, and
    # pivot_table drops index keys that are NaN (those rows lost their scores)
    scores = frame.groupby([*keys, "subset"], dropna=False)["score"].mean().unstack("subset")
    scores = scores[[s for s in ["none", *COUPLING_BLOCKS] if s in scores]]
    meta = frame[frame["subset"] == "none"].groupby(keys, dropna=False)
    out = pd.DataFrame({"step": meta["step"].mean(), "n_seeds": meta["seed"].nunique()})
    out = out.join(scores).reset_index()
    out["order"] = out["selection"].map({"step": 0, "milestone": 1, "best": 2, "last": 3})
    # milestones in the order training reaches them: by mean step, then by difficulty (higher
    # accuracy, lower FVU), as numbers
    lower_is_better = out["task"].map(frame.groupby("task")["metric"].first()) == "fvu"
    out["difficulty"] = out["selection_value"].where(~lower_is_better, -out["selection_value"])
    keys = ["task", "construction", "n_hidden", "order", "step", "difficulty"]
    return out.sort_values(keys).drop(columns=["order", "difficulty"]).reset_index(drop=True)


# One function per analysis of rnnschur.studies.beyond.registry.ANALYSES: its tables, "summary"
# first.


def checkpoint_ablation(table: pd.DataFrame, settings: dict) -> dict[str, pd.DataFrame]:
    """Ablations along training: :func:`checkpoint_summary`."""
    return {"summary": checkpoint_summary(table)}


def subspace_control(table: pd.DataFrame, settings: dict) -> dict[str, pd.DataFrame]:
    """Subspace controls: the per-model verdicts (:func:`subspace_verdicts`, with the settings'
    ``effect_floor`` and ``ratio``) and their :func:`subspace_summary`."""
    verdicts = subspace_verdicts(table, settings["effect_floor"], settings["ratio"])
    return {"summary": subspace_summary(verdicts), "verdicts": verdicts}


def readout_refit(table: pd.DataFrame, settings: dict) -> dict[str, pd.DataFrame]:
    """Readout refit: :func:`refit_summary`."""
    return {"summary": refit_summary(table)}


def dose_response(table: pd.DataFrame, settings: dict) -> dict[str, pd.DataFrame]:
    """Dose-response: the verdict per block and model group over the seeds
    (:func:`rnnschur.studies.beyond.dose_summary.dose_summary`, on the settings' ``verdicts``), and
    the curves its figure draws (:func:`rnnschur.studies.beyond.dose_summary.curves`)."""
    from rnnschur.studies.beyond import dose_summary as dose
    from rnnschur.studies.learned import learned_models
    from rnnschur.studies.verdicts import Thresholds

    curves = dose.curves(learned_models(table, settings["learned"]))
    thresholds = Thresholds(**settings["verdicts"])
    return {
        "summary": dose.dose_summary(curves, thresholds, settings["min_models"]),
        "curves": curves,
    }


def basis_sensitivity(table: pd.DataFrame, settings: dict) -> dict[str, pd.DataFrame]:
    """Basis sensitivity: :func:`basis_summary`."""
    return {"summary": basis_summary(table)}


OSCILLATING = 0.1
"""The amplitude of the readout's oscillation above which a sine network still oscillates (its
targets have amplitude 1)."""


def fixed_point_summary(fates: pd.DataFrame) -> pd.DataFrame:
    """Per task, construction, N_h, input condition and ablation, over the models of ``fates``
    (their ``fate`` rows, :func:`rnnschur.studies.fixed_point_study.model_rows`): the median number
    of stable points intact and ablated, the models whose removal keeps every stable point, moves
    one, loses one or adds one, and for the sine task the models still oscillating (amplitude above
    :data:`OSCILLATING`) and the median relative error of their frequency against the cued one;
    the median number of attractors (:mod:`rnnschur.studies.attractors`: points, cycles,
    oscillations) and the models whose removal keeps them all or loses one; summed over the models,
    the flip-flop's transitions kept of all and the copy task's replay orbits kept of all (and
    periodic intact); ``reading`` says it in words."""
    from rnnschur.ablation import label

    keys = ["task", "construction", "n_hidden", "condition"]
    intact = fates[fates["ablation"] == "none"].set_index([*keys, "seed"])["n_stable"]
    rows = []
    for (task, construction, size, condition, ablation), group in fates.groupby(
        [*keys, "ablation"], sort=False
    ):
        n = len(group)
        before = intact.reindex([(task, construction, size, condition, s) for s in group["seed"]])
        oscillating = group["amplitude"] > OSCILLATING
        error = (group["frequency"] - group["cued_frequency"]).abs() / group["cued_frequency"]
        row = {
            "task": task,
            "construction": construction,
            "n_hidden": size,
            "condition": condition,
            "ablation": label(ablation),
            "n_models": n,
            "stable_intact": float(before.median()),
            "stable": float(group["n_stable"].median()),
            "all_kept": int(((group["moved"] == 0) & (group["lost"] == 0)).sum()),
            "moved_some": int((group["moved"] > 0).sum()),
            "lost_some": int((group["lost"] > 0).sum()),
            "new_some": int((group["new"] > 0).sum()),
            "oscillating": oscillating.sum() if group["cued_frequency"].notna().any() else np.nan,
            "frequency_error": float(error[oscillating].median()) if oscillating.any() else np.nan,
            "attractors": float(group["n_attractors"].median()),
            "cycles": float(group["n_cycles"].median()),
            "oscillations": float(group["n_oscillations"].median()),
            "attractors_all_kept": int(
                ((group["attractors_moved"] == 0) & (group["attractors_lost"] == 0)).sum()
            ),
            "attractors_lost_some": int((group["attractors_lost"] > 0).sum()),
            "transitions_kept": float(group["transitions_kept"].sum(min_count=1)),
            "transitions": float(group["transitions"].sum(min_count=1)),
            "replay_periodic": float(group["replay_periodic"].sum(min_count=1)),
            "replay_kept": float(group["replay_kept"].sum(min_count=1)),
            "replay_trials": float(group["replay_trials"].sum(min_count=1)),
        }
        words = (
            f"{row['stable_intact']:g} → {row['stable']:g} stable points; all kept in "
            f"{row['all_kept']} of {n}, one or more moved in {row['moved_some']}, lost in "
            f"{row['lost_some']}; a median {row['attractors']:g} attractors "
            f"({row['cycles']:g} cycles, {row['oscillations']:g} oscillations), all kept in "
            f"{row['attractors_all_kept']} of {n}"
        )
        if group["transitions"].notna().any():
            words += f"; transitions kept: {row['transitions_kept']:g} of {row['transitions']:g}"
        if group["replay_trials"].notna().any():
            words += (
                f"; replay orbits kept: {row['replay_kept']:g} of {row['replay_trials']:g} "
                f"({row['replay_periodic']:g} periodic intact)"
            )
        if not np.isnan(row["oscillating"]):
            words += f"; oscillating in {row['oscillating']:g} of {n}"
        rows.append(row | {"reading": words})
    return pd.DataFrame(rows)


def fixed_points(table: pd.DataFrame, settings: dict) -> dict[str, pd.DataFrame]:
    """Fixed points: :func:`fixed_point_summary` over the learned models (each task's criterion
    of the settings' ``learned``), and their ``fate`` rows (one per model, condition and
    ablation: the per-solution readings)."""
    from rnnschur.studies.fixed_point_study import ATTRACTOR_COLUMNS
    from rnnschur.studies.learned import learned_models

    fates = learned_models(table[table["record"] == "fate"], settings["learned"])
    columns = [
        *MODEL_KEYS, "condition", "ablation", "n_fixed", "n_stable", "n_saddle",
        "n_unstable_points", "n_slow", "kept", "moved", "lost", "new", "distance",
        "readout_change", "frequency", "amplitude", "cued_frequency", *ATTRACTOR_COLUMNS,
    ]  # fmt: skip
    fates = fates[columns].reset_index(drop=True)
    return {"summary": fixed_point_summary(fates), "fates": fates}


def basis_dependence(table: pd.DataFrame, settings: dict) -> dict[str, pd.DataFrame]:
    """Orderings the moduli do not fix (:mod:`rnnschur.studies.beyond.orderings`). Per learned
    model, tolerance and block (table ``models``): the harm share in the canonical order and its
    least and largest over the orders, the ``spread`` (largest − least), the mass removed and
    the blocks in clusters, and the ``reading``: *absent* where the block holds less than the
    mass floor, *basis-dependent* where the spread exceeds θ, "—" otherwise. Per task,
    construction, N_h, tolerance and block (``summary``): the models, those absent and
    basis-dependent, and the median and largest spread over the models present."""
    from rnnschur.studies.learned import learned_models

    theta = settings["verdicts"]["threshold"]
    floor = settings["verdicts"]["mass_floor"]
    rows = learned_models(table, settings["learned"])
    keys = [*MODEL_KEYS, "tolerance", "block"]
    canonical = rows[rows["ordering"] == -1].set_index(keys)
    spread = rows.groupby(keys)["harm"].agg(["min", "max", "size"])
    models = pd.DataFrame(
        {
            "harm": canonical["harm"],
            "harm_low": spread["min"],
            "harm_high": spread["max"],
            "orderings": spread["size"] - 1,
            "spread": spread["max"] - spread["min"],
            "mass_removed": canonical["mass_removed"],
            "clustered_R": canonical["clustered_R"],
            "clustered_C": canonical["clustered_C"],
        }
    ).reset_index()
    models["reading"] = np.where(
        models["mass_removed"] < floor,
        Verdict.ABSENT,
        np.where(models["spread"] > theta, Verdict.BASIS_DEPENDENT, "—"),
    )
    out = []
    groups = ["task", "construction", "n_hidden", "tolerance", "block"]
    for key, group in models.groupby(groups, sort=False):
        present = group[group["reading"] != Verdict.ABSENT]
        out.append(
            dict(zip(groups, key, strict=True))
            | {
                "n_models": len(group),
                "n_absent": int((group["reading"] == Verdict.ABSENT).sum()),
                "n_basis_dependent": int((group["reading"] == Verdict.BASIS_DEPENDENT).sum()),
                "spread_median": float(present["spread"].median()) if len(present) else np.nan,
                "spread_max": float(present["spread"].max()) if len(present) else np.nan,
                "clustered_R_median": float(group["clustered_R"].median()),
            }
        )
    return {"summary": pd.DataFrame(out), "models": models}


def mark_basis_dependent(
    ablation: pd.DataFrame, models: pd.DataFrame | None, alpha: float
) -> pd.DataFrame:
    """The per-model ablation table with ``basis_dependent``: on the rows of a single T_RR or
    T_CC removal at ``alpha`` of a model that :func:`basis_dependence` checked (``models``: its
    ``models`` table at one tolerance), True where that model's reading of the block is
    *basis-dependent*, False where it is not (absent counts as not); empty elsewhere (another
    α or subset, a model not checked, or ``models`` None: no check ran). The reading in
    ``reading`` stays the one of the canonical order."""
    flag = pd.Series(pd.NA, index=ablation.index, dtype="boolean")
    if models is not None and len(models):
        checked = models.set_index([*MODEL_KEYS, "block"])["reading"] == Verdict.BASIS_DEPENDENT
        at_alpha = np.isclose(ablation["alpha"], alpha) & ablation["subset"].isin(
            checked.index.get_level_values("block")
        )
        keys = pd.MultiIndex.from_frame(ablation.loc[at_alpha, [*MODEL_KEYS, "subset"]])
        found = checked.reindex(keys)
        flag.loc[at_alpha] = found.to_numpy(dtype=object)
    return ablation.assign(basis_dependent=flag)
