"""docs/usage.md's costs are one table: run, jobs, wall time on 2 cores, date, commit. Every
measured row names the day and a commit of this repository; the job counts of the runs the
README also counts are the README's (tests/workflow/test_paper_plan.py holds those to the
plan)."""

import re
import subprocess

import pytest

from conftest import REPO

HEADER = ["run", "jobs", "wall time, 2 cores", "date", "commit"]


def costs_table(text: str) -> list[dict[str, str]]:
    """The rows of the first table under ``### Timings`` of ``text``."""
    section = text.split("### Timings", 1)[1].split("\n### ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == HEADER, header
    return [
        dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


def measured(row: dict[str, str]) -> bool:
    return (
        bool(re.search(r"\d", row["wall time, 2 cores"]))
        and "not timed" not in row["wall time, 2 cores"]
    )


def test_a_planted_table_is_read_row_by_row():
    text = (
        "### Timings\n\n| run | jobs | wall time, 2 cores | date | commit |\n"
        "|---|---|---|---|---|\n"
        "| `a` | 7 | 12 s | 2026-12-05 | abc1234 |\n| `b` | 9 | not timed at 0.6.0 | | |\n"
        "\n### Next\n| x |\n"
    )
    rows = costs_table(text)
    assert [r["jobs"] for r in rows] == ["7", "9"]
    assert [measured(r) for r in rows] == [True, False]


ROWS = costs_table((REPO / "docs" / "usage.md").read_text())


@pytest.mark.parametrize("row", [r for r in ROWS if measured(r)], ids=lambda r: r["run"])
def test_each_measurement_names_its_day_and_a_commit_of_the_repository(row):
    assert re.fullmatch(r"2\d{3}-\d{2}-\d{2}", row["date"]), row
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{row['commit']}^{{commit}}"], cwd=REPO, capture_output=True
    )
    if found.returncode and not (REPO / ".git").exists():
        pytest.skip("not a git checkout (a copy of the tree): no history to look the commit up in")
    if found.returncode and (REPO / ".git" / "shallow").exists():
        pytest.skip("a shallow clone lacks the commit's history")
    assert found.returncode == 0, f"{row['commit']}: not a commit of this repository"


def test_the_job_counts_are_the_readmes():
    readme = (REPO / "README.md").read_text()

    def count(label: str) -> str:
        return re.search(rf"# {label}: ([\d,]+) jobs", readme).group(1)

    jobs = {row["run"]: row["jobs"] for row in ROWS}
    assert jobs["`snakemake -c2` (the paper)"] == count("the paper")
    assert jobs["… `--configfile config.yaml presets/studies.yaml`"] == count(
        "the paper and its studies"
    )
    assert jobs["`--configfile presets/quick.yaml`"] == count("first: the paper's chain, small")
