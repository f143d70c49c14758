"""Where the batches of a schedule run: this process, a local process pool or a Dask cluster.

A run owns its pool. Stopping the run (Ctrl-C, SIGTERM, SIGHUP, a batch that fails)
ends the workers at once and drops the batches not started; a worker whose run has
gone, however it went (even ``kill -9``), ends itself. The workers fork from a server
that has imported the run's own ``sixtysix``, whatever folder the run was started in.
"""

from __future__ import annotations

import contextlib
import functools
import json
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import as_completed as futures_completed
from dataclasses import dataclass
from multiprocessing import forkserver
from multiprocessing.connection import wait as wait_for_ready
from pathlib import Path
from typing import TYPE_CHECKING

import sixtysix
from sixtysix import agents

if TYPE_CHECKING:
    import pyarrow as pa

    from .tournament import Batch

CONNECT_SECONDS = 10  # waiting for a Dask scheduler
#: Signals that stop a run as Ctrl-C does, where by default they would end it at once.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
#: Signals that a terminal sends to its whole process group: the run handles them for its
#: workers, which ignore them.
GROUP_SIGNALS = (signal.SIGINT, signal.SIGHUP)
#: The folder holding this process's ``sixtysix`` package (a checkout or site-packages).
PACKAGE_HOME = Path(sixtysix.__file__).resolve().parents[1]

#: A batch's work: ``work(config_json, batch)`` gives its rows (``play_batch`` for tournaments).
Work = Callable[[str, "Batch"], "pa.Table"]


class TournamentError(RuntimeError):
    """A batch failed (an exception, a worker process that died, no scheduler); what was
    finished is saved."""


class BatchFailed(Exception):
    """A batch that raised (or whose worker died): the batch and the error."""

    def __init__(self, batch: Batch, error: BaseException) -> None:
        super().__init__(f"batch {batch} failed: {type(error).__name__}: {error}")
        self.batch = batch
        self.error = error


class RunStopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a run, which then stops as after Ctrl-C."""

    def __init__(self, number: int):
        super().__init__(f"stopped by {signal.Signals(number).name}")
        self.signal_number = number


@contextlib.contextmanager
def stop_signals_interrupt() -> Iterator[None]:
    """While the block runs, ``STOP_SIGNALS`` raise ``RunStopped`` in the main thread instead
    of ending the process; a handler set by the program, or an ignored signal (as under
    ``nohup``), is kept. Outside the main thread, where Python takes no signals, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    replaced = [number for number in STOP_SIGNALS if signal.getsignal(number) == signal.SIG_DFL]
    for number in replaced:
        signal.signal(number, _raise_stopped)
    try:
        yield
    finally:
        for number in replaced:
            signal.signal(number, signal.SIG_DFL)


def _raise_stopped(number: int, frame) -> None:
    """Stop once: a second signal while the run saves its rows is ignored."""
    for other in STOP_SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise RunStopped(number)


def _result_of(batch: Batch, result: Callable[[], pa.Table]) -> pa.Table:
    """``result()``, a failure named with its batch."""
    try:
        return result()
    except Exception as error:
        raise BatchFailed(batch, error) from error


def _collect(futures: dict, completed) -> Iterator[tuple[Batch, pa.Table]]:
    """``(batch, rows)`` of each future of ``futures`` (future: batch) as ``completed``
    (an ``as_completed``) yields it."""
    for future in completed(futures):
        yield futures[future], _result_of(futures[future], future.result)


@dataclass
class Backend:
    """Where batches run: ``slots`` in parallel; ``results(config_json, batches)`` yields
    each ``(batch, rows)`` as it finishes (close it to stop early)."""

    slots: int
    results: Callable[[str, list[Batch]], Iterator[tuple[Batch, pa.Table]]]


def _in_process(work: Work, config_json: str, batches: list[Batch]):
    for batch in batches:
        yield batch, _result_of(batch, functools.partial(work, config_json, batch))


