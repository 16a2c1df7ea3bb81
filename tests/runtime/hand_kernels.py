"""Hand-written shc_wave functions that follow compiler/machine/abi.py: the runtime tested without the code generator."""
from shc.compiler.frontend import hlsl_types as T
from shc.runtime import jit
from shc.runtime.kernel import BindingInfo, Kernel, KernelInfo

# A copy kernel: dst[i] = src[i] for the group's 1-D threads; bounds-checked; counts stats.
COPY = r"""
define i32 @shc_wave(ptr %ctx, ptr %frame) {
entry:
  %res.f = getelementptr i8, ptr %ctx, i64 0
  %res = load ptr, ptr %res.f
  %sizes.f = getelementptr i8, ptr %ctx, i64 8
  %sizes = load ptr, ptr %sizes.f
  %src = load ptr, ptr %res
  %dst.p = getelementptr ptr, ptr %res, i64 1
  %dst = load ptr, ptr %dst.p
  %src.size = load i64, ptr %sizes
  %dst.size.p = getelementptr i64, ptr %sizes, i64 1
  %dst.size = load i64, ptr %dst.size.p
  %ws.f = getelementptr i8, ptr %ctx, i64 56
  %ws = load i32, ptr %ws.f
  %ntx.f = getelementptr i8, ptr %ctx, i64 60
  %ntx = load i32, ptr %ntx.f
  %wig.f = getelementptr i8, ptr %frame, i64 4
  %wig = load i32, ptr %wig.f
  %gx.f = getelementptr i8, ptr %frame, i64 8
  %gx = load i32, ptr %gx.f
  %base = mul i32 %wig, %ws
  %gbase = mul i32 %gx, %ntx
  br label %loop
loop:
  %lane = phi i32 [0, %entry], [%lane.next, %cont]
  %active = phi i64 [0, %entry], [%active.next, %cont]
  %more = icmp ult i32 %lane, %ws
  br i1 %more, label %body, label %exit
body:
  %t = add i32 %base, %lane
  %inside = icmp ult i32 %t, %ntx
  br i1 %inside, label %work, label %cont0
work:
  %gid32 = add i32 %gbase, %t
  %gid = zext i32 %gid32 to i64
  %end = mul i64 %gid, 4
  %end4 = add i64 %end, 4
  %src.ok = icmp ule i64 %end4, %src.size
  br i1 %src.ok, label %load, label %loaded
load:
  %sp = getelementptr i32, ptr %src, i64 %gid
  %v0 = load i32, ptr %sp
  br label %loaded
loaded:
  %v = phi i32 [0, %work], [%v0, %load]
  %dst.ok = icmp ule i64 %end4, %dst.size
  br i1 %dst.ok, label %store, label %cont1
store:
  %dp = getelementptr i32, ptr %dst, i64 %gid
  store i32 %v, ptr %dp
  br label %cont1
cont1:
  br label %cont0
cont0:
  %a = phi i64 [0, %body], [1, %cont1]
  br label %cont
cont:
  %active.next = add i64 %active, %a
  %lane.next = add i32 %lane, 1
  br label %loop
exit:
  %cnt.f = getelementptr i8, ptr %ctx, i64 48
  %cnt = load ptr, ptr %cnt.f
  %wk.f = getelementptr i8, ptr %frame, i64 28
  %wk = load i32, ptr %wk.f
  %wk64 = sext i32 %wk to i64
  %row = mul i64 %wk64, 8
  %valu = getelementptr i64, ptr %cnt, i64 %row
  %vv = load i64, ptr %valu
  %vv1 = add i64 %vv, 1
  store i64 %vv1, ptr %valu
  %r4 = add i64 %row, 4
  %vmem = getelementptr i64, ptr %cnt, i64 %r4
  %vm = load i64, ptr %vmem
  %vm1 = add i64 %vm, 2
  store i64 %vm1, ptr %vmem
  %r6 = add i64 %row, 6
  %al = getelementptr i64, ptr %cnt, i64 %r6
  %alv = load i64, ptr %al
  %act3 = mul i64 %active, 3
  %alv1 = add i64 %alv, %act3
  store i64 %alv1, ptr %al
  %r7 = add i64 %row, 7
  %ins = getelementptr i64, ptr %cnt, i64 %r7
  %insv = load i64, ptr %ins
  %insv1 = add i64 %insv, 3
  store i64 %insv1, ptr %ins
  ret i32 0
}
"""

def make_kernel(ir, bindings, numthreads=(64, 1, 1), wave_size=32, lds_bytes=0, frame_bytes=64, barriers=None):
    info = KernelInfo(entry="main", source_file="hand.hlsl", numthreads=numthreads, wave_size=wave_size,
                      bindings=bindings, cbuffers={}, slots={b.name: i for i, b in enumerate(bindings)},
                      slot_count=len(bindings), frame_bytes=frame_bytes, lds_bytes=lds_bytes,
                      scratch_bytes_per_wave=0, barriers=barriers or {})
    return Kernel(info, jit.compile_object(ir))

def copy_kernel(numthreads=(64,1,1), wave_size=32):
    return make_kernel(COPY, [BindingInfo("src", "StructuredBuffer", T.UINT, "t0"),
                              BindingInfo("dst", "RWStructuredBuffer", T.UINT, "u0")], numthreads, wave_size)


