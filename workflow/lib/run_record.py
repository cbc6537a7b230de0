"""Which commit made a run: ``<results_dir>/run.json``, written by the workflow's ``onsuccess``
handler (Snakefile) after every invocation that ran jobs, so that the published pages can name
the commit of each run they show (docs/build_results.py).

The record lists one entry per invocation, oldest first; a run finished over several
invocations (resumed after a change of the code) names each commit that made part of it. The
handler runs in the workflow's own process, outside every job, so no job's code fingerprint
(:mod:`code_fingerprint`) depends on it and writing it reruns nothing.
"""

from __future__ import annotations

import datetime
import json
import subprocess
from pathlib import Path

from rnnschur import __version__
from rnnschur.io import save_json

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
    """Append this invocation (:func:`invocation`) to ``results_dir/run.json`` (atomic)."""
    path = Path(results_dir) / RUN_RECORD
    made = json.loads(path.read_text())["invocations"] if path.is_file() else []
    save_json(path, {"invocations": [*made, invocation(root)]})
