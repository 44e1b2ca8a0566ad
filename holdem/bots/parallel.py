"""Run independent jobs in this process, in worker processes, or on a Dask cluster, in order.

`ordered_map(fn, jobs, workers=W, dask=None|"local"|ADDRESS)` yields `fn(job)` for each job in the
order given, whatever the backend, so that callers whose jobs are seeded by their index get the
same results everywhere. Dask is optional (``pip install 'holdem-engine[dask]'``).

A long job tells its caller how far it has got with `report(n)`, wherever it runs: given `on_report`,
`ordered_map` calls ``on_report(k, n)`` in the caller's process for each report of job `k` (through a
queue from worker processes, and as Dask events from a cluster's workers), between the results.
A job in a worker process or on a Dask worker may also `hand_over(part)` of its result as soon as
it has it: given `on_part`, the caller hears ``on_part(k, part)`` at once, so that an interruption
(Ctrl-C) loses no part already done; the parts heard before the interruption are handed on before
it is raised.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import logging
import multiprocessing
import multiprocessing.pool
import pickle
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

from holdem.console.arguments import install_hint
from holdem.errors import InvalidConfigError

__all__ = ["DASK_HINT", "hand_over", "ordered_map", "report", "worker_pool"]

J = TypeVar("J")
R = TypeVar("R")

DASK_HINT = f"--dask needs dask.distributed: {install_hint('dask')}"


REPORTS = "holdem-progress"
"""The Dask event topic of the jobs' reports."""
PARTS = "holdem-parts"
"""The Dask event topic of the parts of results the jobs hand over."""
WAIT = 0.25
"""Seconds between looks at the reports while a result is awaited."""

Reporter = Callable[[int, int], None]
Receiver = Callable[[int, Any], None]
_reporting: Callable[[int], None] | None = None  # this process's job's channel, while a job runs
_handing: Callable[[Any], bool] | None = None  # and its channel for parts of its result
_REPORT, _PART = 0, 1  # what a message on a worker's queue carries


def report(n: int) -> None:
    """Tell the caller of the job running here that `n` more units of its work are done (nothing
    when nobody asked)."""
    if _reporting is not None:
        _reporting(n)


def hand_over(part: Any) -> bool:
    """Send `part` of the result of the job running here to its caller now, when the caller listens
    from another process (`ordered_map`'s `on_part`); whether the job may leave it out of its
    result. A part sent survives an interruption of the caller. From a Dask worker it is sent, but
    kept in the result as well: an event may reach the caller after the result does."""
    return _handing is not None and _handing(part)


def ordered_map(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int = 1,
    dask: str | None = None,
    on_report: Reporter | None = None,
    on_part: Receiver | None = None,
) -> Generator[R, None, None]:
    """`fn(job)` for every job, in order: here (1 worker), in `workers` processes, or on Dask
    (`"local"` starts a `LocalCluster` of `workers` processes; else the scheduler's address);
    `on_report(k, n)` hears the `report` calls of job `k`, `on_part(k, part)` its `hand_over` calls
    (in worker processes and on Dask only: here `hand_over` returns False)."""
    if type(workers) is not int or workers < 1:
        raise InvalidConfigError(f"workers must be a positive whole number, got {workers!r}")
    indexed = list(enumerate(jobs))
    if dask is not None:
        yield from _on_dask(fn, indexed, workers, dask, on_report, on_part)
    elif workers == 1 or len(jobs) <= 1:
        for k, job in indexed:
            yield _job_here(fn, on_report, (k, job))
    else:
        yield from _in_workers(fn, indexed, workers, on_report, on_part)


def _in_workers(
    fn: Callable[[J], R],
    indexed: list[tuple[int, J]],
    workers: int,
    on_report: Reporter | None,
    on_part: Receiver | None,
) -> Iterator[R]:
    listening = on_report is not None or on_part is not None
    reports: Any = multiprocessing.get_context().SimpleQueue() if listening else None
    with worker_pool(workers, reports) as pool:
        results = pool.imap(functools.partial(_job_in_worker, fn, on_part is not None), indexed)
        while True:
            try:
                result = results.next(WAIT) if reports is not None else next(results)
            except multiprocessing.TimeoutError:
                _drain(reports, on_report, on_part)
                continue
            except StopIteration:
                break
            except KeyboardInterrupt:
                _drain(reports, on_report, on_part)  # what the workers finished before it
                raise
            _drain(reports, on_report, on_part)
            yield result


