"""The quick preset through the real snakemake: table contents, figures, determinism."""

import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml
from matplotlib.image import imread
from scipy import stats

from rnnschur.io.provenance import run_hashes
from rnnschur.report.registry import FIGURES as FIGURE_REGISTRY
from rnnschur.settings.numerics import PORTABLE_KERNELS
from rnnschur.studies.beyond.registry import ANALYSES

from conftest import (
    QUICK,
    REPO,
    assert_same_weights,
    copy_workflow,
    job_counts,
    long_sentences,
    quick_config,
    quick_models,
    snakemake,
)

pytestmark = pytest.mark.workflow

PINNED = " ".join(f"{k}={v}" for k, v in PORTABLE_KERNELS.items())
SUBSETS = {"none", "T_RR", "T_CR", "T_CC", "T_RR+T_CR", "T_RR+T_CC", "T_CR+T_CC", "T_RR+T_CR+T_CC"}


def test_the_preset_alone_plans_the_papers_chain(tmp_path):
    """presets/quick.yaml without its studies layer, on a fresh folder: one training job per
    bundle of its models, their Schur and ablation jobs, every figure of the registry a run of
    its tasks draws (all but the gap study's and the atlas's), and no job of the gap study or
    of an analysis beyond the paper."""
    folder = copy_workflow(tmp_path)
    result = snakemake(folder, "-n", "--configfile", "presets/quick.yaml")
    assert result.returncode == 0, result.stdout[-3000:]
    jobs = job_counts(result.stdout)
    models = quick_models()
    assert jobs["train"] == len({(t, k, n) for t, k, n, _ in models})
    assert jobs["schur"] == jobs["ablate"] == len(models)
    drawn = {n for n, f in FIGURE_REGISTRY.items() if f.needs not in ("gap study", "atlas")}
    assert drawn <= set(jobs) and not {n for n in FIGURE_REGISTRY if n not in drawn} & set(jobs)
    beyond = {*ANALYSES, *(f"fig_{n}" for n in ANALYSES), "collect_beyond", "gap_attribution"}
    assert not beyond & set(jobs), sorted(beyond & set(jobs))


def tables(folder):
    return folder / "results" / "quick" / "tables"


def test_ablation_table_contents(quick_run):
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    models = pd.read_csv(tables(quick_run) / "models.csv")
    assert set(ablation["task"]) == {
        "copy",
        "flip_flop",
        "sine",
        "context_integration",
        "perceptual_decision",
    }
    assert len(models) == len(quick_models())
    assert len(ablation) == len(models) * 3 * 8
    assert set(ablation["subset"]) == SUBSETS
    for column in (
        "alpha",
        "subset",
        "accuracy",
        "n_R",
        "mass_removed",
        "discrepancy",
        "eps_stabilizer",
        "fvu",
        "delta_fvu",
        "s_delta_t",
        "candidate_invariance",
    ):
        assert column in ablation
    # each solution's own reading of each ablation, absent decided in the model itself
    ablated = ablation[ablation["subset"] != "none"]
    words = {"stabilizer", "fragile", "improves", "undecided", "absent"}
    assert set(ablated["reading"]) <= words
    assert not words & set(ablation.columns)  # one meaning per word: no column named as a reading
    assert ((ablated["reading"] == "absent") == (ablated["mass_removed"] < 0.01)).all()
    decided = ablated[ablated["reading"].isin(["fragile", "stabilizer"])]
    assert (decided["harm_low"] <= decided["harm_share"] + 1e-12).all()
    assert (decided["harm_share"] <= decided["harm_high"] + 1e-12).all()
    # what the harm means: a functional score for each of the paper's tasks
    paper_tasks = ablation[ablation["task"] != "perceptual_decision"]
    assert paper_tasks["functional"].notna().all()
    names = paper_tasks.groupby("task")["functional_score"].first().to_dict()
    assert names == {
        "copy": "replay accuracy",
        "flip_flop": "bit accuracy",
        "sine": "frequency error",
        "context_integration": "decision accuracy",
    }
    full = ablation[ablation["subset"] == "none"]
    assert (full["mass_removed"] == 0).all() and (full["discrepancy"] == 0).all()
    assert full["s_delta_t"].isna().all() and full["eps_stabilizer"].all()
    assert ((ablation["n_R"] >= 1) & (ablation["n_R"] <= ablation["n_hidden"])).all()
    copy = ablation[ablation["task"] == "copy"]
    assert copy["accuracy"].between(0, 1).all()
    assert copy["metric"].eq("accuracy").all()
    neuro = ablation[~ablation["task"].isin(["copy", "perceptual_decision"])]
    assert neuro["accuracy"].isna().all() and neuro["metric"].eq("fvu").all()
    choice = ablation[ablation["task"] == "perceptual_decision"]
    assert choice["metric"].eq("choice").all() and choice["score"].between(-1, 1).all()
    assert choice["accuracy"].isna().all()
    # Where mass was removed, S_dT is dFVU / mass; where none, it is missing.
    removed = ablation[ablation["mass_removed"] > 0]
    np.testing.assert_allclose(removed["s_delta_t"], removed["delta_fvu"] / removed["mass_removed"])
    # Cayley's W is normal: its couplings vanish and no ablation changes anything.
    cayley = copy[copy["construction"] == "cayley"]
    assert (cayley["mass_removed"] < 1e-5).all()
    assert (
        cayley["accuracy"] - cayley["accuracy"].groupby([cayley["seed"]]).transform("first")
    ).abs().max() < 1e-3
    # A dense model loses Schur mass and accuracy under -T_C->R.
    dense = copy[(copy["construction"] == "dense_orthogonal") & (copy["subset"] == "T_CR")]
    assert (dense["mass_removed"] > 0.01).all()


