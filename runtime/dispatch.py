"""Running a dispatch: workgroups on host threads, waves region by region, the watchdog.

Execution model. A dispatch of ``(gx, gy, gz)`` groups runs ``threads`` host
workers (default: one per core, never more than the groups), each on a thread kept
between dispatches (``workers.py``: starting threads costs more than a small dispatch's
groups). Each worker owns a
*group slot*: frames for one group's waves (``numthreads`` flattened, split into
waves of ``wave_size`` lanes, the last one partial), one LDS block and scratch
for those waves, and a row of statistics counters. Workers claim runs of consecutive
groups from a shared counter and run each group in native code (``driver.py``): every
wave runs to its next barrier (``shc_wave`` returns ``BARRIER``) or to its end,
and when all of them wait at the same barrier they all resume past it. So the
result does not depend on the number of threads, except for the order atomics
see each other in. ctypes releases the GIL while a worker runs.

Errors. A wave that reaches a barrier with only part of its lanes
(``DIVERGENT_BARRIER``), waves of one group stopped at different barriers, or
waves that finished while others wait at a barrier, raise ``DispatchError``
naming the barrier's source line. The watchdog, the calling thread while it
waits for the workers, sets ``ctx->stop`` after ``timeout`` seconds; the waves
see it at loop back-edges and barriers and return ``STOPPED``, and the dispatch
raises ``DispatchTimeout``.
Either way the process stays usable: every buffer belongs to this call.

ABI choices shared with the code generator (``abi.py`` leaves them open):
``frame->group_slot`` and ``frame->worker`` are both the worker's index; scratch
is ``ctx->scratch + (group_slot * waves_per_group + wave_in_group) *
scratch_bytes_per_wave``; the runtime sets ``frame->resume = frame->barrier_id``
before resuming a wave (the JIT may set it too); a sampler's slot points at its
float32[4] border color; an unbounded resource array's length is meta int 9 of
its first slot (``host.META_ARRAY_COUNT``); a texture's ``mip_offsets`` is -1
for other slots.
"""

from __future__ import annotations

import ctypes
import functools
import math
import os
import time
from dataclasses import dataclass

import numpy as np

from ..compiler.machine.abi import FRAME_BARRIER_ID, FRAME_HEADER_BYTES, HISTORY_SITES, STAT_COUNTERS, Status
from .driver import ERR_DIVERGENT, ERR_MISMATCH, ERR_NONE, ERR_PARTIAL, ERR_STOPPED
from .layout import DEFAULT_TIMEOUT
from .stats import DispatchStats
from .workers import WORKER_THREADS, Job

POLL_SECONDS = 0.25  # how often the waiting thread looks at the clock and for Ctrl-C
MAX_GROUPS_PER_DIMENSION = 65535  # D3D12's limit
MAX_GROUPS = 2 ** 31 - 2 ** 16  # the scheduler counts groups in an int32


class DispatchError(RuntimeError):
    """The kernel did something a GPU would not survive (a barrier in divergent control flow)."""


class DispatchTimeout(DispatchError):
    """The watchdog stopped a kernel that ran longer than its timeout."""


def _watch(running: list[Job], deadline: float | None, stop: np.ndarray, tick=None) -> bool:
    """Wait for the workers' jobs as their watchdog, open to Ctrl-C: set ``stop`` once the clock
    passes ``deadline``; call ``tick()`` at every look. Returns whether it stopped them."""
    timed_out = False
    for job in running:
        while not job.done.is_set():
            wait = POLL_SECONDS
            if deadline is not None:
                wait = min(wait, deadline - time.perf_counter())
                if wait <= 0:  # the workers stop at their next back-edge, barrier or group
                    stop[0] = 1
                    timed_out, deadline, wait = True, None, POLL_SECONDS
            job.done.wait(wait)
            if tick is not None:
                tick()
    return timed_out


class Context(ctypes.Structure):
    """``abi.py``'s Context."""

    _fields_ = [
        ("resources", ctypes.c_void_p), ("sizes", ctypes.c_void_p), ("meta", ctypes.c_void_p),
        ("lds", ctypes.c_void_p), ("scratch", ctypes.c_void_p), ("stop", ctypes.c_void_p),
        ("counters", ctypes.c_void_p), ("wave_size", ctypes.c_int32),
        ("numthreads", ctypes.c_int32 * 3), ("group_count", ctypes.c_int32 * 3),
        ("history", ctypes.c_void_p),
    ]


assert (Context.wave_size.offset, Context.numthreads.offset, Context.group_count.offset,
        Context.history.offset) == (56, 60, 72, 88)


