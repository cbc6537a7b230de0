"""The block profile of a run and how its verdicts move with the settings: per task,
construction, N_h and coupling block, the learned models' harm shares at α with the verdict
over seeds (:func:`rnnschur.studies.verdicts.block_verdict`) and each solution's own readings; and
every row whose verdict changes when θ or the mass floor is halved or doubled."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from rnnschur.io.text import and_list, table_lines
from rnnschur.schur import COUPLING_BLOCKS
from rnnschur.studies.verdicts import (
    Thresholds,
    block_verdict,
    error_ratio,
    harm_share,
)


def block_harms(ablation: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """The single coupling-block ablations at ``alpha`` with their ``harm`` (the raw change in
    the score's own units: accuracy or choice lost, FVU gained, the paper's Δ) and their
    ``harm_share`` (:func:`harm_share`, the scale every verdict is decided on), the
    ``log10_error_ratio`` beside it (:func:`error_ratio`); and a
    ``learned`` column (every model learned, where the table has none)."""
    rows = ablation[
        np.isclose(ablation["alpha"], alpha) & ablation["subset"].isin(COUPLING_BLOCKS)
    ].copy()
    rows["harm"] = np.where(rows["metric"] == "fvu", 1, -1) * rows["delta_score"]
    full = (rows["score"] - rows["delta_score"]).to_numpy(float)
    share, ratio = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
    for metric in rows["metric"].unique():
        pick = (rows["metric"] == metric).to_numpy()
        ablated = rows["score"].to_numpy(float)[pick]
        share[pick] = harm_share(metric, full[pick], ablated)
        ratio[pick] = error_ratio(metric, full[pick], ablated)
    rows["harm_share"], rows["log10_error_ratio"] = share, ratio
    if "learned" not in rows:
        rows["learned"] = True
    return rows


PROFILE_KEYS = ["task", "construction", "n_hidden", "subset"]
"""A row of the block profile."""


def block_profile(
    ablation: pd.DataFrame, alpha: float, thresholds: Thresholds, min_models: int = 3
) -> pd.DataFrame:
    """The paper's picture for any task, tested over seeds: per task, construction, N_h and
    single coupling block at ``alpha``, in the models that learned their task (the ``learned``
    column; all, where the table has none): the raw harm's mean (``delta_mean``: accuracy or
    choice lost, FVU gained), the harm share's mean (``harm_mean``) with its (1 − level) t
    interval, the equivalence test's p-value and the minimum detectable effect, the mean of
    log10(error(W̃)/error(W)) (described, not judged), the mean Schur mass removed, the
    models in which the ablation is an ε-stabilizer, n_R and the removed mass as median
    (range) over the models, each solution's own reading counted (``solutions``, from the
    ``reading`` column of :mod:`rnnschur.studies.solutions`) and the verdict of
    :func:`block_verdict`; ``n_learned`` of ``n_trained``."""
    rows = block_harms(ablation, alpha)
    out = []
    for key, everyone in rows.groupby(PROFILE_KEYS, sort=False):
        group = everyone[everyone["learned"].astype(bool)].sort_values("seed")
        decision = block_verdict(
            group["harm_share"].to_numpy(float),
            group["mass_removed"].to_numpy(float),
            thresholds,
            min_models,
        )
        out.append(
            dict(zip(PROFILE_KEYS, key, strict=True))
            | {
                "metric": everyone["metric"].iloc[0],
                "n_trained": len(everyone),
                "n_learned": len(group),
                "n_seeds": len(group),
                "delta_mean": float(group["harm"].mean()) if len(group) else np.nan,
                "harm_mean": decision.mean,
                "ci_low": decision.ci_low,
                "ci_high": decision.ci_high,
                "tost_p": decision.tost_p,
                "mde": decision.mde,
                "log10_error_ratio": float(group["log10_error_ratio"].mean())
                if len(group)
                else np.nan,
                "mass_removed": float(group["mass_removed"].mean()) if len(group) else np.nan,
                "n_eps_stabilizer": int(group["eps_stabilizer"].sum()),
                "n_R": _median_range(group.get("n_R")),
                "mass_range": _median_range(group["mass_removed"]),
                "solutions": _count_words(group.get("reading")),
                "verdict": decision.verdict,
            }
        )
    return pd.DataFrame(out)


def _median_range(values: pd.Series | None) -> str:
    """'median (min–max)' of a column over a group's models at three digits; '—' for none."""
    values = np.array([]) if values is None else values.dropna().to_numpy(float)
    if not len(values):
        return "—"
    if values.min() == values.max():
        return f"{values[0]:.3g}"
    return f"{np.median(values):.3g} ({values.min():.3g}–{values.max():.3g})"