def test_training_and_ablation_agree_on_the_full_model(quick_run):
    """The held-out score written at the end of training equals the ablation table's score of
    the empty subset: two code paths, one number."""
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    models = pd.read_csv(tables(quick_run) / "models.csv")
    full = ablation[(ablation["subset"] == "none") & np.isclose(ablation["alpha"], 0.9)]
    merged = models.merge(full, on=["task", "construction", "n_hidden", "seed"])
    assert len(merged) == len(models)
    np.testing.assert_allclose(merged["heldout_score"], merged["score"], rtol=1e-12)
    meta = json.loads(
        (quick_run / "results/quick/models/copy/cayley/n16/seed0/meta.json").read_text()
    )
    assert meta["n_hidden"] == 16 and meta["versions"]["numpy"] == np.__version__


def test_table1_and_paper_comparison(quick_run):
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    table1 = pd.read_csv(tables(quick_run) / "table1.csv")
    copy = ablation[ablation["task"] == "copy"]
    assert len(table1) == 3 * 4  # alpha x construction (one size)
    for row in table1.itertuples():
        group = copy[
            np.isclose(copy["alpha"], row.alpha) & (copy["construction"] == row.construction)
        ]
        for subset in SUBSETS:
            expected = group[group["subset"] == subset]["accuracy"].mean()
            assert table1.loc[row.Index, subset] == pytest.approx(expected)
        assert row.n_R_min == group[group["subset"] == "none"]["n_R"].min()
    markdown = (tables(quick_run) / "table1.md").read_text()
    assert markdown.count("\n") == len(table1) + 2 and "−T_C→R" in markdown

    comparison = pd.read_csv(tables(quick_run) / "paper_vs_reproduced.csv")
    fig1 = comparison[(comparison["paper_note"].str.startswith("Figure 1"))]
    assert len(fig1) == 16
    orth = fig1[(fig1["construction"] == "dense_orthogonal") & (fig1["subset"] == "T_CR")]
    assert orth["paper_value"].iloc[0] == 0.639
    expected = copy[
        (copy["construction"] == "dense_orthogonal")
        & (copy["subset"] == "T_CR")
        & np.isclose(copy["alpha"], 0.9)
    ]["accuracy"].mean()
    assert orth["reproduced_mean"].iloc[0] == pytest.approx(expected)
    # only the models that learned their task give a reproduced number (models.csv decides)
    models = pd.read_csv(tables(quick_run) / "models.csv")
    learned = models.groupby(["task", "construction"])["learned"].sum()
    assert (comparison["n_trained"] == 2).all()
    for r in comparison.itertuples():
        assert r.n_seeds == learned[(r.task, r.construction)], r
        assert np.isnan(r.reproduced_mean) == (r.n_seeds == 0), r
    fig2 = comparison[comparison["task"] == "sine"]
    assert set(fig2["quantity"]) == {"fvu", "delta_fvu", "s_delta_t"}


def test_the_one_screen_table_counts_the_solutions_of_the_ablation_table(quick_run):
    """Each claim about one block's harm: k of n learned solutions recounted from the ablation
    table's readings (stabilizer for harmless, fragile for harmful), absent ones apart."""
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    screen = pd.read_csv(tables(quick_run) / "reproduction.csv").set_index("claim_id")
    assert screen["task"].notna().all() and len(screen) == 17
    for claim_id, task, block, wanted in (
        ("copy_T_CC_harmless", "copy", "T_CC", "stabilizer"),
        ("copy_T_CR_harmful", "copy", "T_CR", "fragile"),
        ("flip_flop_T_CC_harmful", "flip_flop", "T_CC", "fragile"),
    ):
        rows = ablation[
            (ablation["task"] == task)
            & (ablation["construction"] == "dense_orthogonal")
            & np.isclose(ablation["alpha"], 0.9)
            & (ablation["subset"] == block)
            & ablation["learned"]
        ]
        row = screen.loc[claim_id]
        assert row["n_absent"] == (rows["reading"] == "absent").sum()
        assert row["k"] == (rows["reading"] == wanted).sum()
        assert row["n_tested"] == len(rows) - row["n_absent"]
        share = row["k"] / row["n_tested"] if row["n_tested"] else np.nan
        min_models = quick_config()["learned"]["min_models"]  # a word needs as many tested
        word = (
            "untestable"
            if row["n_tested"] < min_models
            else "reproduces"
            if share >= 0.8
            else "does not reproduce"
            if share <= 0.2
            else "partly"
        )
        assert row["word"] == word
    text = (tables(quick_run) / "reproduction.md").read_text()
    assert "| flip-flop, dense orthogonal (N_h = 16) |" in text
    assert "_T_" not in text.split("\n\n")[0]


