"""Learned or not, decided once per model, before any verdict (DESIGN, "a verdict needs its
premise").

A model learned its task when its full-model held-out score passes the task's criterion
(config ``learned``, per task ``tasks.<task>.learned``): FVU at most ``fvu_max`` (eq. 7;
0.1: nine tenths of the target's variance explained), or a chance-corrected score at least
``chance_corrected_min`` for the tasks scored by sign accuracy (eq. 6; (acc − 1/2) / (1/2),
0 at chance) or by the NeuroGym choice (already chance-corrected: Cohen's κ). The decision is
recorded in ``models.csv`` and joined onto the ablation table; a model that did not learn
enters no block verdict and no claim, and a group with fewer than ``min_models`` learned
models says :data:`TOO_FEW` instead of a verdict.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.per_seed import MODEL_KEYS
from rnnschur.studies.verdicts import Verdict, performance

TOO_FEW = Verdict.TOO_FEW
"""The verdict of a group with fewer learned models than ``min_models``."""


def chance_corrected(metric: str, score: float) -> float:
    """(score − chance) / (1 − chance) for a score that is higher when better (the learned
    performance of :func:`rnnschur.studies.verdicts.performance`)."""
    return float(performance(metric, score))


def has_learned(metric: str, score: float, criterion: dict) -> bool:
    """Whether a full-model held-out ``score`` of ``metric`` passes ``criterion``."""
    if not np.isfinite(score):
        return False
    if metric == "fvu":
        return bool(score <= criterion["fvu_max"])
    return bool(chance_corrected(metric, score) >= criterion["chance_corrected_min"])


def describe(metric: str, criterion: dict) -> str:
    """The criterion in words, e.g. 'fvu ≤ 0.1' or 'chance-corrected accuracy ≥ 0.5'."""
    if metric == "fvu":
        return f"fvu ≤ {criterion['fvu_max']:g}"
    return f"chance-corrected {metric} ≥ {criterion['chance_corrected_min']:g}"


def mark(ablation: pd.DataFrame, criteria: dict[str, dict]) -> pd.DataFrame:
    """``ablation`` with a ``learned`` column decided from each model's full-model row
    (``subset == "none"``) and its task's criterion (``criteria[task]``); for tables whose
    models have no ``models.csv`` row (the gap study's)."""
    keys = [k for k in ("variation", *MODEL_KEYS) if k in ablation]
    full = ablation[ablation["subset"] == "none"].drop_duplicates(keys)
    decided = full[keys].assign(
        learned=[
            has_learned(m, s, criteria[t])
            for m, s, t in zip(full["metric"], full["score"], full["task"], strict=True)
        ]
    )
    return ablation.drop(columns="learned", errors="ignore").merge(decided, on=keys, how="left")


def join(ablation: pd.DataFrame, models: pd.DataFrame) -> pd.DataFrame:
    """``ablation`` with the ``learned`` column of ``models.csv`` (the decision made once);
    ValueError naming a model the table of models lacks."""
    keys = [*MODEL_KEYS]
    out = ablation.merge(models[keys + ["learned"]], on=keys, how="left", validate="many_to_one")
    missing = out[out["learned"].isna()][keys].drop_duplicates()
    if len(missing):
        raise ValueError(f"models.csv lacks the models {missing.to_dict('records')}")
    return out.assign(learned=out["learned"].astype(bool))


def learned_models(table: pd.DataFrame, criteria: dict[str, dict]) -> pd.DataFrame:
    """The rows of ``table`` (a per-model analysis's rows, each with the model's identity, its
    ``metric`` and the full model's held-out score ``full_score``) of the models that learned
    their task (:func:`has_learned`, with each task's criterion of ``criteria``)."""
    full = table.drop_duplicates([*MODEL_KEYS])
    keep = {
        tuple(r[k] for k in MODEL_KEYS)
        for _, r in full.iterrows()
        if has_learned(r["metric"], r["full_score"], criteria[r["task"]])
    }
    return table[[tuple(r) in keep for r in table[[*MODEL_KEYS]].itertuples(index=False)]]