def _count_words(readings: pd.Series | None) -> str:
    """Each solution's reading of the block, counted: 'fragile 12, absent 38'; '—' where the
    table has no readings."""
    if readings is None or readings.isna().all():
        return "—"
    counts = readings.value_counts()
    return ", ".join(f"{word} {n}" for word, n in counts.items())


SENSITIVITY = (("threshold", 0.5), ("threshold", 2.0), ("mass_floor", 0.5), ("mass_floor", 2.0))
"""Each verdict setting halved and doubled: the sensitivity tables' columns."""


def setting_name(thresholds: Thresholds, setting: str) -> str:
    """E.g. 'θ = 0.01', 'mass floor = 0.02'."""
    name = {"threshold": "θ", "mass_floor": "mass floor"}[setting]
    return f"{name} = {getattr(thresholds, setting):g}"


def sensitivity(
    evaluate: Callable[[Thresholds], pd.DataFrame],
    keys: list[str],
    thresholds: Thresholds,
    settings: tuple = SENSITIVITY,
) -> pd.DataFrame:
    """Which verdicts move with their settings: ``evaluate(t)`` (a table with ``keys`` and a
    ``verdict``) at ``thresholds`` and with each setting of ``settings`` (default
    :data:`SENSITIVITY`) changed by its factor; one row per key, the verdict ``as
    configured``, one column per changed setting (named by :func:`setting_name`) and
    ``moves`` (whether any differs)."""
    base = evaluate(thresholds)
    out = base[keys].copy()
    out["as configured"] = base["verdict"].to_numpy()
    for setting, factor in settings:
        changed = thresholds.scaled(**{setting: factor})
        other = evaluate(changed).set_index(keys)["verdict"]
        out[setting_name(changed, setting)] = [
            other.get(tuple(k) if len(keys) > 1 else k[0], "—")
            for k in base[keys].itertuples(index=False)
        ]
    calls = out.drop(columns=keys)
    out["moves"] = calls.ne(calls["as configured"], axis=0).any(axis=1)
    return out.reset_index(drop=True)


def sensitivity_markdown(table: pd.DataFrame, keys: list[str]) -> str:
    """A sensitivity table as Markdown, one sentence above it: how many of its rows keep their
    verdict under every halved and doubled setting."""
    moved = int(table["moves"].sum())
    settings = [c for c in table.columns if c not in (*keys, "moves")]
    names = {"θ": "θ", "mass floor": "the mass floor"}
    varied = and_list(
        dict.fromkeys(names[c.split(" = ")[0]] for c in settings if c != "as configured")
    )
    lines = [
        f"With {varied} each halved and doubled, {len(table) - moved} of {len(table)} rows keep "
        f"their verdict and {moved} move (marked ⇄).",
        "",
    ]
    rows = []
    for r in table.itertuples(index=False):
        row = dict(zip(table.columns, r, strict=True))
        mark = " ⇄" if row["moves"] else ""
        cells = [str(row[k]) for k in keys] + [str(row[s]) for s in settings]
        cells[len(keys) - 1] += mark
        rows.append(cells)
    return "\n".join(lines + table_lines([*keys, *settings], rows)) + "\n"
