"""`python docs/build_results.py --check DIR` on planted runs: the published tables themselves,
and one with a changed number."""

import importlib.util
import json
from pathlib import Path

from conftest import REPO

spec = importlib.util.spec_from_file_location("build_results", REPO / "docs" / "build_results.py")
build_results = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_results)


def published_table(lines: list[str], header_start: str) -> list[str]:
    start = next(k for k, line in enumerate(lines) if line.startswith(header_start))
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[start:end]


def test_check_reports_equal_and_the_row_that_differs(tmp_path, capsys):
    document = tmp_path / "results.md"
    table = ["| claim | value |", "|---|---|", "| copy −T_CC harmless | 0.012 |", "| sine | 1.5 |"]
    document.write_text("# Results\n\n" + "\n".join(table) + "\n\ntext\n")
    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    (run / "tables" / "claims.md").write_text("\n".join(table) + "\n")
    assert build_results.check(run, document) == 0
    assert "equal (2 rows compared" in capsys.readouterr().out

    changed = [*table[:3], "| sine | 1.25 |"]
    (run / "tables" / "claims.md").write_text("\n".join(changed) + "\n")
    assert build_results.check(run, document) == 1
    out = capsys.readouterr().out
    assert "claims.md row 2 (sine): largest numeric difference 0.25" in out
    assert "1 rows differ" in out


def test_a_table_file_with_two_tables_is_checked_table_by_table(tmp_path, capsys):
    """gap_ranking.md: the ranking, a sentence, then the claims under the nearest three."""
    first = ["| rank | variation |", "|---|---|", "| 1 | near |"]
    second = ["| claim | near |", "|---|---|", "| a > b | 3/3 holds |"]
    document = tmp_path / "results.md"
    document.write_text("\n".join([*first, "", "prose", "", *second]) + "\n")
    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    table = run / "tables" / "gap_ranking.md"
    table.write_text("\n".join([*first, "", "The claims:", "", *second]) + "\n")
    assert build_results.check(run, document) == 0
    assert "equal (2 rows compared" in capsys.readouterr().out
    table.write_text("\n".join([*first, "", *second[:2], "| a > b | 2/3 underpowered |"]))
    assert build_results.check(run, document) == 1
    assert "gap_ranking.md row 1 (a > b)" in capsys.readouterr().out


def test_the_published_document_agrees_with_itself(tmp_path, capsys):
    """Every checked table of docs/results.md, written out as a run's table, checks equal."""
    lines = build_results.read_results().splitlines()  # the index and its pages
    (tmp_path / "tables").mkdir()
    header = published_table(lines, "| claim ")
    (tmp_path / "tables" / "claims.md").write_text("\n".join(header) + "\n")
    assert build_results.check(tmp_path, REPO / "docs" / "results.md") == 0


def test_the_document_is_an_index_and_one_page_per_section(tmp_path, monkeypatch):
    """Written as pages and read back, the document is the same text; each page opens with
    its section's heading as its title, its headings one level up, its links one folder up."""
    monkeypatch.setattr(build_results, "RESULTS_FILE", tmp_path / "results.md")
    monkeypatch.setattr(build_results, "PAGES", tmp_path / "results")
    text = (
        "# Results\n\nProvenance.\n\n## First part\nIts summary. More.\n\n### A table\n"
        "| a |\n|---|\n\nSee [beyond](beyond.md) and [web](https://x.org).\n\n"
        "## Second: α part\n\nSecond summary.\n"
    )
    written = build_results.write_results(text)
    assert written == [
        "docs/results.md",
        "docs/results/first_part.md",
        "docs/results/second_part.md",
    ]
    index = (tmp_path / "results.md").read_text()
    assert "- [First part](results/first_part.md): Its summary." in index
    page = (tmp_path / "results" / "first_part.md").read_text()
    assert page.startswith("# First part\n") and "\n## A table\n" in page
    assert "[beyond](../beyond.md)" in page and "(https://x.org)" in page
    assert build_results.read_results() == text
    (tmp_path / "results" / "stale.md").write_text("old")  # a section that went away
    build_results.write_results(text)
    assert not (tmp_path / "results" / "stale.md").exists()


