"""The coupling atlas: its preset, its task instances, its multiplicity control, its verdicts
on planted ablation tables, its sentences and its page (in a real browser)."""

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import config_checks as config_lib
import instances
import numpy as np
import pandas as pd
import pytest
import yaml
from snakemake.utils import update_config

from rnnschur import tasks
from rnnschur.io.text import fill, templates
from rnnschur.report.page import COLUMNS, atlas_page, atlas_parts
from rnnschur.settings.schema import read_schema
from rnnschur.studies.beyond.atlas import (
    across_markdown,
    across_tasks_table,
    atlas_markdown,
    atlas_table,
    split_instance,
)
from rnnschur.studies.learned import TOO_FEW
from rnnschur.studies.restriction import restriction, task_readings
from rnnschur.studies.stats import benjamini_hochberg
from rnnschur.studies.verdicts import Thresholds, Verdict

from conftest import long_sentences

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = REPO / "workflow" / "templates"


def atlas_reading(atlas, across, tasks) -> str:
    """What rule atlas writes in atlas_readings.md: its template's sentences filled with the
    atlas's numbers, one paragraph each."""
    sentences = templates((TEMPLATES / "atlas_readings.md").read_text())
    return "\n\n".join(fill(sentences, p) for p in atlas_parts(atlas, across, tasks)) + "\n"


def page(atlas, readings, figures) -> str:
    """What rule atlas_page writes: its template with the readings, figures and table."""
    return atlas_page(atlas, readings, figures, (TEMPLATES / "atlas.html").read_text())


SCHEMA = read_schema()


def preset(*names: str) -> dict:
    """config.yaml with the presets layered in order, defaults filled (the workflow's order)."""
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    for name in names:
        update_config(config, yaml.safe_load((REPO / "presets" / f"{name}.yaml").read_text()))
    return config_lib.with_defaults(config, SCHEMA)


# The preset


def test_the_preset_plans_every_task_description_size_and_seed():
    config = preset("atlas")
    instances.expand_atlas(config)
    atlas = config["atlas"]
    assert len(atlas["tasks"]) == 14 and len(atlas["descriptions"]) == 4
    assert len(config["run_tasks"]) == 14 * 4
    models = [
        (t, k, n, s)
        for t in config["run_tasks"]
        for k in config["tasks"][t]["constructions"]
        for n in config["tasks"][t]["sizes"]
        for s in config["tasks"][t]["seeds"]
    ]
    dense = [m for m in models if m[1] == "dense_orthogonal"]
    cayley = [m for m in models if m[1] == "cayley"]
    assert len(dense) == 14 * 4 * 2 * 10 == 1120
    assert len(cayley) == 4 * 2 * 10 and {tasks.task_of(m[0]) for m in cayley} == {"copy"}
    assert len(set(models)) == len(models) == 1200


def test_the_preset_takes_its_tasks_from_their_own_presets():
    """Each task block of presets/atlas.yaml is the block of the preset it comes from."""
    atlas = yaml.safe_load((REPO / "presets" / "atlas.yaml").read_text())["tasks"]
    for source in ("more_tasks", "neurogym_battery"):
        theirs = yaml.safe_load((REPO / "presets" / f"{source}.yaml").read_text())["tasks"]
        for task, block in theirs.items():
            assert atlas[task] == block, (source, task)
    paper = yaml.safe_load((REPO / "config.yaml").read_text())["tasks"]
    assert set(atlas) | set(paper) >= set(
        yaml.safe_load((REPO / "presets" / "atlas.yaml").read_text())["atlas"]["tasks"]
    )