def _job_here(fn: Callable[[J], R], on_report: Reporter | None, indexed: tuple[int, J]) -> R:
    global _reporting
    k, job = indexed
    _reporting = None if on_report is None else functools.partial(on_report, k)
    try:
        return fn(job)
    finally:
        _reporting = None


_worker_reports: Any = None  # a worker process's queue to its parent, when the parent listens


def _job_in_worker(fn: Callable[[J], R], parts: bool, indexed: tuple[int, J]) -> R:
    global _reporting, _handing
    k, job = indexed
    reports = _worker_reports
    _reporting = None if reports is None else lambda n: reports.put((k, _REPORT, n))
    _handing = None if reports is None or not parts else lambda part: reports.put((k, _PART, part)) is None
    try:
        return fn(job)
    finally:
        _reporting = _handing = None


def _job_on_dask(fn: Callable[[J], R], reporting: bool, parts: bool, indexed: tuple[int, J]) -> R:
    """A job on a Dask worker: its reports go to the scheduler as events of `REPORTS`, and the parts
    it hands over as events of `PARTS` (together, at most every `WAIT` seconds), which it passes on
    to the client that subscribed."""
    global _reporting, _handing
    k, job = indexed
    if parts:
        from distributed import get_worker

        worker, held, last = get_worker(), [], [time.monotonic() - WAIT]

        def hand(part: Any) -> bool:
            held.append(part)  # sent together at most every `WAIT` seconds: the scheduler's load
            if time.monotonic() - last[0] >= WAIT:
                worker.log_event(PARTS, [k, pickle.dumps(held)])  # an event is msgpack: parts go pickled
                held.clear()
                last[0] = time.monotonic()
            return False  # kept in the result too: an event may come after it

        _handing = hand
    if reporting:
        from distributed import get_worker

        worker, pending, sent = get_worker(), [0], [time.monotonic() - WAIT]  # the first at once

        def tell(n: int) -> None:  # at most one event in `WAIT` seconds a job: the scheduler's load
            pending[0] += n
            if time.monotonic() - sent[0] >= WAIT:
                worker.log_event(REPORTS, (k, pending[0]))
                pending[0], sent[0] = 0, time.monotonic()

        _reporting = tell
    try:
        return fn(job)
    finally:
        _reporting = _handing = None


def _drain(reports: Any, on_report: Reporter | None, on_part: Receiver | None = None) -> None:
    """Hand every report and part waiting in `reports` to `on_report` and `on_part`."""
    if reports is None:
        return
    while not reports.empty():
        k, kind, value = reports.get()
        receiver = on_report if kind == _REPORT else on_part
        if receiver is not None:
            receiver(k, value)


@contextlib.contextmanager
def worker_pool(workers: int, reports: Any = None) -> Iterator[multiprocessing.pool.Pool]:
    """Worker processes that leave Ctrl-C and SIGTERM to their parent and end with it: closed when
    the work is done, ended at once when it is not (an interruption, an error), so that none runs on
    after the command stops. `reports`: a queue the workers' jobs `report` to."""
    pool = multiprocessing.get_context().Pool(workers, initializer=_worker_start, initargs=(reports,))
    try:
        yield pool
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    else:
        pool.close()
        pool.join()


def _worker_start(reports: Any = None) -> None:
    """In each worker: Ctrl-C is the parent's to handle, SIGTERM ends the worker, and (on Linux) the
    worker is sent SIGTERM if its parent dies, whatever kills it; jobs `report` to `reports`."""
    global _worker_reports
    _worker_reports = reports
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


_PR_SET_PDEATHSIG = 1


