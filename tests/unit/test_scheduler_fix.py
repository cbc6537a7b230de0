"""The scheduler work-around on Snakemake's real JobScheduler (a subclass, patched alone)."""

import sys
import threading
import time

import pytest
import snakemake
from snakemake.scheduling.job_scheduler import JobScheduler

from conftest import REPO

sys.path.insert(0, str(REPO / "workflow" / "lib"))
from snakemake_scheduler import apply, is_tested, keep_one_reevaluation_timer  # noqa: E402


def scheduler(cls):
    instance = object.__new__(cls)  # the loop's state is not needed: only its wake-up semaphore
    instance._open_jobs = threading.Semaphore(0)
    return instance


def wake_ups(instance, calls, delay=0.05):
    for _ in range(calls):
        instance._schedule_reevalutation(delay)
    time.sleep(delay + 0.3)
    count = 0
    while instance._open_jobs.acquire(blocking=False):
        count += 1
    return count


def test_unpatched_snakemake_starts_a_timer_per_call():
    # The behaviour the work-around exists for; if a Snakemake release fixes it, this test says so.
    class Unpatched(JobScheduler):
        pass

    assert wake_ups(scheduler(Unpatched), 5) == 5


def test_one_pending_timer_wakes_the_loop_once_and_never_blocks_exit():
    class Patched(JobScheduler):
        pass

    assert keep_one_reevaluation_timer(Patched)
    assert keep_one_reevaluation_timer(Patched)  # idempotent
    instance = scheduler(Patched)
    before = threading.active_count()
    instance._schedule_reevalutation(0.05)
    timers = [t for t in threading.enumerate() if isinstance(t, threading.Timer)]
    assert threading.active_count() == before + 1 and all(t.daemon for t in timers)
    assert wake_ups(instance, 4) == 1  # the pending timer fired once; the later calls were dropped
    # After it fired, the next call starts a timer again.
    assert wake_ups(instance, 1) == 1
    assert JobScheduler._schedule_reevalutation is not Patched._schedule_reevalutation


def test_a_snakemake_without_the_method_is_left_alone():
    class Other:
        pass

    assert keep_one_reevaluation_timer(Other) is False
    assert not hasattr(Other, "_schedule_reevalutation")


def test_applied_only_for_the_versions_it_is_tested_against():
    class Patched(JobScheduler):
        pass

    assert is_tested(snakemake.__version__)  # the pinned Snakemake is one of them
    assert is_tested("9.0.0") and is_tested("9.27.1")
    assert not is_tested("9.28.0") and not is_tested("8.30.0")
    with pytest.warns(UserWarning, match="not a version the scheduler work-around is tested"):
        assert apply("10.1.0", Patched) is False
    assert not getattr(Patched._schedule_reevalutation, "keeps_one_timer", False)
    assert apply(snakemake.__version__, Patched) is True

    class Other:
        pass

    with pytest.warns(UserWarning, match="has no JobScheduler._schedule_reevalutation"):
        assert apply(snakemake.__version__, Other) is False
