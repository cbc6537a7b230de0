"""Tidy tables across models: Table 1, the paper-vs-reproduced comparison, summaries.

All functions take and return pandas DataFrames; none reads or writes files.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from rnnschur import paper, subspace
from rnnschur.ablation import SUBSETS, ablated_recurrent, delta_T, subset_name
from rnnschur.rnn import rollout
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur, block_index, coupling_masks, n_dominant
from rnnschur.tasks import Batch

SUBSET_NAMES = [subset_name(s) for s in SUBSETS]


def sem(values: pd.Series) -> float:
    """Standard error of the mean over seeds (NaN for fewer than two values)."""
    values = values.dropna()
    return float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else np.nan


def table1(ablation: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the copy task: per alpha, construction and N_h, n_R and the mean replay
    accuracy over seeds of every subset (and its SEM in ``<subset>_sem``)."""
    copy = ablation[ablation["task"] == "copy"]
    keys = ["alpha", "construction", "n_hidden"]
    accuracy = copy.pivot_table(index=keys, columns="subset", values="accuracy", aggfunc="mean")
    spread = copy.pivot_table(index=keys, columns="subset", values="accuracy", aggfunc=sem)
    n_R = copy[copy["subset"] == "none"].groupby(keys)["n_R"]
    out = pd.DataFrame(
        {
            "n_R_min": n_R.min(),
            "n_R_max": n_R.max(),
            "n_seeds": copy[copy["subset"] == "none"].groupby(keys)["seed"].nunique(),
        }
    )
    for name in SUBSET_NAMES:
        out[name] = accuracy[name]
        out[f"{name}_sem"] = spread[name]
    return out.reset_index()