def require_dask() -> None:
    """Raise a one-line error naming the extra when dask.distributed is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InvalidConfigError(DASK_HINT) from None


def _on_dask(
    fn: Callable[[J], R],
    jobs: list[tuple[int, J]],
    workers: int,
    where: str,
    on_report: Reporter | None,
    on_part: Receiver | None = None,
) -> Iterator[R]:
    require_dask()
    from distributed import Client

    cluster: Any = None
    client: Any = None
    stopped = False
    heard: queue.SimpleQueue[tuple[int, int, Any]] = queue.SimpleQueue()  # filled on the client's thread
    try:
        cluster = _local_cluster(workers) if where == "local" else None
        client = Client(cluster) if cluster is not None else _remote(where)  # type: ignore[no-untyped-call]
        if on_report is not None:
            client.subscribe_topic(REPORTS, lambda event: heard.put((event[1][0], _REPORT, event[1][1])))
        if on_part is not None:
            client.subscribe_topic(PARTS, lambda event: _heard_parts(heard, event[1]))
        listening = on_report is not None or on_part is not None
        job = functools.partial(_job_on_dask, fn, on_report is not None, on_part is not None)
        futures = client.map(job, jobs, pure=False)
        for future in futures:
            if listening:
                _await_listening(future, heard, on_report, on_part)
            result = future.result()
            _drain(heard, on_report, on_part)
            yield result
    except BaseException as error:  # stopped (Ctrl-C, SIGTERM, the caller gone): quiet the teardown
        stopped = True
        with contextlib.suppress(Exception):
            _drain(heard, on_report, on_part)  # the parts the workers handed over before it
        _quiet_teardown()
        if cluster is None and where == "local":
            _forget_half_made_cluster()
        if not isinstance(error, KeyboardInterrupt) and _interrupted(error):
            # Stopped while the cluster started: Dask's own clean-up of a cluster half made fails on
            # the way (seen: AssertionError: Status.init). The stop is what happened; say that.
            raise KeyboardInterrupt from None
        raise
    finally:
        for part in (client, cluster):
            if part is not None:
                with contextlib.suppress(Exception) if stopped else contextlib.nullcontext():
                    part.close()


def _await_listening(
    future: Any,
    heard: queue.SimpleQueue[tuple[int, int, Any]],
    on_report: Reporter | None,
    on_part: Receiver | None,
) -> None:
    """Wait for `future`, passing on what the workers report every `WAIT` seconds meanwhile. The wait
    is a thread's event, not `future.result(timeout=)`: on Python 3.11 that timeout can cancel a
    result that arrives as it expires, and distributed then fails with an UnboundLocalError (seen in
    CI on Debian's 3.11.2, a tournament series ending in a traceback)."""
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    while not done.wait(WAIT):
        _drain(heard, on_report, on_part)


def _heard_parts(heard: queue.SimpleQueue[tuple[int, int, Any]], event: Any) -> None:
    """A Dask event of parts (a job, its parts pickled) queued a part at a time, as from worker processes."""
    k, parts = event
    for part in pickle.loads(parts):
        heard.put((k, _PART, part))


def _local_cluster(workers: int) -> Any:
    """A `LocalCluster` of `workers` single-threaded processes for one batch job."""
    import dask
    from distributed import LocalCluster

    # A batch job on a cluster of its own: the workers' statistical profiler (a thread sampling
    # every 10 ms, for the dashboard this cluster has not got) only takes time from the jobs.
    # Its worker processes are started with Ctrl-C ignored (they inherit that), so that Ctrl-C
    # at a terminal, sent to the whole process group, stops this process alone, which then
    # closes the cluster (the workers printed a traceback each). The workers log nothing below
    # CRITICAL: a job's error reaches the caller through its future, and when a run is stopped on
    # a busy machine a worker whose scheduler closed first logged the failed heartbeat with a
    # traceback (seen with both cores busy), which says nothing of the results already reported.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            return LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                silence_logs=logging.CRITICAL,
            )  # type: ignore[no-untyped-call]  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, previous)


def _remote(where: str) -> Any:
    """A Dask client of the scheduler at the address `where`."""
    from distributed import Client

    try:
        return Client(where, timeout="10s")  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as error:
        raise InvalidConfigError(f"--dask: cannot reach a Dask scheduler at {where!r}: {error}") from None


def _forget_half_made_cluster() -> None:
    """A cluster stopped while it started cannot be closed: distributed tries again as the process
    exits and prints the same failure as a traceback. Its worker processes end with this process
    (they are its children), so that last attempt is called off."""
    from distributed.deploy import spec

    closer = getattr(spec, "close_clusters", None)
    if closer is not None:
        atexit.unregister(closer)
    # A worker process still starting reads its start-up state from this process, and printed a
    # traceback (FileNotFoundError in SemLock._rebuild) when this process had gone first: ended now.
    for child in multiprocessing.active_children():
        child.kill()
        child.join(timeout=5)


def _interrupted(error: BaseException | None) -> bool:
    """Whether a Ctrl-C or SIGTERM (a KeyboardInterrupt) was being handled when `error` was raised."""
    while error is not None:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__context__
    return False


def _quiet_teardown() -> None:
    """A run stopped mid-work closes its cluster with work in flight. Dask's own callbacks may then
    fail (seen once: a NameError inside distributed's `cancel`), and tornado would print their
    tracebacks, which say nothing of the results already reported: they are not printed."""
    for name in ("tornado.application", "tornado.general", "distributed", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)  # a closed client is logged as CRITICAL
