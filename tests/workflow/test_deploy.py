"""The workflow as Snakemake users deploy it: from another folder (-s/-d), as a module, and
with a GPU declared for training."""

import textwrap

import pandas as pd
import pytest

from conftest import (
    QUICK,
    REPO,
    TRAINING_RULE,
    assert_same_weights,
    copy_workflow,
    quick_gap_models,
    quick_models,
    snakemake,
)

pytestmark = pytest.mark.workflow

# The quick preset on one task, without the beyond-the-paper and gap studies: the deployment
# is what is under test here, not the science.
ONE_TASK = ("run_tasks=[sine]", "beyond_models=none", "gap_study={run: none}")


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """The quick preset run with -s/-d from an unrelated folder."""
    workflow = copy_workflow(tmp_path_factory.mktemp("workflow"))
    work = tmp_path_factory.mktemp("work")
    result = snakemake(
        tmp_path_factory.mktemp("cwd"),
        "-s",
        str(workflow / "Snakefile"),
        "-d",
        str(work),
        "-c2",
        "--configfile",
        str(workflow / "presets" / "quick.yaml"),
        "--config",
        *ONE_TASK,
    )
    assert result.returncode == 0, result.stdout[-4000:]
    return work


def test_runs_from_another_folder(elsewhere):
    tables = elsewhere / "results" / "quick" / "tables"
    ablation = pd.read_csv(tables / "ablation.csv")
    assert set(ablation["task"]) == {"sine"} and len(ablation) == 2 * 3 * 8
    assert (elsewhere / "results" / "quick" / "figures" / "fig2_neuro_ablation.pdf").is_file()


def test_runs_as_a_module_with_the_same_results(elsewhere, tmp_path):
    workflow = copy_workflow(tmp_path / "workflow")
    user = tmp_path / "analysis"
    user.mkdir()
    (user / "Snakefile").write_text(
        textwrap.dedent(
            f"""\
            configfile: "{workflow}/config.yaml"
            configfile: "{workflow}/presets/quick.yaml"


            module rnnschur:
                snakefile:
                    "{workflow}/Snakefile"
                config:
                    config


            use rule * from rnnschur as rnnschur_*
            """
        )
    )
    result = snakemake(user, "-c2", "--config", *ONE_TASK)
    assert result.returncode == 0, result.stdout[-4000:]
    tables = user / "results" / "quick" / "tables"
    assert pd.read_csv(tables / "ablation.csv").equals(
        pd.read_csv(elsewhere / "results" / "quick" / "tables" / "ablation.csv")
    )
    assert assert_same_weights(user / "results", elsewhere / "results") == 2


def test_a_host_configfile_with_a_key_given_twice_is_refused(tmp_path):
    """A host Snakefile's own ``configfile:`` is read strictly too: Snakemake would keep the
    second of two equal keys without a word."""
    workflow = copy_workflow(tmp_path / "workflow")
    user = tmp_path / "analysis"
    user.mkdir()
    (user / "host.yaml").write_text("alpha: 0.9\nalpha: 0.85\n")
    (user / "Snakefile").write_text(
        textwrap.dedent(
            f"""\
            configfile: "{workflow}/config.yaml"
            configfile: "host.yaml"


            module rnnschur:
                snakefile:
                    "{workflow}/Snakefile"
                config:
                    config


            use rule * from rnnschur as rnnschur_*
            """
        )
    )
    result = snakemake(user, "-n")
    assert result.returncode != 0
    assert "host.yaml, line 2: config key 'alpha' is given twice" in result.stdout, result.stdout


def train_resources(output: str) -> list[str]:
    """The resources lines of the train jobs of a dry run."""
    lines = output.splitlines()
    return [
        next(line for line in lines[i:] if line.strip().startswith("resources:"))
        for i, line in enumerate(lines)
        if line.strip().split()[:1] in (["rule"], ["localrule"])
        and TRAINING_RULE.match(line.strip().split()[1].rstrip(":"))
    ]


@pytest.mark.parametrize(("device", "gpus"), [("cuda", 1), ("cpu", 0)])
def test_cuda_training_declares_one_gpu_per_job(tmp_path, device, gpus):
    folder = copy_workflow(tmp_path)
    # check_device=false: as on a cluster's submit host, whose GPU nodes run the training
    result = snakemake(
        folder,
        "-n",
        "-c8",
        *QUICK,
        "--config",
        f"device={device}",
        "check_device=False",
    )
    assert result.returncode == 0, result.stdout[-3000:]
    resources = train_resources(result.stdout)
    bundles = {(t, k, n) for t, k, n, _ in quick_models()}  # the seeds of each train as one
    # and each gap-study instance's one seed, by the same rules
    assert len(resources) == len(bundles) + len(set(quick_gap_models()))
    assert all(f"gpu={gpus}" in line for line in resources), resources[0]


def test_slurm_profile_passes_the_gpu_to_the_executor():
    profile = (REPO / "profiles" / "slurm" / "config.yaml").read_text()
    assert "gpu" in profile and "train" in profile
