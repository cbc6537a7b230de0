"""The record of the commits that made a run (``<results_dir>/run.json``, written by the
workflow's ``onsuccess`` handler: workflow_setup.record_run), on a real git checkout."""

import datetime
import json
import subprocess

import workflow_setup

import rnnschur


def git(root, *args) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_each_invocation_appends_the_commit_of_its_tree_and_whether_it_was_dirty(tmp_path):
    """Planted: a checkout with one commit; a clean invocation, one with a tracked file
    changed, one after a second commit: three entries, oldest first, each the HEAD of its
    time; outside a checkout the commit is None."""
    tree, results = tmp_path / "tree", tmp_path / "tree" / "results" / "run"
    tree.mkdir()
    git(tree, "init", "-q")
    for key, value in (("user.name", "t"), ("user.email", "t@example.org")):
        git(tree, "config", key, value)
    (tree / "Snakefile").write_text("a\n")
    git(tree, "add", "Snakefile")
    git(tree, "commit", "-q", "-m", "one")
    first = git(tree, "rev-parse", "HEAD")
    workflow_setup.record_run(results, tree)
    (tree / "Snakefile").write_text("b\n")
    workflow_setup.record_run(results, tree)
    git(tree, "commit", "-q", "-am", "two")
    second = git(tree, "rev-parse", "HEAD")
    workflow_setup.record_run(results, tree)
    made = json.loads((results / "run.json").read_text())["invocations"]
    assert [(m["commit"], m["dirty"]) for m in made] == [
        (first, False),
        (first, True),
        (second, False),
    ]
    assert {m["rnnschur"] for m in made} == {rnnschur.__version__}
    assert all(datetime.datetime.fromisoformat(m["date"]).tzinfo for m in made)
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    workflow_setup.record_run(elsewhere / "results", elsewhere)
    (alone,) = json.loads((elsewhere / "results" / "run.json").read_text())["invocations"]
    assert alone["commit"] is None and alone["dirty"] is None