def test_claims_block_lists_only_the_claims_a_run_tested(tmp_path):
    (tmp_path / "tables").mkdir()
    rows = [
        {"claim": "copy claim", "source": "Figure 1", "n_agree": 0, "n_seeds": 0, "n_trained": 0},
        {"claim": "sine claim", "source": "Figure 2", "n_agree": 7, "n_seeds": 10, "n_trained": 12},
    ]
    rows = [r | {"task": r["claim"].split()[0]} for r in rows]
    rows = [r | {"n_learned": r["n_seeds"]} for r in rows]
    import pandas as pd

    pd.DataFrame([r | {"verdict": "holds" if r["n_seeds"] else "not run"} for r in rows]).to_csv(
        tmp_path / "tables" / "claims.csv", index=False
    )
    block = build_results.verdict_summary(tmp_path)
    assert "| sine | sine claim | data | Figure 2 | 10/12 | 7/10 | **holds** | — |" in block
    assert "copy claim" not in block and "not run" not in block


def planted_scale_run(folder):
    """A scale run's tables: two seeds at N_h = 128 with n_R 60 and 64 (mean 62, 62/128 =
    0.48), full accuracies 0.9 and 1.0, one of them reaching its target; rows at another α or
    task that a summary must not read."""
    import pandas as pd

    (folder / "tables").mkdir(parents=True)
    base = {"task": "copy", "construction": "cayley", "n_hidden": 128, "subset": "none"}
    base |= {"learned": True}  # the ablation table carries it too (collect_ablations)
    ablation = [
        base | {"seed": 0, "alpha": 0.9, "n_R": 60, "accuracy": 0.9},
        base | {"seed": 1, "alpha": 0.9, "n_R": 64, "accuracy": 1.0},
        base | {"seed": 0, "alpha": 0.85, "n_R": 10, "accuracy": 0.0},
        base | {"seed": 0, "alpha": 0.9, "n_R": 99, "accuracy": 0.0, "task": "sine"},
    ]
    pd.DataFrame(ablation).to_csv(folder / "tables" / "ablation.csv", index=False)
    profile = [
        {"construction": "cayley", "n_hidden": 128, "subset": block, "harm_mean": harm}
        | {"mass_removed": mass, "verdict": verdict}
        for block, harm, mass, verdict in [
            ("T_RR", 0.5, 0.25, "fragile"),
            ("T_CR", 0.01, 0.125, "harmless"),
            ("T_CC", 0.2, 0.5, "underpowered"),
        ]
    ]
    pd.DataFrame(profile).to_csv(folder / "tables" / "block_profile.csv", index=False)
    models = [
        {"task": "copy", "construction": "cayley", "n_hidden": 128, "seed": seed}
        | {"reached_target": reached, "learned": True, "version_rnnschur": "9.9.9"}
        for seed, reached in ((0, True), (1, False))
    ] + [{"task": "sine", "construction": "cayley", "n_hidden": 128, "seed": 0}]
    pd.DataFrame(models).to_csv(folder / "tables" / "models.csv", index=False)
    (folder / "tables" / "claims_by_size.md").write_text("| claim | N_h = 128 |\n|---|---|\n")


def test_scale_block_reports_n_R_per_size_and_each_blocks_verdict_in_its_table(tmp_path):
    """The planted scale run (:func:`planted_scale_run`): its row and its reading (the
    verdicts, seed means', in the table only)."""
    planted_scale_run(tmp_path)
    reading, _, *lines = build_results.scale_summary(tmp_path).splitlines()
    assert len(lines) == 3
    assert lines[2] == (
        "| cayley | 128 | 1/2 | 2/2 | 0.950 | 62.0 (60–64) | 0.48 | 0.5, mass 0.25, **fragile** | "
        "0.01, mass 0.12, **harmless** | 0.2, mass 0.5, **underpowered** |"
    )
    assert reading == (
        "cayley: 2/2 models learned at N_h = 128; n_R of the learned models 62.0 (the task has 64 "
        "dimensions of memory)."
    )


