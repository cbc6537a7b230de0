"""Write docs/results.md, and the result blocks of README.md, from a finished run's tables.

Every number in docs/results.md and in the README's marked blocks comes from the Markdown tables
the workflow wrote (results/tables/*.md); the text around them says what each table is and how to
read it, never a number, so the documents cannot drift from the tables. Rerun after a run:

    python docs/build_results.py [--results results] [--seeds10 results/seeds10]
                                 [--more-tasks results/more_tasks]
                                 [--leaky-tanh results/leaky_tanh] [--leaky-relu results/leaky_relu]
                                 [--battery results/neurogym_battery]
                                 [--battery-leaky results/neurogym_leaky] [--scale results/scale]

A run folder that is not there keeps its sections as the document has them, marked as not
remade (so one run can be remade without the others).

After your own `snakemake -c8`, compare your tables with the published ones:

    python docs/build_results.py --check results

prints "equal", or each row that differs with its largest numeric difference (exit status 1).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd

from rnnschur import readings
from rnnschur.external import MISUSE_FVU
from rnnschur.tables import label

REPO = Path(__file__).resolve().parents[1]


def table(folder: Path, name: str) -> str:
    path = folder / "tables" / name
    return path.read_text().strip() if path.is_file() else f"*(`{path}` not found: run it first)*"


def provenance(runs: dict[str, Path]) -> str:
    """Which rnnschur versions made the models of each run (``models.csv``), as a table."""
    rows = ["| run | models | made with rnnschur |", "|---|---|---|"]
    for name, folder in runs.items():
        path = folder / "tables" / "models.csv"
        if path.is_file():
            counts = pd.read_csv(path)["version_rnnschur"].value_counts().sort_index()
            made = ", ".join(f"{version} ({n})" for version, n in counts.items())
            rows.append(f"| {name} | {counts.sum()} | {made} |")
    return "\n".join(rows)


def verdict_summary(folder: Path) -> str:
    """A short table of the claims the run tested: claim, seeds agreeing, verdict."""
    path = folder / "tables" / "claims.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    claims = pd.read_csv(path)
    claims = claims[claims["n_trained"] > 0]  # a claim of a task the run did not train
    lines = [
        "| claim | source | models learned | seeds agreeing | verdict |",
        "|---|---|---|---|---|",
    ]
    for r in claims.itertuples(index=False):
        lines.append(
            f"| {r.claim} | {r.source} | {r.n_learned}/{r.n_trained} | {r.n_agree}/{r.n_seeds} "
            f"| **{r.verdict}** |"
        )
    return readings.claims_reading(claims) + "\n\n" + "\n".join(lines)


def gap_summary(folder: Path) -> str:
    """Per paper number: the paper config's mean and the variations that move it toward the
    paper's value (and whether the paper's value then lies in the seeds' range)."""
    path = folder / "tables" / "gap_attribution.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    gaps = pd.read_csv(path)
    lines = [
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


RESULTS = """# Results of the paper-scale run

Made by `snakemake -c2` with the paper config (`config.yaml`) and by
`snakemake -c2 --configfile presets/seeds10.yaml`; every table below is copied by
`python docs/build_results.py` from the Markdown tables the workflow wrote
(`results/tables/`), so it cannot drift from them. The versions that made each model are in
`results/tables/models.csv` (`version_*` columns); per run:

{provenance}

A run is shown as it was made until it is remade. 0.4.0 changed every trained weight (training
without autograd) and 0.5.0 the Cayley construction's only, each checked against the seed ranges
where it touched a run shown here (every verdict the same); 0.4.0, 0.4.1 and 0.5.0 train every
other model to the same bits (CHANGELOG).

## The paper's claims, tested over seeds
Each claim is a statistic per trained model; the verdict comes from a two-sided 95 % Student t
interval of its mean over seeds (holds: the whole interval satisfies the claim; fails: the
whole interval contradicts it; otherwise inconclusive). The exact sign test is given beside it;
with 3 seeds it cannot fall below 0.125. "Harmless", "inert" and "unchanged" mean an accuracy
change within `claims.tolerance_accuracy`; ≫ means at least `claims.much_greater` times.

### Paper scale (3 seeds; copy task N_h = 72, neuroscience tasks N_h = 64)
{claims}

### Ten seeds for the neuroscience tasks (`presets/seeds10.yaml`)
{claims10}

## Every number of the paper beside ours
The paper shows single controllers for the copy task, so a mean ± SEM alone misleads: the
columns "paper in range" and "per seed" say whether the paper's value lies among our seeds.
{paper_vs_reproduced}

## Table 1: α sensitivity of the copy task
{table1}

## The gaps, attributed
Each variation retrains the paper's models (3 seeds) with one candidate cause of a gap changed
(or two together), config key `fidelity.variations`; "fvu_per_trial" rescores the paper
config's models with the FVU normalised per trial. A variation moves a number *toward* the
paper where the distance of its mean to the paper's value falls below 0.8 × the paper config's
(log10 scale for the full-model FVU), *away* above 1.25 ×. Figure:
`results/figures/fig_gap_attribution.pdf`.

{gap_summary}

The whole table (every variation, per-seed values, ranges):

{gaps}

### The paper's claims under each variation
Seeds agreeing and the verdict of each claim, tested on each variation's own models as on the
paper config's (`results/tables/gap_claims.md`): which candidate cause of a gap turns an
inconclusive claim into one that holds or fails.

{gap_claims}

## Every task's ablation profile
Per task and single coupling block at α = 0.9: the harm of removing the block (accuracy lost, or
FVU gained), its two-sided 95 % t interval over seeds, the Schur mass removed, the seeds in which
the ablation is an ε-stabilizer, and the verdict (fragile: interval above 0.1; harmless: within
±0.1). `results/tables/block_profile.md`.

{profile}

### Tasks the paper did not try (`presets/more_tasks.yaml`, 5 seeds)
{more_tasks}

## The networks neuroscience trains
The same tasks trained as leaky networks, h_t = (1 − a) h_{{t−1}} + a φ(W_xh x_t + W_hh h_{{t−1}}),
a = 0.2, φ = tanh (`presets/leaky.yaml`) or relu (the NeuroGym/Neuromatch tutorial CTRNN,
`presets/leaky.yaml presets/leaky_relu.yaml`), 5 seeds, N_h = 64, dense_orthogonal, the
paper's training settings; the α split by the propagator's moduli |1 − a + aλ|. Beside them
the paper's discrete tanh networks (the paper-config run and `presets/more_tasks.yaml`).

#### Full-model FVU and the harm of removing each block (mean over seeds, verdict)
{families}

#### The paper's claims, per family
{family_claims}

## The coupling profile across NeuroGym tasks
Eight NeuroGym envs of distinct kinds (`presets/neurogym_battery.yaml`: N_h = 64,
dense_orthogonal, 5 seeds, cross-entropy training, scored by the choice on the response
periods), as the paper's discrete tanh network and as the tutorial CTRNN (leaky relu, a = 0.2;
`presets/neurogym_leaky.yaml`). Per task and block: the trained choice score, the harm of
removing the block (choice lost), its 95 % interval over seeds, the removed mass and the verdict;
heat maps: `results/neurogym_battery/figures/fig_block_profile.pdf` and
`results/neurogym_leaky/figures/fig_block_profile.pdf`.

#### Discrete tanh
{battery}

#### Leaky relu (the tutorial CTRNN)
{battery_leaky}

#### Task restriction
{restriction}

## Scale
The copy task (paper settings) at N_h = 72, 128 and 256, dense_orthogonal and Cayley, 3 seeds
(`presets/scale.yaml`): the paper asks whether its picture holds when most modes lie in C. Per
construction and N_h at α = 0.9: the full model's accuracy, n_R (the modes in R; the task has
s·d = 64 dimensions of memory), and the harm of removing each coupling block with its removed
mass and verdict (`results/scale/tables/block_profile.md`).

#### Accuracy, n_R and the harm of each block per N_h
{scale}

#### The paper's claims at each N_h
Seeds agreeing and the verdict, each claim tested on the models of that size
(`results/scale/tables/claims_by_size.md`).

{scale_claims}

## Beyond the paper
Four analyses the paper leaves open (README, "Beyond the paper" for what each does).

### Subspace control
{subspace}

### Readout refit
{refit}

### Schur against eigen coordinates
{basis}

### When training stops
{checkpoints}
"""


FAMILIES = ("discrete tanh", "leaky tanh", "leaky relu")


def family_summary(folders: dict[str, list[Path]]) -> str:
    """Per task and coupling block: harm and verdict in each family (block_profile.csv), with
    each family's full-model score (mean over seeds of ablation.csv's full rows at α = 0.9)."""
    profiles, full = {}, {}
    for family, paths in folders.items():
        for folder in paths:
            path = folder / "tables" / "block_profile.csv"
            if not path.is_file():
                continue
            profile = pd.read_csv(path)
            for r in profile.itertuples(index=False):
                if r.task != "copy":
                    profiles[(r.task, r.subset, family)] = (r.harm_mean, r.verdict)
            ablation = pd.read_csv(folder / "tables" / "ablation.csv")
            rows = ablation[(ablation["subset"] == "none") & np.isclose(ablation["alpha"], 0.9)]
            for task, score in rows.groupby("task")["score"].mean().items():
                full[(task, family)] = score
    if not profiles:
        return "*(no run of the families found)*"
    families = [f for f in FAMILIES if f in folders]
    lines = [
        "| task | block | " + " | ".join(families) + " |",
        "|---|---|" + "---|" * len(families),
    ]
    tasks = list(dict.fromkeys(key[0] for key in profiles))
    for task in tasks:
        cells = [
            "—"
            if (task, f) not in full
            else f"{full[(task, f)]:.3g}"
            + (" (did not learn the task)" if full[(task, f)] >= MISUSE_FVU else "")
            for f in families
        ]
        lines.append(f"| {task} | full model | " + " | ".join(cells) + " |")
        for block in ("T_RR", "T_CR", "T_CC"):
            cells = []
            for family in families:
                harm, verdict = profiles.get((task, block, family), (None, None))
                cells.append("—" if harm is None else f"{harm:.3g} **{verdict}**")
            lines.append(f"| {task} | {label(block)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def family_claims(folders: dict[str, Path]) -> str:
    """The paper's claims (claims.csv) and their verdict in each family's run."""
    claims = {}
    for family, folder in folders.items():
        path = folder / "tables" / "claims.csv"
        if path.is_file():
            table = pd.read_csv(path)
            for r in table[table["n_trained"] > 0].itertuples(index=False):
                claims.setdefault(r.claim, {})[family] = (
                    f"{r.n_agree}/{r.n_seeds} **{r.verdict}** ({r.n_learned}/{r.n_trained} learned)"
                )
    if not claims:
        return "*(no run of the families found)*"
    lines = ["| claim | " + " | ".join(folders) + " |", "|---|" + "---|" * len(folders)]
    for claim, verdicts in claims.items():
        if len(verdicts) > 1 or "discrete tanh" not in verdicts:
            lines.append(f"| {claim} | " + " | ".join(verdicts.get(f, "—") for f in folders) + " |")
    return "\n".join(lines)


def battery_summary(folder: Path) -> str:
    """Per task: trained choice score (mean over seeds) and, per block, harm [interval], mass
    removed and verdict."""
    profile = pd.read_csv(folder / "tables" / "block_profile.csv")
    ablation = pd.read_csv(folder / "tables" / "ablation.csv")
    full = ablation[(ablation["subset"] == "none") & np.isclose(ablation["alpha"], 0.9)]
    score = full.groupby("task")["score"].mean()
    lines = [
        "| task | choice (full) | −T_RR | −T_C→R | −T_CC |",
        "|---|---|---|---|---|",
    ]
    for task, rows in profile.groupby("task", sort=False):
        cells = []
        for block in ("T_RR", "T_CR", "T_CC"):
            r = rows[rows["subset"] == block].iloc[0]
            cells.append(
                f"{r.harm_mean:.3g} [{r.ci_low:.2g}, {r.ci_high:.2g}], mass {r.mass_removed:.2g}, "
                f"**{r.verdict}**"
            )
        lines.append(f"| {task} | {score[task]:.3f} | " + " | ".join(cells) + " |")
    return readings.profile_reading(profile, "tasks") + "\n\n" + "\n".join(lines)


def restriction_summary(folders: list[Path]) -> str:
    """How often each block is fragile, harmless or inconclusive across the battery's tasks, per
    network: which block matters depends on the task where the verdicts differ between tasks."""
    lines = [
        "| network | block | fragile | harmless | inconclusive | empty |",
        "|---|---|---|---|---|---|",
    ]
    for folder in folders:
        profile = pd.read_csv(folder / "tables" / "block_profile.csv")
        for block in ("T_RR", "T_CR", "T_CC"):
            counts = profile[profile["subset"] == block]["verdict"].value_counts()
            cells = [
                str(int(counts.get(v, 0))) for v in ("fragile", "harmless", "inconclusive", "empty")
            ]
            lines.append(f"| {folder.name} | {label(block)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def scale_summary(folder: Path) -> str:
    """The copy task per construction and N_h (α = 0.9, mean over seeds): the seeds whose
    training reached its target score (models.csv), full accuracy, n_R (mean, range) and
    n_R / N_h, and per coupling block the harm of removing it (accuracy lost), its removed mass
    and verdict (block_profile.csv). A model that did not learn the task has little to lose."""
    ablation = pd.read_csv(folder / "tables" / "ablation.csv")
    models = pd.read_csv(folder / "tables" / "models.csv")
    reached = models[models["task"] == "copy"].groupby(["construction", "n_hidden"])[
        "reached_target"
    ]
    profile = pd.read_csv(folder / "tables" / "block_profile.csv").set_index(
        ["construction", "n_hidden", "subset"]
    )
    copy = ablation[(ablation["task"] == "copy") & np.isclose(ablation["alpha"], 0.9)]
    full = copy[copy["subset"] == "none"]
    lines = [
        "| construction | N_h | seeds reaching the target | accuracy (full) | n_R (range) | "
        "n_R / N_h | −T_RR | −T_C→R | −T_CC |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (construction, size), rows in full.groupby(["construction", "n_hidden"]):
        cells = []
        for block in ("T_RR", "T_CR", "T_CC"):
            r = profile.loc[(construction, size, block)]
            cells.append(f"{r.harm_mean:.3g}, mass {r.mass_removed:.2g}, **{r.verdict}**")
        n_R = rows["n_R"]
        n_reached = int(reached.get_group((construction, size)).sum())
        lines.append(
            f"| {construction} | {size} | {n_reached}/{len(rows)} | "
            f"{rows['accuracy'].mean():.3f} | "
            f"{n_R.mean():.1f} ({n_R.min()}–{n_R.max()}) | {n_R.mean() / size:.2f} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def previous_section(document: str, heading: str) -> str:
    """The text under ``heading`` (a whole line) in ``document`` up to the next heading."""
    lines = document.splitlines()
    if heading not in lines:
        return MISSING
    start = lines.index(heading) + 1
    end = start
    while end < len(lines) and not lines[end].startswith("#"):
        end += 1
    return "\n".join(lines[start:end]).strip()


def profile_summary(folder: Path) -> str:
    """Per task and coupling block: harm of removing it, t interval, verdict."""
    path = folder / "tables" / "block_profile.csv"
    if not path.is_file():
        return f"*(`{path}` not found)*"
    profile = pd.read_csv(path)
    lines = [
        "| task | model | N_h | learned | block | harm (mean) | 95 % interval | mass removed "
        "| ε-stabilizer | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in profile.itertuples(index=False):
        block = label(r.subset)
        lines.append(
            f"| {r.task} | {r.construction} | {int(r.n_hidden)} | {r.n_learned}/{r.n_trained} | "
            f"{block} | {r.harm_mean:.3g} | [{r.ci_low:.3g}, {r.ci_high:.3g}] | "
            f"{r.mass_removed:.3g} | {r.n_stabilizer}/{r.n_seeds} | **{r.verdict}** |"
        )
    return readings.profile_reading(profile, "task and model groups") + "\n\n" + "\n".join(lines)


CHECKED_TABLES = (
    "claims.md",
    "paper_vs_reproduced.md",
    "table1.md",
    "gap_attribution.md",
    "gap_claims.md",
    "subspace_control_summary.md",
    "readout_refit_summary.md",
    "basis_sensitivity_summary.md",
    "checkpoint_ablation_summary.md",
)
"""The tables of a paper-config run that docs/results.md publishes."""
NUMBER = re.compile(r"[-+−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def published_rows(published: list[str], header: str) -> list[str] | None:
    """The rows under the first occurrence of ``header`` in the published document."""
    if header not in published:
        return None
    start = published.index(header) + 2  # past the header and its |---| line
    rows = []
    while start < len(published) and published[start].startswith("|"):
        rows.append(published[start])
        start += 1
    return rows


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


def check(folder: Path, document: Path) -> int:
    """Compare the tables of a finished run in ``folder`` with those published in ``document``
    row by row; print the verdict and return the number of rows that differ."""
    published = document.read_text().splitlines()
    differing, compared = 0, 0
    for name in CHECKED_TABLES:
        path = folder / "tables" / name
        if not path.is_file():
            print(f"{name}: not in {folder}/tables (not compared)")
            continue
        lines = path.read_text().strip().splitlines()
        theirs = published_rows(published, lines[0])
        if theirs is None:
            print(f"{name}: its header is not in {document} (another configuration?)")
            differing += 1
            continue
        mine = lines[2:]
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
    verdict = "equal" if differing == 0 else f"{differing} rows differ"
    print(f"{verdict} ({compared} rows compared with {document})")
    return differing


NOT_REMADE = "*(not remade in this version: the previous run's tables.)*"
NOT_RUN = "*(not run for this version of the document)*"
MISSING = "*(not in the previous document)*"


def marked(text: str) -> str:
    """``text`` headed by :data:`NOT_REMADE` (once)."""
    return text if text.startswith(NOT_REMADE) else f"{NOT_REMADE}\n\n{text}"


def block_content(text: str, name: str) -> str:
    """What README.md holds between <!-- name:start --> and <!-- name:end -->."""
    match = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", text, re.S)
    return match.group(1).strip() if match else ""


def replace_block(text: str, name: str, content: str) -> str:
    pattern = re.compile(rf"(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"README.md has no block <!-- {name}:start --> ... <!-- {name}:end -->")
    return pattern.sub(lambda m: m.group(1) + content.strip() + "\n" + m.group(2), text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=REPO / "results")
    parser.add_argument("--seeds10", type=Path, default=REPO / "results" / "seeds10")
    parser.add_argument("--more-tasks", type=Path, default=REPO / "results" / "more_tasks")
    parser.add_argument("--leaky-tanh", type=Path, default=REPO / "results" / "leaky_tanh")
    parser.add_argument("--leaky-relu", type=Path, default=REPO / "results" / "leaky_relu")
    parser.add_argument("--battery", type=Path, default=REPO / "results" / "neurogym_battery")
    parser.add_argument("--battery-leaky", type=Path, default=REPO / "results" / "neurogym_leaky")
    parser.add_argument("--scale", type=Path, default=REPO / "results" / "scale")
    parser.add_argument(
        "--check",
        type=Path,
        metavar="DIR",
        help="compare the tables of the finished run in DIR with docs/results.md; write nothing",
    )
    args = parser.parse_args()
    if args.check:
        raise SystemExit(1 if check(args.check, REPO / "docs" / "results.md") else 0)
    r = args.results
    previous = (REPO / "docs" / "results.md").read_text()

    def kept(folders: list[Path], heading: str, render) -> str:
        """``render()`` when every folder has tables; else the document's own text, marked."""
        if all((f / "tables").is_dir() for f in folders):
            return render()
        text = previous_section(previous, heading)
        if text in (MISSING, NOT_RUN) or text.endswith(MISSING) or text.endswith(NOT_RUN):
            return NOT_RUN
        return marked(text)

    families = {
        "discrete tanh": [r, args.more_tasks],
        "leaky tanh": [args.leaky_tanh],
        "leaky relu": [args.leaky_relu],
    }
    text = RESULTS.format(
        provenance=provenance(
            {
                "paper scale (`config.yaml`)": r,
                "`presets/seeds10.yaml`": args.seeds10,
                "`presets/more_tasks.yaml`": args.more_tasks,
                "`presets/leaky.yaml`": args.leaky_tanh,
                "`presets/leaky_relu.yaml`": args.leaky_relu,
                "`presets/neurogym_battery.yaml`": args.battery,
                "`presets/neurogym_leaky.yaml`": args.battery_leaky,
                "`presets/scale.yaml`": args.scale,
            }
        ),
        claims=table(r, "claims.md"),
        claims10=kept(
            [args.seeds10],
            "### Ten seeds for the neuroscience tasks (`presets/seeds10.yaml`)",
            lambda: table(args.seeds10, "claims.md"),
        ),
        paper_vs_reproduced=table(r, "paper_vs_reproduced.md"),
        table1=table(r, "table1.md"),
        gap_summary=gap_summary(r),
        gaps=table(r, "gap_attribution.md"),
        gap_claims=table(r, "gap_claims.md"),
        subspace=table(r, "subspace_control_summary.md"),
        refit=table(r, "readout_refit_summary.md"),
        basis=table(r, "basis_sensitivity_summary.md"),
        checkpoints=table(r, "checkpoint_ablation_summary.md"),
        profile=profile_summary(r),
        more_tasks=kept(
            [args.more_tasks],
            "### Tasks the paper did not try (`presets/more_tasks.yaml`, 5 seeds)",
            lambda: profile_summary(args.more_tasks),
        ),
        families=kept(
            [r, args.more_tasks, args.leaky_tanh, args.leaky_relu],
            "#### Full-model FVU and the harm of removing each block (mean over seeds, verdict)",
            lambda: family_summary(families),
        ),
        battery=kept([args.battery], "#### Discrete tanh", lambda: battery_summary(args.battery)),
        battery_leaky=kept(
            [args.battery_leaky],
            "#### Leaky relu (the tutorial CTRNN)",
            lambda: battery_summary(args.battery_leaky),
        ),
        restriction=kept(
            [args.battery],
            "#### Task restriction",
            lambda: restriction_summary(
                [f for f in (args.battery, args.battery_leaky) if (f / "tables").is_dir()]
            ),
        ),
        scale=kept(
            [args.scale],
            "#### Accuracy, n_R and the harm of each block per N_h",
            lambda: scale_summary(args.scale),
        ),
        scale_claims=kept(
            [args.scale],
            "#### The paper's claims at each N_h",
            lambda: table(args.scale, "claims_by_size.md"),
        ),
        family_claims=kept(
            [r, args.leaky_tanh, args.leaky_relu],
            "#### The paper's claims, per family",
            lambda: family_claims({k: v[0] for k, v in families.items()}),
        ),
    )
    (REPO / "docs" / "results.md").write_text(text)
    readme = (REPO / "README.md").read_text()
    readme = replace_block(readme, "claims", verdict_summary(r))
    if (args.seeds10 / "tables").is_dir():
        readme = replace_block(readme, "claims10", verdict_summary(args.seeds10))
    else:
        readme = replace_block(readme, "claims10", marked(block_content(readme, "claims10")))
    readme = replace_block(readme, "gaps", gap_summary(r))
    if (args.more_tasks / "tables").is_dir():
        readme = replace_block(readme, "more_tasks", profile_summary(args.more_tasks))
    else:
        readme = replace_block(readme, "more_tasks", marked(block_content(readme, "more_tasks")))
    if all((f / "tables").is_dir() for f in [r, args.more_tasks, args.leaky_tanh, args.leaky_relu]):
        readme = replace_block(readme, "families", family_summary(families))
    if (args.battery / "tables").is_dir():
        readme = replace_block(readme, "battery", battery_summary(args.battery))
    if (args.battery_leaky / "tables").is_dir():
        readme = replace_block(readme, "battery_leaky", battery_summary(args.battery_leaky))
    if (args.scale / "tables").is_dir():
        readme = replace_block(readme, "scale", scale_summary(args.scale))
    (REPO / "README.md").write_text(readme)
    print("wrote docs/results.md and the result blocks of README.md")


if __name__ == "__main__":
    main()
