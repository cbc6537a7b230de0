"""What the workflow does once, before any job, in its own process: read and check the config,
set what every job inherits, patch Snakemake's scheduler; and after its jobs, which commit made
them (:func:`record_run`, the Snakefile's ``onsuccess`` handler: outside every job, so no job's
code fingerprint depends on it and writing it reruns nothing). ``workflow/rules/common.smk`` calls
:func:`load_config`; the checks themselves are :mod:`config_checks`' and, for the gap study's
task instances, :mod:`instances`' (one line naming the key, as a
:class:`snakemake.exceptions.WorkflowError`).
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
from pathlib import Path

import config_checks as config_lib
import instances
from snakemake.exceptions import WorkflowError
from snakemake.utils import update_config, validate

from rnnschur import __version__
from rnnschur.io import save_json
from rnnschur.settings import schema
from rnnschur.settings.numerics import job_environment

NEUROGYM_CHECKED = Path(".snakemake") / "rnnschur_neurogym_drawn.json"
"""NeuroGym envs already checked in this working directory (each made and one trial drawn:
:func:`config_checks.neurogym_env`), with their (N_x, N_y), per NeuroGym version: a dry run
need not import NeuroGym again."""


def checked(check, *args):
    """``check(*args)``, its config_checks.ConfigError as Snakemake's WorkflowError: one line
    naming the key, before any job starts."""
    try:
        return check(*args)
    except config_lib.ConfigError as error:
        raise WorkflowError(str(error)) from None


def load_config(config: dict, workflow, root: Path) -> dict[str, dict]:
    """Make ``config`` the run's, in place, and return the run's NeuroGym tasks, {name: spec}:

    1. ``--config preset=NAME`` layers presets/NAME.yaml over config.yaml (the command line
       still wins);
    2. the schema's checks (one line naming the key and close ones), then Snakemake's
       validation, which fills in the schema's defaults; the coupling atlas's task blocks
       (``run_tasks`` becomes one per task and description) and their defaults;
    3. the portable numerics every job inherits (config ``numerics``: a library reads its
       variables when a job's process loads it), the results folder and the device;
    4. the NeuroGym envs and their kwargs, checked once per working directory: their specs
       ``{env, kwargs, dims}``, which reach each job of such a task in its params
       (:func:`rnnschur.tasks.get`); then the whole config.
    """
    checked(config_lib.check_config_files, workflow.configfiles)
    if config.get("preset"):
        update_config(config, checked(config_lib.read_preset, config["preset"], root / "presets"))
        update_config(config, workflow.config_settings.overwrite_config)
    rules = schema.read_schema()  # read once: the checks before and after the defaults
    checked(config_lib.check_schema, config, rules)
    checked(config_lib.check_size, config)  # before anything copies or prints it
    validate(config, str(schema.SCHEMA))
    if config.get("atlas"):
        checked(instances.expand_atlas, config)
        validate(config, str(schema.SCHEMA))
    os.environ.update(job_environment(config["numerics"]))
    # ~ expanded once, here: the check and every job's path read the same folder
    config["results_dir"] = os.path.expanduser(config["results_dir"])
    checked(config_lib.check_results_dir, config["results_dir"], root)
    if config["check_device"]:
        checked(config_lib.check_device, config["device"], cuda_available)
    neurogym = neurogym_tasks(config)
    checked(config_lib.check, config, rules, list(neurogym))
    checked(instances.check_gap_study, config, rules, list(neurogym))
    return neurogym


def neurogym_tasks(config: dict) -> dict[str, dict]:
    """Check each task that comes from NeuroGym (``tasks.<name>.neurogym``): {name: {env,
    kwargs, dims}}. NeuroGym is imported only if the config names one, and only for an env not
    checked before in this working directory."""
    blocks = [t for t, s in config["tasks"].items() if "neurogym" in s]
    done = config_lib.load_checked(NEUROGYM_CHECKED) if blocks else {}
    specs = checked(config_lib.check_neurogym, config, config_lib.neurogym_env, done)
    if blocks:
        config_lib.save_checked(NEUROGYM_CHECKED, done)
    return specs


def cuda_available() -> bool:
    """Whether torch sees a CUDA device (imported only for a CUDA config: torch costs 1.3 s)."""
    import torch

    return torch.cuda.is_available()


def patch_scheduler(workflow, root: Path) -> None:
    """Keep one pending scheduler timer (:mod:`snakemake_scheduler`), so that the snakemake
    process does not take CPU time from the jobs; only where this is the main workflow (a host
    that uses it as a module runs its own scheduler as it chooses)."""
    if Path(workflow.main_snakefile).resolve() != (root / "Snakefile").resolve():
        return
    import snakemake
    import snakemake_scheduler

    snakemake_scheduler.apply(snakemake.__version__)


RUN_RECORD = "run.json"
"""The record's file name in a run's ``results_dir``."""


def _git(root: Path, *args: str) -> str | None:
    """``git -C root args``'s output, or None where ``root`` is not a git checkout (or git is
    missing)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def invocation(root: Path) -> dict:
    """This invocation's entry: the commit of the workflow's tree ``root`` (``git rev-parse
    HEAD``; None where it is not a git checkout), whether the tree differed from it (``dirty``:
    tracked files changed; None where unknown), the UTC date and rnnschur's version."""
    commit = _git(root, "rev-parse", "HEAD")
    status = _git(root, "status", "--porcelain", "--untracked-files=no") if commit else None
    return {
        "commit": commit,
        "dirty": None if status is None else bool(status),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "rnnschur": __version__,
    }


def record_run(results_dir: str | Path, root: Path) -> None:
    """Append this invocation (:func:`invocation`) to ``results_dir/run.json`` (atomic): one
    entry per invocation that ran jobs, oldest first, so a run finished over several
    invocations (resumed after a change of the code) names each commit that made part of it
    (the published pages name them: docs/build_results.py)."""
    path = Path(results_dir) / RUN_RECORD
    made = json.loads(path.read_text())["invocations"] if path.is_file() else []
    save_json(path, {"invocations": [*made, invocation(root)]})
