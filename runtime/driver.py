"""The native group scheduler: LLVM IR linked into every kernel next to ``shc_wave``.

A dispatch of a million waves cannot afford a Python call per wave, so the loop
that runs groups is native code too. Each host worker thread calls

    int32_t shc_run_groups(const Context *ctx, uint8_t *frames, int64_t frame_bytes,
                           int32_t waves, int32_t worker, int32_t *next_group,
                           int32_t total_groups, int64_t lds_bytes, int32_t *states,
                           int32_t *error)

which repeatedly claims a run of consecutive groups (a compare-and-swap on a counter
shared by the workers: a sixteenth of the groups left, from ``MAX_RUN`` down to one
near the end, so the workers finish together; the split of groups between threads
does not change what a group computes) and takes them one at a time. Neighbouring
groups usually touch neighbouring memory (tiles of an image): in runs, each core
goes along the rows its last group left off, as the hardware prefetchers expect,
instead of the cores taking turns (SPD at 4096 x 4096: 3-8% faster). For each group it
zeroes the worker's frames and its group slot's LDS, fills in each frame's
header (``abi.FRAME_*``), and then runs the group region by region:

1. every wave that has not finished is called once: it runs until it finishes
   (``DONE``) or stops at a barrier (``BARRIER``, ``frame->barrier_id``);
2. if every wave is done, the group is done;
3. otherwise every unfinished wave must be waiting at the same barrier, and no
   wave may have finished: then each waiting frame gets ``resume = barrier_id``
   and the next region runs.

It returns ``ERR_NONE`` when the groups ran out, or stops early with one of the
``ERR_*`` codes, writing ``error[0..3] = (code, group, wave, status)``: the
Python side (``dispatch.py``) reads the per-wave ``states`` and frames to say
more. ``ctx->stop`` (the watchdog) is checked before each group and between
regions, so a kernel stuck in a barrier loop stops too.
"""

from __future__ import annotations

from ..compiler.machine.abi import FRAME_BARRIER_ID, FRAME_GROUP_ID, FRAME_GROUP_SLOT, FRAME_RESUME, FRAME_WAVE_IN_GROUP, \
    FRAME_WORKER, Status

ENTRY = "shc_run_groups"

ERR_NONE = 0
ERR_STOPPED = 1  # ctx->stop was set
ERR_DIVERGENT = 2  # a wave returned DIVERGENT_BARRIER
ERR_MISMATCH = 3  # waves of one group stopped at different barriers
ERR_PARTIAL = 4  # some waves finished while others wait at a barrier
ERR_STATUS = 5  # a wave returned a status the ABI does not define

NOT_STARTED = -1  # a wave's state before its first call (states[] otherwise holds its last Status)
MAX_RUN = 16  # groups a worker claims at most at once

