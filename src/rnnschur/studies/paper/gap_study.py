"""The gaps to the paper's numbers, attributed: each number under the paper config and under
each variation of the gap study, and whether the variation moves it toward the paper's.

Distances to the paper's value are absolute differences, except for the full-model FVU, which
spans decades and is compared on a log10 scale. A variation moves a number *toward* the paper
where its distance is below 0.8× the paper config's, *away* above 1.25×, else *little change*.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.ablation import label
from rnnschur.io import text
from rnnschur.io.text import table_lines
from rnnschur.studies.paper import reported as paper
from rnnschur.studies.stats import percentile_interval
from rnnschur.tasks import INSTANCE

BASELINE = "paper_config"
PER_TRIAL = "fvu_per_trial"
PER_TRIAL_COLUMNS = {"fvu": "fvu_per_trial", "delta_fvu": "delta_fvu_per_trial"}


def paper_numbers(construction: str = "dense_orthogonal", alpha: float = 0.9) -> pd.DataFrame:
    """The numbers the paper gives (not words) for one construction at one alpha."""
    reported = pd.DataFrame(paper.REPORTED, columns=paper.COLUMNS)
    keep = (
        (reported["construction"] == construction)
        & np.isclose(reported["alpha"], alpha)
        & reported["paper_value"].notna()
    )
    return reported[keep].drop_duplicates(["task", "subset", "quantity"]).reset_index(drop=True)


def distance(value: float, target: float, quantity: str) -> float:
    """|value − target|, on a log10 scale for the full-model FVU."""
    if quantity == "fvu":
        return abs(np.log10(value / target)) if value > 0 and target > 0 else np.nan
    return abs(value - target)


def movement(dist: float, baseline: float) -> str:
    """'toward', 'away' or 'little change' relative to the paper config's distance."""
    if np.isnan(dist) or np.isnan(baseline):
        return "—"
    if dist < 0.8 * baseline:
        return "toward"
    if dist > 1.25 * baseline:
        return "away"
    return "little change"


def _pick(frame: pd.DataFrame, number, column: str) -> pd.DataFrame:
    """(seed, n_hidden, value) of ``column`` for a paper number; empty where the table lacks it
    (an older table without the per-trial FVU, a quantity not computed)."""
    if column not in frame:
        return pd.DataFrame(columns=["seed", "n_hidden", "value"])
    rows = frame[
        (frame["task"] == number.task)
        & (frame["construction"] == number.construction)
        & np.isclose(frame["alpha"], number.alpha)
        & (frame["subset"] == number.subset)
    ]
    if rows.empty:
        return rows
    size = number.paper_n_hidden if (rows["n_hidden"] == number.paper_n_hidden).any() else None
    rows = rows[rows["n_hidden"] == (size or rows["n_hidden"].max())]
    if "learned" in rows:  # only the models that learned their task
        rows = rows[rows["learned"].astype(bool)]
    rows = rows.sort_values("seed")[["seed", "n_hidden", column]].rename(columns={column: "value"})
    return rows.dropna(subset=["value"])


SUMMARY = ("steps", "reached_target", "best_step")
"""What each variation's row carries of its model's training (its meta's summary)."""


def variation_rows(ablation: pd.DataFrame, meta: dict) -> pd.DataFrame:
    """The ablation rows of one gap-study model as the study reads them: its instance
    ``<task>__<variation>`` split into ``variation`` (first) and ``task``, the training summary
    (:data:`SUMMARY`) after the rows'."""
    task, _, variation = str(ablation["task"].iloc[0]).partition(INSTANCE)
    rows = ablation.assign(task=task)
    rows.insert(0, "variation", variation)
    return rows.assign(**{key: meta["summary"][key] for key in SUMMARY})


GAP_KEYS = ["task", "subset", "quantity", "variation"]
"""The columns that name one row of :func:`gap_table` (its per-seed values' keys)."""