def test_an_instance_is_its_task_under_a_description():
    config = preset("atlas")
    instances.expand_atlas(config)
    block = config["tasks"]["flip_flop__leaky_relu"]
    assert block["model"] == {"dynamics": "leaky", "leak": 0.2, "nonlinearity": "relu"}
    assert block["generator"] == config["tasks"]["flip_flop"]["generator"]
    schuessler = config["tasks"]["sine__schuessler"]["training"]
    assert schuessler["io_init"] == "oblique" and schuessler["hidden_noise"] == 0.05
    assert schuessler["max_steps"] == config["tasks"]["sine"]["training"]["max_steps"]
    assert config["tasks"]["sine"]["training"].get("hidden_noise", 0.0) == 0.0  # its own kept
    assert tasks.task_of("flip_flop__leaky_relu") == "flip_flop"
    assert tasks.get("flip_flop__leaky_relu") is tasks.get("flip_flop")
    assert split_instance("go_nogo__schuessler") == ("go_nogo", "schuessler")
    assert split_instance("flip_flop") == ("flip_flop", "")


def test_an_instance_is_scored_on_its_tasks_heldout_trials():
    generator = {"n_bits": 2, "length": 12}
    ours = tasks.draw_heldout("flip_flop__leaky_tanh", 16, 7, **generator)
    theirs = tasks.draw_heldout("flip_flop", 16, 7, **generator)
    np.testing.assert_array_equal(ours.inputs, theirs.inputs)
    np.testing.assert_array_equal(ours.targets, theirs.targets)


@pytest.mark.parametrize(
    "change, key",
    [
        ({"tasks": ["flip_flop", "no_such_task"]}, "atlas.tasks names 'no_such_task'"),
        ({"constructions": ["dense_orthogonl"]}, "atlas.constructions names the unknown"),
        ({"task_constructions": {"nothing": ["cayley"]}}, "atlas.task_constructions names"),
    ],
)
def test_a_wrong_atlas_is_refused_naming_the_key(change, key):
    config = preset("atlas")
    config["atlas"].update(change)
    with pytest.raises(config_lib.ConfigError, match=key):
        instances.expand_atlas(config)


def test_a_misspelt_description_key_is_refused_by_the_schema():
    config = preset("atlas")
    config["atlas"]["descriptions"]["leaky_tanh"]["modle"] = {}
    with pytest.raises(config_lib.ConfigError, match="atlas.descriptions.leaky_tanh.modle"):
        config_lib.check_schema(config, SCHEMA)


# Multiplicity control


def bh_by_definition(p):
    """q_i = min over j with p_j >= p_i of m p_j / rank_j (ties ranked by position)."""
    p = np.asarray(p, float)
    ok = np.flatnonzero(np.isfinite(p))
    m = len(ok)
    order = sorted(ok, key=lambda i: (p[i], i))
    rank = {i: r + 1 for r, i in enumerate(order)}
    q = np.full(len(p), np.nan)
    for i in ok:
        q[i] = min(1.0, min(m * p[j] / rank[j] for j in ok if rank[j] >= rank[i]))
    return q


def test_benjamini_hochberg_by_hand():
    q = benjamini_hochberg([0.01, 0.04, 0.03, 0.005, np.nan])
    # sorted 0.005, 0.01, 0.03, 0.04: 4p/rank = 0.02, 0.02, 0.04, 0.04
    np.testing.assert_allclose(q[:4], [0.02, 0.04, 0.04, 0.02])
    assert np.isnan(q[4])


