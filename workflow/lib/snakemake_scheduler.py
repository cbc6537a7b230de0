"""A work-around for Snakemake's scheduler re-evaluation timers, for the workflow's own process
only: not part of the library (which never imports snakemake), and applied by
``workflow/rules/common.smk`` only where this workflow is the main one (not when a host uses it
as a module) and only for the Snakemake versions it is tested against (:data:`TESTED`).

Snakemake 9 (up to 9.27.1 at least) ends every pass of its scheduling loop by starting a
`threading.Timer` that wakes the loop again after the job rate limiter's timespan (1 s by
default), and every finished job wakes the loop once more. Each wake-up therefore starts one more
timer, so after k finished jobs about k timers fire every second, and each wake-up re-reads the
inputs of every ready job (upstream: snakemake/snakemake issue #3804, pull request #3744). In a
paper-scale run the snakemake process used a third of a core by its 80th job, while the jobs
had two cores. Keeping at most one pending timer restores the intended behaviour (one
re-evaluation per timespan); making it a daemon thread also spares the wait for it at exit.
"""

from __future__ import annotations

import threading
import warnings

_LOCK = threading.Lock()
"""Guards the pending flag of every patched scheduler."""
TESTED = ((9, 0), (9, 28))
"""The Snakemake versions the patch is tested against: from 9.0 up to, not including, 9.28
(``constraints.txt`` pins 9.27.1; tests/unit/test_scheduler_fix.py shows the bug and the fix on
the installed one)."""


def is_tested(version: str) -> bool:
    """Whether Snakemake ``version`` ("9.27.1") lies in :data:`TESTED`."""
    parts = tuple(int(p) for p in version.split("+")[0].split(".")[:2] if p.isdigit())
    return TESTED[0] <= parts < TESTED[1]


def apply(version: str, scheduler_class=None) -> bool:
    """:func:`keep_one_reevaluation_timer` where Snakemake ``version`` is one the patch is
    tested against; else, or where the method is gone, a warning saying the work-around is not
    applied (the workflow runs as before, its snakemake process only uses more CPU)."""
    if not is_tested(version):
        warnings.warn(
            f"rnnschur: Snakemake {version} is not a version the scheduler work-around is "
            f"tested against (9.0 to 9.27); not applied (upstream issue #3804)",
            stacklevel=2,
        )
        return False
    if not keep_one_reevaluation_timer(scheduler_class):
        warnings.warn(
            f"rnnschur: Snakemake {version} has no JobScheduler._schedule_reevalutation; the "
            "scheduler work-around is not applied",
            stacklevel=2,
        )
        return False
    return True


def keep_one_reevaluation_timer(scheduler_class=None) -> bool:
    """Patch `JobScheduler._schedule_reevalutation` (Snakemake's spelling) so that at most one
    re-evaluation timer is pending; returns False (and changes nothing) if this Snakemake has no
    such method."""
    if scheduler_class is None:
        from snakemake.scheduling.job_scheduler import JobScheduler

        scheduler_class = JobScheduler
    original = getattr(scheduler_class, "_schedule_reevalutation", None)
    if original is None or getattr(original, "keeps_one_timer", False):
        return original is not None

    def _schedule_reevalutation(self, delay) -> None:
        with _LOCK:
            if getattr(self, "_reevaluation_pending", False):
                return  # the pending timer wakes the loop no later than this one would
            self._reevaluation_pending = True

        def wake() -> None:
            with _LOCK:
                self._reevaluation_pending = False
            self._open_jobs.release()

        timer = threading.Timer(delay, wake)
        timer.daemon = True
        timer.start()

    _schedule_reevalutation.keeps_one_timer = True
    scheduler_class._schedule_reevalutation = _schedule_reevalutation
    return True