@dataclass
class DispatchResult:
    """What ``Kernel.dispatch`` returns; outputs are in the caller's arrays."""

    stats: DispatchStats

    def __repr__(self) -> str:
        s = self.stats
        return (f"DispatchResult(waves={s.waves}, instructions={s.total_instructions}, "
                f"mean_active_lanes={s.mean_active_lanes:.2f})")


def normalise_groups(groups) -> tuple[int, int, int]:
    """``(gx, gy, gz)`` from an int or a 1- to 3-tuple; each 0..65535."""
    if isinstance(groups, (int, np.integer)):
        groups = (int(groups),)
    try:
        counts = tuple(int(g) for g in groups)
    except (TypeError, ValueError):
        raise ValueError(f"groups must be (gx, gy, gz), not {groups!r}") from None
    if not 1 <= len(counts) <= 3:
        raise ValueError(f"groups must be (gx, gy, gz), not {groups!r}")
    counts = counts + (1,) * (3 - len(counts))
    if any(not 0 <= g <= MAX_GROUPS_PER_DIMENSION for g in counts):
        raise ValueError(f"each group count must be 0..{MAX_GROUPS_PER_DIMENSION}, got {counts}")
    if counts[0] * counts[1] * counts[2] > MAX_GROUPS:
        raise ValueError(f"a dispatch runs at most {MAX_GROUPS} groups, not {counts[0] * counts[1] * counts[2]}")
    return counts


def _address(array: np.ndarray) -> int:
    """The address of one of the dispatch's own arrays (writable, contiguous, not empty): a
    ctypes view of its buffer costs a third of ``array.ctypes.data``, which builds an object."""
    return ctypes.addressof(ctypes.c_char.from_buffer(array))


def _aligned(nbytes: int) -> np.ndarray:
    """Zeroed memory of at least ``nbytes`` (and 16), 8-byte aligned (numpy aligns to 16 or more)."""
    return np.zeros((max(nbytes, 16) + 7) // 8, dtype=np.uint64)


class _Worker:
    """A host thread's group slot: frames, wave states, error record."""

    def __init__(self, index: int, waves: int, frame_bytes: int):
        self.index = index
        self.frames = _aligned(waves * frame_bytes)
        self.states = np.zeros(max(waves, 1), dtype=np.int32)
        self.error = np.zeros(4, dtype=np.int32)
        self.code = ERR_NONE
        self.failure: BaseException | None = None

    def barrier_of(self, wave: int, frame_bytes: int) -> int:
        return int(self.frames.view(np.uint8)[wave * frame_bytes + FRAME_BARRIER_ID:][:4].view(np.int32)[0])


def run(info, code, groups, table, timeout: float | None = DEFAULT_TIMEOUT, threads: int | None = None,
        progress=None) -> DispatchStats:
    """Run ``code`` (a ``jit.LoadedCode``) over ``groups`` with the bound ``table``; ``progress(started,
    total)``, if given, hears how many groups the workers have taken, every ``POLL_SECONDS``."""
    groups = normalise_groups(groups)
    total = groups[0] * groups[1] * groups[2]
    wave_size = info.wave_size
    group_threads = info.numthreads[0] * info.numthreads[1] * info.numthreads[2]
    waves = -(-group_threads // wave_size)
    frame_bytes = max(info.frame_bytes, FRAME_HEADER_BYTES)
    frame_bytes = (frame_bytes + 7) // 8 * 8
    if threads is not None and (not isinstance(threads, (int, np.integer)) or threads < 1):
        raise ValueError(f"threads must be a positive number of host threads or None, not {threads!r}")
    workers = max(1, min(threads or os.cpu_count() or 1, total or 1))
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float, np.number))
                                or not math.isfinite(timeout) or timeout <= 0):
        raise ValueError(f"timeout must be positive seconds (a finite number) or None, not {timeout!r}")
    stats = DispatchStats(groups=groups, waves=total * waves, wave_size=wave_size, lds_bytes=info.lds_bytes,
                          scratch_bytes_per_wave=info.scratch_bytes_per_wave, threads=workers)
    if total == 0:
        return stats

    lds_blocks = [_aligned(info.lds_bytes) for _ in range(workers)]
    lds_table = np.array([_address(block) for block in lds_blocks], dtype=np.uint64)
    scratch = _aligned(workers * waves * info.scratch_bytes_per_wave)
    counters = np.zeros(workers * STAT_COUNTERS, dtype=np.int64)
    history = np.zeros(workers * waves * HISTORY_SITES, dtype=np.int32)
    stop = np.zeros(4, dtype=np.int32)
    next_group = np.zeros(4, dtype=np.int32)
    context = Context(
        resources=_address(table.pointers), sizes=_address(table.sizes), meta=_address(table.meta),
        lds=_address(lds_table), scratch=_address(scratch), stop=_address(stop),
        counters=_address(counters), wave_size=wave_size, history=_address(history),
        numthreads=(ctypes.c_int32 * 3)(*info.numthreads), group_count=(ctypes.c_int32 * 3)(*groups),
    )
    pool = [_Worker(index, waves, frame_bytes) for index in range(workers)]

    def work(worker: _Worker) -> None:
        try:
            worker.code = code.run_groups(
                ctypes.addressof(context), _address(worker.frames), frame_bytes, waves, worker.index,
                _address(next_group), total, info.lds_bytes, _address(worker.states),
                _address(worker.error))
        except BaseException as failure:  # noqa: BLE001 - reported by the dispatching thread
            worker.failure = failure
        if worker.code != ERR_NONE or worker.failure is not None:
            stop[0] = 1  # the others stop at their next group or barrier

    started = time.perf_counter()
    running: list[Job] = []
    try:
        for worker in pool:
            running.append(WORKER_THREADS.run(functools.partial(work, worker)))
        tick = None if progress is None else (lambda: progress(min(int(next_group[0]), total), total))
        timed_out = _watch(running, None if timeout is None else started + timeout, stop, tick)
    except KeyboardInterrupt:
        stop[0] = 1
        for job in running:
            job.done.wait()
        raise
    stats.seconds = time.perf_counter() - started
    _raise_failures(info, pool, groups, frame_bytes, timed_out, timeout)
    filled = DispatchStats.from_counters(counters, **{
        name: getattr(stats, name) for name in ("groups", "waves", "wave_size", "lds_bytes",
                                                 "scratch_bytes_per_wave", "threads", "seconds")})
    return filled


