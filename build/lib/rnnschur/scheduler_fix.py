"""A work-around for Snakemake's scheduler re-evaluation timers (the workflow's own process only).

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

_LOCK = threading.Lock()
"""Guards the pending flag of every patched scheduler."""


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