@pytest.mark.parametrize("seed", range(20))
def test_benjamini_hochberg_is_its_definition(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 1, rng.integers(1, 30)) ** 3
    p[rng.uniform(size=len(p)) < 0.2] = np.nan
    p[: len(p) // 3] = np.round(p[: len(p) // 3], 1)  # ties
    np.testing.assert_allclose(benjamini_hochberg(p), bh_by_definition(p), equal_nan=True)


# Verdicts on planted ablation tables


def planted_reading(harm: float, empty: bool, theta: float = 0.1) -> str:
    """A solution's own reading planted from its harm share (its bootstrap interval taken as
    the point): absent where the block is empty, fragile above θ, improves below −θ,
    stabilizer within."""
    if empty:
        return Verdict.ABSENT
    if harm > theta:
        return Verdict.FRAGILE
    return Verdict.IMPROVES if harm < -theta else Verdict.STABILIZER


def planted_ablation(groups: dict[str, dict]) -> pd.DataFrame:
    """Ablation rows of a choice-scored task whose full models score κ = 1 (so a harm is its
    own share): per instance name, its per-seed harms of each block (``{"T_RR": [...], ...}``)
    and which seeds learned (``learned``, default all); each row's reading planted from its
    harm (:func:`planted_reading`)."""
    rows = []
    for name, planted in groups.items():
        learned = planted.get("learned")
        for block in ("T_RR", "T_CR", "T_CC"):
            for seed, harm in enumerate(planted[block]):
                rows.append(
                    {
                        "task": name,
                        "construction": "dense_orthogonal",
                        "n_hidden": 64,
                        "seed": seed,
                        "alpha": 0.9,
                        "subset": block,
                        "metric": "choice",
                        "score": 1.0 - harm,
                        "delta_score": -harm,  # choice lost
                        "mass_removed": 0.0 if planted.get("empty") == block else 0.2,
                        "eps_stabilizer": False,
                        "reading": planted_reading(harm, planted.get("empty") == block),
                        "learned": True if learned is None else learned[seed],
                    }
                )
    return pd.DataFrame(rows)


FRAGILE = [0.50, 0.55, 0.60, 0.52, 0.58]
HARMLESS = [0.001, -0.002, 0.0, 0.002, 0.001]
NOISY = [0.3, -0.2, 0.5, 0.0, 0.9]
# Each alone decided by its own 95 % interval, [0.101, 0.149] just above 0.1; one-sided p ≈ 0.02.
MARGINAL = [0.115, 0.125, 0.135, 0.11, 0.14]


def table(groups, **kw):
    settings = dict(
        alpha=0.9, thresholds=Thresholds(threshold=0.1), fdr=0.05, min_models=3, mostly=0.8
    )
    settings.update(kw)
    return atlas_table(planted_ablation(groups), words={"d1": "one", "d2": "two"}, **settings)


def test_planted_verdicts_come_out():
    atlas = table(
        {
            "a__d1": {"T_RR": FRAGILE, "T_CR": HARMLESS, "T_CC": NOISY},
            "a__d2": {"T_RR": FRAGILE, "T_CR": FRAGILE, "T_CC": HARMLESS, "empty": "T_CC"},
            "b__d1": {
                "T_RR": FRAGILE,
                "T_CR": FRAGILE,
                "T_CC": FRAGILE,
                "learned": [True, True, False, False, False],
            },
        }
    )
    rows = atlas.set_index(["task", "description", "block"])
    call = rows["verdict"]  # each row's solutions, counted
    assert call[("a", "d1", "T_RR")] == "fragile"
    assert call[("a", "d1", "T_CR")] == "stabilizer"
    assert call[("a", "d1", "T_CC")] == "undecided"  # NOISY: 3 of 5 fragile, under 80 %
    assert rows.loc[("a", "d1", "T_CC"), ["fragile", "stabilizer", "n_tested"]].tolist() == [
        3,
        1,
        5,
    ]
    assert rows.loc[("a", "d1", "T_CC"), "harm_median"] == pytest.approx(0.3)
    assert call[("a", "d2", "T_CR")] == "fragile"
    assert call[("a", "d2", "T_CC")] == "absent"
    assert rows.loc[("a", "d2", "T_CC"), "n_absent"] == 5
    assert np.isnan(rows.loc[("a", "d2", "T_CC"), "harm_median"])  # none tested
    assert (atlas.loc[atlas["task"] == "b", "verdict"] == TOO_FEW).all()
    # beside them, the tests over seeds
    mean = rows["mean_verdict"]
    assert mean[("a", "d1", "T_CR")] == "harmless" and mean[("a", "d2", "T_CC")] == "empty"
    assert mean[("a", "d1", "T_CC")] == "underpowered"  # NOISY: its MDE exceeds θ
    assert (atlas.loc[atlas["task"] == "b", ["n_learned", "n_trained"]] == [2, 5]).all().all()
    # two tests per decidable row: a's five blocks with mass
    assert atlas["tests"].iloc[0] == 2 * 5
    assert set(atlas["words"]) == {"one", "two"}
    markdown = atlas_markdown(atlas, "LEGEND")
    assert markdown.startswith("LEGEND\n") and markdown.count("\n| a |") == 2


def test_the_multiplicity_control_undecides_a_marginal_row_among_many():
    alone = table({"a__d1": {"T_RR": MARGINAL, "T_CR": FRAGILE, "T_CC": FRAGILE}})
    marginal = alone.set_index("block").loc["T_RR"]
    assert marginal["row_verdict"] == "fragile" and marginal["mean_verdict"] == "fragile"
    # the same row among 30 noisy rows: its own interval still says fragile, the atlas does not
    many = {"a__d1": {"T_RR": MARGINAL, "T_CR": FRAGILE, "T_CC": FRAGILE}}
    many |= {f"n{k}__d1": {"T_RR": NOISY, "T_CR": NOISY, "T_CC": NOISY} for k in range(10)}
    crowded = table(many)
    row = crowded.set_index(["task", "block"]).loc[("a", "T_RR")]
    assert row["row_verdict"] == "fragile"
    # undecided, but its n and spread could decide an effect θ away: on the threshold
    assert row["q_fragile"] > 0.05 and row["mean_verdict"] == "on the threshold"
    assert row["verdict"] == "fragile"  # its solutions each read fragile: no multiplicity
    assert row["mde"] < 0.1
    assert row["p_fragile"] == pytest.approx(marginal["p_fragile"])
    # a strongly fragile row stays decided
    assert crowded.set_index(["task", "block"]).loc[("a", "T_CC"), "mean_verdict"] == "fragile"


# Sentences


def planted_atlas(groups):
    """The atlas, its random-effects estimate across tasks and its reading (across tasks, the
    task restriction's words) of planted ablation tables."""
    ablation = planted_ablation(groups)
    atlas = table(groups)
    across = across_tasks_table(atlas, ablation, 0.9, Thresholds(threshold=0.1))
    tasks = task_readings(ablation, 0.9, 0.8, 3)
    return atlas, across, atlas_reading(atlas, restriction(tasks), tasks)


def shifted(values, by):
    return [v + by for v in values]


def test_the_sentences_say_what_the_solutions_of_each_task_show():
    """Six tasks under two descriptions: −T_RR fragile in every solution everywhere
    (universal), −T_C→R fragile in three tasks' solutions and a stabilizer in the other three's
    (task-restricted, naming them), −T_CC a stabilizer under one description and fragile under
    the other; one group of too few learned models, named and left out of the counts, and out
    of the tasks counted across (as every word, it needs min_models learned solutions)."""
    groups = {}
    for k in range(6):
        for d in ("d1", "d2"):
            groups[f"t{k}__{d}"] = {
                "T_RR": shifted(FRAGILE, 0.01 * k),
                "T_CR": shifted(FRAGILE, 0.01 * k) if k < 3 else shifted(HARMLESS, 0.001 * k),
                "T_CC": shifted(HARMLESS, 0.001 * k) if d == "d1" else shifted(FRAGILE, 0.02 * k),
            }
    groups["t5__d2"]["learned"] = [True] + [False] * 4
    atlas, across, text = planted_atlas(groups)
    lines = text.split("\n\n")
    assert lines[0].startswith(
        "Read solution by solution: 33 of the 36 rows are decided, mostly fragile or mostly"
    )
    rr = next(line for line in lines if line.startswith("−T_RR"))
    assert "mostly fragile in 11 and too few learned models in 1 of its 12 groups" in rr
    assert rr.endswith(" Across tasks, universal under d1 and d2.")
    cr = next(line for line in lines if line.startswith("−T_C→R"))
    five = "(5 of 5 tested)"
    restricted = (
        f"d1 (mostly stabilizers: t3 {five}, t4 {five} and t5 {five}; mostly fragile: 3 tasks) "
        f"and d2 (mostly stabilizers: t3 {five} and t4 {five}; mostly fragile: 3 tasks)"
    )
    assert "mostly fragile in 6, mostly stabilizers in 5" in cr
    assert f"task-restricted under {restricted}" in cr
    cc = next(line for line in lines if line.startswith("−T_CC"))
    assert "universal under d2" in cc and "harmless across tasks under d1" in cc
    # the random-effects estimate stays beside, secondary: t5 as d2 too few learned there
    by = across.set_index(["block", "description"])
    assert by.loc[("T_RR", "d2"), "k"] == 5 and by.loc[("T_RR", "all"), "k"] == 6
    assert by.loc[("T_CR", "all"), "p_heterogeneity"] < 1e-6
    change = next(line for line in lines if line.startswith("As d2 against d1"))
    # fragile or stabilizer under both: t0..t4, 3 blocks = 15; T_CC changes in each of 5 tasks
    kept = "10 of the 15 rows decided under both keep their word"
    assert f"{kept}, 5 change (" in change
    assert "t0 −T_CC mostly stabilizers → mostly fragile" in change and "and 2 more)" in change
    assert "; 3 more are so under one only (3 under d1 only, 0 under d2 only)." in change
    assert "in 1 of the 12 groups (t5 · d2 · N_h 64 (1/5) learned)" in text
    assert "every one" not in change  # fragile and stabilizer both
    assert long_sentences(text) == []
    only_fragile = {
        f"t{k}__{d}": {"T_RR": FRAGILE, "T_CR": FRAGILE, "T_CC": NOISY}
        for k in range(3)
        for d in ("d1", "d2")
    }
    text = planted_atlas(only_fragile)[2]
    change = next(line for line in text.split("\n\n") if line.startswith("As d2"))
    kept = "6 of the 6 rows decided under both keep their word"
    assert f"{kept}, 0 change, " in change
    assert "every one mostly fragile under both;" in change
    # one meaning per word: a group whose solutions split is "neither", and no word across
    cc = next(line for line in text.split("\n\n") if line.startswith("−T_CC"))
    assert cc.startswith("−T_CC: neither in 6 of its 6 groups. Across tasks, no word under d1")
    assert "undecided" not in text and "fragile in 6" not in text.replace("mostly fragile", "")


def test_a_task_restricted_block_shows_how_many_solutions_each_task_rests_on():
    """−T_RR of t1 a stabilizer in the three solutions that hold it (absent in two), of t0
    fragile in all five, of t2 fragile in the one solution that holds it (absent in four: fewer
    than min_models = 3 hold it, so it reads absent and enters no word): task-restricted, and
    the sentence shows the counts."""
    groups = {f"t{k}__d1": {"T_RR": FRAGILE, "T_CR": FRAGILE, "T_CC": FRAGILE} for k in (0, 1, 2)}
    groups["t1__d1"]["T_RR"] = HARMLESS
    ablation = planted_ablation(groups)
    rr = ablation["subset"] == "T_RR"
    for task, present in (("t1__d1", 3), ("t2__d1", 1)):
        gone = rr & (ablation["task"] == task) & (ablation["seed"] >= present)
        ablation.loc[gone, ["reading", "mass_removed"]] = [Verdict.ABSENT, 0.0]
    atlas = atlas_table(ablation, 0.9, Thresholds(threshold=0.1), 0.05, 3, words={}, mostly=0.8)
    assert atlas.set_index(["task", "block"]).loc[("t2", "T_RR"), "verdict"] == Verdict.ABSENT
    tasks = task_readings(ablation, 0.9, 0.8, 3)
    text = atlas_reading(atlas, restriction(tasks), tasks)
    rr = next(line for line in text.split("\n\n") if line.startswith("−T_RR"))
    assert rr.endswith(
        "Across tasks, task-restricted under d1 (mostly stabilizers: t1 (3 of 3 tested, 2 absent);"
        " mostly fragile: 1 task)."
    )


def test_one_task_under_three_descriptions_is_not_a_reading_across_tasks():
    """all takes a task's models of every description as one group: one task is k = 1; the
    counted words need two tasks of one description."""
    groups = {f"t0__d{d}": {"T_RR": FRAGILE, "T_CR": HARMLESS, "T_CC": NOISY} for d in (1, 2, 3)}
    _, across, text = planted_atlas(groups)
    assert (across["k"] == 1).all() and "Across tasks" not in text


def test_two_tasks_read_across_tasks_by_their_solutions():
    """Two tasks are enough for the counted words (the random-effects estimate needs three);
    a mixture that is neither (one task's solutions split) gets no word across tasks (the CSV
    keeps the code's *undecided*: on the page that word is one solution's interval's)."""
    groups = {"t0__d1": {"T_RR": FRAGILE, "T_CR": HARMLESS, "T_CC": NOISY}}
    groups["t1__d1"] = {"T_RR": FRAGILE, "T_CR": HARMLESS, "T_CC": FRAGILE}
    atlas, across, text = planted_atlas(groups)
    assert (across["verdict"] == "too few tasks").all()
    lines = {line.split(":")[0]: line for line in text.split("\n\n")}
    assert "Across tasks, universal under d1." in lines["−T_RR"]
    assert "Across tasks, harmless across tasks under d1." in lines["−T_C→R"]
    assert "Across tasks, no word under d1 (tasks that read neither beside" in lines["−T_CC"]


def test_the_across_task_table_in_markdown():
    groups = {f"t{k}__d1": {"T_RR": FRAGILE, "T_CR": HARMLESS, "T_CC": NOISY} for k in range(4)}
    _, across, _ = planted_atlas(groups)
    md = across_markdown(across)
    row = next(line for line in md.splitlines() if line.startswith("| T_RR | one |"))
    assert "| 4 | 0.55 [" in row and row.endswith("**universal** |")


# The page, in a real browser


def chromium() -> str | None:
    return next(
        (
            shutil.which(n)
            for n in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(n)
        ),
        None,
    )


def test_the_page_holds_the_readings_the_figures_and_every_row():
    atlas = table({"a__d1": {"T_RR": FRAGILE, "T_CR": HARMLESS, "T_CC": NOISY}})
    html = page(atlas, "First.\n\nSecond <b>.", {"fig_atlas": ("A caption", b"\x89PNG")})
    assert html.count("<tr>") == 1 + len(atlas)
    assert "<p>Second &lt;b&gt;.</p>" in html and "A caption" in html
    assert "data:image/png;base64,iVBORw" in html
    assert f"<h2>The table ({len(atlas)} rows; click a heading to sort)</h2>" in html


@pytest.mark.skipif(
    chromium() is None and not os.environ.get("RNNSCHUR_REQUIRE_BROWSER"),
    reason="no Chromium here (CI installs it and sets RNNSCHUR_REQUIRE_BROWSER)",
)
def test_the_page_loads_sorts_and_shows_its_figures_in_chromium(tmp_path, capsys):
    import matplotlib

    matplotlib.use("Agg")
    from rnnschur.report import figures

    groups = {
        f"{t}__{d}": {"T_RR": FRAGILE, "T_CR": HARMLESS, "T_CC": NOISY}
        for t, d in itertools.product(["a", "b"], ["d1", "d2"])
    }
    groups["b__d2"]["T_CC"] = [h * 3 for h in FRAGILE]
    groups["c__d1"] = {"T_RR": FRAGILE, "T_CR": FRAGILE, "T_CC": FRAGILE, "learned": [False] * 5}
    atlas = table(groups)
    assert atlas["harm_median"].isna().sum() == 3  # no learned model: no harm to sort
    pngs = {}
    for name in ("fig_atlas", "fig_atlas_shift"):
        fig = getattr(figures, name)(atlas)
        figures.save(fig, [str(tmp_path / f"{name}.pdf"), str(tmp_path / f"{name}.png")])
        pngs[name] = ("caption", (tmp_path / f"{name}.png").read_bytes())
    path = tmp_path / "atlas.html"
    tasks = task_readings(planted_ablation(groups), 0.9, 0.8, 3)
    path.write_text(page(atlas, atlas_reading(atlas, restriction(tasks), tasks), pngs))
    browser = chromium()
    assert browser, "RNNSCHUR_REQUIRE_BROWSER is set, but no Chromium is installed"
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000"]
    url = f"{path.as_uri()}#sort=-harm_median"
    dom = subprocess.run(
        [*flags, "--dump-dom", url], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    assert 'data-figures-shown="2"' in dom
    assert 'data-sorted="-harm_median"' in dom
    body = dom.split("<tbody>")[1].split("</tbody>")[0]
    rows = body.split("<tr>")[1:]
    assert len(rows) == len(atlas)
    column = [c for c in COLUMNS if c in atlas.columns].index("harm_median")
    numbers = [c for c in COLUMNS if c in atlas.columns][:column]
    # the cells before it that hold numbers (data-value), then its own
    before = sum(1 for c in numbers if pd.api.types.is_numeric_dtype(atlas[c]))
    shown = [float(r.split('data-value="')[before + 1].split('"')[0]) for r in rows]
    finite = sorted(atlas["harm_median"].dropna(), reverse=True)
    assert shown[: len(finite)] == finite and np.isnan(shown[len(finite) :]).all()
    shot = tmp_path / "atlas_page.png"
    subprocess.run(
        [*flags, "--window-size=1400,2000", f"--screenshot={shot}", url],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.stat().st_size > 10_000
    with capsys.disabled():  # into the test log, also where output is captured
        print(f"\nscreenshot of the atlas page in Chromium: {shot} ({shot.stat().st_size} bytes)")


def test_the_atlas_says_whether_each_coupling_is_special():
    from rnnschur.studies.beyond.atlas import with_special

    keys = {"task": ["a", "a", "a"], "construction": ["c"] * 3, "n_hidden": [16] * 3}
    atlas = pd.DataFrame(
        {**keys, "description": ["d", "d", "e"], "block": ["T_RR", "T_CR", "T_RR"]}
    ).assign(verdict="x")
    dose = pd.DataFrame(
        {
            "task": ["a__d", "a__d"],
            "construction": ["c", "c"],
            "n_hidden": [16, 16],
            "block": ["T_RR", "T_CR"],
            "verdict": [Verdict.LOAD_BEARING, Verdict.SYMMETRY],
        }
    )
    special = with_special(atlas, dose)
    assert list(special["special"]) == [Verdict.LOAD_BEARING, Verdict.SYMMETRY, Verdict.NOT_RUN]
    assert list(special["verdict"]) == ["x"] * 3  # the atlas's own verdicts untouched


def test_the_atlas_sentence_on_the_dose_response_counts_its_rows_and_names_no_word():
    """Planted: six groups, the dose-response run on all but T_RR's rows, one row with too few
    learned models; the sentence counts the rows it read (18 − 6 − 1) and points to the column,
    and sets none of its words (secondary: they stay in the CSV)."""
    groups = {
        f"t{k}__{d}": {"T_RR": FRAGILE, "T_CR": FRAGILE, "T_CC": HARMLESS}
        for k in range(3)
        for d in ("d1", "d2")
    }
    ablation = planted_ablation(groups)
    atlas = table(groups)
    words = {"T_RR": Verdict.NOT_RUN, "T_CC": Verdict.MILDER}
    atlas["special"] = [words.get(b, Verdict.LOAD_BEARING) for b in atlas["block"]]
    atlas.loc[atlas.index[atlas["block"] == "T_CR"][0], "special"] = Verdict.TOO_FEW
    tasks = task_readings(ablation, 0.9, 0.8, 3)
    text = atlas_reading(atlas, restriction(tasks), tasks)
    line = next(s for s in text.split("\n\n") if s.startswith("Special?"))
    assert "in the 11 rows it read" in line
    assert "`special` of `results/atlas/tables/atlas.csv`" in line
    assert not [w for w in (Verdict.LOAD_BEARING, Verdict.MILDER, Verdict.NOT_RUN) if w in line]
