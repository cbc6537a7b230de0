"""Write docs/results.md (an index) with one page per section under docs/results/, and the
result blocks of README.md and the docs pages, from a finished run's tables.

Every number in docs/results.md and in the marked blocks (:data:`BLOCK_FILES`) comes from the
Markdown tables the workflow wrote (results/tables/*.md); the text around them says what each
table is and how to read it, never a number, so the documents cannot drift from the tables.
Rerun after a run:

    python docs/build_results.py [--results results] [--seeds50 results/seeds50]
                                 [--more-tasks results/more_tasks]
                                 [--leaky-tanh results/leaky_tanh] [--leaky-relu results/leaky_relu]
                                 [--battery results/neurogym_battery]
                                 [--battery-leaky results/neurogym_leaky] [--scale results/scale]
                                 [--atlas results/atlas]

A run folder that is not there keeps its sections as the document has them, marked as not
remade (so one run can be remade without the others).

The docs workflow (docs/Snakefile) runs this script as its rules: the pages are targets of
the runs' tables, so a changed table rebuilds its page (``snakemake -s docs/Snakefile -c1``).
The document joins up to nine runs of different configs (the paper scale, the fifty seeds, the
families, the battery, scale, the atlas), each its own ``results_dir`` made by its own
``snakemake --configfile`` call, and any of them may be absent here: the docs workflow
publishes the runs that are there and leaves the others' sections as published.

After your own `snakemake -c8`, compare your tables with the published ones:

    python docs/build_results.py --check results

prints "equal", or each row that differs with its largest numeric difference (exit status 1).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from rnnschur.ablation import label
from rnnschur.io import save_text
from rnnschur.report.costs import job_costs
from rnnschur.report.figures import VERDICT_MARKS
from rnnschur.settings.schema import default
from rnnschur.studies.paper.claim_tables import basis_cell, paper_cell
from rnnschur.studies.paper.claims import DATA, PAPER_ALPHA, TASK_NAMES, paper_claims
from rnnschur.studies.paper.reported import reported_value
from rnnschur.studies.paper.reproduction import (
    GLOSSARY,
    claim_word,
    solutions_cell,
)
from rnnschur.studies.verdicts import Thresholds, Verdict

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the page writer's own modules
import listings  # noqa: E402
import readings  # noqa: E402

TOO_FEW = Verdict.TOO_FEW
SECONDARY = readings.words.SECONDARY

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = REPO / "docs" / "templates"
"""The pages' fixed text, each with the names of the parts the runs' tables fill in."""


def table(folder: Path, name: str) -> str:
    path = folder / "tables" / name
    return path.read_text().strip() if path.is_file() else f"*(`{path}` not found: run it first)*"


RUN_RECORD = "run.json"
"""The record of the commits that made a run, in its ``results_dir`` (written by the
workflow's ``onsuccess`` handler: workflow/lib/workflow_setup.py, ``record_run``)."""
RUNS_FILE = REPO / "docs" / "runs.yaml"
"""Its ``made_by``: the commits of the runs made before the workflow recorded them."""


def made_by(folder: Path | None, recorded: str | None) -> str:
    """The commits that made the run in ``folder``, oldest first: its :data:`RUN_RECORD`'s,
    each short and marked "(dirty)" where the tree differed from it; else ``recorded`` (from
    :data:`RUNS_FILE`), else "not recorded"."""
    path = folder / RUN_RECORD if folder is not None else None
    if path is None or not path.is_file():
        return recorded or "not recorded"
    made = [
        f"{i['commit'][:7]}{' (dirty)' if i['dirty'] else ''}"
        if i["commit"]
        else "not a git checkout"
        for i in json.loads(path.read_text())["invocations"]
    ]
    return ", ".join(dict.fromkeys(made))


def provenance(
    runs: dict[str, Path],
    document: str = "",
    order: list[str] | None = None,
    recorded: dict[str, str] | None = None,
) -> str:
    """Which rnnschur versions made the models of each run (``models.csv`` in each folder of
    ``runs``, name → folder) and which commits (:func:`made_by`; ``recorded``, name → the
    commits known of a run made before it was recorded), as a table; a run of ``order`` not in
    ``runs`` keeps its row of the previous ``document``, if it had one (its section is shown
    as that run made it), its commits as ``recorded`` says where it says."""
    recorded = recorded or {}
    rows = [PROVENANCE_HEAD, "|---|---|---|---|"]
    before = {line.split(" | ")[0]: line for line in document.splitlines() if line.startswith("| ")}
    for name in order or list(runs):
        path = runs[name] / "tables" / "models.csv" if name in runs else None
        if path is not None and path.is_file():
            counts = pd.read_csv(path)["version_rnnschur"].value_counts().sort_index()
            made = ", ".join(f"{version} ({n})" for version, n in counts.items())
            commits = made_by(runs[name], recorded.get(name))
            rows.append(f"| {name} | {counts.sum()} | {made} | {commits} |")
        elif f"| {name}" in before:
            kept = listings.cells(before[f"| {name}"])
            commits = recorded.get(name) or (kept[3] if len(kept) > 3 else "not recorded")
            rows.append(listings.row_line([*kept[:3], commits]))
    return "\n".join(rows)


def replace_provenance(document: str, rows: str) -> str:
    """``document`` with its provenance table (:func:`provenance`) replaced by ``rows``."""
    lines = document.splitlines()
    start = lines.index(PROVENANCE_HEAD)
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join([*lines[:start], rows, *lines[end:]]) + "\n"


PROVENANCE_HEAD = "| run | models | made with rnnschur | commit |"


def verdict_summary(folder: Path) -> str:
    """A short table of the claims the run tested: claim, seeds agreeing, verdict."""
    path = folder / "tables" / "claims.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    claims = pd.read_csv(path)
    claims = claims[claims["n_trained"] > 0]  # a claim of a task the run did not train
    lines = [
        "| task | claim | basis | source | models learned | seeds agreeing | verdict | "
        "the paper's |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in claims.itertuples(index=False):
        basis = getattr(r, "basis", "data")
        paper = paper_cell(r) if hasattr(r, "agreement") else "—"
        task = TASK_NAMES.get(r.task, r.task)
        lines.append(
            f"| {task} | {r.claim} | {basis_cell(basis)} | {r.source} | "
            f"{r.n_learned}/{r.n_trained} | "
            f"{r.n_agree}/{r.n_seeds} | **{r.verdict}** | {paper} |"
        )
    note = (
        "*Seeds agreeing* counts every learned solution, those whose block is absent (removed "
        "mass below the floor: too little to say anything of the block) among them: a claim "
        "that a "
        "block's removal harms can have few seeds agreeing here while the solutions that have "
        "the block all show it. The README's one-screen table (*What reproduces*) counts absent "
        "solutions apart."
    )
    return readings.claims_reading(claims) + "\n\n" + "\n".join(lines) + "\n\n" + note


def gap_summary(folder: Path) -> str:
    """Per paper number: the paper config's mean and the variations that move it toward the
    paper's value (and whether the paper's value then lies in the seeds' range)."""
    path = folder / "tables" / "gap_attribution.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    gaps = pd.read_csv(path)
    lines = [
        readings.gap_reading(gaps),
        "",
        "| number | paper | paper config (range) | moves toward the paper | moves away |",
        "|---|---|---|---|---|",
    ]
    for (task, subset, quantity), rows in gaps.groupby(["task", "subset", "quantity"], sort=False):
        base = rows[rows["variation"] == "paper_config"].iloc[0]
        toward = rows[rows["moves"] == "toward"]
        away = rows[rows["moves"] == "away"]
        name = label(subset)
        lines.append(
            f"| {task} {name} {quantity} | {base.paper_value:.3g} | {base['mean']:.3g} "
            f"({base['min']:.3g} … {base['max']:.3g}) | "
            + (
                ", ".join(
                    f"{r.variation} {r.mean:.3g}{' (in range)' if r.paper_in_range else ''}"
                    for r in toward.itertuples()
                )
                or "—"
            )
            + " | "
            + (", ".join(f"{r.variation} {r.mean:.3g}" for r in away.itertuples()) or "—")
            + " |"
        )
    return "\n".join(lines)


def gap_conclusion(folder: Path) -> str:
    """The gap study's conclusion in sentences, its bottom line first (``gap_ranking.csv``,
    ``gap_attribution.csv``)."""
    path, gaps_path = (
        folder / "tables" / "gap_ranking.csv",
        folder / "tables" / "gap_attribution.csv",
    )
    if not path.is_file() or not gaps_path.is_file():
        return f"*(`{path}` not found)*"
    return readings.gap_conclusion(pd.read_csv(path), pd.read_csv(gaps_path))


def gap_answer(folder: Path) -> str:
    """The gap study's ranked answer: the conclusion in sentences, then the ranked variations
    (``gap_ranking.csv``)."""
    from rnnschur.studies.paper.gap_study import ranking_markdown

    path = folder / "tables" / "gap_ranking.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    return gap_conclusion(folder) + "\n\n" + ranking_markdown(pd.read_csv(path)).rstrip()


RESULTS = (TEMPLATES / "results.md").read_text()
"""docs/results.md's text before it is split into pages: each ``{field}`` a part the runs' tables
make (:func:`main`)."""


FAMILIES = ("discrete tanh", "leaky tanh", "leaky relu")


def family_profiles(folders: dict[str, list[Path]]) -> dict[str, pd.DataFrame]:
    """Each family's block profile rows of its tasks other than the copy task."""
    out = {}
    for family, paths in folders.items():
        frames = [
            pd.read_csv(folder / "tables" / "block_profile.csv")
            for folder in paths
            if (folder / "tables" / "block_profile.csv").is_file()
        ]
        if frames:
            profile = pd.concat(frames, ignore_index=True)
            out[family] = profile[profile["task"] != "copy"]
    return out


def family_summary(folders: dict[str, list[Path]]) -> str:
    """Per task and coupling block: the mean harm over seeds and the solutions' own readings
    in each family (block_profile.csv), with each family's full-model score (mean over seeds of
    ablation.csv's full rows at α = 0.9) and its models learned of trained; led by how many
    solutions of each family read each block fragile."""
    profiles, full, ablations = {}, {}, {}
    for family, profile in family_profiles(folders).items():
        for r in profile.itertuples(index=False):
            readings_of = getattr(r, "solutions", None)
            profiles[(r.task, r.subset, family)] = (r.harm_mean, r.verdict, readings_of)
            full.setdefault((r.task, family), [np.nan, r.n_learned, r.n_trained])
        for folder in folders[family]:
            path = folder / "tables" / "ablation.csv"
            if not path.is_file():
                continue
            ablation = pd.read_csv(path)
            if "reading" in ablation:  # a run made before the per-solution readings: none
                kept = ablation[ablation["task"] != "copy"]
                ablations[family] = pd.concat([ablations.get(family), kept], ignore_index=True)
            rows = ablation[(ablation["subset"] == "none") & np.isclose(ablation["alpha"], 0.9)]
            for task, score in rows.groupby("task")["score"].mean().items():
                if (task, family) in full:
                    full[(task, family)][0] = score
    if not profiles:
        return "*(no run of the families found)*"
    families = [f for f in FAMILIES if f in folders]
    lines = [
        "| task | block | " + " | ".join(families) + " |",
        "|---|---|" + "---|" * len(families),
    ]
    tasks = list(dict.fromkeys(key[0] for key in profiles))
    for task in tasks:
        cells = []
        for f in families:
            if (task, f) not in full:
                cells.append("—")
                continue
            score, n_learned, n_trained = full[(task, f)]
            cells.append(f"{score:.3g} ({n_learned}/{n_trained} learned)")
        lines.append(f"| {task} | full model | " + " | ".join(cells) + " |")
        for block in ("T_RR", "T_CR", "T_CC"):
            cells = []
            for family in families:
                harm, verdict, solutions = profiles.get((task, block, family), (None, None, None))
                if harm is None:
                    cells.append("—")
                elif verdict == TOO_FEW:
                    cells.append(f"**{verdict}**")
                elif isinstance(solutions, str) and solutions:
                    cells.append(f"{harm:.3g}: {solutions}")
                else:
                    cells.append(f"{harm:.3g} **{verdict}**")
            lines.append(f"| {task} | {label(block)} | " + " | ".join(cells) + " |")
    lead = readings.families_reading(family_profiles(folders), ablations)
    return lead + "\n\n" + "\n".join(lines)


def family_claims(folders: dict[str, Path]) -> str:
    """The paper's claims read solution by solution (reproduction.csv) in each family's run:
    k/n solutions showing it and the word, with the rule under the table."""
    claims, names, unchecked = {}, {}, []
    for family, folder in folders.items():
        path = folder / "tables" / "reproduction.csv"
        if path.is_file():
            table = pd.read_csv(path)
            if basis_unchecked(table):
                unchecked.append(family)
            for r in table[table["n_trained"] > 0].itertuples(index=False):
                # keyed by the claim's id: two tasks' claims may read alike
                names[r.claim_id] = f"{TASK_NAMES.get(r.task, r.task)}: {r.claim}"
                claims.setdefault(r.claim_id, {})[family] = f"{solutions_cell(r)} **{r.word}**"
    if not claims:
        return "*(no run of the families found)*"
    lines = ["| claim | " + " | ".join(folders) + " |", "|---|" + "---|" * len(folders)]
    for claim, verdicts in claims.items():
        if len(verdicts) > 1 or "discrete tanh" not in verdicts:
            row = " | ".join(verdicts.get(f, "—") for f in folders)
            lines.append(f"| {names[claim]} | {row} |")
    rule = table_rule(next(iter(folders.values())))
    if len(unchecked) < len(folders):
        rule += unchecked_sentence(unchecked)
    return "\n".join(lines) + (f"\n\n{rule.strip()}" if rule.strip() else "")


def block_cell(r) -> str:
    """One block's cell: harm [interval], mass removed and each solution's reading (the verdict
    over seeds in a profile made before the readings), or the verdict alone where too few
    models learned."""
    if r.verdict == TOO_FEW:
        return f"**{r.verdict}** ({r.n_learned}/{r.n_trained})"
    solutions = getattr(r, "solutions", None)
    said = solutions if isinstance(solutions, str) and solutions else f"**{r.verdict}**"
    # the removed mass's median (range) over the solutions where the profile has it: its mean
    # mixes in the solutions where the block is absent
    masses = getattr(r, "mass_range", None)
    mass = masses if isinstance(masses, str) and masses else f"{r.mass_removed:.2g}"
    return f"{r.harm_mean:.3g} [{r.ci_low:.2g}, {r.ci_high:.2g}], mass {mass}: {said}"


def battery_summary(folder: Path) -> str:
    """Per task: trained choice score (mean over seeds), NeuroGym's own per-trial correctness
    of the full model (models.csv, reported only), models learned of trained and, per block,
    harm [interval], mass removed and verdict."""
    profile = pd.read_csv(folder / "tables" / "block_profile.csv")
    ablation = pd.read_csv(folder / "tables" / "ablation.csv")
    full = ablation[(ablation["subset"] == "none") & np.isclose(ablation["alpha"], 0.9)]
    score = full.groupby("task")["score"].mean()
    models = pd.read_csv(folder / "tables" / "models.csv")
    own = (
        models.groupby("task")["trial_performance"].mean()
        if "trial_performance" in models
        else pd.Series(dtype=float)
    )
    lines = [
        "| task | choice (full) | NeuroGym's per-trial (full) | learned | −T_RR | −T_C→R | −T_CC |",
        "|---|---|---|---|---|---|---|",
    ]
    for task, rows in profile.groupby("task", sort=False):
        cells = [block_cell(rows[rows["subset"] == b].iloc[0]) for b in ("T_RR", "T_CR", "T_CC")]
        first = rows.iloc[0]
        lines.append(
            f"| {task} | {score[task]:.3f} | "
            + (f"{own[task]:.3f}" if np.isfinite(own.get(task, np.nan)) else "—")
            + f" | {first.n_learned}/{first.n_trained} | "
            + " | ".join(cells)
            + " |"
        )
    note = (
        "Choice: κ, chance-corrected (0 for a constant answer, 1 for a perfect one). NeuroGym's "
        'per-trial: its own `info["performance"]`, reported, not judged; in GoNogo its core '
        "sets each new trial's performance to 0 just after the env set a no-go trial's to 1, so "
        "a perfect network scores the share of go trials (0.5)."
    )
    return profile_lead(ablation, profile, "tasks") + "\n\n" + "\n".join(lines) + "\n\n" + note


MARKS = VERDICT_MARKS


def run_span(folder: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, jobs) of a finished run, from its benchmark files: the wall
    time during which at least one job ran (the union of the jobs' intervals, each from its
    file's time less its duration to that time): a pause, or the idle gap before a later rerun
    of a few jobs (an aggregation after a change of its code), does not count as the run's
    time; the rerun jobs count at their new duration."""
    intervals, cpu = [], 0.0
    for path in (folder / "benchmarks").rglob("*.tsv"):
        frame = pd.read_csv(path, sep="\t")
        end = path.stat().st_mtime
        intervals.append((end - float(frame["s"].sum()), end))
        cpu += float(frame["cpu_time"].sum())
    if not intervals:
        return np.nan, np.nan, 0
    wall, reach = 0.0, -np.inf
    for start, end in sorted(intervals):
        wall += max(0.0, end - max(start, reach))
        reach = max(reach, end)
    return wall, cpu, len(intervals)


def atlas_part(atlas: pd.DataFrame, folder: Path) -> str:
    """Which part of the atlas a run holds (its tasks, descriptions, sizes, seeds, models) and
    what it cost (:func:`run_span`)."""
    models = pd.read_csv(folder / "tables" / "models.csv")
    seeds = sorted(models["seed"].unique())
    wall, cpu, jobs = run_span(folder)
    return (
        f"Published here: {atlas['task'].nunique()} tasks × {atlas['description'].nunique()} "
        f"descriptions at N_h = {', '.join(str(n) for n in sorted(atlas['n_hidden'].unique()))}"
        f" with seeds {', '.join(str(s) for s in seeds)}: {len(models)} models "
        f"({', '.join(sorted(atlas['construction'].unique()))}), of the whole preset's 1,200. "
        f"Its {jobs:,} jobs ran for {wall / 60:.0f} min of wall time on 2 cores (the time "
        f"during which at least one ran; {cpu / 3600:.1f} CPU-hours in the jobs; from the "
        "run's benchmark files)."
    )


def atlas_summary(folder: Path) -> str:
    """The atlas: the part published and its cost, its sentences, a grid of task (rows) by
    description and N_h (columns), each cell the words of T_RR, T_C→R and T_CC as marks, and
    the task restriction (``task_restriction.md``: each task's solutions counted)."""
    atlas = pd.read_csv(folder / "tables" / "atlas.csv")
    columns = list(dict.fromkeys(zip(atlas["description"], atlas["n_hidden"], strict=True)))
    lines = [
        "| task | " + " | ".join(f"{d}, N_h {n}" for d, n in columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for (task, construction), rows in atlas.groupby(["task", "construction"], sort=False):
        cells = []
        for description, size in columns:
            here = rows[(rows["description"] == description) & (rows["n_hidden"] == size)]
            by_block = dict(zip(here["block"], here["verdict"], strict=True))
            cells.append(
                " ".join(MARKS.get(by_block.get(b), "·") for b in ("T_RR", "T_CR", "T_CC"))
            )
        name = (
            task
            if atlas.loc[atlas["task"] == task, "construction"].nunique() == 1
            else (f"{task} ({construction})")
        )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    key = (
        "Each cell: the words of −T_RR, −T_C→R and −T_CC in that order, each the group's learned "
        "solutions counted (▲ mostly fragile, ○ mostly stabilizers, ? neither, – held by too "
        "few solutions, ✕ too few learned models)."
    )
    readings_text = (folder / "tables" / "atlas_readings.md").read_text().strip()
    parts = [atlas_part(atlas, folder), readings_text, key, "\n".join(lines)]
    across = folder / "tables" / "task_restriction.md"
    if across.is_file():  # each task's solutions counted, per description: the words
        words = across.read_text().split("\n\n| family | construction | task |")[0].strip()
        each = "Each task's counts: `results/atlas/tables/task_restriction.md`."
        parts += ["### Across tasks, solution by solution", words, each]
    return "\n\n".join(parts)


def restriction_summary(folders: list[Path]) -> str:
    """How often each block is fragile, harmless, undecided (underpowered or on the threshold)
    or empty across the battery's tasks, per network: which block matters depends on the task
    where the verdicts differ between tasks."""
    words = [Verdict.FRAGILE, Verdict.HARMLESS, Verdict.UNDERPOWERED, Verdict.ON_THRESHOLD]
    words.append(Verdict.EMPTY)
    lines = [
        "| network | block | " + " | ".join(words) + " |",
        "|---|---|" + "---|" * len(words),
    ]
    for folder in folders:
        profile = pd.read_csv(folder / "tables" / "block_profile.csv")
        for block in ("T_RR", "T_CR", "T_CC"):
            counts = profile[profile["subset"] == block]["verdict"].value_counts()
            cells = [str(int(counts.get(v, 0))) for v in words]
            lines.append(f"| {folder.name} | {label(block)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def scale_summary(folder: Path) -> str:
    """The copy task per construction and N_h (α = 0.9, mean over seeds): the seeds whose
    training reached its target score and those that learned the task (models.csv), full
    accuracy, n_R (mean, range) and n_R / N_h, and per coupling block the harm of removing it
    (accuracy lost), its removed mass and verdict (block_profile.csv; a verdict counts the
    learned models only)."""
    ablation = pd.read_csv(folder / "tables" / "ablation.csv")
    models = pd.read_csv(folder / "tables" / "models.csv")
    models = models[models["task"] == "copy"]
    per_size = models.groupby(["construction", "n_hidden"])
    profile = pd.read_csv(folder / "tables" / "block_profile.csv")
    indexed = profile.set_index(["construction", "n_hidden", "subset"])
    copy = ablation[(ablation["task"] == "copy") & np.isclose(ablation["alpha"], 0.9)]
    full = (
        copy[copy["subset"] == "none"]
        .drop(columns="learned", errors="ignore")
        .merge(
            models[["construction", "n_hidden", "seed", "learned"]],
            on=["construction", "n_hidden", "seed"],
        )
    )
    lines = [
        "| construction | N_h | seeds reaching the target | learned | accuracy (full) | "
        "n_R mean (range) | n_R / N_h | −T_RR | −T_C→R | −T_CC |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (construction, size), rows in full.groupby(["construction", "n_hidden"]):
        cells = []
        for block in ("T_RR", "T_CR", "T_CC"):
            r = indexed.loc[(construction, size, block)]
            cells.append(
                f"**{r.verdict}**"
                if r.verdict == TOO_FEW
                else f"{r.harm_mean:.3g}, mass {r.mass_removed:.2g}, **{r.verdict}**"
            )
        n_R = rows["n_R"]
        group = per_size.get_group((construction, size))
        lines.append(
            f"| {construction} | {size} | {int(group['reached_target'].sum())}/{len(group)} | "
            f"{int(group['learned'].sum())}/{len(group)} | {rows['accuracy'].mean():.3f} | "
            f"{n_R.mean():.1f} ({n_R.min()}–{n_R.max()}) | {n_R.mean() / size:.2f} | "
            + " | ".join(cells)
            + " |"
        )
    return readings.scale_reading(profile, full) + "\n\n" + "\n".join(lines)


BEYOND_READINGS = {
    "subspace_control": readings.subspace_reading,
    "readout_refit": readings.refit_reading,
    "basis_sensitivity": readings.basis_reading,
    "checkpoint_ablation": readings.checkpoint_reading,
    "basis_dependence": readings.basis_dependence_reading,
    "dose_response": readings.dose_reading,
}


def beyond(folder: Path, analysis: str) -> str:
    """A beyond-the-paper analysis's summary: its reading, then its Markdown table."""
    path = folder / "tables" / f"{analysis}_summary.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    reading = BEYOND_READINGS[analysis](pd.read_csv(path))
    return reading + "\n\n" + table(folder, f"{analysis}_summary.md")


FIXED_POINTS_KEY = (TEMPLATES / "fixed_points_key.md").read_text().rstrip("\n")


def claim_models(fates: pd.DataFrame) -> list[tuple[str, str, int]]:
    """(task, construction, N_h) of each model the paper's claims are about, at the largest
    N_h that ``fates`` holds of it, in the claims' order."""
    models = []
    for claim in paper_claims(0.02, 10):  # only the claims' models are read, not their bounds
        sizes = fates[(fates["task"] == claim.task) & (fates["construction"] == claim.construction)]
        model = (claim.task, claim.construction, int(sizes["n_hidden"].max()))
        if not sizes.empty and model not in models:
            models.append(model)
    return models


def absent_blocks(folder: Path) -> frozenset:
    """(task, construction, N_h, seed, block) of each single-block ablation at the paper's α
    that removes less than the mass floor (the run's ``ablation.csv``): absent in that model."""
    path = folder / "tables" / "ablation.csv"
    if not path.is_file():
        return frozenset()
    rows = pd.read_csv(path)
    rows = rows[
        np.isclose(rows["alpha"], PAPER_ALPHA)
        & rows["subset"].isin(["T_RR", "T_CR", "T_CC"])
        & (rows["mass_removed"] < Thresholds().mass_floor)
    ]
    keys = ["task", "construction", "n_hidden", "seed", "subset"]
    return frozenset(tuple(r) for r in rows[keys].itertuples(index=False))


def fixed_points_part(folder: Path, short: bool = False) -> str:
    """What the paper's ablations do to the attractors (``fixed_points_fates.csv`` beside
    ``readout_refit_summary.csv``): the reading, then (unless ``short``) the table and its key."""
    tables_dir = folder / "tables"
    fates_path = tables_dir / "fixed_points_fates.csv"
    if not fates_path.is_file():
        return f"*(`{fates_path}` not found)*"
    fates = pd.read_csv(fates_path)
    refit_path = tables_dir / "readout_refit_summary.csv"
    refit = readings.refit_shares(pd.read_csv(refit_path)) if refit_path.is_file() else {}
    groups = readings.fixed_point_groups(fates, claim_models(fates), absent_blocks(folder))
    reading = readings.fixed_point_reading(groups, refit)
    if short:
        where = "results/beyond_the_paper.md#what-the-ablations-do-to-the-attractors"
        return f"{reading} Per model, input and block, with the key: [the results]({where})."
    return f"{reading}\n\n{readings.fixed_point_table(groups, refit)}\n\n{FIXED_POINTS_KEY}"


def _section_span(lines: list[str], heading: str) -> tuple[int, int] | None:
    """The lines under ``heading`` (a whole line): from the line after it up to the next
    heading, or None where the document has no such heading."""
    if heading not in lines:
        return None
    start = lines.index(heading) + 1
    return start, _next_heading(lines, start)


def _next_heading(lines: list[str], start: int) -> int:
    """The index of the first heading at or after ``start`` (the end where there is none)."""
    end = start
    while end < len(lines) and not lines[end].startswith("#"):
        end += 1
    return end


def previous_section(document: str, heading: str, own: bool = False) -> str:
    """The text under ``heading`` (a whole line) in ``document`` up to the next heading; with
    ``own``, up to the next heading of the :data:`RESULTS` template (the sections a section
    brings of its own, the atlas's "Across tasks", come with it)."""
    lines = document.splitlines()
    span = _section_span(lines, heading)
    if span is None:
        return MISSING
    start, end = span
    if own:
        template = {line for line in RESULTS.splitlines() if line.startswith("#")}
        while end < len(lines) and lines[end] not in template:
            end = _next_heading(lines, end + 1)
    return "\n".join(lines[start:end]).strip()


def replace_section(document: str, heading: str, content: str) -> str:
    """``document`` with the text under ``heading`` (:func:`previous_section`) replaced by
    ``content``. Where ``content`` brings headings of its own (the atlas's "Across tasks"), the
    sections of those headings that follow in ``document`` are its previous version and are
    replaced with it."""
    lines = document.splitlines()
    span = _section_span(lines, heading)
    if span is None:
        raise SystemExit(f"the document has no heading {heading!r}")
    start, end = span
    own = {line for line in content.splitlines() if line.startswith("#")}
    while end < len(lines) and lines[end] in own:
        end = _next_heading(lines, end + 1)
    return "\n".join([*lines[:start], content.strip(), "", *lines[end:]]).rstrip("\n") + "\n"


def paper_comparison(folder: Path) -> str:
    """Our block verdicts beside the paper's readings (paper_readings.csv, block_profile.csv)."""
    tables = folder / "tables"
    if not (tables / "paper_readings.csv").is_file():
        return ""
    return readings.paper_reading_comparison(
        pd.read_csv(tables / "paper_readings.csv"), pd.read_csv(tables / "block_profile.csv")
    )


def profile_summary(folder: Path) -> str:
    """Per task and coupling block: harm of removing it, t interval, each solution's reading
    and the seed-mean verdict, led by the solutions' readings counted per block."""
    path = folder / "tables" / "block_profile.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    profile = pd.read_csv(path)
    lines = [
        "| task | model | N_h | learned | n_R: median (range) | block | harm (mean) | "
        "95 % interval | mass removed: median (range) | each solution's reading | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in profile.itertuples(index=False):
        block = label(r.subset)
        lines.append(
            f"| {TASK_NAMES.get(r.task, r.task)} | {r.construction} | {int(r.n_hidden)} | "
            f"{r.n_learned}/{r.n_trained} | {getattr(r, 'n_R', '—')} | {block} | "
            f"{r.harm_mean:.3g} | "
            f"[{r.ci_low:.3g}, {r.ci_high:.3g}] | {getattr(r, 'mass_range', '—')} | "
            f"{getattr(r, 'solutions', '—')} | **{r.verdict}** |"
        )
    ablation_path = folder / "tables" / "ablation.csv"
    ablation = pd.read_csv(ablation_path) if ablation_path.is_file() else pd.DataFrame()
    return profile_lead(ablation, profile, "task and model groups") + "\n\n" + "\n".join(lines)


def profile_lead(ablation: pd.DataFrame, profile: pd.DataFrame, groups: str) -> str:
    """A block profile's lead: its solutions' readings counted per block, where the run read
    each solution (ablation.csv's ``reading``), else the seed-mean verdicts counted over its
    ``groups``; and the groups whose models did not all learn."""
    if "reading" in ablation:
        return (
            f"{readings.solutions_reading(ablation)} {readings.unlearned_sentence(profile)}".strip()
        )
    return readings.profile_reading(profile, groups)


CHECKED_TABLES = (
    "reproduction.md",
    "claims.md",
    "paper_vs_reproduced.md",
    "table1.md",
    "gap_attribution.md",
    "gap_claims.md",
    "gap_ranking.md",
    "subspace_control_summary.md",
    "readout_refit_summary.md",
    "basis_sensitivity_summary.md",
    "checkpoint_ablation_summary.md",
    "dose_response_summary.md",
    "task_restriction.md",
)
"""The tables of a paper-config run that docs/results.md publishes."""
NUMBER = re.compile(r"[-+−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def published_rows(published: list[str], header: str, mine: list[str]) -> list[str] | None:
    """The rows of the published table under ``header`` closest to ``mine`` (the most rows
    equal): the document may publish two runs' tables under one header (the paper scale's
    and the fifty seeds' dose-response), and a run is compared with its own."""
    candidates = []
    for start, line in enumerate(published):
        if line != header:
            continue
        rows, k = [], start + 2  # past the header and its |---| line
        while k < len(published) and published[k].startswith("|"):
            rows.append(published[k])
            k += 1
        candidates.append(rows)
    if not candidates:
        return None
    return max(candidates, key=lambda rows: sum(a == b for a, b in zip(rows, mine, strict=False)))


def tables_of(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(header, rows) of every Markdown table in ``lines`` (a table file may hold several,
    with prose between them)."""
    tables, k = [], 0
    while k < len(lines):
        if lines[k].startswith("|") and k + 1 < len(lines) and lines[k + 1].startswith("|---"):
            header, k, rows = lines[k], k + 2, []
            while k < len(lines) and lines[k].startswith("|"):
                rows.append(lines[k])
                k += 1
            tables.append((header, rows))
        else:
            k += 1
    return tables


def row_difference(mine: str, theirs: str) -> str:
    """How two table rows differ: the largest absolute difference of their numbers, or the
    cells that differ where the numbers cannot be paired."""
    a, b = NUMBER.findall(mine.replace("−", "-")), NUMBER.findall(theirs.replace("−", "-"))
    if len(a) == len(b) and a:
        largest = max(abs(float(x) - float(y)) for x, y in zip(a, b, strict=True))
        return f"largest numeric difference {largest:.3g}"
    cells = [
        f"{x.strip()!r} vs {y.strip()!r}"
        for x, y in zip(mine.split("|"), theirs.split("|"), strict=False)
        if x != y
    ]
    return "; ".join(cells[:3])


SIGNATURE = "<!-- run signature: {} -->"


def run_signature(folder: Path) -> str | None:
    """What a run trained, in one line (its models.csv: each task, construction and N_h with
    its seeds), so that a check compares like with like; None without a models.csv."""
    path = folder / "tables" / "models.csv"
    if not path.is_file():
        return None
    models = pd.read_csv(path)
    groups = models.groupby(["task", "construction", "n_hidden"], sort=True)["seed"]
    return "; ".join(
        f"{t}/{c}/n{n}: seeds {','.join(map(str, sorted(s)))}" for (t, c, n), s in groups
    )


def published_signature(lines: list[str]) -> str | None:
    """The run signature a published document states, or None."""
    head, tail = SIGNATURE.split("{}")
    for line in lines:
        if line.startswith(head) and line.endswith(tail):
            return line[len(head) : -len(tail)]
    return None


RESULTS_FILE = REPO / "docs" / "results.md"
"""The long tables of docs/results/<page>.md are CSV files under docs/data/results/<page>/
(:mod:`listings`); docs/quick.md's, under docs/data/quick/ (:data:`QUICK_DATA`)."""
PAGES = REPO / "docs" / "results"
"""docs/results.md is the index: the runs' provenance, then each section's heading and opening
sentence, linking its page under docs/results/ (one per ``## `` section of the document)."""
CONTENTS = "## The sections"
RELATIVE_LINK = re.compile(r"\]\((?!https?:|#|/)([^)\s]+)\)")
BACK = "\n\nA section of [the results](../results.md), one page per section.\n\n"
UP_LINK = re.compile(r"\]\(\.\./([^)\s]+)\)")


def page_name(heading: str) -> str:
    """The file of a section: its heading in lower case, runs of other characters as ``_``."""
    return re.sub(r"[^a-z0-9]+", "_", heading.lower()).strip("_") + ".md"


def opening(body: str) -> str:
    """A section's first sentence of prose (its summary), for the index."""
    for paragraph in body.strip().split("\n\n"):
        if paragraph and paragraph[0] not in "#|*<>-`":
            words = " ".join(paragraph.split())
            return words.split(". ")[0].rstrip(".") + "."
    return ""


def write_results(text: str) -> list[str]:
    """Write the document as the index and its pages (:data:`PAGES`); return what was
    written. A page is its section with every heading one level up, opened by its heading as
    the title and a link back, its relative links one folder up."""
    head, _, rest = text.partition("\n## ")
    sections = [("## " + part).split("\n", 1) for part in rest.split("\n## ")] if rest else []
    contents, written, listed = [], [], []
    tables = RESULTS_FILE.parent / "data" / "results"  # beside the index, wherever it is
    for heading, body in sections:  # each page whole or not at all, the old one until then
        title = heading[3:].strip()
        name = page_name(title)
        lines = [line[1:] if line.startswith("##") else line for line in body.splitlines()]
        stem = name.removesuffix(".md")
        body_text, files = listings.extract(
            "\n".join(lines), tables / stem, f"data/results/{stem}", stem, words=SECONDARY
        )
        listed += files
        page = RELATIVE_LINK.sub(r"](../\1)", body_text)
        save_text(PAGES / name, f"# {title}{BACK}{page}\n")
        contents.append(f"- [{title}](results/{name}): {opening(body)}")
        written.append(f"docs/results/{name}")
    index = head.rstrip("\n") + f"\n\n{CONTENTS}\n\n" + "\n".join(contents) + "\n"
    save_text(RESULTS_FILE, index)
    for old in PAGES.glob("*.md"):  # a page no section makes any more, once the rest is there
        if f"docs/results/{old.name}" not in written:
            old.unlink()
    for old in tables.rglob("*.csv"):  # a table no page links any more
        if old not in listed:
            old.unlink()
    return ["docs/results.md", *written]


def read_results() -> str:
    """The document as :func:`write_results` was given it, from the index and its pages."""
    index = RESULTS_FILE.read_text()
    head, _, contents = index.partition(f"\n\n{CONTENTS}\n\n")
    if not contents:  # a document of one file
        return index
    parts = [head]
    for name in re.findall(r"\]\(results/([^)]+)\)", contents):
        page = (PAGES / name).read_text().rstrip("\n")
        title, _, body = page.partition(BACK)
        lines = ["#" + line if line.startswith("#") else line for line in body.splitlines()]
        body = listings.inline(UP_LINK.sub(r"](\1)", "\n".join(lines)), RESULTS_FILE.parent)
        parts.append("## " + title[2:] + "\n" + body)
    return "\n\n".join(part.rstrip("\n") for part in parts) + "\n"


def check(folder: Path, document: Path) -> int:
    """Compare the tables of a finished run in ``folder`` with those published in ``document``
    row by row; print the verdict and return the number of rows that differ, or 1 where
    nothing could be compared: no such run, another configuration than the published one (its
    run signature), or no table in common."""
    text = read_results() if document == RESULTS_FILE else document.read_text()
    published = text.splitlines() + listings.linked(text, document.parent)
    if not (folder / "tables").is_dir():
        print(f"{folder} is no finished run: it has no tables/ folder (nothing compared)")
        return 1
    mine, theirs = run_signature(folder), published_signature(published)
    if mine is not None and theirs is not None and mine != theirs:
        print(
            f"{folder} is another configuration than {document} publishes (its models: "
            f"{mine[:200]}…; published: {theirs[:200]}…): not comparable. Check a quick run "
            "(presets/quick.yaml with presets/studies.yaml and presets/quick_studies.yaml) "
            "against docs/quick.md, a paper-scale run against docs/results.md."
        )
        return 1
    differing, compared = 0, 0
    for name in CHECKED_TABLES:
        path = folder / "tables" / name
        if not path.is_file():
            print(f"{name}: not in {folder}/tables (not compared)")
            continue
        for header, mine in tables_of(path.read_text().splitlines()):
            theirs = published_rows(published, header, mine)
            if theirs is None:
                print(f"{name}: its header is not in {document} (another configuration?)")
                differing += 1
                continue
            compared += len(mine)
            for k, row in enumerate(mine):
                other = theirs[k] if k < len(theirs) else None
                if row != other:
                    differing += 1
                    where = row.split("|")[1].strip() if row.count("|") > 1 else row
                    detail = row_difference(row, other) if other else "not published"
                    print(f"{name} row {k + 1} ({where}): {detail}")
            if len(theirs) > len(mine):
                differing += len(theirs) - len(mine)
                print(f"{name}: {len(theirs) - len(mine)} published rows missing from the run")
    if compared == 0:
        print(f"nothing compared: no table of {folder}/tables is published in {document}")
        return 1
    verdict = "equal" if differing == 0 else f"{differing} rows differ"
    print(f"{verdict} ({compared} rows compared with {document})")
    return differing


NOT_REMADE = "*(not remade in this version: the previous run's tables.)*"
NOT_RUN = "*(not run for this version of the document)*"
MISSING = "*(not in the previous document)*"


def marked(text: str) -> str:
    """``text`` headed by :data:`NOT_REMADE` (once)."""
    return text if text.startswith(NOT_REMADE) else f"{NOT_REMADE}\n\n{text}"


def block_content(text: str, name: str, page: Path | None = None) -> str:
    """What a page holds between <!-- name:start --> and <!-- name:end -->, each table it
    links (:func:`replace_block`) back in place where the ``page`` is given."""
    match = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", text, re.S)
    content = match.group(1).strip() if match else ""
    return listings.inline(content, page.parent) if page is not None else content


BLOCK_FILES = {
    "README.md": ("summary",),
    "docs/paper.md": (
        "reproduction",
        "claims",
        "sensitivity",
        "claims50",
        "confirmation_table",
        "regime",
        "regime_confirmation",
        "gaps",
    ),
    "docs/tasks.md": ("more_tasks", "families", "battery", "battery_leaky", "scale"),
    "docs/atlas.md": ("atlas",),
    "docs/beyond.md": ("fixed-points",),
}
"""The marked result blocks (``<!-- name:start -->`` … ``<!-- name:end -->``) of each page."""


KEPT_IN_PLACE = ("reproduction",)
"""The blocks whose tables stay on their page whatever their length: docs/paper.md's table of
every claim beside the paper's, the one a reader reads there."""


def replace_block(text: str, name: str, content: str, page: Path | None = None) -> str:
    """``text`` with its block ``name`` holding ``content``; where the ``page`` is given, each
    table of more than :data:`listings.LONG_TABLE` rows, or with a secondary verdict word
    (:data:`SECONDARY`), of a block not :data:`KEPT_IN_PLACE` is a CSV under
    docs/data/blocks/<page>/ that the block links (:func:`listings.extract`)."""
    if page is not None and name not in KEPT_IN_PLACE:
        folder = REPO / "docs" / "data" / "blocks" / page.stem
        base = Path(os.path.relpath(folder, page.parent)).as_posix()
        content, _ = listings.extract(
            content, folder, base, name, by_heading=False, words=SECONDARY
        )
    pattern = re.compile(rf"(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"no block <!-- {name}:start --> ... <!-- {name}:end --> on the page")
    return pattern.sub(lambda m: m.group(1) + content.strip() + "\n" + m.group(2), text)


SEEDS50 = """Flip-flop and sine with 50 seeds, the context task with 10, the copy task's dense
orthogonal and Cayley controllers (N_h = 72) with 10; paper settings otherwise
(`results/seeds50/tables/claims.md`)."""


def solution_by_solution(folder: Path) -> str:
    """A run's one-screen table (``reproduction.md``) under a line that says what it is, for
    the claims' sections; the seed-mean tests follow it."""
    return (
        "Solution by solution (the headline; `tables/reproduction.md`): each claim as k of n "
        "trained solutions showing it. Over the seeds' mean, below: the tests behind it.\n\n"
        + table(folder, "reproduction.md")
    )


def seeds50_summary(folder: Path) -> str:
    """The claims of the 50-seed run: its reading and its claims table; then, where the run
    has it, the dose-response study on the same models (its reading and table)."""
    claims = pd.read_csv(folder / "tables" / "claims.csv")
    parts = [SEEDS50, solution_by_solution(folder), readings.claims_reading(claims)]
    parts += [table(folder, "claims.md")]
    if (folder / "tables" / "dose_response_summary.csv").is_file():
        parts += [SEEDS50_DOSE, beyond(folder, "dose_response")]
    return "\n\n".join(parts)


SEEDS50_DOSE = """**Are the couplings special, at these seeds?** The dose-response study
("Beyond the paper") on the same models: each block removed by a fraction ε beside random
perturbations of the same norm (`results/seeds50/tables/dose_response_summary.md`)."""


QUICK = TEMPLATES / "quick.md"
"""docs/quick.md's text: ``{signature}`` the run signature, ``{<table>.md}`` the links to the
CSV files of that checked table (:data:`CHECKED_TABLES`)."""
QUICK_DATA = REPO / "docs" / "data" / "quick"


def quick_document(folder: Path) -> str:
    """docs/quick.md: the run signature and a link to each checked table of a quick run, each
    Markdown table of it written as a CSV under docs/data/quick/ (the old ones removed)."""
    if not (folder / "tables").is_dir():
        raise SystemExit(f"{folder} has no tables/: run the quick preset first")
    links, written = {}, []
    for name in CHECKED_TABLES:
        path = folder / "tables" / name
        text = path.read_text() if path.is_file() else ""
        left, files = listings.extract(
            text, QUICK_DATA, "data/quick", name[:-3], longer_than=-1, by_heading=False
        )
        if listings.tables(left.split("\n")):
            raise SystemExit(f"{path}: a table whose rows a CSV cannot hold cell for cell")
        written += files
        named = [f"[`{f.name}`](data/quick/{f.name})" for f in files]
        links[name] = ", ".join(named) or f"`{name[:-3]}` (not in this run)"
    for old in QUICK_DATA.glob("*.csv"):
        if old not in written:
            old.unlink()
    signature = SIGNATURE.format(run_signature(folder))
    return re.sub(
        r"\{(signature|\w+\.md)\}",
        lambda m: signature if m[1] == "signature" else links[m[1]],
        QUICK.read_text(),
    )


def document_for(folder: Path) -> Path:
    """The published document of a run's configuration: the one whose run signature is the
    run's (docs/quick.md for the quick preset), else docs/results.md."""
    mine = run_signature(folder)
    for name in ("results.md", "quick.md"):
        path = REPO / "docs" / name
        if path.is_file() and mine and published_signature(path.read_text().splitlines()) == mine:
            return path
    return REPO / "docs" / "results.md"


PAPER_TABLES = {
    "paper_vs_reproduced": "paper_vs_reproduced",
    "paper_readings": "paper_readings",
    "claims_sensitivity": "claims_sensitivity",
    "table1": "table1",
    "gap_ranking": "gap_ranking",
    "gaps": "gap_attribution",
    "gap_claims": "gap_claims",
}
"""The paper-scale run's tables copied whole: the document's field → the table's name."""
PAPER_BEYOND = {
    "dose": "dose_response",
    "subspace": "subspace_control",
    "refit": "readout_refit",
    "basis": "basis_sensitivity",
    "checkpoints": "checkpoint_ablation",
    "orderings": "basis_dependence",
}
"""The analyses beyond the paper of the paper-scale run: the document's field → analysis."""

GAP_SECTIONS = (
    "## The gaps, ranked",
    "## The gaps, attributed",
    "### The paper's claims under each variation",
)
"""The sections of docs/results.md that the gap study of a paper-config run makes."""


BEYOND_SECTIONS = {
    "### What the ablations do to the attractors": "fixed_points_fates.csv",
    "### Are the couplings special? Dose-response against random perturbations": (
        "dose_response_summary.csv"
    ),
    "### Subspace control": "subspace_control_summary.csv",
    "### Readout refit": "readout_refit_summary.csv",
    "### Schur against eigen coordinates": "basis_sensitivity_summary.csv",
    "### Orders of the Schur modes that nothing fixes": "basis_dependence_summary.csv",
    "### When training stops": "checkpoint_ablation_summary.csv",
}
"""The sections of docs/results.md that the analyses beyond the paper make (presets/studies.yaml
over config.yaml), each with the table that says the run made it."""


def has_studies(folder: Path) -> bool:
    """Whether a paper-config run ran the fixed-point study (presets/studies.yaml)."""
    return (folder / "tables" / "fixed_points_fates.csv").is_file()


def keep_unmade(text: str, previous: str, folder: Path) -> str:
    """``text`` with each section of :data:`BEYOND_SECTIONS` whose table the run ``folder``
    did not make as ``previous`` has it, marked not remade (the paper alone runs one study)."""
    for heading, name in BEYOND_SECTIONS.items():
        if heading in text.splitlines() and not (folder / "tables" / name).is_file():
            text = replace_section(text, heading, marked(previous_section(previous, heading)))
    return text


def has_gaps(folder: Path) -> bool:
    """Whether a paper-config run ran the gap study (config ``gap_study.run``)."""
    return (folder / "tables" / "gap_ranking.csv").is_file()


PAPER_SCALE, SEEDS50_NAME = "paper scale (3 seeds)", "50 seeds (10 for copy and context)"
"""The column groups of README's one-screen table: the runs, with their seeds per task."""
FIGURES = ("fig1_copy_ablation", "fig2_neuro_ablation")
"""The figures of the paper-scale and 50-seed runs published under docs/figures/."""
FIGURE_WIDTH, FIGURE_BYTES = 1800, 300_000
"""A published figure's largest width in pixels and its largest size."""


def publish_models(runs: dict[str, Path], into: Path = REPO / "docs" / "data") -> list[str]:
    """Copy each run's ``tables/models.csv`` (``runs``: its name → its folder) to
    ``into``/<name>/models.csv: the full-model scores the pages quote from it."""
    written = []
    for name, folder in runs.items():
        target = into / name / "models.csv"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / "tables" / "models.csv", target)
        written.append(
            str(target.relative_to(REPO)) if target.is_relative_to(REPO) else str(target)
        )
    return written


def publish_figures(
    runs: dict[str, Path],
    into: Path = REPO / "docs" / "figures",
    figures: tuple = FIGURES,
    width: int = FIGURE_WIDTH,
) -> list[str]:
    """Copy ``figures`` of each run (``runs``: its name in the file name → its folder) to
    ``into``/<figure>_<name>.png, at most ``width`` pixels wide; SystemExit where one is larger
    than :data:`FIGURE_BYTES`."""
    from PIL import Image

    written = []
    into.mkdir(exist_ok=True)
    for name, folder in runs.items():
        for figure in figures:
            target = into / f"{figure}_{name}.png"
            with Image.open(folder / "figures" / f"{figure}.png") as image:
                if image.width > width:
                    height = round(image.height * width / image.width)
                    image = image.resize((width, height), Image.LANCZOS)
                image.convert("RGB").quantize(256).save(target, optimize=True)
            if target.stat().st_size > FIGURE_BYTES:
                raise SystemExit(f"{target}: {target.stat().st_size} bytes, above {FIGURE_BYTES}")
            written.append(str(target))
    return written


def basis_unchecked(table: pd.DataFrame) -> bool:
    """Whether a run's one-screen table (reproduction.csv) checked no solution's basis
    dependence (a run without the basis-dependence analysis, or made before it)."""
    return "basis_checked" not in table or not table["basis_checked"].any()


def unchecked_sentence(names: list[str]) -> str:
    """What the basis-dependent count does not cover, '' where every run checked it."""
    if not names:
        return ""
    runs, do, its = ("runs", "do", "their") if len(names) > 1 else ("run", "does", "its")
    return (
        f" The {runs} of {' and '.join(names)} {do} not check the basis dependence: none of "
        f"{its} solutions is named basis-dependent, which does not mean none is."
    )


def table_rule(folder: Path) -> str:
    """The rule of the claim words under a run's one-screen table (its ``reproduction.md``'s
    last line), linked to the glossary from a page of docs/results/; '' where there is none."""
    path = folder / "tables" / "reproduction.md"
    if not path.is_file():
        return ""
    rule = path.read_text().strip().splitlines()[-1]
    return rule.replace(GLOSSARY, "[docs/glossary.md](glossary.md)")


def reproduction_summary(folders: dict[str, Path]) -> str:
    """README's one screen: the lead, then the runs' one-screen tables side by side
    (``folders``: the column group's name → the run's folder) and the rule of the words."""
    tables = {name: pd.read_csv(f / "tables" / "reproduction.csv") for name, f in folders.items()}
    rule = table(next(iter(folders.values())), "reproduction.md").splitlines()[-1]
    rule = rule.replace(GLOSSARY, "[docs/glossary.md](glossary.md)")
    unchecked = [name for name, t in tables.items() if basis_unchecked(t)]
    if len(unchecked) < len(tables):
        rule += unchecked_sentence(unchecked)
    last = list(tables)[-1]  # the run of most seeds: its words per task
    parts = [
        readings.lead(tables),
        readings.per_task(tables[last], last),
        readings.side_by_side(tables).strip(),
        rule,
    ]
    return "\n\n".join(parts)


REGIME = "the paper's regime (50 seeds, 10 for copy and context)"
"""The column group of the regime's run (presets/paper_regime.yaml)."""


def full_fvus(folder: Path) -> dict[str, float]:
    """Per FVU task, the median full-model held-out FVU of a run's learned models."""
    models = pd.read_csv(folder / "tables" / "models.csv")
    models = models[(models["metric"] == "fvu") & models["learned"].astype(bool)]
    return models.groupby("task")["heldout_score"].median().to_dict()


FULL_BUDGET = REPO / "docs" / "predictions.csv"
"""The 50-seed run's published counts (seeds 0–49, 0–9 for copy and context, the full training
budget): the regime's seeds trained to the end, the comparison its words are read against."""


def regime_pairs(regime: Path) -> list[tuple]:
    """The regime's flip-flop, sine and context claims (the copy task's models are the same
    weights in both runs), each as (its row of the regime's one-screen table, its counts at
    the full budget in :data:`FULL_BUDGET`, the word those counts take by today's rule,
    :func:`word_rule`)."""
    words = pd.read_csv(regime / "tables" / "reproduction.csv")
    full, rule = pd.read_csv(FULL_BUDGET).set_index("claim_id"), word_rule()
    return [
        (r, full.loc[r.claim_id], claim_word(*full.loc[r.claim_id, ["k", "n"]].astype(int), **rule))
        for r in words[words["task"].isin(PAPER_TASKS)].itertuples(index=False)
    ]


def regime_line(paper: Path, regime: Path) -> str:
    """docs/paper.md's sentence on what the paper's regime changes: its full-model FVUs
    (median and range) beside the paper's and ours at paper scale, and, on the flip-flop, sine
    and context claims (the copy task's models are the same weights in both runs), the words
    that stay and those that move against the same seeds fully trained (the 50-seed counts of
    :data:`FULL_BUDGET`, worded by today's rule, :func:`word_rule`)."""
    models = pd.read_csv(regime / "tables" / "models.csv")
    models = models[(models["metric"] == "fvu") & models["learned"].astype(bool)]
    ours = full_fvus(paper)
    fvus = []
    for task, group in models.groupby("task"):
        score = group["heldout_score"]
        fvus.append(
            f"{TASK_NAMES.get(task, task)} {score.median():.2g} ({score.min():.2g}–"
            f"{score.max():.2g}; the paper's {reported_value(task, 'none', 'fvu'):g}, ours at "
            f"paper scale {ours[task]:.2g})"
        )
    words = regime_pairs(regime)
    moved = [
        f"{readings.claim_name(r)} ({before} {int(f['k'])}/{int(f['n'])} → "
        f"{r.word} {r.k}/{r.n_tested})"
        for r, f, before in words
        if before != r.word
    ]
    return (
        "**In the paper's regime** (`presets/paper_regime.yaml`: each network trained until its "
        f"first validation check, every 128 steps, at or below the paper's full-model FVU; "
        f"held-out full-model FVU, median and range: {'; '.join(fvus)}), "
        f"{len(words) - len(moved)} of the {len(words)} flip-flop, sine and context words stay "
        "as on the same seeds fully trained (the 50-seed counts); "
        f"{'moved: ' + '; '.join(moved) if moved else 'none moves'}. A word that moves by a few "
        "solutions of ten may move by chance (its interval in the table). The copy task's "
        "models are the same weights in both runs."
    )


def regime_summary(paper: Path, regime: Path) -> str:
    """docs/paper.md's regime section: the README's sentence, the paper-scale and the regime's
    one-screen tables side by side, and the regime's words with θ and the mass floor halved
    and doubled."""
    tables = {
        PAPER_SCALE: pd.read_csv(paper / "tables" / "reproduction.csv"),
        REGIME: pd.read_csv(regime / "tables" / "reproduction.csv"),
    }
    return "\n\n".join(
        [
            regime_line(paper, regime),
            readings.side_by_side(tables).strip(),
            "Its words with θ and the mass floor each halved and doubled:",
            table(regime, "reproduction_sensitivity.md").strip(),
        ]
    )


SUMMARY = TEMPLATES / "summary.md"
"""README's first screen: its prose, with the names of the numbers it takes from the runs."""
HEADLINE = REPO / "docs" / "headline.csv"
"""The claims of README's table (those that rest on data), each in a few words."""


def values(cell: str) -> str:
    """The numbers of a one-screen table's ``paper`` or ``ours`` cell, without the names of
    the ablations and quantities or the ranges: '−T_C→R acc 0.568 (0.521–0.663); −T_RR acc
    0.832' → '0.568 / 0.832'."""
    parts = []
    for part in str(cell).split("; "):
        found = re.match(r".*?(?:acc|ΔFVU|S_ΔT|n_R) (.*)", part)
        parts.append(re.sub(r" \(.*?\)$", "", found.group(1) if found else part))
    return "/".join(parts)


def headline_table(fresh: pd.DataFrame, full_budget: pd.DataFrame) -> str:
    """README's table of the claims that rest on data: task, the claim in a few words
    (:data:`HEADLINE`; the header links each claim's full wording), the paper's numbers → ours
    on the fresh seeds (median), the solutions showing it on the fresh seeds (k/n with its
    notes, :func:`fresh_counts`) and at 50 seeds, and the fresh word (its rule in the glossary)."""
    short = pd.read_csv(HEADLINE).set_index("claim_id")["short"]
    budget = full_budget.set_index("claim_id")
    lines = [
        "task | [claim](docs/paper.md#the-paper-scale-beside-fifty-seeds) | paper→ours, fresh "
        "| k/n: fresh·50 seeds "
        "| [word, fresh](docs/glossary.md#the-headline-words)",
        "---|---|---|---|---",
    ]
    for r in fresh[fresh["claim_id"].isin(short.index)].itertuples(index=False):
        b = budget.loc[r.claim_id]
        lines.append(
            f"{TASK_NAMES.get(r.task, r.task)} | {short[r.claim_id]} | {values(r.paper)}→"
            f"{values(r.ours)} | {fresh_counts(r)}·{int(b['k'])}/{int(b['n'])} | **{r.word}**"
        )
    return "\n".join(lines)


def fresh_counts(r) -> str:
    """A fresh claim's k/n (solutions showing it of those tested), with what sets n apart from
    the solutions trained: the learned ones where some did not learn, the absent ones, and how
    many of those tested read basis-dependent (where the run checked it): '6/10 (10
    basis-dependent)', '0/1 (9 absent)'."""
    notes = [f"{r.n_learned} of {r.n_trained} learned"] if r.n_learned < r.n_trained else []
    notes += [f"{r.n_absent} absent"] if r.n_absent else []
    if getattr(r, "n_basis_dependent", 0):
        notes.append(f"{r.n_basis_dependent} {Verdict.BASIS_DEPENDENT}")
    return f"{r.k}/{r.n_tested}" + (f" ({', '.join(notes)})" if notes else "")


def first_screen(paper: Path, confirm: Path, regime: Path) -> str:
    """README's summary (:data:`SUMMARY` filled in): the preregistered fresh seeds' words on
    the claims that rest on data, how our networks differ from the paper's and what the
    paper's regime changes on the flip-flop, sine and context claims (the copy task's models
    are the same weights in both), and the table (:func:`headline_table`)."""
    fresh = pd.read_csv(confirm / "tables" / "reproduction.csv")
    data = fresh[fresh["basis"] == DATA]
    counts = data["word"].value_counts()
    data_words = ", ".join(
        f"{counts[w]} {PLURAL_WORDS[w]}" for w in PLURAL_WORDS if counts.get(w, 0)
    )
    ours, stopped = full_fvus(confirm), full_fvus(regime)
    printed = {t: reported_value(t, "none", "fvu") for t in PAPER_TASKS}
    fvu_pairs = ", ".join(
        f"{TASK_NAMES[t]} {printed[t]:g}→{ours[t]:.2g}" for t in PAPER_TASKS if t in ours
    )
    regime_words = regime_pairs(regime)
    kept = sum(before == r.word for r, _, before in regime_words)
    not_before = [r.word for r, _, before in regime_words if before == Verdict.DOES_NOT]
    stays_not = sum(word == Verdict.DOES_NOT for word in not_before)
    that = {1: "the failure", 2: "both failures"}.get(
        len(not_before), f"the {len(not_before)} failures"
    )
    failures = (
        ""
        if not not_before
        else f", {that} included"
        if stays_not == len(not_before)
        else f", {stays_not} of {that} included"
    )
    rule, full = word_rule(), pd.read_csv(FULL_BUDGET)
    text = SUMMARY.read_text().format(
        n_data=len(data),
        data_words=data_words,
        n_bound=len(fresh) - len(data),
        fvu_pairs=fvu_pairs,
        regime_fvus=", ".join(f"{stopped[t]:.2g}" for t in PAPER_TASKS if t in stopped),
        regime_kept=kept,
        regime_total=len(regime_words),
        regime_failures=failures,
        table=headline_table(fresh, full),
        **rule,
    )
    return text.strip()


def word_rule() -> dict:
    """The claim words' rule at the schema's defaults (config ``solutions`` and
    ``learned.min_models``): the keywords of
    :func:`rnnschur.studies.paper.reproduction.claim_word`."""
    return {
        "reproduces": default("solutions.reproduces"),
        "does_not": default("solutions.does_not"),
        "min_models": default("learned.min_models"),
    }


PLURAL_WORDS = {
    Verdict.REPRODUCES: "reproduce",
    Verdict.PARTLY: "partly",
    Verdict.DOES_NOT: "do not",
    Verdict.UNTESTABLE: "untestable",
}
"""The fresh words as the first screen counts them."""
PAPER_TASKS = ("flip_flop", "sine", "context_integration")
"""The tasks whose full-model FVU the paper prints."""


def confirmation_summary(folder: Path) -> str:
    """A preregistered confirmation (``tables/confirmation.csv`` of the run of
    presets/confirm.yaml or presets/paper_regime_confirm.yaml): its lead, its table and the
    run's cost."""
    path = folder / "tables" / "confirmation.csv"
    if not path.is_file():
        return f"*(`{path}` not found: run presets/confirm.yaml)*"
    where = "[docs/preregistration.md](docs/preregistration.md)"
    lead_text = readings.confirmation_lead(pd.read_csv(path), where)
    lead_text = lead_text.replace("(docs/preregistration.md)", "(preregistration.md)")
    costs = costs_line(folder)
    short = pd.read_csv(HEADLINE).set_index("claim_id")["short"].to_dict()
    fresh = pd.read_csv(folder / "tables" / "reproduction.csv")
    basis = readings.fresh_basis_line(fresh, short)
    return f"{lead_text}\n\n{table(folder, 'confirmation.md').strip()}\n\n{basis}\n\n{costs}"


def costs_line(folder: Path) -> str:
    """'Its cost: …': the jobs' summed wall and CPU time from the run's benchmark files
    (:func:`rnnschur.report.costs.job_costs`), with the training's share."""
    jobs = job_costs(folder)
    if jobs.empty:
        return ""
    train = jobs[jobs["rule"] == "train"]
    return (
        f"Its cost: {len(jobs)} jobs with a benchmark file, "
        f"{jobs['s'].sum() / 60:.0f} min of summed job time "
        f"({train['s'].sum() / 60:.0f} of them training), {jobs['cpu'].sum() / 60:.0f} min of "
        f"CPU as the benchmark files of `results/{folder.name}/benchmarks/` sample it."
    )


RUNS = ("seeds50", "more_tasks", "leaky_tanh", "leaky_relu", "battery", "battery_leaky", "scale")
RUNS += ("atlas", "confirm", "paper_regime", "paper_regime_confirm")
"""The runs besides the paper-scale one, by their option's name (``--scale`` → ``scale``)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=REPO / "results")
    parser.add_argument("--seeds50", type=Path, default=REPO / "results" / "seeds50")
    parser.add_argument("--more-tasks", type=Path, default=REPO / "results" / "more_tasks")
    parser.add_argument("--leaky-tanh", type=Path, default=REPO / "results" / "leaky_tanh")
    parser.add_argument("--leaky-relu", type=Path, default=REPO / "results" / "leaky_relu")
    parser.add_argument("--battery", type=Path, default=REPO / "results" / "neurogym_battery")
    parser.add_argument("--battery-leaky", type=Path, default=REPO / "results" / "neurogym_leaky")
    parser.add_argument("--scale", type=Path, default=REPO / "results" / "scale")
    parser.add_argument("--atlas", type=Path, default=REPO / "results" / "atlas")
    parser.add_argument("--confirm", type=Path, default=REPO / "results" / "confirm")
    parser.add_argument("--paper-regime", type=Path, default=REPO / "results" / "paper_regime")
    parser.add_argument(
        "--paper-regime-confirm", type=Path, default=REPO / "results" / "paper_regime_confirm"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=("paper", "reproduction", *RUNS),
        metavar="RUN",
        help="remake only the sections, result blocks and provenance rows of these runs "
        f"(paper, {', '.join(RUNS)}; paper: the paper-scale run of --results and every "
        "section of its own); every other part stays as the document has it. "
        "reproduction: only README's one-screen table and docs/figures/, from --results and "
        "--seeds50",
    )
    parser.add_argument(
        "--stale",
        nargs="+",
        choices=RUNS,
        default=[],
        metavar="RUN",
        help="with --only: mark these runs' sections and blocks as not remade (code that "
        "makes their tables changed since they ran)",
    )
    parser.add_argument(
        "--check",
        type=Path,
        metavar="DIR",
        help="compare the tables of the finished run in DIR with the document that publishes "
        "its configuration (docs/results.md, or docs/quick.md for the quick preset); write "
        "nothing",
    )
    parser.add_argument(
        "--quick",
        type=Path,
        metavar="DIR",
        help="write docs/quick.md from a finished quick run in DIR (results/quick) and stop",
    )
    args = parser.parse_args()
    if args.stale and not args.only:
        parser.error("--stale goes with --only (without it, every run not here is stale)")
    if args.check:
        raise SystemExit(1 if check(args.check, document_for(args.check)) else 0)
    if args.quick:
        save_text(REPO / "docs" / "quick.md", quick_document(args.quick))
        print("wrote docs/quick.md")
        return
    r = args.results
    if args.only == ["reproduction"]:
        folders = {PAPER_SCALE: r, SEEDS50_NAME: args.seeds50}
        page = REPO / "docs" / "paper.md"
        save_text(
            page, replace_block(page.read_text(), "reproduction", reproduction_summary(folders))
        )
        written = publish_figures({"paper": r, "seeds50": args.seeds50})
        print(f"wrote docs/paper.md's one-screen tables and {', '.join(written)}")
        return
    previous = read_results()
    folder = {"paper": r} | {run: getattr(args, run) for run in RUNS}
    families = {
        "discrete tanh": [r, args.more_tasks],
        "leaky tanh": [args.leaky_tanh],
        "leaky relu": [args.leaky_relu],
    }
    runs = {
        "paper scale (`config.yaml`)": "paper",
        "`presets/seeds50.yaml`": "seeds50",
        "`presets/more_tasks.yaml`": "more_tasks",
        "`presets/leaky.yaml`": "leaky_tanh",
        "`presets/leaky_relu.yaml`": "leaky_relu",
        "`presets/neurogym_battery.yaml`": "battery",
        "`presets/neurogym_leaky.yaml`": "battery_leaky",
        "`presets/scale.yaml`": "scale",
        "`presets/atlas.yaml`": "atlas",
        "`presets/confirm.yaml`": "confirm",
        "`presets/paper_regime.yaml`": "paper_regime",
        "`presets/paper_regime_confirm.yaml`": "paper_regime_confirm",
    }
    # The sections that other runs than the paper-scale one make: (the runs it needs, its
    # heading in the document, its rendering); a run that is not here keeps its text, marked.
    sections = {
        "claims50": (
            ["seeds50"],
            "### Fifty seeds (`presets/seeds50.yaml`)",
            lambda: seeds50_summary(args.seeds50),
        ),
        "more_tasks": (
            ["more_tasks"],
            "### Tasks the paper did not try (`presets/more_tasks.yaml`, 5 seeds)",
            lambda: profile_summary(args.more_tasks),
        ),
        "families": (
            ["paper", "more_tasks", "leaky_tanh", "leaky_relu"],
            "#### Full-model FVU and the harm of removing each block (mean over seeds; each "
            "solution's reading)",
            lambda: family_summary(families),
        ),
        "battery": (["battery"], "#### Discrete tanh", lambda: battery_summary(args.battery)),
        "battery_leaky": (
            ["battery_leaky"],
            "#### Leaky relu (the tutorial CTRNN)",
            lambda: battery_summary(args.battery_leaky),
        ),
        "restriction": (
            ["battery"],
            "#### Seed-mean verdicts per block (the full tables' words), counted over the tasks",
            lambda: restriction_summary(
                [f for f in (args.battery, args.battery_leaky) if (f / "tables").is_dir()]
            ),
        ),
        "scale": (
            ["scale"],
            "#### Accuracy, n_R and the harm of each block per N_h",
            lambda: scale_summary(args.scale),
        ),
        "scale_claims": (
            ["scale"],
            "#### The paper's claims at each N_h",
            lambda: table(args.scale, "claims_by_size.md"),
        ),
        "atlas": (["atlas"], "### What the atlas says", lambda: atlas_summary(args.atlas)),
        "family_claims": (
            ["paper", "leaky_tanh", "leaky_relu"],
            "#### The paper's claims, per family",
            lambda: family_claims({k: v[0] for k, v in families.items()}),
        ),
    }
    renders = {
        "reproduction": (
            ["paper", "seeds50"],
            lambda: reproduction_summary({PAPER_SCALE: r, SEEDS50_NAME: args.seeds50}),
        ),
        "claims": (["paper"], lambda: verdict_summary(r)),
        "fixed-points": (["paper"], lambda: fixed_points_part(r, short=True)),
        "summary": (
            ["paper", "confirm", "paper_regime"],
            lambda: first_screen(r, args.confirm, args.paper_regime),
        ),
        "confirmation_table": (["confirm"], lambda: confirmation_summary(args.confirm)),
        "sensitivity": (["paper"], lambda: table(r, "reproduction_sensitivity.md")),
        "regime": (["paper", "paper_regime"], lambda: regime_summary(r, args.paper_regime)),
        "regime_confirmation": (
            ["paper_regime_confirm"],
            lambda: confirmation_summary(args.paper_regime_confirm),
        ),
        "claims50": (["seeds50"], lambda: verdict_summary(args.seeds50)),
        "gaps": (["paper"], lambda: gap_answer(r)),
        "more_tasks": (["more_tasks"], lambda: profile_summary(args.more_tasks)),
        "families": (
            ["paper", "more_tasks", "leaky_tanh", "leaky_relu"],
            lambda: family_summary(families),
        ),
        "battery": (["battery"], lambda: battery_summary(args.battery)),
        "battery_leaky": (["battery_leaky"], lambda: battery_summary(args.battery_leaky)),
        "scale": (["scale"], lambda: scale_summary(args.scale)),
        "atlas": (["atlas"], lambda: atlas_summary(args.atlas)),
    }
    here = {run for run, path in folder.items() if (path / "tables").is_dir()}
    if args.only:
        chosen, stale = set(args.only), set(args.stale)
        for run in chosen - here:
            raise SystemExit(f"--only {run}: {folder[run]} has no tables/ folder")
    else:
        chosen, stale = here, set(RUNS) - here

    def part(needs: list[str], heading: str, render) -> str:
        """``render()`` where every run it needs is remade; else the document's text, marked
        where one of them is stale."""
        if set(needs) <= chosen:
            return render()
        text = previous_section(previous, heading, own=True)
        if not set(needs) & stale:
            return text
        if text in (MISSING, NOT_RUN) or text.endswith(MISSING) or text.endswith(NOT_RUN):
            return NOT_RUN
        return marked(text)

    if "paper" in chosen:
        if not (r / "tables" / "claims.csv").is_file():
            raise SystemExit(f"{r}/tables has no claims.csv: the paper-scale run comes first")
        text = RESULTS.format(
            signature=SIGNATURE.format(run_signature(r)),
            provenance=PROVENANCE_HEAD,
            claims=solution_by_solution(r)
            + "\n\n"
            + readings.claims_reading(pd.read_csv(r / "tables" / "claims.csv"))
            + "\n\n"
            + table(r, "claims.md"),
            gap_summary=gap_summary(r),
            gap_conclusion=gap_conclusion(r),
            profile=profile_summary(r),
            task_restriction=table(r, "task_restriction.md"),
            **{field: table(r, f"{name}.md") for field, name in PAPER_TABLES.items()},
            **{field: beyond(r, analysis) for field, analysis in PAPER_BEYOND.items()},
            fixed=fixed_points_part(r),
            paper_comparison=paper_comparison(r),
            **{field: part(*spec) for field, spec in sections.items()},
        )
        text = keep_unmade(text, previous, r)  # the studies this run did not make: as published
        if not has_gaps(r):  # a paper-config run without the gap study: its sections as published
            for heading in GAP_SECTIONS:
                text = replace_section(text, heading, marked(previous_section(previous, heading)))
    else:
        text = previous
        for spec in sections.values():
            text = replace_section(text, spec[1], part(*spec))
    remade = {name: folder[run] for name, run in runs.items() if run in chosen}
    known = yaml.safe_load(RUNS_FILE.read_text()).get("made_by", {})
    recorded = {name: known[run] for name, run in runs.items() if run in known}
    text = replace_provenance(
        text, provenance(remade, previous, order=list(runs), recorded=recorded)
    )
    written = write_results(text)
    if "atlas" in chosen and (args.atlas / "atlas.html").is_file():
        shutil.copyfile(args.atlas / "atlas.html", REPO / "docs" / "atlas.html")
        written.append("docs/atlas.html")
    for page, names in BLOCK_FILES.items():
        path = REPO / page
        text = path.read_text()
        for name in names:
            needs, render = renders[name]
            studies_missing = name == "fixed-points" and not has_studies(r)
            if "paper" in chosen and ((name == "gaps" and not has_gaps(r)) or studies_missing):
                content = marked(block_content(text, name, path))
            elif set(needs) <= chosen:
                content = render()
            elif set(needs) & stale:
                content = marked(block_content(text, name, path))
            elif f"<!-- {name}:start -->" in text:  # as published, its long tables linked
                content = block_content(text, name, path)
            else:
                continue
            text = replace_block(text, name, content, path)
        save_text(path, text)
    if {"paper", "seeds50"} <= chosen:
        written += publish_figures({"paper": r, "seeds50": args.seeds50})
    written += publish_models({run: folder[run] for run in ("paper", "seeds50") if run in chosen})
    if "paper" in chosen and (r / "figures" / "fig_fixed_points.png").is_file():
        # sixteen panels of trajectories: narrower, to stay within FIGURE_BYTES
        written += publish_figures({"paper": r}, figures=("fig_fixed_points",), width=900)
    print(f"wrote {', '.join(written)} and the result blocks of {', '.join(BLOCK_FILES)}")


if __name__ == "__main__":
    main()