def _raise_failures(info, pool: list[_Worker], groups, frame_bytes: int, timed_out: bool, timeout) -> None:
    for worker in pool:
        if worker.failure is not None:
            raise worker.failure
    for worker in pool:
        if worker.code not in (ERR_NONE, ERR_STOPPED):
            raise DispatchError(_describe_failure(info, worker, groups, frame_bytes))
    if any(worker.code == ERR_STOPPED for worker in pool):
        if timed_out:
            raise DispatchTimeout(f"the kernel '{info.entry}' ran longer than its timeout of {timeout:g} s "
                                  f"and was stopped (a runaway loop? pass timeout= to allow more)")
        raise DispatchError(f"the kernel '{info.entry}' stopped without being asked to")


def _group_of(linear: int, groups) -> tuple[int, int, int]:
    gx, gy, _ = groups
    return linear % gx, linear // gx % gy, linear // (gx * gy)


def _describe_failure(info, worker: _Worker, groups, frame_bytes: int) -> str:
    code, linear, wave, status = (int(x) for x in worker.error)
    group = _group_of(linear, groups)
    where = f"group {group}"
    if code == ERR_DIVERGENT:
        barrier = worker.barrier_of(wave, frame_bytes)
        return (f"barrier in divergent control flow at {info.barrier_coord(barrier)}: wave {wave} of {where} "
                f"reached it with only some of its lanes (every thread of a group must reach a "
                f"GroupMemoryBarrierWithGroupSync)")
    if code == ERR_MISMATCH:
        waiting = [w for w in range(wave + 1) if worker.states[w] == Status.BARRIER]
        first = waiting[0] if waiting else 0
        here, there = worker.barrier_of(first, frame_bytes), worker.barrier_of(wave, frame_bytes)
        return (f"barrier in divergent control flow: in {where}, wave {first} waits at the barrier at "
                f"{info.barrier_coord(here)} while wave {wave} waits at the one at {info.barrier_coord(there)}")
    if code == ERR_PARTIAL:
        finished = [w for w in range(len(worker.states)) if worker.states[w] == Status.DONE]
        barrier = worker.barrier_of(wave, frame_bytes)
        names = ", ".join(map(str, finished[:8])) + (", ..." if len(finished) > 8 else "")
        return (f"barrier in divergent control flow at {info.barrier_coord(barrier)}: in {where}, "
                f"wave{'s' if len(finished) != 1 else ''} {names} finished while wave {wave} waits at it "
                f"(every thread of a group must reach a GroupMemoryBarrierWithGroupSync)")
    return f"wave {wave} of {where} returned status {status}, which the runtime ABI does not define"