def test_the_ablation_table_carries_each_checked_models_basis_reading(quick_run):
    """Every model the basis-dependence analysis checked (its largest tolerance) has its
    T_RR and T_CC reading on its own ablation rows at α = 0.9, as a flag; every other row
    (another α or subset, a model not checked) has none."""
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    basis = pd.read_csv(tables(quick_run) / "basis_dependence_models.csv")
    basis = basis[basis["tolerance"] == basis["tolerance"].max()]
    keys = ["task", "construction", "n_hidden", "seed"]
    flagged = ablation[ablation["basis_dependent"].notna()]
    assert len(flagged) == len(basis) > 0
    assert np.isclose(flagged["alpha"], 0.9).all()
    joined = flagged.merge(
        basis.rename(columns={"block": "subset"}), on=[*keys, "subset"], validate="one_to_one"
    )
    assert len(joined) == len(basis)
    expected = joined["reading_y"] == "basis-dependent"
    assert (joined["basis_dependent"].astype(bool) == expected).all()


def test_the_confirmation_judges_planted_predictions_on_the_runs_solutions(quick_run, tmp_path):
    """Predictions planted from the run's own one-screen table (its word for one claim, another
    word for a second): only the confirmation job runs, and it reads them as planted."""
    screen = pd.read_csv(tables(quick_run) / "reproduction.csv")
    tested = screen[screen["n_tested"] > 0].iloc[:2]
    other = {"reproduces": "partly"}.get(tested.iloc[1]["word"], "reproduces")
    planted = pd.DataFrame(
        {
            "claim_id": tested["claim_id"],
            "predicted": [tested.iloc[0]["word"], other],
            "k": tested["k"],
            "n": tested["n_tested"],
            "n_absent": 0,
        }
    )
    path = tmp_path / "predictions.csv"
    planted.to_csv(path, index=False)
    target = "results/quick/tables/confirmation.md"
    config = f"confirmation={{predictions: {path}}}"
    result = snakemake(quick_run, "-c1", target, *QUICK, "--config", config)
    assert result.returncode == 0, result.stdout[-3000:]
    assert job_counts(result.stdout) == {"confirmation": 1}
    table = pd.read_csv(tables(quick_run) / "confirmation.csv").set_index("claim_id")
    first, second = tested["claim_id"]
    assert table.loc[first, "outcome"] == "confirmed"
    assert table.loc[second, "outcome"] == "not confirmed"
    assert bool(table.loc[first, "consistent"])  # its own k/n lies in its own interval
    text = (tables(quick_run) / "confirmation.md").read_text()
    assert text.startswith("Of 2 predicted claims: 1 confirmed, 1 not confirmed, 0 untestable.")
    for name in ("confirmation.csv", "confirmation.md"):
        (tables(quick_run) / name).unlink()  # the quick run as its other tests expect it


def test_task_restriction_counts_the_ablation_tables_readings(quick_run):
    """Each task's fragile and stabilizer counts are the learned solutions' readings of the
    ablation table at α (its largest N_h), and the tasks named across are those tasks' words."""
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    tasks = pd.read_csv(tables(quick_run) / "task_restriction_tasks.csv")
    across = pd.read_csv(tables(quick_run) / "task_restriction.csv")
    assert len(tasks) and set(tasks["subset"]) == {"T_RR", "T_CR", "T_CC"}
    for r in tasks.itertuples():
        rows = ablation[
            (ablation["task"] == r.task)
            & (ablation["construction"] == r.construction)
            & (ablation["n_hidden"] == r.n_hidden)
            & np.isclose(ablation["alpha"], 0.9)
            & (ablation["subset"] == r.subset)
            & ablation["learned"]
        ]
        assert r.n_hidden == ablation.loc[ablation["task"] == r.task, "n_hidden"].max()
        assert r.fragile == (rows["reading"] == "fragile").sum()
        assert r.stabilizer == (rows["reading"] == "stabilizer").sum()
        assert r.n_absent == (rows["reading"] == "absent").sum() and r.n_learned == len(rows)
    words = tasks.set_index(["construction", "subset", "task"])["word"]
    for r in across.itertuples():
        for word, named in (("fragile", r.fragile_in), ("stabilizer", r.stabilizer_in)):
            for task in str(named).split() if isinstance(named, str) else []:
                assert words[(r.construction, r.subset, task)] == word
    text = (tables(quick_run) / "task_restriction.md").read_text()
    assert "| — | dense_orthogonal | −T_C→R |" in text