def gap_table(
    baseline: pd.DataFrame,
    variations: pd.DataFrame,
    descriptions: dict[str, str],
    seeds: list[int],
) -> pd.DataFrame:
    """One row per (paper number, variation): the paper config (``baseline``: the main ablation
    table, restricted to ``seeds``), the per-trial FVU normaliser of the same models, and every
    variation of ``variations`` (the gap study's ablation rows, column ``variation``) that
    applies to the number's task; each over the models that learned their task (``n_seeds``
    of ``n_trained``). A variation's ``description`` (a user's words) is a CSV cell that a
    spreadsheet shows as written (:func:`rnnschur.io.text.csv_cell`). Empty where no model
    of a paper number learned its task."""
    baseline = baseline[baseline["seed"].isin(seeds)]
    rows = []
    for number in paper_numbers().itertuples(index=False):
        sources = [(BASELINE, "The paper config of this workflow.", baseline, number.quantity)]
        if number.quantity in PER_TRIAL_COLUMNS:
            words = "The same models; FVU normalised per trial, not pooled over trials."
            sources.append((PER_TRIAL, words, baseline, PER_TRIAL_COLUMNS[number.quantity]))
        for name, description in descriptions.items():
            applies = variations[
                (variations["variation"] == name) & (variations["task"] == number.task)
            ]
            if len(applies):
                sources.append((name, description, applies, number.quantity))
        base_distance = np.nan
        for name, description, frame, column in sources:
            values = _pick(frame, number, column)
            if values.empty:
                continue
            mean = float(values["value"].mean())
            dist = distance(mean, number.paper_value, number.quantity)
            if name == BASELINE:
                base_distance = dist
            low, high = values["value"].min(), values["value"].max()
            n_trained = _pick(frame.drop(columns="learned", errors="ignore"), number, column)
            rows.append(
                {
                    "task": number.task,
                    "construction": number.construction,
                    "n_hidden": int(values["n_hidden"].iloc[0]),
                    "subset": number.subset,
                    "quantity": number.quantity,
                    "paper_value": number.paper_value,
                    "paper_sem": number.paper_sem,
                    "variation": name,
                    "description": text.csv_cell(description),
                    "n_seeds": len(values),
                    "n_trained": len(n_trained),
                    "mean": mean,
                    "min": low,
                    "max": high,
                    "per_seed": {
                        int(s): float(v)
                        for s, v in zip(values["seed"], values["value"], strict=True)
                    },
                    "paper_in_range": bool(low <= number.paper_value <= high),
                    "distance": dist,
                    "baseline_distance": base_distance,
                    "moves": "—" if name == BASELINE else movement(dist, base_distance),
                }
            )
    return pd.DataFrame(rows)


NO_LEARNED_MODEL = (
    "No learned model: no model of a paper number learned its task (under the paper config or "
    "a variation), so there is no gap to attribute.\n"
)
"""What the gap study's tables say when :func:`gap_table` is empty."""


def gap_markdown(table: pd.DataFrame) -> str:
    """The gap table as Markdown, one block of rows per paper number (:data:`NO_LEARNED_MODEL`
    where it is empty)."""
    if table.empty:
        return NO_LEARNED_MODEL
    header = ["number", "paper", "variation", "mean", "seeds (range)", "paper in range", "moves"]
    rows = []
    for r in table.itertuples(index=False):
        values = ", ".join(f"{v:.3g}" for v in r.per_seed.values())
        rows.append(
            [
                f"{r.task} {label(r.subset)} {r.quantity}",
                f"{r.paper_value:.3g}",
                r.variation,
                f"{r.mean:.3g}",
                f"{values} ({r.min:.3g} … {r.max:.3g})",
                "yes" if r.paper_in_range else "no",
                r.moves,
            ]
        )
    return "\n".join(table_lines(header, rows)) + "\n"


FIGURE2_TASKS = ("flip_flop", "sine", "context_integration")
"""The tasks of the paper's Figure 2, whose numbers the ranking compares."""

LOG_CAP = 3.0
"""The distance, in decades, given to a value that is not positive (a ΔFVU of the wrong sign)
and the most any one number contributes."""


def log_distance(value: float, target: float) -> float:
    """|log10(value / target)|, at most :data:`LOG_CAP`; :data:`LOG_CAP` for value <= 0."""
    if not value > 0:
        return LOG_CAP
    return min(abs(float(np.log10(value / target))), LOG_CAP)


def _fvu_order(full: dict[str, float]) -> str:
    """'yes' where the full-model FVUs keep the paper's order (sine < flip-flop < context),
    'no' where not, '—' where a task is missing."""
    if any(t not in full for t in FIGURE2_TASKS):
        return "—"
    return "yes" if full["sine"] < full["flip_flop"] < full["context_integration"] else "no"


EFFECTS = ("delta_fvu",)
"""The numbers the ranking is decided on: each ablation's ΔFVU once (S_ΔT is the same ablation
divided by its mass, and the full-model FVU is what a stopping rule sets by construction)."""
N_BOOT = 2000
"""Bootstrap draws of the seeds behind each distance's interval and the noise floor."""


def _per_seed_table(part: pd.DataFrame) -> tuple[list[pd.Series], list[str]]:
    """Per number of ``part`` its per-seed values (a Series by seed) and its task."""
    values = [pd.Series(p, dtype=float) for p in part["per_seed"]]
    return values, list(part["task"])