def test_provenance_counts_the_versions_of_each_run_and_names_its_commits(tmp_path):
    """One row per run that has a models table, the versions counted and the commits of its
    run.json (short, dirty marked, each once, oldest first); a run without run.json takes the
    commits recorded for it, else "not recorded"; a run not made is left out, or keeps its row
    of the previous document (a row of the former three columns gets the fourth)."""
    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    versions = ["0.4.1", "0.5.0", "0.5.0"]
    (run / "tables" / "models.csv").write_text(
        "task,version_rnnschur\n" + "".join(f"copy,{v}\n" for v in versions)
    )
    text = build_results.provenance({"scale": run, "absent": tmp_path / "none"})
    assert text.splitlines()[2:] == ["| scale | 3 | 0.4.1 (1), 0.5.0 (2) | not recorded |"]
    text = build_results.provenance({"scale": run}, recorded={"scale": "abc1234"})
    assert text.splitlines()[2:] == ["| scale | 3 | 0.4.1 (1), 0.5.0 (2) | abc1234 |"]
    first, second = "a" * 40, "b" * 40
    made = [(first, False), (first, False), (second, True), (None, None)]
    invocations = [{"commit": c, "dirty": d, "date": "d", "rnnschur": "v"} for c, d in made]
    (run / "run.json").write_text(json.dumps({"invocations": invocations}))
    before = "| absent | 7 | 0.3.0 (7) |\n| scale | 1 | 0.1.0 (1) | 0000000 |\n"
    order = ["absent", "scale", "never"]
    text = build_results.provenance({"scale": run}, before, order=order, recorded={"scale": "x"})
    assert text.splitlines()[2:] == [
        "| absent | 7 | 0.3.0 (7) | not recorded |",
        "| scale | 3 | 0.4.1 (1), 0.5.0 (2) | aaaaaaa, bbbbbbb (dirty), not a git checkout |",
    ]
    text = build_results.provenance({}, before, order=order, recorded={"absent": "f589014"})
    assert text.splitlines()[2:] == [
        "| absent | 7 | 0.3.0 (7) | f589014 |",
        "| scale | 1 | 0.1.0 (1) | 0000000 |",
    ]


def test_check_fails_where_nothing_can_be_compared(tmp_path, capsys):
    """A missing folder, a folder without tables, tables the document does not publish, and
    a run of another configuration (its run signature) all fail the check."""
    import pandas as pd

    document = tmp_path / "results.md"
    models = pd.DataFrame({"task": ["copy"] * 2, "construction": "cayley", "n_hidden": 72})
    models = models.assign(seed=[0, 1])
    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    models.to_csv(run / "tables" / "models.csv", index=False)
    signature = build_results.run_signature(run)
    assert signature == "copy/cayley/n72: seeds 0,1"
    rows = ["| claim | verdict |", "|---|---|", "| a | holds |"]
    document.write_text(build_results.SIGNATURE.format(signature) + "\n\n" + "\n".join(rows))
    assert build_results.check(tmp_path / "no_such", document) == 1
    assert "no tables/ folder" in capsys.readouterr().out
    assert build_results.check(run, document) == 1  # no table of the run at all
    assert "nothing compared" in capsys.readouterr().out
    (run / "tables" / "claims.md").write_text("\n".join(rows) + "\n")
    assert build_results.check(run, document) == 0
    models.assign(n_hidden=16).to_csv(run / "tables" / "models.csv", index=False)
    assert build_results.check(run, document) == 1
    assert "another configuration" in capsys.readouterr().out