def table1_markdown(table: pd.DataFrame) -> str:
    """Table 1 as Markdown: mean ± SEM over seeds; n_R as a range where seeds differ."""
    header = ["α", "model", "N_h", "n_R", "seeds", *(_label(s) for s in SUBSET_NAMES)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for _, row in table.iterrows():
        n_R = f"{row['n_R_min']}"
        if row["n_R_min"] != row["n_R_max"]:
            n_R += f"–{row['n_R_max']}"
        cells = [
            f"{row['alpha']:g}",
            row["construction"],
            str(row["n_hidden"]),
            n_R,
            str(row["n_seeds"]),
        ]
        for name in SUBSET_NAMES:
            mean, spread = row[name], row[f"{name}_sem"]
            cells.append(f"{mean:.3f}" + ("" if np.isnan(spread) else f" ± {spread:.3f}"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _label(subset: str) -> str:
    return "full" if subset == "none" else "−" + subset.replace("+", ", −").replace("T_CR", "T_C→R")


def paper_vs_reproduced(ablation: pd.DataFrame) -> pd.DataFrame:
    """Every number the paper reports beside the reproduced mean, SEM, min and max over seeds.

    The reproduced models are those of the paper's task, construction and N_h; where the config
    has no model of that N_h (a small preset), the largest N_h trained is used and named in
    ``n_hidden``. Rows whose models were not trained keep NaN reproduced values.
    """
    reported = pd.DataFrame(paper.REPORTED, columns=paper.COLUMNS)
    rows = []
    for entry in reported.itertuples(index=False):
        match = ablation[
            (ablation["task"] == entry.task) & (ablation["construction"] == entry.construction)
        ]
        n_hidden = entry.paper_n_hidden
        if not (match["n_hidden"] == n_hidden).any() and len(match):
            n_hidden = int(match["n_hidden"].max())
        match = match[
            (match["n_hidden"] == n_hidden)
            & np.isclose(match["alpha"], entry.alpha)
            & (match["subset"] == entry.subset)
        ]
        match = match.sort_values("seed")
        values = match[entry.quantity].astype(float) if len(match) else pd.Series(dtype=float)
        low, high = (values.min(), values.max()) if len(values) else (np.nan, np.nan)
        rows.append(
            {
                **entry._asdict(),
                "n_hidden": n_hidden,
                "reproduced_mean": values.mean() if len(values) else np.nan,
                "reproduced_sem": sem(values),
                "reproduced_min": low,
                "reproduced_max": high,
                "n_seeds": int(values.notna().sum()),
                "difference": (values.mean() - entry.paper_value) if len(values) else np.nan,
                "paper_in_range": (
                    bool(low <= entry.paper_value <= high)
                    if len(values) and not np.isnan(entry.paper_value)
                    else None
                ),
                "per_seed": json.dumps(
                    {str(s): round(float(v), 6) for s, v in zip(match["seed"], values, strict=True)}
                ),
            }
        )
    return pd.DataFrame(rows)


def paper_vs_reproduced_markdown(table: pd.DataFrame) -> str:
    """The comparison as a Markdown table."""
    header = [
        "task",
        "model",
        "N_h",
        "α",
        "ablation",
        "quantity",
        "paper",
        "reproduced (mean ± SEM)",
        "range",
        "paper in range",
        "per seed",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in table.itertuples(index=False):
        paper_cell = (
            r.paper_note
            if np.isnan(r.paper_value)
            else (
                f"{r.paper_value:.4g}" + ("" if np.isnan(r.paper_sem) else f" ± {r.paper_sem:.3g}")
            )
        )
        mean = "—" if np.isnan(r.reproduced_mean) else f"{r.reproduced_mean:.4g}"
        if not np.isnan(r.reproduced_sem):
            mean += f" ± {r.reproduced_sem:.2g}"
        span = (
            "—"
            if np.isnan(r.reproduced_min)
            else f"{r.reproduced_min:.4g} … {r.reproduced_max:.4g}"
        )
        lines.append(
            "| "
            + " | ".join(
                [
                    r.task,
                    r.construction,
                    str(r.n_hidden),
                    f"{r.alpha:g}",
                    _label(r.subset),
                    r.quantity,
                    paper_cell,
                    mean,
                    span,
                    {True: "yes", False: "no", None: "—"}[r.paper_in_range],
                    ", ".join(f"{v:.4g}" for v in json.loads(r.per_seed).values()) or "—",
                ]
            )
            + " |"
        )
    return "\n".join(lines) + "\n"


def model_summary(metas: list[dict]) -> pd.DataFrame:
    """One row per trained model from its meta data, with the versions that made it
    (``version_<software>`` columns: torch, NumPy and its BLAS, SciPy and its LAPACK, ...)."""
    rows = []
    for meta in metas:
        summary = meta["summary"]
        rows.append(
            {
                "task": meta["task"],
                "construction": meta["construction"],
                "n_hidden": meta["n_hidden"],
                "seed": meta["seed"],
                "metric": meta["metric"],
                "heldout_score": summary[f"heldout_{meta['metric']}"],
                "steps": summary["steps"],
                "best_step": summary["best_step"],
                "best_validation_score": summary[f"best_validation_{meta['metric']}"],
                "kept_best": summary["kept_best"],
                "reached_target": summary["reached_target"],
                "final_loss": summary["final_loss"],
                **{f"version_{k}": v for k, v in meta.get("versions", {}).items()},
            }
        )
    return pd.DataFrame(rows)


def spectrum_tables(schur: OrderedSchur, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(eigenvalues, |T|) of one model as long tables.

    eigenvalues: one row per eigenvalue in Schur order with ``index``, ``block``, ``real``,
    ``imag``, ``modulus``, ``in_R`` (alpha split) and ``rho``. |T|: one row per entry ``i``,
    ``j``, ``abs_T``, with ``n_R`` so a plot can draw the R/C blocks.
    """
    n = schur.T.shape[0]
    n_R = n_dominant(schur, alpha)
    eigenvalues = pd.DataFrame(
        {
            "index": np.arange(n),
            "block": block_index(schur),
            "real": schur.eigenvalues.real,
            "imag": schur.eigenvalues.imag,
            "modulus": np.abs(schur.eigenvalues),
            "in_R": np.arange(n) < n_R,
            "rho": schur.spectral_radius,
            "alpha": alpha,
        }
    )
    i, j = np.indices((n, n))
    abs_T = pd.DataFrame(
        {"i": i.ravel(), "j": j.ravel(), "abs_T": np.abs(schur.T).ravel(), "n_R": n_R}
    )
    return eigenvalues, abs_T


def rollout_examples(
    W_xh: np.ndarray,
    W_hh: np.ndarray,
    W_hy: np.ndarray,
    schur: OrderedSchur,
    alpha: float,
    batch: Batch,
) -> pd.DataFrame:
    """Outputs of the full network and of each single-block ablation on the trials of ``batch``,
    with the targets, as a long table (trial, time, line, variant, value, target, mask)."""
    masks = coupling_masks(schur, alpha)
    variants = {"full": W_hh}
    for block in COUPLING_BLOCKS:
        variants[f"-{block}"] = ablated_recurrent(W_hh, schur, delta_T(schur.T, masks, (block,)))
    outputs = rollout(W_xh, np.stack(list(variants.values())), W_hy, batch.inputs)
    n, time, lines = batch.targets.shape
    trial, step, line = (a.ravel() for a in np.indices((n, time, lines)))
    frames = [
        pd.DataFrame(
            {
                "trial": trial,
                "time": step,
                "line": line,
                "variant": name,
                "value": outputs[k].ravel(),
                "target": batch.targets.ravel(),
                "mask": batch.line_mask.ravel(),
            }
        )
        for k, name in enumerate(variants)
    ]
    return pd.concat(frames, ignore_index=True)


# Beyond the paper ---------------------------------------------------------------------------

MODEL_KEYS = ["task", "construction", "n_hidden", "seed"]


def largest_size(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of each task's largest N_h (the paper's N_h = 72 for the copy task)."""
    return frame[frame["n_hidden"] == frame.groupby("task")["n_hidden"].transform("max")]


def markdown(frame: pd.DataFrame, formats: dict[str, str] | None = None) -> str:
    """A Markdown table of ``frame``; ``formats`` maps columns to format specs (e.g. ``.3f``)."""
    formats = formats or {}

    def cell(column: str, value) -> str:
        if isinstance(value, float) and np.isnan(value):
            return "—"
        if column == "subset":
            return _label(value)
        return format(value, formats.get(column, "")) if column in formats else str(value)

    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    for row in frame.itertuples(index=False):
        lines.append(
            "| " + " | ".join(cell(c, v) for c, v in zip(frame.columns, row, strict=True)) + " |"
        )
    return "\n".join(lines) + "\n"


def subspace_verdicts(controls: pd.DataFrame, floor: float, ratio: float) -> pd.DataFrame:
    """Per model, subset, subspace and side: the ablation's overlap and harm beside the mean
    harm of its controls (``inside``, ``complement``, ``matched``) and the verdict of
    :func:`rnnschur.subspace.verdict` against the overlap-matched controls."""
    keys = [*MODEL_KEYS, "subset", "subspace", "dim", "side", "chance_overlap", "relative_norm"]
    ablation = controls[controls["kind"] == "ablation"].set_index(keys)[["overlap", "harm"]]
    means = controls[controls["kind"] != "ablation"].pivot_table(
        index=keys, columns="kind", values="harm", aggfunc="mean"
    )
    means = means.reindex(columns=["inside", "complement", "matched"])
    out = ablation.join(means.add_suffix("_harm")).reset_index()
    out["verdict"] = [
        subspace.verdict(a, c, floor, ratio)
        for a, c in zip(out["harm"], out["matched_harm"], strict=True)
    ]
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
    out["n_explained"] = grouped["verdict"].apply(lambda v: int((v == "explained").sum()))
    out["verdict"] = grouped["verdict"].agg(lambda v: v.value_counts().index[0])
    return out.reset_index()


def refit_summary(refit: pd.DataFrame) -> pd.DataFrame:
    """Fixed against refit readout per task, construction and subset (largest N_h): mean and
    SEM over seeds."""
    keys = ["task", "construction", "n_hidden", "metric", "subset"]
    grouped = largest_size(refit).groupby(keys, sort=False)
    out = pd.DataFrame(
        {
            "fixed_score": grouped["fixed_score"].mean(),
            "fixed_sem": grouped["fixed_score"].agg(sem),
            "refit_score": grouped["refit_score"].mean(),
            "refit_sem": grouped["refit_score"].agg(sem),
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
    """Per task, construction and milestone (largest N_h): mean step, full and single-block
    scores of the checkpoints that first reached it, over the seeds that did."""
    frame = largest_size(checkpoints).copy()
    frame["milestone"] = frame["checkpoint"].str.split(", ")
    frame = frame.explode("milestone")
    keys = ["task", "construction", "n_hidden", "milestone"]
    scores = frame.pivot_table(index=keys, columns="subset", values="score", aggfunc="mean")
    scores = scores[[s for s in ["none", *COUPLING_BLOCKS] if s in scores]]
    meta = frame[frame["subset"] == "none"].groupby(keys)
    out = pd.DataFrame({"step": meta["step"].mean(), "n_seeds": meta["seed"].nunique()})
    out = out.join(scores).reset_index()
    kind = out["milestone"].str.split(" ").str[0]
    kind = kind.map({"step": 0, "score": 1, "best": 2, "last": 3})
    out["order"] = kind
    return out.sort_values(["task", "construction", "step", "order"]).drop(columns="order")
