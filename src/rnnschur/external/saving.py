"""A folder of results written as one set: never a mix of two analyses, never fewer files than
before, whatever signal arrives (Ctrl-C, ``kill``, a scheduler's SIGTERM, SIGKILL).

:meth:`rnnschur.external.result.Result.save` writes every new file into a hidden staging
folder inside ``out`` (:func:`staging_folder`), then :func:`replace_outputs` swaps the set in:

1. the folder's lock is taken: an exclusive ``flock`` on :data:`LOCK`, which the system releases
   when its process ends, however it ends; a second writer is refused while the first holds it;
2. under the lock, :func:`recover` finishes what a killed writer left (below);
3. a journal (:data:`JOURNAL`) of the earlier and the new file names is written, flushed to
   disk, into a hidden folder for the earlier set;
4. the earlier files move aside and the new ones into place; an exception in between moves the
   earlier set back;
5. the journal is removed (the commit: from here the new set stands), then the hidden folder;
   the lock is released.

SIGINT and SIGTERM that arrive during steps 1–5 are held (their handlers only note them) and
raised once the swap is over. A process killed in step 4 (SIGKILL, a power cut) leaves the
journal: the next save into the folder rolls the swap back from it, under the lock, so the
folder holds the earlier set whole; a hidden folder without a journal is the earlier set of a
committed swap, or of one that never began: its files go back only where the folder lacks them.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from rnnschur.external import OPTIONAL_NAMES, OUTPUT_NAMES

LOCK = ".rnnschur-lock"
"""The hidden file whose ``flock`` one writer of a folder holds while it swaps a set in."""
JOURNAL = "journal.json"
"""In the earlier set's hidden folder: the earlier and the new file names of a swap."""
NEW, PREVIOUS = ".rnnschur-new-", ".rnnschur-previous-"
"""Prefixes of the hidden folders of a save (then the writer's process id and a dash)."""
SYSTEM_FOLDERS = ("bin", "boot", "dev", "etc", "lib", "lib64", "proc", "sbin", "sys", "usr")
"""Top-level folders of a Unix system, never a folder of results (nor anything inside them)."""
DEFERRED = (signal.SIGINT, signal.SIGTERM)
"""The signals held while a swap moves files (raised again when it is over)."""


class OutFolderError(ValueError):
    """A folder of results that must not or cannot be written (:func:`check_out_folder`)."""


def check_out_folder(out: str | os.PathLike) -> Path:
    """``out`` as a folder results may be written to, before any analysis runs: not the
    filesystem's root or a system folder, not inside a file, and writable where it exists (or
    where it would be made); :class:`OutFolderError` naming it and why. Returns it resolved."""
    where = Path(out).expanduser().resolve()
    parts = where.parts
    if where == Path(where.anchor) or (len(parts) > 1 and parts[1] in SYSTEM_FOLDERS):
        raise OutFolderError(f"{out} is the filesystem's root or a system folder, not for results")
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
    """What killed writers left in ``out``, finished; to be called holding the folder's lock
    (:func:`folder_lock`), so that no living writer is in a swap: each swap a journal records
    is rolled back (the earlier set whole again); a hidden earlier set without a journal gives
    back only the files the folder lacks; a staging folder is removed where its process no
    longer runs."""
    for previous in sorted(out.glob(f"{PREVIOUS}*")):
        _roll_back(out, previous)
        shutil.rmtree(previous)
    for staging in sorted(out.glob(f"{NEW}*")):
        pid = _writer(staging.name)
        if pid is None or not _alive(pid):
            shutil.rmtree(staging, ignore_errors=True)


def _roll_back(out: Path, previous: Path) -> None:
    """Undo a swap from its journal: the new files that are not earlier names removed from
    ``out``, every earlier file still in ``previous`` moved back (over a new one of its name).
    Without a journal (a committed swap, or one that never began) a file of ``previous`` goes
    back only where ``out`` lacks it."""
    try:
        journal = json.loads((previous / JOURNAL).read_text())
    except (OSError, ValueError):
        for path in previous.iterdir():
            if not (out / path.name).exists():
                os.replace(path, out / path.name)
        return
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
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM noted, not acted on, until the block ends; then raised again, to the
    handlers they had (in the main thread, where Python runs signal handlers; a save in another
    thread is not interrupted by them anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    handlers = {s: signal.signal(s, lambda signum, frame: arrived.append(signum)) for s in DEFERRED}
    try:
        yield
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
        for s in dict.fromkeys(arrived):
            signal.raise_signal(s)


@contextlib.contextmanager
def folder_lock(out: Path) -> Iterator[None]:
    """The folder's exclusive lock (a ``flock`` on :data:`LOCK`, released when the block ends
    or the process dies; the file removed when the block ends); :class:`FileExistsError` where
    another analysis holds it."""
    path = out / LOCK
    refused = FileExistsError(
        f"{out}: another analysis is writing its results here (it holds {LOCK}); wait for it "
        "to finish"
    )
    with open(path, "a") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise refused from None
        try:  # the file locked must still be the folder's (not one a finished writer removed)
            same = os.stat(path).st_ino == os.fstat(file.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if not same:
            raise refused
        try:
            yield
        finally:
            path.unlink(missing_ok=True)  # removed while held: a later writer makes a new one
            fcntl.flock(file, fcntl.LOCK_UN)


def _durable(path: Path, text: str) -> None:
    """``text`` written to ``path`` and flushed to disk, with its folder's entry."""
    with open(path, "w") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def replace_outputs(out: Path, files: dict[str, Path], force: bool) -> dict[str, Path]:
    """Move ``files`` (written into a staging folder inside ``out``) into ``out`` as one set,
    in place of an earlier analysis's files (refused without ``force``): the module's steps
    1–5, SIGINT and SIGTERM held until they are over, so ``out`` holds the old set or the new
    one, never a mix. Returns the files' new paths."""
    with _signals_held(), folder_lock(out):
        recover(out)
        earlier = refuse_earlier_results(out, force)
        previous = Path(tempfile.mkdtemp(prefix=f"{PREVIOUS}{os.getpid()}-", dir=out))
        names = {"earlier": [p.name for p in earlier], "new": [p.name for p in files.values()]}
        _durable(previous / JOURNAL, json.dumps(names))
        try:
            for path in earlier:
                os.replace(path, previous / path.name)
            for path in files.values():
                os.replace(path, out / path.name)
        except BaseException:
            _roll_back(out, previous)  # if this fails too, the journal stays for recover()
            shutil.rmtree(previous)
            raise
        (previous / JOURNAL).unlink()  # the commit: the new set stands
        shutil.rmtree(previous, ignore_errors=True)
    return {key: out / path.name for key, path in files.items()}