def test_the_families_claims_keep_two_tasks_claims_that_read_alike(tmp_path):
    """Planted: sine's and context's 'ΔFVU(−T_CC) > ΔFVU(−T_C→R)' in two families; both rows
    appear, each with its own solutions and word, and the rule of the words under them."""
    import pandas as pd

    columns = ["claim_id", "claim", "task", "n_trained", "n_learned", "n_absent", "n_tested"]
    columns += ["n_undecided", "k", "word"]
    same = "ΔFVU(−T_CC) > ΔFVU(−T_C→R)"
    folders = {}
    for family, words in {"discrete tanh": ("w1", "w2"), "leaky tanh": ("w3", "w4")}.items():
        folder = tmp_path / family.replace(" ", "_")
        (folder / "tables").mkdir(parents=True)
        rows = [
            ["sine_cc", same, "sine", 3, 3, 0, 3, 0, 3, words[0]],
            ["context_cc", same, "context_integration", 3, 2, 1, 1, 0, 1, words[1]],
        ]
        pd.DataFrame(rows, columns=columns).to_csv(
            folder / "tables" / "reproduction.csv", index=False
        )
        (folder / "tables" / "reproduction.md").write_text(
            f"| table |\n\nThe rule. Words: {build_results.GLOSSARY}.\n"
        )
        folders[family] = folder
    text = build_results.family_claims(folders)
    assert f"| sine: {same} | 3/3 **w1** | 3/3 **w3** |" in text
    assert f"| context: {same} | 1/1 (2 of 3 learned, 1 absent) **w2** | " in text
    assert text.endswith("The rule. Words: [docs/glossary.md](glossary.md).")
    # one run checked the basis dependence, the other did not: the table says which did not
    checked = pd.read_csv(folders["discrete tanh"] / "tables" / "reproduction.csv")
    checked.assign(basis_checked=True, n_basis_checked=3, n_basis_dependent=0).to_csv(
        folders["discrete tanh"] / "tables" / "reproduction.csv", index=False
    )
    text = build_results.family_claims(folders)
    assert text.endswith(
        "The run of leaky tanh does not check the basis dependence: none of "
        "its solutions is named basis-dependent, which does not mean none is."
    )


def test_a_run_is_compared_with_its_own_table_where_two_share_a_header():
    """The fifty seeds' dose-response table comes first in the document, under the same header
    as the paper scale's: the paper-scale run is compared with its own rows, not the first."""
    header = "| task | verdict |"
    document = ["text", header, "|---|---|", "| sine | load-bearing |", "| copy | empty |"]
    document += ["", header, "|---|---|", "| sine | underpowered |", "| copy | empty |"]
    mine = ["| sine | underpowered |", "| copy | empty |"]
    assert build_results.published_rows(document, header, mine) == mine
    other = ["| sine | load-bearing |", "| copy | empty |"]
    assert build_results.published_rows(document, header, other) == other
    assert build_results.published_rows(document, "| nothing |", mine) is None