def test_claims_follow_from_the_per_seed_tables(quick_run):
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    claims = pd.read_csv(tables(quick_run) / "claims.csv").set_index("claim_id")
    assert len(claims) == 17  # the paper's claims the reproduction tests (reported.py, claims.py)
    # −T_C→R harmful: acc(full) − acc(−T_C→R) per seed, recomputed from the ablation table.
    copy = ablation[
        (ablation["task"] == "copy")
        & (ablation["construction"] == "dense_orthogonal")
        & np.isclose(ablation["alpha"], 0.9)
        & ablation["learned"]  # only the models that learned enter a claim
    ].pivot_table(index="seed", columns="subset", values="accuracy")
    # the harm share of a sign accuracy: the part of the learned (acc − 1/2) that is lost
    expected = ((copy["none"] - copy["T_CR"]) / (copy["none"] - 0.5)).tolist()
    per_seed = pd.read_csv(tables(quick_run) / "claims_per_seed.csv")
    seed_values = {
        claim: g.sort_values("seed")["value"].tolist() for claim, g in per_seed.groupby("claim_id")
    }
    row = claims.loc["copy_T_CR_harmful"]
    assert seed_values["copy_T_CR_harmful"] == pytest.approx(expected)
    assert (row["seed_min"], row["seed_max"]) == pytest.approx((min(expected), max(expected)))
    assert row["n_agree"] == sum(v > row["bound"] for v in expected)
    models = pd.read_csv(tables(quick_run) / "models.csv")
    # learned as its criterion says, from the held-out score models.csv records
    for m in models.itertuples():
        if m.metric == "fvu":
            assert m.learned == (m.heldout_score <= 0.1), m
        else:
            chance = 0.5 if m.metric == "accuracy" else 0.0
            assert m.learned == ((m.heldout_score - chance) / (1 - chance) >= 0.5), m
    # Every verdict follows from its interval and bound, given enough learned models.
    for r in claims.itertuples():
        if r.n_trained and r.n_learned < 2:  # the quick preset's min_models
            assert r.verdict == "too few learned models"
            continue
        elif np.isnan(r.ci_low):
            assert r.verdict in ("underpowered", "not run")
            continue
        values = np.array(seed_values[r.Index])
        n, sd = len(values), values.std(ddof=1)
        if r.kind == "greater":
            assert (r.verdict == "holds") == (r.ci_low > r.bound)
            assert (r.verdict == "fails") == (r.ci_high <= r.bound)
        else:  # within ±bound: two one-sided tests, i.e. the 90 % interval inside ±bound
            half = stats.t.ppf(0.95, n - 1) * sd / np.sqrt(n)
            inside = -r.bound < values.mean() - half and values.mean() + half < r.bound
            constant = values.std() == 0 and abs(values.mean()) <= r.bound
            assert (r.verdict == "holds") == (inside or constant), r
        # what no test decides says why: its minimum detectable effect against its margin
        mde = (stats.t.ppf(0.975, n - 1) + stats.t.ppf(0.8, n - 1)) * sd / np.sqrt(n)
        margin = r.margin if np.isfinite(r.margin) else 0.02
        if r.verdict in ("underpowered", "on the threshold"):
            assert (r.verdict == "underpowered") == (mde > margin), r
        assert r.verdict != "inconclusive"
    comparison = pd.read_csv(tables(quick_run) / "paper_vs_reproduced.csv")
    numeric = comparison[comparison["paper_value"].notna()]
    # no learned model, no reproduced number: nothing to compare the paper's value with
    assert numeric[numeric["n_seeds"] == 0]["paper_in_range"].isna().all()
    numeric = numeric[numeric["n_seeds"] > 0]
    inside = (numeric["reproduced_min"] <= numeric["paper_value"]) & (
        numeric["paper_value"] <= numeric["reproduced_max"]
    )
    assert len(numeric) and (numeric["paper_in_range"].astype(bool) == inside).all()


def test_block_profile_follows_from_the_ablation_table(quick_run):
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    profile = pd.read_csv(tables(quick_run) / "block_profile.csv")
    # Every task and construction trained, each single block once (2 seeds each in the preset).
    assert len(profile) == 3 * ablation.groupby(["task", "construction"]).ngroups
    assert set(profile["subset"]) == {"T_RR", "T_CR", "T_CC"} and (profile["n_trained"] == 2).all()
    for r in profile.itertuples():
        rows = ablation[
            (ablation["task"] == r.task)
            & (ablation["construction"] == r.construction)
            & (ablation["n_hidden"] == r.n_hidden)
            & (ablation["subset"] == r.subset)
            & np.isclose(ablation["alpha"], 0.9)
            & ablation["learned"]
        ]
        assert r.n_learned == len(rows)
        if len(rows) < 2:  # the quick preset's min_models
            assert r.verdict == "too few learned models"
            continue
        raw = rows["delta_fvu"] if r.metric == "fvu" else -rows["delta_score"]
        assert r.delta_mean == pytest.approx(raw.mean())
        # the harm share: the part of the learned performance removed (1 − FVU, or the
        # chance-corrected score: accuracy's chance 1/2, κ's 0)
        full = rows["score"] - rows["delta_score"]
        learned_part = (
            1 - full if r.metric == "fvu" else full - (0.5 if r.metric == "accuracy" else 0)
        )
        harm = raw / learned_part
        assert r.harm_mean == pytest.approx(harm.mean())
        n, sd = len(harm), harm.std(ddof=1)
        half = stats.t.ppf(0.975, n - 1) * sd / np.sqrt(n)
        assert r.ci_low == pytest.approx(harm.mean() - half)
        assert r.n_eps_stabilizer == rows["eps_stabilizer"].sum()
        equal_half = stats.t.ppf(0.95, n - 1) * sd / np.sqrt(n)
        if rows["mass_removed"].mean() < 0.01:  # the mass floor
            assert r.verdict == "empty"
        elif r.ci_low > 0.02:  # θ
            assert r.verdict == "fragile"
        elif -0.02 < harm.mean() - equal_half and harm.mean() + equal_half < 0.02:
            assert r.verdict == "harmless"
        else:
            mde = (stats.t.ppf(0.975, n - 1) + stats.t.ppf(0.8, n - 1)) * sd / np.sqrt(n)
            assert r.verdict == ("underpowered" if mde > 0.02 else "on the threshold")
    # nothing empty is called harmless
    assert not ((profile["verdict"] == "harmless") & (profile["mass_removed"] < 0.01)).any()


