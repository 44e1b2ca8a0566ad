"""Run independent jobs in this process, in worker processes, or on a Dask cluster, in order.

`ordered_map(fn, jobs, workers=W, dask=None|"local"|ADDRESS)` yields `fn(job)` for each job in the
order given, whatever the backend, so that callers whose jobs are seeded by their index get the
same results everywhere. Dask is optional (``pip install 'holdem-engine[dask]'``).
"""

from __future__ import annotations

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
    import dask
    from distributed import Client, LocalCluster

    cluster: Any = None
    if where == "local":
        # A batch job on a cluster of its own: the workers' statistical profiler (a thread sampling
        # every 10 ms, for the dashboard this cluster has not got) only takes time from the jobs.
        # Its worker processes are started with Ctrl-C ignored (they inherit that), so that Ctrl-C
        # at a terminal, sent to the whole process group, stops this process alone, which then
        # closes the cluster (the workers printed a traceback each).
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            with dask.config.set({"distributed.worker.profile.enabled": False}):
                cluster = LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                    silence_logs=logging.ERROR,
                )  # type: ignore[no-untyped-call]  # fmt: skip
        finally:
            signal.signal(signal.SIGINT, previous)
        client = Client(cluster)  # type: ignore[no-untyped-call]
    else:
        try:
            client = Client(where, timeout="10s")  # type: ignore[no-untyped-call]
        except (OSError, ValueError, TypeError) as error:
            raise InvalidConfigError(f"--dask: cannot reach a Dask scheduler at {where!r}: {error}") from None
    try:
        futures = client.map(fn, list(jobs), pure=False)
        for future in futures:
            yield future.result()
    except BaseException:  # stopped (Ctrl-C, SIGTERM, the caller gone): quiet the teardown
        _quiet_teardown()
        raise
    finally:
        client.close()  # type: ignore[no-untyped-call]
        if cluster is not None:
            cluster.close()


def _quiet_teardown() -> None:
    """A run stopped mid-work closes its cluster with work in flight. Dask's own callbacks may then
    fail (seen once: a NameError inside distributed's `cancel`), and tornado would print their
    tracebacks, which say nothing of the results already reported: they are not printed."""
    for name in ("tornado.application", "tornado.general", "distributed", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