def _bootstrap_distances(
    part: pd.DataFrame, centre: np.ndarray | None, rng: np.random.Generator
) -> np.ndarray:
    """:data:`N_BOOT` distances (mean over the numbers of :func:`log_distance`) of ``part``'s
    numbers with the seeds of each task drawn with replacement (the numbers of one task share
    its seeds), against the paper's values, or against ``centre`` (the numbers' own means: the
    distance by which an exact replication with this spread misses by chance), each draw of the
    centre moved by the paper's own sampling error (its SEM relative to its value, where it
    gives one: the paper's number is a mean over 3 seeds too)."""
    values, task_of = _per_seed_table(part)
    if centre is None:
        targets = np.broadcast_to(part["paper_value"].to_numpy(float), (N_BOOT, len(values)))
    else:
        relative = (part["paper_sem"] / part["paper_value"]).fillna(0.0).to_numpy(float)
        noise = rng.normal(size=(N_BOOT, len(values))) * relative
        targets = centre[np.newaxis, :] * (1.0 + noise)
    draws = np.zeros((N_BOOT, len(values)))
    for task in dict.fromkeys(task_of):
        columns = [k for k, t in enumerate(task_of) if t == task]
        seeds = sorted(set().union(*(values[k].index for k in columns)))
        picks = rng.integers(0, len(seeds), size=(N_BOOT, len(seeds)))
        for k in columns:
            seed_values = values[k].reindex(seeds).to_numpy(float)
            chosen = seed_values[picks]
            draws[:, k] = np.nanmean(chosen, axis=1)
    distance = np.vectorize(log_distance)(draws, targets)
    return np.nanmean(distance, axis=1)


def noise_floor(gaps: pd.DataFrame, seed: int = 0) -> tuple[float, float]:
    """How far an exact replication would land from the paper by chance alone: the paper
    config's seeds drawn with replacement, the distance of each draw's means from the paper
    config's own means, each moved by the paper's relative SEM (both sides are means over a few
    seeds), over the effects (:data:`EFFECTS`); its median and 95th percentile, in decades.
    With 3 seeds a bootstrap has few distinct draws: a rough floor, not a test."""
    base = gaps[(gaps["variation"] == BASELINE) & gaps["task"].isin(FIGURE2_TASKS)]
    base = base[base["quantity"].isin(EFFECTS)]
    if base.empty:
        return np.nan, np.nan
    rng = np.random.default_rng(seed)
    distances = _bootstrap_distances(base, base["mean"].to_numpy(float), rng)
    return float(np.median(distances)), float(np.percentile(distances, 95))


