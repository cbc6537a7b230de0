"""Tables across models: Table 1, the paper's numbers beside ours, the trained models, and the
Markdown rendering every table shares.

All functions take and return pandas DataFrames (or text); none reads or writes files.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from rnnschur.ablation import SUBSETS, label, subset_name
from rnnschur.io.text import table_lines
from rnnschur.studies import learned
from rnnschur.studies.paper import reported as paper
from rnnschur.studies.stats import sem
from rnnschur.studies.verdicts import Verdict, agreement, far_agreements

SUBSET_NAMES = [subset_name(s) for s in SUBSETS]


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
    n_R = (
        table["n_R_min"]
        .astype(str)
        .where(
            table["n_R_min"] == table["n_R_max"],
            table["n_R_min"].astype(str) + "–" + table["n_R_max"].astype(str),
        )
    )
    display = pd.DataFrame(
        {
            "α": table["alpha"].map("{:g}".format),
            "model": table["construction"],
            "N_h": table["n_hidden"].astype(str),
            "n_R": n_R,
            "seeds": table["n_seeds"].astype(str),
        }
    )
    for name in SUBSET_NAMES:
        display[label(name)] = [
            f"{mean:.3f}" + ("" if np.isnan(spread) else f" ± {spread:.3f}")
            for mean, spread in zip(table[name], table[f"{name}_sem"], strict=True)
        ]
    return markdown(display)


NUMBER_KEYS = ["source", "task", "construction", "n_hidden", "alpha", "subset", "quantity"]
"""The columns that name one number of :func:`paper_vs_reproduced` (its per-seed values' keys):
the source first, since Figure 1 and Table 1 report the same copy-task numbers at α = 0.9."""


def paper_vs_reproduced(ablation: pd.DataFrame, level: float = 0.05) -> pd.DataFrame:
    """Every number the paper reports beside the reproduced mean, SEM, min and max over seeds.

    The reproduced models are those of the paper's task, construction and N_h; where the config
    has no model of that N_h (a small preset), the largest N_h trained is used and named in
    ``n_hidden``. Only the models that learned their task count (the ``learned`` column, where
    the table has one): ``n_seeds`` of ``n_trained``. Rows whose models were not trained keep
    NaN reproduced values. ``agreement``: whether the paper's number lies in the (1 −
    ``level``) t interval of the reproduced mean (:func:`rnnschur.studies.verdicts.agreement`:
    agrees, differs, or '—' without a number or an interval), and ``factor``, reproduced / paper.
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
        n_trained = match["seed"].nunique()
        if "learned" in match:
            match = match[match["learned"].astype(bool)]
        values = match[entry.quantity].astype(float) if len(match) else pd.Series(dtype=float)
        low, high = (values.min(), values.max()) if len(values) else (np.nan, np.nan)
        precision = paper.printed_precision(entry.task, entry.quantity, entry.paper_value)
        agrees, factor = agreement(values.to_numpy(float), entry.paper_value, level, precision)
        rows.append(
            {
                **entry._asdict(),
                # where the paper prints it: its note opens with the figure or table
                "source": re.match(r"(Figure|Table) \d+", entry.paper_note).group(0),
                "n_hidden": n_hidden,
                "reproduced_mean": values.mean() if len(values) else np.nan,
                "reproduced_sem": sem(values),
                "reproduced_min": low,
                "reproduced_max": high,
                "n_seeds": int(values.notna().sum()),
                "n_trained": n_trained,
                "difference": (values.mean() - entry.paper_value) if len(values) else np.nan,
                "paper_in_range": (  # to the paper's printed precision, as the agreement
                    bool(low - precision <= entry.paper_value <= high + precision)
                    if len(values) and not np.isnan(entry.paper_value)
                    else None
                ),
                "per_seed": {int(s): float(v) for s, v in zip(match["seed"], values, strict=True)},
                "agreement": agrees,
                "factor": factor,
            }
        )
    return pd.DataFrame(rows)