def test_no_table_holds_a_structure_in_a_cell(quick_run):
    """Per-seed values are long tables of their own: no CSV cell of the run is a JSON object or
    list."""
    for path in sorted((quick_run / "results/quick").rglob("*.csv")):
        frame = pd.read_csv(path, dtype=str)
        for column in frame.columns:
            cells = frame[column].dropna().str.strip()
            assert not (cells.str.startswith("{") | cells.str.startswith("[")).any(), (path, column)


def test_each_long_table_holds_one_value_per_key_and_seed(quick_run):
    """A `<table>_per_seed.csv` names each value once (its keys and seed): Figure 1 and Table 1
    print the same copy-task numbers at α = 0.9, and their rows kept apart by their source."""
    tables_ = sorted((quick_run / "results/quick").rglob("*_per_seed.csv"))
    assert len(tables_) >= 5
    for path in tables_:
        frame = pd.read_csv(path)
        keys = [c for c in frame.columns if c != "value"]
        assert not frame.duplicated(keys).any(), (path, frame[frame.duplicated(keys)].head())
    numbers = pd.read_csv(tables(quick_run) / "paper_vs_reproduced_per_seed.csv")
    assert set(numbers["source"]) == {"Figure 1", "Figure 2", "Table 1"}


def test_gap_table_is_the_means_of_its_models(quick_run):
    """Only models that learned their task enter the gap table: the paper config's rows are the
    learned study-seed models' means of the main ablation table, a variation's its own learned
    models'; a number with no learned model has no row."""
    gaps = pd.read_csv(tables(quick_run) / "gap_attribution.csv")
    assert {"paper_config", "legacy_generators", "copy_mse_stop"} <= set(gaps["variation"])
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    study = ablation[(ablation["seed"] == 0) & np.isclose(ablation["alpha"], 0.9)]
    for r in gaps[gaps["variation"] == "paper_config"].itertuples():
        rows = study[
            (study["task"] == r.task)
            & (study["construction"] == r.construction)
            & (study["n_hidden"] == r.n_hidden)
            & (study["subset"] == r.subset)
            & study["learned"]
        ]
        assert len(rows) == r.n_seeds >= 1, r
        assert r.mean == pytest.approx(rows[r.quantity].mean()), r
    fvu_learned = study[(study["metric"] == "fvu") & study["learned"]]
    assert ("fvu_per_trial" in set(gaps["variation"])) == (len(fvu_learned) > 0)
    # A variation's row is the mean of its own models' ablation tables, if the model learned.
    legacy = pd.read_csv(
        quick_run
        / "results/quick/ablation/flip_flop__legacy_generators/dense_orthogonal/n16/seed0.csv"
    )
    own = legacy[(legacy["subset"] == "T_CR") & np.isclose(legacy["alpha"], 0.9)]
    full = legacy[(legacy["subset"] == "none") & np.isclose(legacy["alpha"], 0.9)]["score"].iloc[0]
    flip = gaps[(gaps["task"] == "flip_flop") & (gaps["quantity"] == "delta_fvu")]
    row = flip[(flip["variation"] == "legacy_generators") & (flip["subset"] == "T_CR")]
    if full <= 0.1:  # the quick preset's FVU criterion
        assert row["mean"].iloc[0] == pytest.approx(own["delta_fvu"].iloc[0])
    else:
        assert row.empty
    assert set(gaps["moves"]) <= {"—", "toward", "away", "little change"}


# The quick preset draws every figure but the atlas's (tests/workflow/test_atlas_workflow.py)
FIGURES = [
    *(n for n, figure in FIGURE_REGISTRY.items() if figure.needs != "atlas"),
    *(f"fig_{name}" for name in ANALYSES),
]


@pytest.mark.parametrize("name", FIGURES)
def test_figures_are_drawn(quick_run, name):
    folder = quick_run / "results/quick/figures"
    assert (folder / f"{name}.pdf").read_bytes()[:5] == b"%PDF-"
    image = imread(folder / f"{name}.png")
    assert image.shape[0] > 200 and image.shape[1] > 200
    assert image[..., :3].std() > 0.05  # not a blank canvas