def ranking(gaps: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The variations of the gap study (the paper config and its per-trial reading included)
    ranked by their distance to the paper over its Figure 2 effects: the mean over the ΔFVUs of
    flip-flop, sine and context at α = 0.9 that a variation has, each ablation once
    (:data:`EFFECTS`), of |log10(seed mean / paper's value)| (:func:`log_distance`), 0 for
    every number equal, 1 for every number 10× off; only models that learned count. Per row:
    that distance with its 95 % bootstrap interval over seeds, the paper config's on the same
    numbers, the noise floor of an exact replication (:func:`noise_floor`, the same on every
    row), the distance over every number (full FVU, ΔFVU, S_ΔT, as before: a stopping rule sets
    the full FVUs by construction, so it does not rank), per task, how many numbers the seeds'
    range contains, the seeds, the full FVUs and whether they keep the paper's order. The
    variations with every Figure 2 task rank first (``all_tasks``), the others after them: a
    distance over fewer numbers is not compared with one over all. Empty where ``gaps`` is (no
    learned model)."""
    if gaps.empty:
        return pd.DataFrame(columns=["rank", "variation", "description"])
    rows = gaps[gaps["task"].isin(FIGURE2_TASKS)].copy()
    rows["log_distance"] = [
        log_distance(m, p) for m, p in zip(rows["mean"], rows["paper_value"], strict=True)
    ]
    keys = ["task", "subset", "quantity"]
    base = rows[rows["variation"] == BASELINE].set_index(keys)["log_distance"]
    floor, floor_95 = noise_floor(gaps, seed)
    rng = np.random.default_rng(seed + 1)
    table = []
    for variation, part in rows.groupby("variation", sort=False):
        covered = [t for t in FIGURE2_TASKS if t in set(part["task"])]
        full = part[part["quantity"] == "fvu"].set_index("task")["mean"].to_dict()
        effects = part[part["quantity"].isin(EFFECTS)]
        same = base.reindex(pd.MultiIndex.from_frame(effects[keys]))
        boot = _bootstrap_distances(effects, None, rng) if len(effects) else np.array([])
        low, high = percentile_interval(boot[~np.isnan(boot)], 0.05)
        seeds = sorted({int(s) for p in part["per_seed"] for s in p})
        entry = {
            "variation": variation,
            "tasks": ", ".join(covered),
            "seeds": ", ".join(map(str, seeds)),
            "n_numbers": len(effects),
            "distance": float(effects["log_distance"].mean()) if len(effects) else np.nan,
            "distance_low": float(low),
            "distance_high": float(high),
            "paper_config_distance": float(same.mean()),
            "noise_floor": floor,
            "noise_floor_95": floor_95,
            "all_numbers_distance": float(part["log_distance"].mean()),
            "n_in_range": int(effects["paper_in_range"].astype(bool).sum()),
            "n_learned": int(part["n_seeds"].min()),
            "n_trained": int(part["n_trained"].max()) if "n_trained" in part else np.nan,
            "fvu_order": _fvu_order(full),
        }
        for task in FIGURE2_TASKS:
            own = effects[effects["task"] == task]
            entry[f"distance_{task}"] = float(own["log_distance"].mean()) if len(own) else np.nan
            entry[f"fvu_{task}"] = full.get(task, np.nan)
        entry["description"] = part["description"].iloc[0]
        table.append(entry)
    table = pd.DataFrame(table)
    # like with like: the variations with every Figure 2 task rank first, the partial ones
    # (a distance over fewer numbers) after them
    table["all_tasks"] = table["tasks"] == ", ".join(FIGURE2_TASKS)
    table = table.sort_values(["all_tasks", "distance", "variation"], ascending=[False, True, True])
    table.insert(0, "rank", range(1, len(table) + 1))
    return table.reset_index(drop=True)


def ranking_markdown(table: pd.DataFrame) -> str:
    """The ranked variations as Markdown, the noise floor above (:data:`NO_LEARNED_MODEL` where
    none is ranked)."""
    if table.empty:
        return NO_LEARNED_MODEL
    floor, floor_95 = table["noise_floor"].iloc[0], table["noise_floor_95"].iloc[0]
    lines = [
        f"Ranked by the distance over the Figure 2 ΔFVUs (each ablation once, learned models "
        f"only), with its 95 % bootstrap interval over seeds. An exact replication with the "
        f"paper config's spread would land {floor:.2f} decades from the paper by chance (95 % "
        f"of draws within {floor_95:.2f}): the noise floor.",
        "",
    ]
    header = ["rank", "variation", "seeds", "tasks", "distance [95 % interval] (decades)"]
    header += ["paper config, same numbers", "every number (full FVU, ΔFVU, S_ΔT)"]
    header += ["flip-flop", "sine", "context", "in seed range", "least learned"]
    header += ["full FVU flip-flop, sine, context", "paper's order"]

    def cell(value: float, fmt: str = ".2f") -> str:
        return "—" if np.isnan(value) else format(value, fmt)

    rows = []
    for r in table.itertuples(index=False):
        fvus = ", ".join(cell(getattr(r, f"fvu_{t}"), ".3g") for t in FIGURE2_TASKS)
        rows.append(
            [
                r.rank,
                r.variation,
                r.seeds,
                r.tasks,
                f"{cell(r.distance)} [{cell(r.distance_low)}, {cell(r.distance_high)}]",
                cell(r.paper_config_distance),
                cell(r.all_numbers_distance),
                *(cell(getattr(r, f"distance_{t}")) for t in FIGURE2_TASKS),
                f"{r.n_in_range}/{r.n_numbers}",
                f"{r.n_learned}/{r.n_trained}",
                fvus,
                r.fvu_order,
            ]
        )
    ranked = table_lines(header, rows)
    partial = [k for k, whole in enumerate(table["all_tasks"]) if not whole]
    if partial:  # a distance over fewer numbers: its own ranking, under a line that spans
        ranked.insert(
            2 + partial[0],
            "| | *variations of only some of the Figure 2 tasks, ranked among themselves "
            "(a distance over fewer numbers is not compared with one over all)* |" + " |" * 12,
        )
    return "\n".join(lines + ranked) + "\n"


def best_claims_markdown(claims: pd.DataFrame, ranked: pd.DataFrame, n_best: int = 3) -> str:
    """The paper's claims of the Figure 2 tasks under the paper config and the ``n_best``
    variations nearest the paper (``claims``: the gap study's claims per variation)."""
    from rnnschur.studies.paper.claim_tables import claims_grid_markdown

    best = [v for v in ranked["variation"] if v in set(claims["variation"]) and v != BASELINE]
    keep = [BASELINE, *best[:n_best]]
    rows = claims[claims["variation"].isin(keep) & claims["task"].isin(FIGURE2_TASKS)]
    rows = rows.assign(order=rows["variation"].map(keep.index)).sort_values("order", kind="stable")
    heading = (
        "\nThe paper's Figure 2 claims under the paper config and the "
        f"{len(keep) - 1} nearest variations:\n\n"
    )
    return heading + claims_grid_markdown(rows.drop(columns="order"), "variation")
