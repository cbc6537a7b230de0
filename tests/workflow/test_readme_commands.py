"""Every snakemake command the README shows runs where it is shown, as written: from the root of
a fresh copy of the workflow, snakemake plans it (a dry run; test_readme_report.py makes the
quick preset's report on a finished quick run); and a command for the paper's run that names a
target or a report has its quick-preset form beside it (with the preset, a target placed after
``--configfile`` was read as a config file)."""

import importlib.util
import re
import shlex
import shutil

import pytest

from conftest import REPO, copy_workflow, snakemake

pytestmark = pytest.mark.workflow

QUICK_PRESET = "presets/quick.yaml"


def readme_commands(text: str) -> list[str]:
    """The snakemake commands of ``text``: each line of a bash block that starts with
    ``snakemake`` (its comment removed), then each inline one outside the blocks, in order and
    once each."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("snakemake "):
                commands.append(line.split("#", 1)[0].strip())
    outside = re.sub(r"```.*?```", "", text, flags=re.S)
    commands += [" ".join(c.split()) for c in re.findall(r"`(snakemake [^`]+)`", outside)]
    return list(dict.fromkeys(commands))


COMMANDS = readme_commands((REPO / "README.md").read_text())


def quick_form(command: str) -> str:
    """The quick preset's form of a paper command: its targets under ``results/quick/``, the
    preset after them, two cores."""
    words = shlex.split(command)
    words = [w.replace("results/", "results/quick/", 1) for w in words]
    words = ["-c2" if w.startswith("-c") and w[2:].isdigit() else w for w in words]
    return shlex.join([*words, "--configfile", QUICK_PRESET])


def targets(command: str) -> list[str]:
    return [w for w in shlex.split(command) if w.startswith("results/")]


def test_the_readme_shows_commands_to_run():
    assert len(COMMANDS) >= 6, COMMANDS
    assert any(QUICK_PRESET in c for c in COMMANDS)


def test_the_commands_are_read_from_bash_blocks_and_inline_code():
    text = (
        "```bash\nsnakemake -c2 a   # first\nls x\n```\n"
        "Then `snakemake --report r.html`, and `snakemake -c2 a` again.\n"
    )
    assert readme_commands(text) == ["snakemake -c2 a", "snakemake --report r.html"]


@pytest.mark.parametrize(
    "command",
    [c for c in COMMANDS if targets(c) and QUICK_PRESET not in c],
)
def test_each_paper_target_has_its_quick_form_beside_it(command):
    assert quick_form(command) in [" ".join(shlex.split(c)) for c in COMMANDS], (
        f"README shows `{command}` without `{quick_form(command)}`"
    )


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("readme"))


@pytest.mark.parametrize("command", [c for c in COMMANDS if "--report" not in c])
def test_each_command_plans_as_written(command, fresh):
    words = shlex.split(command)
    if "--profile" in words and importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("the SLURM executor plugin (the [slurm] extra) is not installed")
    if "conda" in words and shutil.which("conda") is None:
        pytest.skip("conda is not installed")
    result = snakemake(fresh, *words[1:], "-n")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "Job stats:" in result.stdout, result.stdout[-3000:]