@pytest.mark.parametrize("name", FIGURES)
def test_every_figure_reads_on_its_own(quick_run, name):
    """Drawn again from the quick run's tables at its saved size, with the shared style: no two
    texts (titles, labels, tick labels, legends, annotations) overlap and none leaves the
    canvas."""
    import matplotlib.pyplot as plt

    from rnnschur.report import figures

    tables = quick_run / "results/quick/tables"
    plt.style.use(str(REPO / "workflow" / "style.mplstyle"))
    if name in FIGURE_REGISTRY:
        entry = FIGURE_REGISTRY[name]
        frames = {a: pd.read_csv(tables / f"{t}.csv") for a, t in entry.tables.items()}
        fig = getattr(figures, name)(**frames, **({"alpha": 0.9} if entry.alpha else {}))
    else:
        analysis = ANALYSES[name.removeprefix("fig_")]
        table = name.removeprefix("fig_") + (
            f"_{analysis.figure_reads}" if analysis.figure_reads else ""
        )
        fig = getattr(figures, name)(pd.read_csv(tables / f"{table}.csv"))
    try:
        assert figures.text_clashes(fig) == []
    finally:
        plt.close(fig)


# Determinism: the copy task's seed-0 model of every construction and one neuroscience model
# (keep_best) are rebuilt from nothing in a second results folder, with their ablations and
# beyond-the-paper analyses (the random controls and perturbations included).
AGAIN_MODELS = [
    *(
        f"copy/{c}/n16/seed0"
        for c in ("dense_default", "dense_orthogonal", "dense_normal", "cayley")
    ),
    "flip_flop/dense_orthogonal/n16/seed0",
]
AGAIN_FILES = [
    f"{stage}/{model}.csv"
    for model in AGAIN_MODELS
    for stage in (
        "ablation",
        "beyond/checkpoint_ablation",
        "beyond/subspace_control",
        "beyond/readout_refit",
        "beyond/basis_sensitivity",
    )
]


def test_same_config_same_weights_and_tables(quick_run):
    targets = [f"results/again/{name}" for name in AGAIN_FILES]
    again = snakemake(quick_run, *targets, "-c2", *QUICK, "--config", "results_dir=results/again")
    assert again.returncode == 0, again.stdout[-3000:]
    first, second = quick_run / "results/quick", quick_run / "results/again"
    # each model trains in its bundle: with it, the other seed of its task, construction and N_h
    bundles = {model.rsplit("/", 1)[0] for model in AGAIN_MODELS}
    seeds = {m for m in quick_models() if f"{m[0]}/{m[1]}/n{m[2]}" in bundles}
    assert assert_same_weights(second, first) == len(seeds)
    for name in AGAIN_FILES:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_html_report_contains_every_figure_and_table(quick_run):
    result = snakemake(quick_run, "--report", "report.html", *QUICK)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "ERROR" not in result.stdout  # captions render without reStructuredText errors
    html = (quick_run / "report.html").read_text()
    for name in (
        *FIGURES,
        "subspace_control_summary.csv",
        "readout_refit_summary.csv",
        "paper_vs_reproduced.csv",
        "table1.csv",
        "ablation.csv",
        "models.csv",
        "claims.csv",
        "gap_attribution.csv",
    ):
        assert name in html, name
    assert "Figure 1 reproduced" in html and "Every number the paper reports" in html
    # The beyond-the-paper rules share one caption file, filled from the analyses' registry.
    assert "Subspace control (beyond the paper)" in html and "Readout refit summary" in html


def test_every_result_says_what_made_it(quick_run):
    models = pd.read_csv(tables(quick_run) / "models.csv")
    for column in ("version_rnnschur", "version_numpy_blas", "version_scipy", "version_kernels"):
        assert models[column].notna().all(), column
    # Training on the CPU never loads torch, the Cayley construction's included (NeuroGym is
    # imported without its plotting module, the one part that imports torch)
    assert "version_torch" not in models or models["version_torch"].isna().all()
    assert (models["version_kernels"] == f"portable ({PINNED})").all()
    meta = json.loads(
        (quick_run / "results/quick/models/sine/dense_orthogonal/n16/seed0/meta.json").read_text()
    )
    # The effective settings, defaults filled in: keys the preset never sets are there.
    assert {"hidden_noise", "io_init", "n_validation", "train_set_batches"} <= set(
        meta["effective_training"]
    )
    with np.load(quick_run / "results/quick/schur/sine/dense_orthogonal/n16/seed0.npz") as schur:
        provenance = json.loads(str(schur["provenance"]))
    assert provenance["scipy"] and provenance["scipy_lapack"]


def test_the_run_records_the_invocation_that_made_it(quick_run):
    """run.json (the workflow's onsuccess handler): the invocation that made the run first
    (tests that rerun jobs in the shared run append theirs), each from a copy of the workflow
    that is no git checkout, so no commit to name (and the pages say so), with the version
    that ran it, in the order they ran."""
    import datetime

    import rnnschur

    made = json.loads((quick_run / "results/quick/run.json").read_text())["invocations"]
    assert made and all(m["commit"] is None and m["dirty"] is None for m in made)
    assert {m["rnnschur"] for m in made} == {rnnschur.__version__}
    dates = [datetime.datetime.fromisoformat(m["date"]) for m in made]
    assert dates == sorted(dates) and dates[-1] <= datetime.datetime.now(datetime.UTC)