def paper_vs_reproduced_markdown(table: pd.DataFrame) -> str:
    """The comparison as a Markdown table."""

    def paper_cell(r) -> str:
        if np.isnan(r.paper_value):
            return r.paper_note
        return f"{r.paper_value:.4g}" + ("" if np.isnan(r.paper_sem) else f" ± {r.paper_sem:.3g}")

    def mean_cell(r) -> str:
        mean = "—" if np.isnan(r.reproduced_mean) else f"{r.reproduced_mean:.4g}"
        return mean + ("" if np.isnan(r.reproduced_sem) else f" ± {r.reproduced_sem:.2g}")

    rows = list(table.itertuples(index=False))
    display = pd.DataFrame(
        {
            "task": table["task"],
            "model": table["construction"],
            "N_h": [
                f"{r.n_hidden}"
                if r.n_hidden == r.paper_n_hidden
                else f"{r.n_hidden} (the paper's {r.paper_n_hidden})"
                for r in rows
            ],
            "α": table["alpha"].map("{:g}".format),
            "ablation": table["subset"].map(label),
            "quantity": table["quantity"],
            "paper": [paper_cell(r) for r in rows],
            "reproduced (mean ± SEM)": [mean_cell(r) for r in rows],
            "range": [
                "—"
                if np.isnan(r.reproduced_min)
                else f"{r.reproduced_min:.4g} … {r.reproduced_max:.4g}"
                for r in rows
            ],
            "paper in range": [
                {True: "yes", False: "no", None: "—"}[r.paper_in_range] for r in rows
            ],
            "per seed": [", ".join(f"{v:.4g}" for v in r.per_seed.values()) or "—" for r in rows],
            "learned": [f"{r.n_seeds}/{r.n_trained}" for r in rows],
            "agreement": [
                f"**{r.agreement}**"
                + (f" ({r.factor:.2g}×)" if r.agreement == Verdict.DIFFERS else "")
                for r in rows
            ],
        }
    )
    return markdown(display)


def agreement_parts(table: pd.DataFrame) -> tuple[str, dict]:
    """What the paper-vs-reproduced table says, as the numbers of its sentences (the
    ``reading`` of a templates file, :func:`rnnschur.io.text.fill`; the workflow's is
    workflow/templates/paper_vs_reproduced.md): how many of the paper's numbers the reproduced
    intervals hold; the sizes that are not the paper's; each number that differs (with its
    factor; its α where the number is compared at more than one); each agreement more than a
    factor of 2 off."""
    compared = table[table["agreement"].isin([Verdict.AGREES, Verdict.DIFFERS])]
    if compared.empty:
        return "reading", {"sentences": [("nothing", {})]}
    differs = compared[compared["agreement"] == Verdict.DIFFERS]
    # one comparison per number of the same models: Table 1's three α count once, and differ
    # where they differ at any α
    keys = ["task", "construction", "subset", "quantity", "paper_value"]
    distinct = compared.groupby(keys, dropna=False)["agreement"].agg(
        lambda words: Verdict.DIFFERS if (words == Verdict.DIFFERS).any() else Verdict.AGREES
    )
    n_differ = int((distinct == Verdict.DIFFERS).sum())
    sentences = [
        (
            "count" if n_differ else "count_all",
            {
                "n_distinct": len(distinct),
                "n_compared": len(compared),
                "n_agree": len(distinct) - n_differ,
                "n_differ": n_differ,
                "n_differ_compared": len(differs),
            },
        )
    ]
    other = compared[compared["n_hidden"] != compared["paper_n_hidden"]]
    if len(other):
        sizes = [
            ("size", {"task": t, "n_hidden": n, "paper_n_hidden": p})
            for (t, n, p), _ in other.groupby(["task", "n_hidden", "paper_n_hidden"])
        ]
        sentences.append(("other_sizes", {"sizes": sizes}))
    # α named where the same number is compared at more than one α
    several = compared.groupby(keys[:4])["alpha"].transform("nunique") > 1
    named_alpha = dict(zip(compared.index, several | (compared["alpha"] != 0.9), strict=True))
    for i, r in zip(differs.index, differs.itertuples(index=False), strict=True):  # one each
        sentences.append(("differs_at_alpha" if named_alpha[i] else "differs", _number_fields(r)))
    far = far_agreements(compared, "reproduced_mean")
    if len(far):
        sentences.append(("far", {"n_far": len(far)}))
        sentences += [("wide", _number_fields(r)) for r in far.itertuples(index=False)]
    return "reading", {"sentences": sentences}


