"""A folder of results written as one set: never a mix of two analyses, never fewer files than
before, whatever signal arrives (Ctrl-C, ``kill``, a scheduler's SIGTERM, SIGKILL).

:meth:`rnnschur.external.analysis.Result.save` writes every new file into a hidden staging
folder inside ``out`` (:func:`staging_folder`), then :func:`replace_outputs` swaps the set in:

1. the folder's lock (:data:`LOCK`, holding the writer's process id) is taken; a second writer
   is refused while the first lives, and a lock whose process is gone is recovered (below);
2. a journal (:data:`JOURNAL`) of the earlier and the new file names is written into a hidden
   folder for the earlier set;
3. the earlier files move aside and the new ones into place; an exception in between moves the
   earlier set back;
4. the hidden folder is removed and the lock released: the swap is done.

SIGINT and SIGTERM are held back from step 1 to step 4 (they arrive once the swap is over).

A process killed in step 3 (SIGKILL, a power cut) leaves the journal: the next save into the
folder (:func:`recover`) rolls the swap back from it, so the folder holds the earlier set whole,
and removes what the dead process left (its staging folder, its lock).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rnnschur.external import OPTIONAL_NAMES, OUTPUT_NAMES

LOCK = ".rnnschur-writing"
"""The file that marks a folder as being written by one analysis (its process id inside)."""
JOURNAL = "journal.json"
"""In the earlier set's hidden folder: the earlier and the new file names of a swap."""
NEW, PREVIOUS = ".rnnschur-new-", ".rnnschur-previous-"
"""Prefixes of the hidden folders of a save (then the writer's process id and a dash)."""
SYSTEM_FOLDERS = ("bin", "boot", "dev", "etc", "lib", "lib64", "proc", "sbin", "sys", "usr")
"""Top-level folders of a Unix system, never a folder of results (nor anything inside them)."""
DEFERRED = (signal.SIGINT, signal.SIGTERM)
"""The signals held back while a swap moves files (they arrive when it is over)."""


class OutFolderError(ValueError):
    """A folder of results that must not or cannot be written (:func:`check_out_folder`)."""


def check_out_folder(out: str | os.PathLike) -> Path:
    """``out`` as a folder results may be written to, before any analysis runs: not the
    filesystem's root or a system folder, not inside a file, and writable where it exists (or
    where it would be made); :class:`OutFolderError` naming it and why. Returns it resolved."""
    where = Path(out).expanduser().resolve()
    parts = where.parts
    if where == Path(where.anchor) or (len(parts) > 1 and parts[1] in SYSTEM_FOLDERS):
        raise OutFolderError(f"{out}: the filesystem's root or a system folder, not for results")
    existing = next(p for p in (where, *where.parents) if p.exists())
    if not existing.is_dir():
        raise OutFolderError(f"{out}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutFolderError(
            f"{out}: {existing} cannot be written (its permissions, or a read-only file system)"
        )
    return where


def refuse_earlier_results(out: str | os.PathLike, force: bool) -> list[Path]:
    """The files of an earlier analysis in ``out`` (to remove first, with ``force``);
    :class:`FileExistsError` naming them without ``force``; :class:`OutFolderError` where
    ``out`` may not or cannot hold results (:func:`check_out_folder`)."""
    check_out_folder(out)
    out = Path(out)
    earlier = [out / n for n in OUTPUT_NAMES + OPTIONAL_NAMES if (out / n).exists()]
    if earlier and not force:
        raise FileExistsError(
            f"{out} already holds results ({', '.join(p.name for p in earlier)}); give another "
            "folder, or force=True to replace them"
        )
    return earlier


def staging_folder(out: Path) -> Path:
    """A new hidden folder inside ``out`` for the new set, named for this process."""
    return Path(tempfile.mkdtemp(prefix=f"{NEW}{os.getpid()}-", dir=out))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _writer(name: str) -> int | None:
    """The process id in a hidden folder's name (``<prefix><pid>-<random>``), or None."""
    digits = name.split("-")[2] if name.count("-") >= 3 else ""
    return int(digits) if digits.isdigit() else None


def recover(out: Path) -> None:
    """Finish what a killed save left in ``out``: each swap its journal records is rolled back
    (the earlier set whole again), and the hidden folders and the lock of a process that no
    longer runs are removed; a living writer's are left alone."""
    lock = out / LOCK
    if lock.exists():
        try:
            holder = int(lock.read_text() or "0")
        except (OSError, ValueError):
            holder = 0
        if holder and _alive(holder):
            return
    for folder in sorted(out.glob(f"{PREVIOUS}*")) + sorted(out.glob(f"{NEW}*")):
        pid = _writer(folder.name)
        if pid is not None and _alive(pid):  # a living writer's (this process's too)
            continue
        if folder.name.startswith(PREVIOUS):
            _roll_back(out, folder)
        shutil.rmtree(folder, ignore_errors=True)
    lock.unlink(missing_ok=True)


def _roll_back(out: Path, previous: Path) -> None:
    """Undo a swap from its journal: the new files that are not earlier names removed from
    ``out``, every earlier file still in ``previous`` moved back (over a new one of its name)."""
    try:
        journal = json.loads((previous / JOURNAL).read_text())
    except (OSError, ValueError):
        return  # no journal: the swap had not begun, nothing was moved
    for name in set(journal["new"]) - set(journal["earlier"]):
        (out / name).unlink(missing_ok=True)
    for name in journal["earlier"]:
        if (previous / name).exists():
            os.replace(previous / name, out / name)


@contextlib.contextmanager
def terminate_as_exit() -> Iterator[None]:
    """SIGTERM (``kill``, ``timeout``, a scheduler) raises SystemExit(143) in the block, where
    the process would otherwise die on the spot: a save's ``finally`` then removes its staging
    folder. Only in the main thread, and only where SIGTERM has its default action."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def exit_(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, exit_)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM held back in this thread until the block ends (then delivered)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, DEFERRED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _take_lock(out: Path) -> Path:
    """The folder's lock, taken (a dead writer's recovered first); :class:`FileExistsError`
    where another analysis is writing here."""
    lock = out / LOCK
    for _ in range(2):
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            recover(out)  # removes the lock of a writer that no longer runs
            continue
        with os.fdopen(descriptor, "w") as file:
            file.write(str(os.getpid()))
        return lock
    raise FileExistsError(
        f"{out}: another analysis is writing its results here ({LOCK} exists); wait for it "
        "to finish, or remove that file if none is running"
    )


def replace_outputs(out: Path, files: dict[str, Path], force: bool) -> dict[str, Path]:
    """Move ``files`` (written into a staging folder inside ``out``) into ``out`` as one set,
    in place of an earlier analysis's files (refused without ``force``): the module's steps 1–4,
    with SIGINT and SIGTERM held back throughout, so ``out`` holds the old set or the new one,
    never a mix. Returns the files' new paths."""
    with _signals_deferred():
        lock = _take_lock(out)
        previous = Path(tempfile.mkdtemp(prefix=f"{PREVIOUS}{os.getpid()}-", dir=out))
        try:
            earlier = refuse_earlier_results(out, force)
            names = {"earlier": [p.name for p in earlier], "new": [p.name for p in files.values()]}
            (previous / JOURNAL).write_text(json.dumps(names))
            for path in earlier:
                os.replace(path, previous / path.name)
            for path in files.values():
                os.replace(path, out / path.name)
        except BaseException:
            _roll_back(out, previous)
            raise
        finally:
            shutil.rmtree(previous, ignore_errors=True)
            lock.unlink(missing_ok=True)
    return {key: out / path.name for key, path in files.items()}
