"""The README's report command for the quick preset, as written, on a finished quick run."""

import shlex

import pytest
from test_readme_commands import COMMANDS, QUICK_PRESET, targets

from conftest import snakemake

pytestmark = pytest.mark.workflow


@pytest.mark.parametrize("command", [c for c in COMMANDS if "--report" in c and QUICK_PRESET in c])
def test_the_quick_report_command_makes_its_report(command, quick_run):
    report = quick_run / targets(command)[0]
    report.unlink(missing_ok=True)
    result = snakemake(quick_run, *shlex.split(command)[1:])
    assert result.returncode == 0, result.stdout[-3000:]
    assert report.is_file() and report.stat().st_size > 100_000