# A two-region kernel with a barrier: region 1 writes (wave + 1) * 100 + group into the
# wave's LDS word; region 2 reads the NEXT wave's word (written by another wave before the
# barrier) into out[group * waves + wave]. mode[0] picks a misbehaviour:
#   0 none, 1 wave 1 reaches the barrier divergently, 2 wave 1 stops at barrier 2,
#   3 wave 1 finishes instead of waiting, 4 spin until ctx->stop, 5 wait at barrier 1 forever.
BARRIER = r"""
define i32 @shc_wave(ptr %ctx, ptr %frame) {
entry:
  %res = load ptr, ptr %ctx
  %sizes.f = getelementptr i8, ptr %ctx, i64 8
  %sizes = load ptr, ptr %sizes.f
  %out = load ptr, ptr %res
  %out.size = load i64, ptr %sizes
  %mode.p = getelementptr ptr, ptr %res, i64 1
  %mode.buf = load ptr, ptr %mode.p
  %mode = load i32, ptr %mode.buf
  %lds.f = getelementptr i8, ptr %ctx, i64 24
  %lds.table = load ptr, ptr %lds.f
  %slot.f = getelementptr i8, ptr %frame, i64 24
  %slot = load i32, ptr %slot.f
  %slot64 = sext i32 %slot to i64
  %lds.p = getelementptr ptr, ptr %lds.table, i64 %slot64
  %lds = load ptr, ptr %lds.p
  %ws.f = getelementptr i8, ptr %ctx, i64 56
  %ws = load i32, ptr %ws.f
  %ntx.f = getelementptr i8, ptr %ctx, i64 60
  %ntx = load i32, ptr %ntx.f
  %wsm1 = sub i32 %ws, 1
  %ntr = add i32 %ntx, %wsm1
  %waves = udiv i32 %ntr, %ws
  %wig.f = getelementptr i8, ptr %frame, i64 4
  %wig = load i32, ptr %wig.f
  %gx.f = getelementptr i8, ptr %frame, i64 8
  %gx = load i32, ptr %gx.f
  %resume = load i32, ptr %frame
  %bid.f = getelementptr i8, ptr %frame, i64 20
  %is.w1 = icmp eq i32 %wig, 1
  %spin = icmp eq i32 %mode, 4
  br i1 %spin, label %spin.loop, label %not.spin
spin.loop:
  %stop.f = getelementptr i8, ptr %ctx, i64 40
  %stop = load ptr, ptr %stop.f
  %sv = load volatile i32, ptr %stop
  %stopped = icmp ne i32 %sv, 0
  br i1 %stopped, label %ret.stopped, label %spin.loop
ret.stopped:
  ret i32 2
not.spin:
  %forever = icmp eq i32 %mode, 5
  br i1 %forever, label %ret.barrier1, label %phase
phase:
  %first = icmp eq i32 %resume, 0
  br i1 %first, label %region1, label %region2
region1:
  %w64 = zext i32 %wig to i64
  %cell = getelementptr i32, ptr %lds, i64 %w64
  %wp1 = add i32 %wig, 1
  %val100 = mul i32 %wp1, 100
  %val = add i32 %val100, %gx
  store i32 %val, ptr %cell
  %m1 = icmp eq i32 %mode, 1
  %div = and i1 %m1, %is.w1
  br i1 %div, label %ret.divergent, label %r1b
r1b:
  %m2 = icmp eq i32 %mode, 2
  %mis = and i1 %m2, %is.w1
  br i1 %mis, label %ret.barrier2, label %r1c
r1c:
  %m3 = icmp eq i32 %mode, 3
  %fin = and i1 %m3, %is.w1
  br i1 %fin, label %ret.done, label %ret.barrier1
ret.divergent:
  store i32 1, ptr %bid.f
  ret i32 3
ret.barrier2:
  store i32 2, ptr %bid.f
  ret i32 1
ret.barrier1:
  store i32 1, ptr %bid.f
  ret i32 1
ret.done:
  ret i32 0
region2:
  %next = add i32 %wig, 1
  %other = urem i32 %next, %waves
  %o64 = zext i32 %other to i64
  %ocell = getelementptr i32, ptr %lds, i64 %o64
  %ov = load i32, ptr %ocell
  %gw = mul i32 %gx, %waves
  %idx = add i32 %gw, %wig
  %idx64 = zext i32 %idx to i64
  %e = mul i64 %idx64, 4
  %e4 = add i64 %e, 4
  %ok = icmp ule i64 %e4, %out.size
  br i1 %ok, label %st, label %ret.done
st:
  %op = getelementptr i32, ptr %out, i64 %idx64
  store i32 %ov, ptr %op
  ret i32 0
}
"""


def barrier_kernel(numthreads=(128, 1, 1), wave_size=32):
    lds = 4 * -(-numthreads[0] // wave_size)
    return make_kernel(BARRIER, [BindingInfo("out", "RWStructuredBuffer", T.UINT, "u0"),
                                 BindingInfo("mode", "StructuredBuffer", T.UINT, "t0")],
                       numthreads, wave_size, lds_bytes=lds,
                       barriers={1: "hand.hlsl:7:5", 2: "hand.hlsl:9:5"})


TRIVIAL = "define i32 @shc_wave(ptr %ctx, ptr %frame) {\n  ret i32 0\n}\n"


def fake_host(module):
    """A HostKernel stand-in whose shc_wave does nothing (binding and API tests)."""
    from types import SimpleNamespace

    return SimpleNamespace(llvm_ir=TRIVIAL, entry="shc_wave", frame_bytes=64, slots=None,
                           lds_bytes=module.lds_bytes, scratch_bytes_per_wave=0, nesting=0, blocks=1)