def test_only_one_run_remakes_its_parts_and_leaves_the_rest(tmp_path, monkeypatch):
    """``--only scale`` on a copy of the published document, without the paper-scale run: the
    scale section, its block and its provenance row come from the planted run; ``--stale
    atlas`` marks the atlas's section and block as not remade; every other page, section and
    provenance row is the document's own text, byte for byte."""
    import shutil
    import sys

    import listings

    docs = tmp_path / "repo" / "docs"
    shutil.copytree(REPO / "docs", docs)
    shutil.copy(REPO / "README.md", tmp_path / "repo" / "README.md")
    monkeypatch.setattr(build_results, "REPO", tmp_path / "repo")
    monkeypatch.setattr(build_results, "RESULTS_FILE", docs / "results.md")
    monkeypatch.setattr(build_results, "PAGES", docs / "results")
    for page in (docs / "results" / "the_coupling_atlas.md", docs / "atlas.md"):  # planted: fresh
        page.write_text(page.read_text().replace(build_results.NOT_REMADE + "\n\n", ""))
    before = {path: path.read_text() for path in docs.rglob("*.md")}
    run = tmp_path / "scale"
    planted_scale_run(run)
    argv = ["build_results", "--results", str(tmp_path / "none"), "--only", "scale"]
    argv += ["--scale", str(run), "--stale", "atlas", "--atlas", str(tmp_path / "none")]
    monkeypatch.setattr(sys, "argv", argv)
    build_results.main()
    changed = {
        str(path.relative_to(docs)) for path, text in before.items() if path.read_text() != text
    }
    remade = {"results.md", "results/scale.md", "tasks.md"}
    assert changed == remade | {"results/the_coupling_atlas.md", "atlas.md"}
    assert (tmp_path / "repo" / "README.md").read_text() == (REPO / "README.md").read_text()
    scale = (docs / "results" / "scale.md").read_text()
    row = "| cayley | 128 | 1/2 | 2/2 | 0.950 | 62.0 (60–64) |"  # seed-mean words: a CSV
    assert row not in scale and row in listings.inline(scale, docs / "results")
    assert build_results.NOT_REMADE not in scale and "| claim | N_h = 128 |" in scale
    atlas = (docs / "results" / "the_coupling_atlas.md").read_text()
    assert atlas.count(build_results.NOT_REMADE) == 1
    index = (docs / "results.md").read_text()
    old_index = (REPO / "docs" / "results.md").read_text()
    assert "| `presets/scale.yaml` | 2 | 9.9.9 (2) |" in index
    others = lambda text: [  # noqa: E731
        line for line in text.splitlines() if not line.startswith("| `presets/scale.yaml` |")
    ]
    assert others(index) == others(old_index)
    tasks = (docs / "tasks.md").read_text()
    scale_block = build_results.block_content(tasks, "scale", docs / "tasks.md")
    assert "| cayley | 128 | 1/2 | 2/2 | 0.950 |" in scale_block
    assert build_results.block_content((docs / "atlas.md").read_text(), "atlas").startswith(
        build_results.NOT_REMADE
    )


def test_a_section_that_brings_its_own_heading_replaces_its_previous_version():
    """The atlas's section ends in its own "### Across tasks": replacing it replaces the old
    "Across tasks" too (it was left in place, the section then twice), and stops at the next
    heading the content does not bring."""
    document = "\n".join(
        ["# R", "### What the atlas says", "old text", "### Across tasks", "old table"]
        + ["### Next", "kept"]
    )
    content = "new text\n\n### Across tasks\n\nnew table"
    out = build_results.replace_section(document, "### What the atlas says", content).splitlines()
    assert out.count("### Across tasks") == 1
    assert "old table" not in out and "old text" not in out and "new table" in out
    assert out[-2:] == ["### Next", "kept"]
    plain = build_results.replace_section(document, "### Next", "new")
    assert plain.splitlines()[:5] == document.splitlines()[:5]


def test_the_run_span_counts_the_time_a_job_ran_not_the_pauses(tmp_path):
    """Three planted jobs: 0–100 s and 50–150 s overlap (150 s together), then a rerun 1,000 s
    later that took 10 s: 160 s of wall time, not the 1,160 from the first start to the last
    end."""
    import os

    bench = tmp_path / "benchmarks"
    bench.mkdir()
    for name, seconds, end in [("a", 100.0, 100.0), ("b", 100.0, 150.0), ("c", 10.0, 1150.0)]:
        path = bench / f"{name}.tsv"
        path.write_text(f"s\tcpu_time\n{seconds}\t{seconds / 2}\n")
        os.utime(path, (1e9 + end, 1e9 + end))
    wall, cpu, jobs = build_results.run_span(tmp_path)
    assert jobs == 3 and cpu == 105.0
    assert abs(wall - 160.0) < 1e-6