def test_every_job_has_a_log_and_a_timing_file(quick_run):
    results = quick_run / "results/quick"
    logs = {p.relative_to(results / "logs").with_suffix("") for p in results.glob("logs/**/*.log")}
    timings = {
        p.relative_to(results / "benchmarks").with_suffix("")
        for p in results.glob("benchmarks/**/*.tsv")
    }
    assert len(logs) > 50
    assert logs == timings, sorted(map(str, logs ^ timings))[:10]
    for path in (results / "benchmarks").rglob("*.tsv"):
        frame = pd.read_csv(path, sep="\t")
        assert len(frame) == 1 and frame["s"].iloc[0] >= 0 and "cpu_time" in frame, path


def test_weights_match_the_reference_hashes(quick_run):
    """The tripwire for any change of the numbers: the quick preset's weights, bit for bit, as
    tests/reference/quick_weights.sha256 records them (portable kernels; a commit that changes
    them regenerates the file with bench/weight_hashes.py and says why in the CHANGELOG)."""
    lines = (REPO / "tests" / "reference" / "quick_weights.sha256").read_text().splitlines()
    expected = dict(line.split() for line in lines)
    assert run_hashes(quick_run / "results" / "quick") == expected


def test_the_leaky_model_is_analysed_as_it_was_trained(quick_run):
    """The gap study's Schuessler network (current form, a = 0.2, the state read before the
    update) stores its description beside its weights; the ablation job rolls it out as that,
    so its full-model FVU is the one training measured on the same held-out set."""
    folder = quick_run / "results/quick/models/sine__schuessler_network/dense_orthogonal/n16/seed0"
    with np.load(folder / "weights.npz") as weights:
        assert str(weights["dynamics"]) == "leaky_current" and float(weights["leak"]) == 0.2
        assert str(weights["readout"]) == "state" and str(weights["timing"]) == "before"
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["model"] == {
        "dynamics": "leaky_current",
        "leak": 0.2,
        "nonlinearity": "tanh",
        "readout": "state",
        "timing": "before",
    }  # the α split is the analysis's (config schur_split), not the network's
    ablation = pd.read_csv(
        quick_run / "results/quick/ablation/sine__schuessler_network/dense_orthogonal/n16/seed0.csv"
    )
    full = ablation[ablation["subset"] == "none"]["fvu"]
    assert np.allclose(full, meta["summary"]["heldout_fvu"], rtol=1e-6)


def test_the_neurogym_model_scores_its_choices_as_recomputed_from_its_files(quick_run):
    """The quick preset's NeuroGym task (PerceptualDecisionMaking): the full-model choice score
    of the ablation table equals the chance-corrected choice recomputed here from the saved
    weights and held-out set: Cohen's κ of the argmax of the outputs against the argmax of the
    one-hot targets on the decision steps, counted here trial by trial."""
    from rnnschur.network.rnn import rollout

    results = quick_run / "results/quick"
    data = np.load(results / "data/perceptual_decision/heldout.npz")
    inputs, targets, mask = data["inputs"], data["targets"], data["mask"]
    ablation = pd.read_csv(tables(quick_run) / "ablation.csv")
    choices = []
    for seed in (0, 1):
        weights = np.load(
            results / f"models/perceptual_decision/dense_orthogonal/n16/seed{seed}/weights.npz"
        )
        outputs = rollout(weights["W_xh"], weights["W_hh"], weights["W_hy"], inputs)
        chosen, truth = outputs.argmax(-1)[mask > 0], targets.argmax(-1)[mask > 0]
        agree = np.mean(chosen == truth)
        by_chance = sum(np.mean(truth == a) * np.mean(chosen == a) for a in range(3))
        choice = (agree - by_chance) / (1 - by_chance)
        row = ablation[
            (ablation["task"] == "perceptual_decision")
            & (ablation["seed"] == seed)
            & (ablation["subset"] == "none")
        ]
        assert (row["metric"] == "choice").all()
        assert np.allclose(row["score"], choice, rtol=0, atol=1e-12)
        choices.append(choice)
    assert max(choices) > 0.2  # trained: above chance (0: any answer that ignores the trial)


def test_result_files_have_the_umasks_mode(quick_run):
    """Every file the run wrote is readable by others as the umask allows (0644 under 022), not
    the 0600 of the temporary file it was written to."""
    import os

    mask = os.umask(0)
    os.umask(mask)
    files = [p for p in (quick_run / "results/quick").rglob("*") if p.is_file()]
    assert len(files) > 300
    modes = {p: p.stat().st_mode & 0o777 for p in files}
    wrong = {str(p.relative_to(quick_run)): oct(m) for p, m in modes.items() if m != 0o666 & ~mask}
    assert not wrong, list(wrong.items())[:10]


