"""The coupling atlas through the real workflow: the whole preset planned (1,200 models), the
quick atlas run for real and read back (its table against the run's own models and ablations,
its sentences, its page), and a change to the false-discovery rate rerunning the atlas alone."""

import re

import numpy as np
import pandas as pd
import pytest

from conftest import copy_workflow, job_counts, long_sentences, snakemake

pytestmark = pytest.mark.workflow
ATLAS = ["--configfile", "presets/atlas.yaml", "presets/atlas_quick.yaml"]


@pytest.fixture(scope="module")
def atlas_run(tmp_path_factory):
    folder = copy_workflow(tmp_path_factory.mktemp("atlas"))
    result = snakemake(folder, "-c2", *ATLAS)
    assert result.returncode == 0, result.stdout[-5000:]
    return folder


def test_the_whole_preset_plans_its_models(tmp_path):
    folder = copy_workflow(tmp_path)
    result = snakemake(folder, "-n", "--configfile", "presets/atlas.yaml")
    assert result.returncode == 0, result.stdout[-3000:]
    counts = job_counts(result.stdout)
    # 14 tasks x 4 descriptions x 2 sizes x 10 seeds dense orthogonal, and copy's Cayley models
    assert counts["schur"] == counts["ablate"] == 14 * 4 * 2 * 10 + 4 * 2 * 10
    # one training job per bundle of 5 seeds (training_bundle: 5): two per task, size, construction
    assert counts["train"] == (14 * 4 * 2 + 4 * 2) * 2
    assert counts["atlas"] == counts["atlas_page"] == 1
    # the training trials of a NeuroGym task are drawn once per seed, for its 4 descriptions
    # and 2 sizes: 8 NeuroGym tasks x 10 seeds
    assert counts["training_trials"] == 8 * 10


def test_the_table_is_the_runs_own_models_and_ablations(atlas_run):
    tables = atlas_run / "results/atlas_quick/tables"
    atlas = pd.read_csv(tables / "atlas.csv")
    models = pd.read_csv(tables / "models.csv")
    profile = pd.read_csv(tables / "block_profile.csv")
    ablation = pd.read_csv(tables / "ablation.csv")
    assert len(atlas) == 2 * 4 * 3  # tasks x descriptions x blocks
    assert set(atlas["description"]) == {"discrete_tanh", "leaky_tanh", "leaky_relu", "schuessler"}
    assert (atlas["n_trained"] == 3).all()
    dose = pd.read_csv(tables / "dose_response_summary.csv")  # the "special?" column's source
    for row in atlas.itertuples():
        mine = dose[
            (dose["task"] == f"{row.task}__{row.description}")
            & (dose["construction"] == row.construction)
            & (dose["block"] == row.block)
        ]
        assert row.special == mine["verdict"].iloc[0]
    for row in atlas.itertuples():
        instance = f"{row.task}__{row.description}"
        mine = models[models["task"] == instance]
        assert row.n_learned == int(mine["learned"].sum()), instance
        same = profile[(profile["task"] == instance) & (profile["subset"] == row.block)].iloc[0]
        assert row.harm_mean == pytest.approx(same["harm_mean"], nan_ok=True)
        assert row.row_verdict == same["verdict"]
        if row.n_learned < 2:  # the preset's min_models
            assert row.verdict == row.mean_verdict == "too few learned models"
            continue
        # the row's word: its learned solutions' own readings in the ablation table, counted
        readings = ablation[
            (ablation["task"] == instance)
            & (ablation["subset"] == row.block)
            & np.isclose(ablation["alpha"], 0.9)
            & ablation["learned"]
        ]["reading"]
        tested = readings[readings != "absent"]
        assert (row.n_absent, row.n_tested) == (len(readings) - len(tested), len(tested))
        assert row.fragile == (tested == "fragile").sum()
        assert row.stabilizer == (tested == "stabilizer").sum()
        word = (
            "absent"  # fewer than min_models (2 here) of its solutions hold the block
            if len(tested) < 2
            else "fragile"
            if row.fragile >= 0.8 * len(tested)
            else "stabilizer"
            if row.stabilizer >= 0.8 * len(tested)
            else "undecided"
        )
        assert row.verdict == word
        assert row.mean_verdict in (
            "fragile",
            "harmless",
            "underpowered",
            "on the threshold",
            "empty",
        )
    decidable = ~atlas["mean_verdict"].isin(["too few learned models", "empty"])
    assert atlas["tests"].iloc[0] == 2 * decidable.sum()
    assert atlas.loc[decidable, "q_fragile"].ge(atlas.loc[decidable, "p_fragile"]).all()