def test_the_one_screen_block_joins_the_runs_and_the_figures_stay_small(tmp_path):
    """Two planted runs: their one-screen tables side by side under a lead, the rule line of
    the first run under them; each run's two figures published, shrunk to the width limit."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    from rnnschur.studies.paper.reproduction import GLOSSARY, reproduction_markdown

    runs = {}
    for name, k in (("a", 3), ("b", 12)):
        folder = tmp_path / name
        (folder / "tables").mkdir(parents=True)
        (folder / "figures").mkdir()
        n = 3 if name == "a" else 50
        table = pd.DataFrame(
            [
                {
                    "claim_id": "sine_T_RR_changes_little",
                    "task": "sine",
                    "construction": "dense_orthogonal",
                    "n_hidden": 64,
                    "claim": "−T_RR changes little",
                    "paper": "−T_RR ΔFVU little",
                    "ours": "−T_RR ΔFVU 0.5 (0.4–1.8)",
                    "meaning": "frequency error: full 0.01, −T_RR 0.4",
                    "n_trained": n,
                    "n_learned": n,
                    "n_absent": n - k if name == "b" else 0,
                    "n_tested": k if name == "b" else n,
                    "n_undecided": 0,
                    "k": 0,
                    "cp_low": 0.0,
                    "cp_high": 0.5,
                    "word": "does not reproduce",
                }
            ]
        )
        table.to_csv(folder / "tables" / "reproduction.csv", index=False)
        words = {"reproduces": 0.8, "does_not": 0.2}
        text = reproduction_markdown(table, words | {"min_models": 3}, GLOSSARY)
        (folder / "tables" / "reproduction.md").write_text(text)
        for figure in build_results.FIGURES:
            fig, ax = plt.subplots(figsize=(30, 4), dpi=100)  # 3000 px wide
            ax.imshow(np.random.default_rng(0).random((40, 300)))
            fig.savefig(folder / "figures" / f"{figure}.png")
            plt.close(fig)
        runs[name] = folder
    block = build_results.reproduction_summary(runs)
    lead, tasks, table, rule = block.split("\n\n")
    assert lead.startswith("Of the 1 claims read at a, 1 does not reproduce.")
    # per task, at the run of most seeds (the last): what does not reproduce, with its counts
    assert tasks == (
        "**Per task, at b:**\n- **sine**: 0 of 1 claim reproduce; does not reproduce: “−T_RR "
        "changes little” (0/12, the block absent in 38)."
    )
    assert "Of the 1 claims read at b" in lead and "No run reproduces sine's “−T_RR" in lead
    assert (
        "Absent (below the mass floor): the block in 38 of 50 solutions for sine's “−T_RR" in lead
    )
    assert table.splitlines()[0].startswith(
        "| task, model | claim | the paper prints | a: ours, median (range) | a: solutions showing"
    )
    assert "| 0/12 (38 absent) |" in table
    assert rule.startswith("A claim *reproduces* when at least 80%")
    assert rule.endswith("Words: [docs/glossary.md](glossary.md).")
    written = build_results.publish_figures(runs, tmp_path / "published")
    assert len(written) == 4
    from PIL import Image

    for path in written:
        with Image.open(path) as image:
            assert image.width == build_results.FIGURE_WIDTH
        assert Path(path).stat().st_size <= build_results.FIGURE_BYTES
    # the models whose full-model FVUs the pages quote: each run's models.csv, as it is
    for k, folder in enumerate(runs.values()):
        (folder / "tables" / "models.csv").write_text(f"task,heldout_score\nsine,{k}.5e-4\n")
    copied = build_results.publish_models(runs, tmp_path / "data")
    assert len(copied) == len(runs)
    for name, folder in runs.items():
        mine = (tmp_path / "data" / name / "models.csv").read_bytes()
        assert mine == (folder / "tables" / "models.csv").read_bytes()


def test_an_interrupted_publication_leaves_every_page_whole(tmp_path, monkeypatch):
    """Publishing stops at its third page (planted): the pages written are whole, the others
    are the previous ones, none deleted, no page cut mid-way."""
    import shutil

    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    monkeypatch.setattr(build_results, "RESULTS_FILE", docs / "results.md")
    monkeypatch.setattr(build_results, "PAGES", docs / "results")
    before = {p.name: p.read_text() for p in (docs / "results").glob("*.md")}
    text = build_results.read_results()
    calls = []
    real = build_results.page_name

    def third_fails(title):
        calls.append(title)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(title)

    monkeypatch.setattr(build_results, "page_name", third_fails)
    try:
        build_results.write_results(text)
    except KeyboardInterrupt:
        pass
    after = {p.name: p.read_text() for p in (docs / "results").glob("*.md")}
    assert set(after) == set(before)  # nothing deleted before its replacement exists
    assert all(text.endswith("\n") and text.startswith("# ") for text in after.values())
    assert not list((docs / "results").glob("*.tmp*"))


def test_a_kept_section_keeps_the_sections_it_brought_of_its_own():
    """The atlas's section brings "### Across tasks"; kept as published (its run not here), it
    keeps that too, up to the template's next heading."""
    document = "\n".join(
        [
            "### What the atlas says",
            "atlas text",
            "### Across tasks",
            "across text",
            "## Beyond the paper",
            "beyond",
        ]
    )
    kept = build_results.previous_section(document, "### What the atlas says", own=True)
    assert kept == "atlas text\n### Across tasks\nacross text"
    assert build_results.previous_section(document, "### What the atlas says") == "atlas text"