def test_a_fresh_quick_run_checks_equal_against_its_published_numbers(quick_run):
    """docs/quick.md publishes the quick preset's tables: `--check` finds this fresh run's
    tables equal (the same bits on the same kind of machine), and refuses a folder with none."""
    check = [sys.executable, str(REPO / "docs" / "build_results.py"), "--check"]
    result = subprocess.run([*check, str(tables(quick_run).parent)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "equal (" in result.stdout and "docs/quick.md" in result.stdout
    empty = subprocess.run([*check, str(quick_run / "nothing")], capture_output=True, text=True)
    assert empty.returncode == 1 and "nothing compared" in empty.stdout


def test_the_docs_workflow_rebuilds_the_quick_page_as_published(quick_run):
    """docs/quick.md is a target of the docs workflow (docs/Snakefile): made from this fresh
    quick run it is the published page byte for byte; a changed table makes it stale, and so
    does an edit of the library code the page writer runs."""
    import shutil

    docs = quick_run / "docs"
    docs.mkdir(exist_ok=True)
    for name in ("Snakefile", "runs.yaml", "build_results.py", "listings.py"):
        shutil.copy2(REPO / "docs" / name, docs / name)
    for folder in ("readings", "templates"):
        shutil.copytree(REPO / "docs" / folder, docs / folder, dirs_exist_ok=True)
    made = snakemake(quick_run, "-s", "docs/Snakefile", "-c1", "docs/quick.md")
    assert made.returncode == 0, made.stdout[-3000:]
    assert (docs / "quick.md").read_text() == (REPO / "docs" / "quick.md").read_text()
    published = sorted((REPO / "docs" / "data" / "quick").glob("*.csv"))
    assert len(published) >= 10
    assert sorted(p.name for p in (docs / "data" / "quick").glob("*.csv")) == [
        p.name for p in published
    ]
    for path in published:
        assert (docs / "data" / "quick" / path.name).read_text() == path.read_text(), path.name
    again = snakemake(quick_run, "-s", "docs/Snakefile", "-n")
    assert "Nothing to be done" in again.stdout, again.stdout[-2000:]
    # a table, then the library code the page writer runs, each edited and restored
    edits = {
        tables(quick_run) / "claims.md": "\n",
        quick_run / "src/rnnschur/report/page.py": "\nPLANTED = 1\n",
        docs / "readings" / "gaps.py": "\nPLANTED = 1\n",
        docs / "templates" / "quick.md": "\n",
    }
    for path, added in edits.items():
        original = path.read_text()
        path.write_text(original + added)
        try:
            stale = snakemake(quick_run, "-s", "docs/Snakefile", "-n")
            assert job_counts(stale.stdout) == {"quick_page": 1, "all": 1}, (
                path,
                stale.stdout[-2000:],
            )
        finally:
            path.write_text(original)
    # the pages: every run present is remade, every one absent (here all but the paper's, a
    # stand-in) is marked not remade
    run = quick_run / "results/quick"
    plan = snakemake(
        quick_run, "-s", "docs/Snakefile", "-n", "-p", "--config", f"runs={{paper: {run}}}"
    )
    command = re.search(r"--only (.*?) --stale (.*?) >", plan.stdout)
    assert command is not None, plan.stdout[-2000:]
    listed = yaml.safe_load((docs / "runs.yaml").read_text())["runs"]
    assert command.group(1).split() == ["paper"]
    assert sorted(command.group(2).split()) == sorted(set(listed) - {"quick", "paper"})


def test_every_generated_sentence_is_at_most_three_lines(quick_run):
    """Every reading the workflow and the published document generate, on this run's tables:
    no sentence past three lines of 100 characters (long lists go in tables)."""
    import readings

    t = tables(quick_run)
    read = lambda name: pd.read_csv(t / f"{name}.csv")  # noqa: E731
    texts = {
        "claims": readings.claims_reading(read("claims")),
        "profile": readings.profile_reading(read("block_profile")),
        "gap": readings.gap_reading(read("gap_attribution")),
        "gap bottom line": readings.gap_bottom_line(read("gap_ranking"), read("gap_attribution")),
        "gap conclusion": readings.gap_conclusion(read("gap_ranking"), read("gap_attribution")),
        "subspace": readings.subspace_reading(read("subspace_control_summary")),
        "refit": readings.refit_reading(read("readout_refit_summary")),
        "basis": readings.basis_reading(read("basis_sensitivity_summary")),
        "checkpoint": readings.checkpoint_reading(read("checkpoint_ablation_summary")),
        "dose": readings.dose_reading(read("dose_response_summary")),
        "paper readings": readings.paper_reading_comparison(
            read("paper_readings"), read("block_profile")
        ),
    }
    for name, text in texts.items():
        assert text.strip(), name
        assert long_sentences(text) == [], name
    for written in ("paper_vs_reproduced.md", "claims.md", "paper_readings.md"):
        assert long_sentences((t / written).read_text()) == [], written


def test_no_text_cell_of_any_csv_reads_as_a_spreadsheet_formula(quick_run):
    """Every text cell of every CSV the quick run with its studies writes starts with no
    ``=``, ``+``, ``-``, ``@``, tab or carriage return, or is escaped with ``'``
    (:func:`rnnschur.io.text.csv_cell`): a label such as ``-T_CR`` would run as a formula."""
    from rnnschur.io.text import FORMULA_STARTS

    paths = sorted((quick_run / "results" / "quick").rglob("*.csv"))
    assert len(paths) > 50
    offending = []
    for path in paths:
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
        for column in table.columns:
            values = table[column]
            numeric = pd.to_numeric(values.replace("", "0"), errors="coerce").notna()
            texts = values[~numeric]
            bad = texts[texts.str.startswith(FORMULA_STARTS)]
            offending += [f"{path.name}:{column}={cell!r}" for cell in bad.unique()[:2]]
    assert not offending, offending[:20]