def test_the_sentences_and_the_page_come_from_the_table(atlas_run):
    results = atlas_run / "results/atlas_quick"
    atlas = pd.read_csv(results / "tables/atlas.csv")
    text = (results / "tables/atlas_readings.md").read_text()
    decided = atlas["verdict"].isin(["fragile", "stabilizer"]).sum()
    assert f"{decided} of the {len(atlas)} rows are decided, mostly fragile or mostly" in text
    page = (results / "atlas.html").read_text()
    assert page.count("<tr>") == len(atlas) + 1
    assert len(re.findall(r'src="data:image/png;base64,', page)) == 2
    first = text.split("\n\n")[0]
    assert first.replace("'", "&#x27;") in page
    assert long_sentences(text) == []  # at most three lines each
    # the across-task estimate: per block, description (and all), construction and N_h, over
    # the atlas rows with enough learned models and mass
    across = pd.read_csv(results / "tables/atlas_across_tasks.csv")
    able = atlas[~atlas["mean_verdict"].isin(["too few learned models", "empty"])]
    keys = ["description", "construction", "n_hidden", "block"]
    expected = able.groupby(keys).size()
    for key, k in expected.items():
        row = across.set_index(keys).loc[key]
        assert row["k"] == k
    pooled = across[across["description"] == "all"].set_index(["construction", "n_hidden", "block"])
    for key, k in able.groupby(["construction", "n_hidden", "block"])["task"].nunique().items():
        assert pooled.loc[key, "k"] == k  # all: each task one group


def test_a_new_false_discovery_rate_reruns_the_atlas_alone(atlas_run):
    layer = atlas_run / "fdr.yaml"
    layer.write_text("atlas: {fdr: 0.2}\n")
    result = snakemake(atlas_run, "-n", *ATLAS, str(layer))
    assert result.returncode == 0, result.stdout[-3000:]
    assert set(job_counts(result.stdout)) == {
        "atlas",
        "fig_atlas",
        "fig_atlas_shift",
        "atlas_page",
        "all",
    }


@pytest.mark.parametrize("name", ["fig_atlas", "fig_atlas_shift"])
def test_the_atlas_figures_are_drawn_without_clashing_text(atlas_run, name):
    import matplotlib.pyplot as plt
    from matplotlib.image import imread

    from rnnschur.report import figures

    folder = atlas_run / "results/atlas_quick"
    assert (folder / f"figures/{name}.pdf").read_bytes()[:5] == b"%PDF-"
    image = imread(folder / f"figures/{name}.png")
    assert image.shape[0] > 200 and image[..., :3].std() > 0.05  # not a blank canvas
    plt.style.use(str(atlas_run / "workflow" / "style.mplstyle"))
    fig = getattr(figures, name)(pd.read_csv(folder / "tables/atlas.csv"))
    try:
        assert figures.text_clashes(fig) == []
    finally:
        plt.close(fig)


def test_the_report_holds_the_atlas_as_its_own_category(atlas_run):
    import zipfile

    result = snakemake(atlas_run, *ATLAS, "--report", "atlas_report.zip")
    assert result.returncode == 0, result.stdout[-3000:]
    with zipfile.ZipFile(atlas_run / "atlas_report.zip") as report:
        page = next(n for n in report.namelist() if n.endswith("report.html"))
        text = report.read(page).decode("utf-8")
    category = text[text.index('"Atlas": {') :].split("}", 1)[0]
    for name in ("atlas.csv", "atlas_readings.md", "atlas.html", "fig_atlas.pdf"):
        assert name in category, name
    assert "fig_schur_spectra" not in category  # the other figures keep their own category