def test_a_run_without_a_study_keeps_its_section_as_published_marked(tmp_path):
    """The paper alone (config.yaml) runs one study beyond it: the sections of the others keep
    the previous document's text, marked not remade; a section whose table the run made is
    the run's."""
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "readout_refit_summary.csv").write_text("x\n")
    previous = (
        "## Beyond the paper\n\n### Subspace control\nold subspace\n\n### Readout refit\nold\n"
    )
    text = "## Beyond the paper\n\n### Subspace control\n*(not found)*\n\n### Readout refit\nnew\n"
    kept = build_results.keep_unmade(text, previous, tmp_path)
    assert f"### Subspace control\n{build_results.NOT_REMADE}\n\nold subspace" in kept
    assert "### Readout refit\nnew" in kept and "not found" not in kept


def test_a_long_table_becomes_a_csv_its_page_links_and_comes_back(tmp_path):
    """A table of more than ``LONG_TABLE`` rows is written as a CSV named after its heading and
    replaced by one line that links it; a short one stays; the link turns back into the same
    lines (a page read back is the page as written)."""
    import listings

    n = listings.LONG_TABLE + 1
    long = ["| task | harm, share |", "|---|---|", *(f"| t{k} | 0.{k} |" for k in range(n))]
    short = ["| a | b |", "|---|---|", "| 1 | 2 |"]
    text = "\n".join(["# Page", "", *short, "", "## Subspace control", "", "prose", *long, ""])
    written, files = listings.extract(text, tmp_path / "data", "data", "page")
    assert files == [tmp_path / "data" / "subspace_control.csv"]
    rows = listings.read_csv(files[0])
    assert rows[0] == ["task", "harm, share"] and len(rows) == n + 1 and rows[-1][1] == f"0.{n - 1}"
    link = f"[`subspace_control.csv`](data/subspace_control.csv): {n} rows; columns: task, "
    kept = ["# Page", "", *short, "", "## Subspace control", "", "prose"]
    assert written.splitlines() == [*kept, link + "harm, share."]
    assert listings.inline(written, tmp_path) == text


def test_a_short_table_with_a_secondary_word_becomes_a_csv_that_says_so(tmp_path):
    """A short table whose cells set a word the pages leave to the tables (a seed mean's
    verdict, bold, after a comma or before a count, or as a column's name) is written as a CSV
    whose link line says what its words are; one with the glossary's words only stays; both
    come back as written."""
    import listings
    from readings.words import SECONDARY

    ours = ["| block | reading |", "|---|---|", "| −T_CC | absent 3, fragile 2 |"]
    for cell in ("**underpowered**", "0.3, mass 0.2, **empty**", "too few tasks (2)"):
        seed_mean = ["| block | verdict |", "|---|---|", f"| −T_CC | {cell} |"]
        text = "\n".join(["# Page", "", *ours, "", "## Seed means", "", *seed_mean, ""])
        written, files = listings.extract(text, tmp_path / "data", "data", "p", words=SECONDARY)
        assert files == [tmp_path / "data" / "seed_means.csv"], cell
        assert written.splitlines()[2:5] == ours
        assert written.splitlines()[-1].endswith(listings.SECONDARY_NOTE)
        assert listings.inline(written, tmp_path) == text
    header = ["| network | fragile | harmless |", "|---|---|---|", "| battery | 8 | 0 |"]
    _, files = listings.extract("\n".join(header), tmp_path, "data", "h", words=SECONDARY)
    assert files == [tmp_path / "h.csv"]
    _, files = listings.extract("\n".join(ours), tmp_path, "data", "o", words=SECONDARY)
    assert files == []


