"""Run independent jobs in this process, in worker processes, or on a Dask cluster, in order.

`ordered_map(fn, jobs, workers=W, dask=None|"local"|ADDRESS)` yields `fn(job)` for each job in the
order given, whatever the backend, so that callers whose jobs are seeded by their index get the
same results everywhere. Dask is optional (``pip install 'holdem-engine[dask]'``).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import logging
import multiprocessing
import multiprocessing.pool
import signal
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

from holdem.console.arguments import install_hint
from holdem.errors import InvalidConfigError

__all__ = ["DASK_HINT", "ordered_map", "worker_pool"]

J = TypeVar("J")
R = TypeVar("R")

DASK_HINT = f"--dask needs dask.distributed: {install_hint('dask')}"


def ordered_map(
    fn: Callable[[J], R], jobs: Sequence[J], *, workers: int = 1, dask: str | None = None
) -> Generator[R, None, None]:
    """`fn(job)` for every job, in order: here (1 worker), in `workers` processes, or on Dask
    (`"local"` starts a `LocalCluster` of `workers` processes; else the scheduler's address)."""
    if type(workers) is not int or workers < 1:
        raise InvalidConfigError(f"workers must be a positive whole number, got {workers!r}")
    if dask is not None:
        yield from _on_dask(fn, jobs, workers, dask)
    elif workers == 1 or len(jobs) <= 1:
        yield from map(fn, jobs)
    else:
        with worker_pool(workers) as pool:
            yield from pool.imap(fn, jobs)


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[multiprocessing.pool.Pool]:
    """Worker processes that leave Ctrl-C and SIGTERM to their parent and end with it: closed when
    the work is done, ended at once when it is not (an interruption, an error), so that none runs on
    after the command stops."""
    pool = multiprocessing.get_context().Pool(workers, initializer=_worker_start)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    else:
        pool.close()
        pool.join()


def _worker_start() -> None:
    """In each worker: Ctrl-C is the parent's to handle, SIGTERM ends the worker, and (on Linux) the
    worker is sent SIGTERM if its parent dies, whatever kills it."""
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


def _on_dask(fn: Callable[[J], R], jobs: Sequence[J], workers: int, where: str) -> Iterator[R]:
    require_dask()
    from distributed import Client

    cluster: Any = None
    client: Any = None
    stopped = False
    try:
        cluster = _local_cluster(workers) if where == "local" else None
        client = Client(cluster) if cluster is not None else _remote(where)  # type: ignore[no-untyped-call]
        futures = client.map(fn, list(jobs), pure=False)
        for future in futures:
            yield future.result()
    except BaseException as error:  # stopped (Ctrl-C, SIGTERM, the caller gone): quiet the teardown
        stopped = True
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
        logging.getLogger(name).setLevel(logging.CRITICAL)
