"""`snakemake` plans the paper alone; presets/studies.yaml adds the studies, job for job."""

import hashlib
import re

import pytest

from rnnschur.studies.beyond.registry import ANALYSES

from conftest import REPO, copy_workflow, job_counts, snakemake

pytestmark = pytest.mark.workflow

PAPER_MODELS = 36 + 3 * 3  # copy: 4 constructions x 3 sizes x 3 seeds; 3 seeds of 3 other tasks


def planned_outputs(folder, *configfiles) -> list[str]:
    """The plan from nothing as sorted ``rule<TAB>output`` lines of ``snakemake --summary``."""
    extra = ("--configfile", *configfiles) if configfiles else ()
    result = snakemake(folder, "--summary", "-c1", *extra)
    assert result.returncode == 0, result.stdout[-3000:]
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    rows = [row for row in rows if len(row) > 2 and row[0] != "output_file"]
    return sorted(f"{row[2]}\t{row[0]}" for row in rows)


def total(output: str) -> int:
    return int(re.search(r"^total\s+(\d+)$", output, re.M).group(1))


def readme_jobs(label: str) -> int:
    """The job count the README's Run section gives for the command commented ``label``."""
    found = re.search(rf"# {label}: ([\d,]+) jobs", (REPO / "README.md").read_text())
    assert found, f"README.md has no '# {label}: N jobs' comment"
    return int(found.group(1).replace(",", ""))


def test_the_paper_config_plans_the_paper_alone(tmp_path):
    """config.yaml alone: every paper model trained, decomposed, ablated and checked for basis
    dependence; Figures 1 and 2, Table 1, the claims and the one-screen table; no gap-study
    model and no other analysis beyond the paper; the README's count is the plan's."""
    folder = copy_workflow(tmp_path)
    result = snakemake(folder, "-n", "-c8")
    assert result.returncode == 0, result.stdout[-3000:]
    jobs = job_counts(result.stdout)
    assert jobs["schur"] == jobs["ablate"] == jobs["basis_dependence"] == PAPER_MODELS
    for rule in ("fig1_copy_ablation", "fig2_neuro_ablation", "table1", "claims", "reproduction"):
        assert jobs[rule] == 1, rule
    others = set(ANALYSES) - {"basis_dependence"}  # the analyses beyond the paper it leaves out
    studies = {"gap_attribution", *others, *(f"{name}_summary" for name in others)}
    assert not studies & set(jobs), sorted(studies & set(jobs))
    assert "__" not in result.stdout.split("Job stats:")[1].split("Reasons:")[0]
    assert total(result.stdout) == readme_jobs("the paper")


def test_the_studies_layer_adds_the_former_whole_plan(tmp_path):
    """config.yaml with presets/studies.yaml plans every job of the paper and the studies' on
    top: the plan config.yaml made before the studies became a layer, job for job (its
    recorded digest); the README's count is the plan's."""
    folder = copy_workflow(tmp_path)
    paper = planned_outputs(folder)
    both = planned_outputs(folder, "config.yaml", "presets/studies.yaml")
    assert set(paper) < set(both)
    digest = hashlib.sha256("".join(f"{line}\n" for line in both).encode()).hexdigest()
    recorded = (REPO / "tests" / "reference" / "studies_plan.sha256").read_text().split()[-1]
    assert digest == recorded
    result = snakemake(folder, "-n", "-c8", "--configfile", "config.yaml", "presets/studies.yaml")
    assert total(result.stdout) == readme_jobs("the paper and its studies")