_TEMPLATE = """
declare i32 @{wave_entry}(ptr, ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)

define i32 @{entry}(ptr %ctx, ptr %frames, i64 %frame_bytes, i32 %waves, i32 %worker,
                    ptr %next_group, i32 %total_groups, i64 %lds_bytes, ptr %states, ptr %error) {{
entry:
  %stop.field = getelementptr inbounds i8, ptr %ctx, i64 40
  %stop = load ptr, ptr %stop.field
  %lds.field = getelementptr inbounds i8, ptr %ctx, i64 24
  %lds.table = load ptr, ptr %lds.field
  %worker.64 = sext i32 %worker to i64
  %lds.slot = getelementptr inbounds ptr, ptr %lds.table, i64 %worker.64
  %lds = load ptr, ptr %lds.slot
  %count.x.field = getelementptr inbounds i8, ptr %ctx, i64 72
  %count.x = load i32, ptr %count.x.field
  %count.y.field = getelementptr inbounds i8, ptr %ctx, i64 76
  %count.y = load i32, ptr %count.y.field
  %waves.64 = zext i32 %waves to i64
  %frames.bytes = mul i64 %frame_bytes, %waves.64
  br label %claim

claim:                                        ; the watchdog, then the next group
  %mine = phi i32 [ 0, %entry ], [ %mine.next, %region.end ]    ; the next group of this worker's run
  %mine.end = phi i32 [ 0, %entry ], [ %run.end, %region.end ]  ; and where the run ends
  %stop.value = load volatile i32, ptr %stop
  %stopped = icmp ne i32 %stop.value, 0
  br i1 %stopped, label %exit.stopped, label %take

take:
  %have = icmp ult i32 %mine, %mine.end
  br i1 %have, label %own, label %grab

grab:                                         ; the next run: a 16th of the groups left, 1 to {run}
  %seen = load atomic i32, ptr %next_group monotonic, align 4
  br label %try

try:
  %expect = phi i32 [ %seen, %grab ], [ %actual, %retry ]
  %left.any = icmp ult i32 %expect, %total_groups
  br i1 %left.any, label %size, label %exit.ok

size:
  %left = sub i32 %total_groups, %expect
  %share = lshr i32 %left, 4
  %share.capped = call i32 @llvm.umin.i32(i32 %share, i32 {run})
  %run.size = call i32 @llvm.umax.i32(i32 %share.capped, i32 1)
  %taken.end = add i32 %expect, %run.size
  %swap = cmpxchg ptr %next_group, i32 %expect, i32 %taken.end monotonic monotonic
  %actual = extractvalue {{ i32, i1 }} %swap, 0
  %won = extractvalue {{ i32, i1 }} %swap, 1
  br i1 %won, label %own, label %retry

retry:
  br label %try

own:
  %group = phi i32 [ %mine, %take ], [ %expect, %size ]
  %run.end = phi i32 [ %mine.end, %take ], [ %taken.end, %size ]
  %mine.next = add i32 %group, 1
  br label %start

start:                                        ; fresh frames and LDS for the group
  %gx = urem i32 %group, %count.x
  %gyz = udiv i32 %group, %count.x
  %gy = urem i32 %gyz, %count.y
  %gz = udiv i32 %gyz, %count.y
  call void @llvm.memset.p0.i64(ptr align 8 %frames, i8 0, i64 %frames.bytes, i1 false)
  call void @llvm.memset.p0.i64(ptr align 8 %lds, i8 0, i64 %lds_bytes, i1 false)
  br label %init

init:
  %i = phi i32 [ 0, %start ], [ %i.next, %init.wave ]
  %init.more = icmp ult i32 %i, %waves
  br i1 %init.more, label %init.wave, label %region

init.wave:
  %i.64 = zext i32 %i to i64
  %i.offset = mul i64 %i.64, %frame_bytes
  %frame.i = getelementptr inbounds i8, ptr %frames, i64 %i.offset
  %f.wave = getelementptr inbounds i8, ptr %frame.i, i64 {wave_in_group}
  store i32 %i, ptr %f.wave
  %f.gx = getelementptr inbounds i8, ptr %frame.i, i64 {group_x}
  store i32 %gx, ptr %f.gx
  %f.gy = getelementptr inbounds i8, ptr %frame.i, i64 {group_y}
  store i32 %gy, ptr %f.gy
  %f.gz = getelementptr inbounds i8, ptr %frame.i, i64 {group_z}
  store i32 %gz, ptr %f.gz
  %f.slot = getelementptr inbounds i8, ptr %frame.i, i64 {group_slot}
  store i32 %worker, ptr %f.slot
  %f.worker = getelementptr inbounds i8, ptr %frame.i, i64 {worker}
  store i32 %worker, ptr %f.worker
  %state.i = getelementptr inbounds i32, ptr %states, i64 %i.64
  store i32 {not_started}, ptr %state.i
  %i.next = add i32 %i, 1
  br label %init

region:                                       ; every unfinished wave to its next barrier
  br label %run

run:
  %w = phi i32 [ 0, %region ], [ %w.next, %next ]
  %first = phi i32 [ -1, %region ], [ %first.next, %next ]   ; first wave waiting at a barrier
  %done = phi i32 [ 0, %region ], [ %done.next, %next ]      ; waves that have finished
  %run.more = icmp ult i32 %w, %waves
  br i1 %run.more, label %wave, label %region.end

wave:
  %w.64 = zext i32 %w to i64
  %done.plus = add i32 %done, 1
  %state.w = getelementptr inbounds i32, ptr %states, i64 %w.64
  %state = load i32, ptr %state.w
  %finished = icmp eq i32 %state, {done}
  br i1 %finished, label %skip, label %call

skip:
  br label %next

call:
  %w.offset = mul i64 %w.64, %frame_bytes
  %frame.w = getelementptr inbounds i8, ptr %frames, i64 %w.offset
  %status = call i32 @{wave_entry}(ptr %ctx, ptr %frame.w)
  store i32 %status, ptr %state.w
  switch i32 %status, label %exit.status [
    i32 {done}, label %finish
    i32 {barrier}, label %barrier
    i32 {stopped}, label %exit.stopped
    i32 {divergent}, label %exit.divergent
  ]

finish:
  br label %next

barrier:
  %is.first = icmp slt i32 %first, 0
  br i1 %is.first, label %next, label %compare

compare:                                      ; the same barrier as the first waiting wave?
  %barrier.w.field = getelementptr inbounds i8, ptr %frame.w, i64 {barrier_id}
  %barrier.w = load i32, ptr %barrier.w.field
  %first.64 = zext i32 %first to i64
  %first.offset = mul i64 %first.64, %frame_bytes
  %frame.first = getelementptr inbounds i8, ptr %frames, i64 %first.offset
  %barrier.first.field = getelementptr inbounds i8, ptr %frame.first, i64 {barrier_id}
  %barrier.first = load i32, ptr %barrier.first.field
  %same = icmp eq i32 %barrier.w, %barrier.first
  br i1 %same, label %next, label %exit.mismatch

next:
  %first.next = phi i32 [ %first, %skip ], [ %first, %finish ], [ %w, %barrier ], [ %first, %compare ]
  %done.next = phi i32 [ %done.plus, %skip ], [ %done.plus, %finish ], [ %done, %barrier ], [ %done, %compare ]
  %w.next = add i32 %w, 1
  br label %run

region.end:
  %none.waiting = icmp slt i32 %first, 0
  br i1 %none.waiting, label %claim, label %check

check:
  %any.done = icmp ne i32 %done, 0
  br i1 %any.done, label %exit.partial, label %watchdog

watchdog:
  %stop.again = load volatile i32, ptr %stop
  %stopped.again = icmp ne i32 %stop.again, 0
  br i1 %stopped.again, label %exit.stopped, label %resume

resume:                                       ; every wave resumes after the barrier
  %r = phi i32 [ 0, %watchdog ], [ %r.next, %resume.wave ]
  %resume.more = icmp ult i32 %r, %waves
  br i1 %resume.more, label %resume.wave, label %region

resume.wave:
  %r.64 = zext i32 %r to i64
  %r.offset = mul i64 %r.64, %frame_bytes
  %frame.r = getelementptr inbounds i8, ptr %frames, i64 %r.offset
  %barrier.r.field = getelementptr inbounds i8, ptr %frame.r, i64 {barrier_id}
  %barrier.r = load i32, ptr %barrier.r.field
  %resume.r.field = getelementptr inbounds i8, ptr %frame.r, i64 {resume}
  store i32 %barrier.r, ptr %resume.r.field
  %r.next = add i32 %r, 1
  br label %resume

exit.ok:
  ret i32 {err_none}

exit.stopped:
  store i32 {err_stopped}, ptr %error
  ret i32 {err_stopped}

exit.divergent:
  call void @{entry}.report(ptr %error, i32 {err_divergent}, i32 %group, i32 %w, i32 %status)
  ret i32 {err_divergent}

exit.mismatch:
  call void @{entry}.report(ptr %error, i32 {err_mismatch}, i32 %group, i32 %w, i32 %status)
  ret i32 {err_mismatch}

exit.partial:
  call void @{entry}.report(ptr %error, i32 {err_partial}, i32 %group, i32 %first, i32 {barrier})
  ret i32 {err_partial}

exit.status:
  call void @{entry}.report(ptr %error, i32 {err_status}, i32 %group, i32 %w, i32 %status)
  ret i32 {err_status}
}}

define private void @{entry}.report(ptr %error, i32 %code, i32 %group, i32 %wave, i32 %status) {{
  store i32 %code, ptr %error
  %group.field = getelementptr inbounds i32, ptr %error, i64 1
  store i32 %group, ptr %group.field
  %wave.field = getelementptr inbounds i32, ptr %error, i64 2
  store i32 %wave, ptr %wave.field
  %status.field = getelementptr inbounds i32, ptr %error, i64 3
  store i32 %status, ptr %status.field
  ret void
}}
"""


def driver_ir(wave_entry: str) -> str:
    """The scheduler's LLVM IR, calling the kernel's ``wave_entry``."""
    return _TEMPLATE.format(
        entry=ENTRY, wave_entry=wave_entry, run=MAX_RUN,
        resume=FRAME_RESUME, wave_in_group=FRAME_WAVE_IN_GROUP, group_x=FRAME_GROUP_ID,
        group_y=FRAME_GROUP_ID + 4, group_z=FRAME_GROUP_ID + 8, barrier_id=FRAME_BARRIER_ID,
        group_slot=FRAME_GROUP_SLOT, worker=FRAME_WORKER, not_started=NOT_STARTED,
        done=int(Status.DONE), barrier=int(Status.BARRIER), stopped=int(Status.STOPPED),
        divergent=int(Status.DIVERGENT_BARRIER),
        err_none=ERR_NONE, err_stopped=ERR_STOPPED, err_divergent=ERR_DIVERGENT,
        err_mismatch=ERR_MISMATCH, err_partial=ERR_PARTIAL, err_status=ERR_STATUS,
    )
