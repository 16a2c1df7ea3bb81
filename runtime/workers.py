"""Host threads that run a dispatch's workers, kept from one dispatch to the next.

    job = WORKER_THREADS.run(function)    # on an idle thread, or a new one if none is idle
    job.done.wait()                       # function has returned

Starting a thread costs more than a small dispatch's groups: ``Thread.start`` returns only
once the new thread has run, and on a busy machine that waits for the scheduler, while the
dispatching thread can do nothing else (a one-group SPD dispatch on two threads, at a load
average of 8: 0.82 ms with new threads, 0.75 ms with kept ones). So the threads stay: after its
job a thread goes back to the idle list (at most ``KEEP_IDLE`` of them stay, the others
end), and the next dispatch hands it a job through its queue, which costs a wake-up.

A dispatch owns the threads it took until their jobs return, so one dispatch's runaway
kernel never holds up another's workers: a dispatch that finds no idle thread starts a
new one. A child made by ``os.fork`` starts with no idle threads (the parent's threads do
not exist in it).
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable

KEEP_IDLE = max(2, os.cpu_count() or 1)  # idle threads kept for the next dispatch


class Job:
    """One worker's run: ``done`` is set once ``function`` has returned, or raised ``failure``."""

    def __init__(self, function: Callable[[], None]):
        self.function = function
        self.done = threading.Event()
        self.failure: BaseException | None = None


class _HostThread:
    """A daemon thread that runs the jobs put in its queue, one at a time."""

    def __init__(self, threads: WorkerThreads):
        self.threads = threads
        self.jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="shc-worker", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            job = self.jobs.get()
            try:
                job.function()
            except BaseException as failure:  # noqa: BLE001 - the job's owner looks at it
                job.failure = failure
            kept = self.threads.idle_again(self)  # idle before done: the next dispatch may take it
            job.done.set()
            if not kept:
                return


class WorkerThreads:
    """The idle list; see the module docstring."""

    def __init__(self, keep_idle: int = KEEP_IDLE):
        self.keep_idle = keep_idle
        self._idle: list[_HostThread] = []
        self._lock = threading.Lock()

    def run(self, function: Callable[[], None]) -> Job:
        """Run ``function`` on a thread of its own; the returned job says when it has returned."""
        job = Job(function)
        with self._lock:
            host = self._idle.pop() if self._idle else None
        if host is None:
            host = _HostThread(self)
        host.jobs.put(job)
        return job

    def idle_again(self, host: _HostThread) -> bool:
        """Put ``host`` back on the idle list; False when the list is full (the thread ends)."""
        with self._lock:
            if len(self._idle) >= self.keep_idle:
                return False
            self._idle.append(host)
            return True

    def forget(self) -> None:
        """Drop the idle list (in a forked child, where its threads do not exist)."""
        self._idle = []
        self._lock = threading.Lock()


WORKER_THREADS = WorkerThreads()
os.register_at_fork(after_in_child=WORKER_THREADS.forget)
