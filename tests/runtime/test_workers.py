"""Host threads kept between dispatches (runtime/workers.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import shc
from shc.runtime.workers import WORKER_THREADS, WorkerThreads

pytestmark = pytest.mark.usefixtures("private_kernel_cache")

sys.path.insert(0, os.path.dirname(__file__))
import hand_kernels  # noqa: E402

WAIT = 10  # seconds: a job that has not finished by then never will


def _thread_of_a_job(threads: WorkerThreads) -> int:
    """Run a job to its end; the thread it ran on."""
    seen = []
    job = threads.run(lambda: seen.append(threading.get_ident()))
    assert job.done.wait(WAIT)
    return seen[0]


def _waiting_job(threads: WorkerThreads, release: threading.Event):
    """Start a job that waits for ``release``; the job and the list its thread goes into."""
    seen = []

    def wait():
        seen.append(threading.get_ident())
        assert release.wait(WAIT)

    return threads.run(wait), seen


def test_a_finished_job_leaves_its_thread_for_the_next():
    threads = WorkerThreads(keep_idle=2)
    first = _thread_of_a_job(threads)
    second = _thread_of_a_job(threads)
    assert first == second != threading.get_ident()


def test_a_busy_thread_is_not_handed_out_again():
    threads = WorkerThreads(keep_idle=2)
    release = threading.Event()
    busy, seen_busy = _waiting_job(threads, release)
    other = _thread_of_a_job(threads)  # runs while the first job waits: on a thread of its own
    release.set()
    assert busy.done.wait(WAIT)
    assert seen_busy[0] != other


def test_at_most_keep_idle_threads_stay():
    threads = WorkerThreads(keep_idle=1)
    release = threading.Event()
    jobs = [_waiting_job(threads, release)[0] for _ in range(3)]
    release.set()
    assert all(job.done.wait(WAIT) for job in jobs)
    assert len(threads._idle) == 1


def test_a_job_that_raises_still_finishes_and_frees_its_thread():
    threads = WorkerThreads(keep_idle=1)

    def fails():
        raise RuntimeError("reported by the caller, not here")

    handle = threads.run(fails)
    assert handle.done.wait(WAIT)
    assert isinstance(handle.failure, RuntimeError)
    ident = _thread_of_a_job(threads)  # the thread survived its job's exception
    assert ident != threading.get_ident()


def test_dispatches_reuse_their_threads():
    kernel = hand_kernels.copy_kernel((50, 1, 1))
    src = np.arange(2000, dtype=np.uint32)
    dst = np.zeros_like(src)
    kernel.dispatch((40, 1, 1), threads=2, src=src, dst=dst)
    before = {t.ident for t in threading.enumerate() if t.name == "shc-worker"}
    for _ in range(5):
        dst[:] = 0
        kernel.dispatch((40, 1, 1), threads=2, src=src, dst=dst)
        assert np.array_equal(dst, src)
    after = {t.ident for t in threading.enumerate() if t.name == "shc-worker"}
    assert len(before) >= 2 and after == before


def test_a_forked_child_starts_its_own_threads():
    _thread_of_a_job(WORKER_THREADS)  # the parent now has an idle thread
    pid = os.fork()
    if pid == 0:  # the child: the parent's idle thread does not exist here
        ok = not WORKER_THREADS._idle
        if ok:
            job = WORKER_THREADS.run(lambda: None)
            ok = job.done.wait(WAIT)
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


FLUSHING = """
RWStructuredBuffer<float> dst; StructuredBuffer<float> src;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    dst[id.x] = src[id.x] * 0.5f;   // fp32: D3D flushes denormal inputs and results
    GroupMemoryBarrierWithGroupSync();
    dst[id.x] += src[id.x] * 0.25f;
}
"""


def test_a_flushing_kernel_leaves_its_thread_with_the_ieee_mode():
    kernel = shc.compile(FLUSHING)
    tiny = np.float32(2.0 ** -130)  # a denormal; its halves and quarters too
    src = np.array([tiny, 4.0] * 256, np.float32)
    dst = np.ones_like(src)
    for _ in range(2):  # the second dispatch takes the first one's thread
        kernel.dispatch((8, 1, 1), threads=1, src=src, dst=dst)
        assert np.array_equal(dst, np.array([0.0, 3.0] * 256, np.float32))  # every wave flushed
        thread = WORKER_THREADS._idle[-1]  # the dispatch's thread, back on the idle list
        assert _half_on_a_kept_thread(tiny) == (thread.thread.ident, 2.0 ** -131)  # NumPy there keeps denormals


def _half_on_a_kept_thread(value: np.float32) -> tuple[int, float]:
    """The id of the thread a job runs on, and ``value * 0.5`` as NumPy computes it there."""
    seen = []
    job = WORKER_THREADS.run(lambda: seen.append((threading.get_ident(), float(value * np.float32(0.5)))))
    assert job.done.wait(WAIT)
    return seen[0]


INTERRUPTED = """
import sys, threading, numpy as np, shc
kernel = shc.compile('''
RWStructuredBuffer<uint> dst; uint limit;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = 0;
    while (i < limit) { i = (i + 1) % limit; dst[id.x] = i; }
}''')
dst = np.zeros(256, np.uint32)
kernel.dispatch((4, 1, 1), threads=2, dst=dst, limit=0)
print("running", flush=True)
try:
    kernel.dispatch((4, 1, 1), threads=2, timeout=None, dst=dst, limit=10)  # never ends by itself
except KeyboardInterrupt:
    kernel.dispatch((4, 1, 1), threads=2, dst=dst, limit=0)  # the kept threads are free again
    print("interrupted", flush=True)
"""


def test_ctrl_c_stops_a_dispatch_and_frees_its_threads(tmp_path):
    env = dict(os.environ, SHC_CACHE_DIR=str(tmp_path))
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "running"
        time.sleep(0.5)  # the runaway dispatch is under way
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert out.strip() == "interrupted"