def _number_fields(r) -> dict:
    """One compared number's fields: its task, block, quantity, models, α, our mean, the
    paper's and their ratio."""
    return {
        "task": r.task,
        "block": label(r.subset),
        "quantity": r.quantity,
        "construction": r.construction,
        "alpha": r.alpha,
        "mean": r.reproduced_mean,
        "paper": r.paper_value,
        "factor": r.factor,
    }


def model_summary(metas: list[dict], criteria: dict[str, dict]) -> pd.DataFrame:
    """One row per trained model from its meta data: its held-out score, whether it learned its
    task (:func:`rnnschur.studies.learned.has_learned` with ``criteria[task]``, and the criterion in
    words) and the versions that made it (``version_<software>`` columns: torch, NumPy and its
    BLAS, SciPy and its LAPACK, ...)."""
    rows = []
    for meta in metas:
        summary = meta["summary"]
        score = summary[f"heldout_{meta['metric']}"]
        criterion = criteria[meta["task"]]
        rows.append(
            {
                "task": meta["task"],
                "construction": meta["construction"],
                "n_hidden": meta["n_hidden"],
                "seed": meta["seed"],
                "metric": meta["metric"],
                "heldout_score": score,
                "learned": learned.has_learned(meta["metric"], score, criterion),
                "learned_criterion": learned.describe(meta["metric"], criterion),
                "steps": summary["steps"],
                "best_step": summary["best_step"],
                "best_validation_score": summary[f"best_validation_{meta['metric']}"],
                "kept_best": summary["kept_best"],
                "reached_target": summary["reached_target"],
                # NeuroGym's own per-trial correctness, reported beside the score (a NeuroGym
                # task's; rnnschur.tasks._neurogym.trial_performance)
                "trial_performance": summary.get("trial_performance", float("nan")),
                "final_loss": summary["final_loss"],
                **{f"version_{k}": v for k, v in meta.get("versions", {}).items()},
            }
        )
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame, formats: dict[str, str] | None = None) -> str:
    """A Markdown table of ``frame``; ``formats`` maps columns to format specs (e.g. ``.3f``).
    A column of whole numbers (N_h, steps, counts) prints them as integers, also where it is
    stored as floats (a column with a gap is) or formatted in the general ``g`` style."""
    formats = formats or {}
    whole = {
        c
        for c in frame.columns
        if pd.api.types.is_float_dtype(frame[c])
        and not formats.get(c, "g").endswith(("f", "e", "%"))
        and frame[c].dropna().size
        and np.all(np.isfinite(frame[c].dropna()))
        and np.all(frame[c].dropna() == np.round(frame[c].dropna()))
    }

    def cell(column: str, value) -> str:
        if isinstance(value, float) and np.isnan(value):
            return "—"
        if column == "subset":
            return label(value)
        if column in whole:
            return str(int(value))
        return format(value, formats.get(column, "")) if column in formats else str(value)

    rows = [
        [cell(c, v) for c, v in zip(frame.columns, row, strict=True)]
        for row in frame.itertuples(index=False)
    ]
    return "\n".join(table_lines(list(frame.columns), rows)) + "\n"