def _on_pool(work: Work, workers: int, config_json: str, batches: list[Batch]):
    """The batches on a pool of at most ``workers`` processes, forked from a server that
    has imported this module and ``work``'s (a fast start, and no fork of a process that
    runs threads, as pyarrow's and tqdm's); ended at once if the caller stops early."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(sorted({__name__, work.__module__}))
    _start_forkserver()
    pool = ProcessPoolExecutor(
        min(workers, len(batches)), mp_context=context, initializer=_start_worker
    )
    try:
        futures = {pool.submit(work, config_json, batch): batch for batch in batches}
        yield from _collect(futures, futures_completed)
    except BaseException:
        _end_pool(pool)
        raise
    pool.shutdown()


def _start_forkserver() -> None:
    """Start this process's fork server (once) in ``PACKAGE_HOME``. The server is a fresh
    ``python -c``, whose imports look in its working folder first (Python 3.11's forkserver
    ignores the import path it is handed, and skips a module it cannot import): started
    elsewhere, it imports any ``sixtysix`` in the run's folder instead of the run's own."""
    with contextlib.chdir(PACKAGE_HOME):
        forkserver.ensure_running()


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """End the workers now, then the pool, which fails the batches left (``shutdown`` alone
    waits for the running batches; before Python 3.14 the pool has no public way to end its
    workers). No future is cancelled first: the pool's manager thread, finding its workers
    gone, sets an error on every future left and raises on one already cancelled."""
    for process in list(pool._processes.values()):
        process.terminate()
    pool.shutdown()


def _start_worker() -> None:
    """A pool worker: it leaves the terminal's Ctrl-C and hangup to its run, which ends its
    workers when it stops, and it ends itself when the run's process is gone."""
    for number in GROUP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, name="exit-with-run", daemon=True).start()


def _exit_with_parent() -> None:
    """End this worker when its parent, the run's process, has ended. Multiprocessing's
    sentinel of the parent becomes ready then (whatever ended it, ``kill -9`` too).
    ``prctl(PR_SET_PDEATHSIG)`` would not do: a worker's parent is the fork server, which
    lives on as long as any worker does."""
    wait_for_ready([multiprocessing.parent_process().sentinel])
    os._exit(1)


def _on_dask(work: Work, client, config_json: str, batches: list[Batch]):
    """The batches on the cluster of a ``distributed.Client``, after sending the workers the
    source of every user agent module that is a single file."""
    import distributed

    for path in user_module_files(json.loads(config_json)["agents"]):
        client.upload_file(str(path))
    futures = {client.submit(work, config_json, batch, pure=False): batch for batch in batches}
    try:
        yield from _collect(futures, functools.partial(distributed.as_completed, loop=client.loop))
    finally:
        client.cancel(list(futures))


def user_module_files(specs: list[str]) -> list[Path]:
    """The source files of the top-level single-file modules of the user agents in ``specs``
    (a package must be importable on the workers by itself). A module last loaded from a
    closed local cluster's scratch folder has no file left, and its workers are gone."""
    files = []
    for spec in specs:
        if agents.parse_spec(spec).info is not None:
            continue
        name = spec.split(":")[0]
        source = getattr(sys.modules.get(name), "__file__", None)
        if "." not in name and source and source.endswith(".py") and Path(source).is_file():
            files.append(Path(source))
    return sorted(set(files))


@contextlib.contextmanager
def open_backend(workers: int, scheduler: str | None, work: Work) -> Iterator[Backend]:
    """This process (one worker), a process pool of ``workers``, or the Dask ``scheduler``,
    doing ``work`` on each batch."""
    if scheduler is None:
        pool = functools.partial(_on_pool, work, workers)
        yield Backend(workers, functools.partial(_in_process, work) if workers == 1 else pool)
        return
    import distributed

    try:
        client = distributed.Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
    except OSError as error:
        raise TournamentError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    with client:
        slots = max(1, sum(client.nthreads().values()))
        yield Backend(slots, functools.partial(_on_dask, work, client))