def test_check_compares_a_run_with_the_tables_its_page_links(tmp_path, capsys):
    """docs/quick.md links its tables as CSV files (docs/data/quick/): the check reads them as
    it reads a page's own tables, and names the row that differs."""
    import listings

    table = ["| claim | value |", "|---|---|", "| copy −T_CC harmless | 0.012 |", "| sine | 1.5 |"]
    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    (run / "tables" / "claims.md").write_text("prose first\n\n" + "\n".join(table) + "\n")
    document = tmp_path / "docs" / "quick.md"
    _, files = listings.extract(
        "\n".join(table), tmp_path / "docs" / "data" / "quick", "", "claims", -1, False
    )
    document.write_text("# Quick\n\n- [`claims.csv`](data/quick/claims.csv): the claims.\n")
    assert build_results.check(run, document) == 0
    assert "equal (2 rows compared with" in capsys.readouterr().out
    changed = [*table[:3], "| sine | 1.25 |"]
    (run / "tables" / "claims.md").write_text("\n".join(changed) + "\n")
    assert build_results.check(run, document) == 1
    assert "claims.md row 2 (sine): largest numeric difference 0.25" in capsys.readouterr().out
    files[0].unlink()  # the page's table gone: nothing to compare with
    assert build_results.check(run, document) == 1
    assert "its header is not in" in capsys.readouterr().out


def test_a_block_links_its_long_tables_and_gives_them_back(tmp_path, monkeypatch):
    """A result block's table of more than ``LONG_TABLE`` rows is a CSV under
    docs/data/blocks/<page>/ that the block links, read back in place; a block of
    ``KEPT_IN_PLACE`` keeps its table on the page."""
    import listings

    monkeypatch.setattr(build_results, "REPO", tmp_path)
    page = tmp_path / "docs" / "paper.md"
    page.parent.mkdir()
    n = listings.LONG_TABLE + 1
    long = "\n".join(["| claim | word |", "|---|---|", *(f"| c{k} | holds |" for k in range(n))])
    text = "".join(
        f"<!-- {b}:start -->\nold\n<!-- {b}:end -->\n" for b in ("claims", "reproduction")
    )
    text = build_results.replace_block(text, "claims", f"Lead.\n\n{long}", page)
    text = build_results.replace_block(text, "reproduction", long, page)
    link = f"[`claims.csv`](data/blocks/paper/claims.csv): {n} rows; columns: claim, word."
    link += listings.SECONDARY_NOTE  # "holds": a seed mean's word
    assert build_results.block_content(text, "claims") == f"Lead.\n\n{link}"
    assert build_results.block_content(text, "claims", page) == f"Lead.\n\n{long}"
    assert build_results.block_content(text, "reproduction") == long
    assert listings.read_csv(tmp_path / "docs/data/blocks/paper/claims.csv")[-1] == [
        f"c{n - 1}",
        "holds",
    ]


def test_the_readme_tables_fresh_counts_say_what_sets_n_apart():
    """Planted rows of a fresh one-screen table: k/n alone; with the absent solutions; with
    those that did not learn and the basis-dependent ones."""
    from types import SimpleNamespace as Row

    plain = Row(k=6, n_tested=10, n_trained=10, n_learned=10, n_absent=0, n_basis_dependent=0)
    assert build_results.fresh_counts(plain) == "6/10"
    absent = Row(**{**vars(plain), "k": 0, "n_tested": 1, "n_absent": 9})
    assert build_results.fresh_counts(absent) == "0/1 (9 absent)"
    both = Row(**{**vars(plain), "k": 2, "n_tested": 9, "n_learned": 9, "n_basis_dependent": 6})
    assert build_results.fresh_counts(both) == "2/9 (9 of 10 learned, 6 basis-dependent)"
