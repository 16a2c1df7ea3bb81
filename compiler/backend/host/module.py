"""The host JIT back end: a kernel's final IR as LLVM IR that runs one wave per call.

    from shc.compiler.backend.host.module import build_host_module
    kernel = build_host_module(module)          # module: compile_source(...)'s result
    kernel.llvm_ir, kernel.entry ("shc_wave"), kernel.frame_bytes, kernel.slots,
    kernel.lds_bytes, kernel.scratch_bytes_per_wave

The function is ``int32_t shc_wave(const Context *ctx, Frame *frame)``
(``compiler/machine/abi.py``): it runs the wave ``frame->wave_in_group`` of group
``frame->group_id`` until the kernel ends (``DONE``), a ``barrier {sync=true}``
(``BARRIER``, ``frame->barrier_id``; call again to resume right after it), a
barrier reached by only part of the wave's lanes (``DIVERGENT_BARRIER``) or the
watchdog (``*ctx->stop`` set, checked on every loop back edge: ``STOPPED``).

Code shape. Each divergent value is a struct of arrays: one ``<W x T>`` per
component; values that are the same in every lane of the wave are scalars (so
uniform loop counters and branches cost no mask work). Which ones is decided by
``host/divergence.py``, a conservative version of ``passes/uniformity.py``: here a
wrong "uniform" is a wrong result. The exec mask is a ``<W x i1>``; structured
control flow runs as the interpreter runs it (``host/flow.py``), wave-uniform
conditions as plain branches. Values read outside their block live in stack
slots that LLVM's mem2reg turns back into SSA (``host/analysis.py`` says which);
constants and thread inputs are rematerialised. Operations are tables of
emitters: ``host_arith``, ``host_memory``, ``host_textures``, ``host_wave``;
gathers, scatters and SampleLevel are small out-of-line helper functions.

Frame and barriers. The frame's spill area (from ``FRAME_HEADER_BYTES``) holds,
per barrier, the values live across it (SSA liveness, a phi's operands live at
the end of its predecessors), each component as its home holds it (i1 as one
byte per lane), packed from offset 64; ``frame_bytes`` is 64 plus the largest of
them. At a barrier the JIT checks that the exec mask is the wave's lanes
(otherwise ``DIVERGENT_BARRIER``), stores the values, sets ``frame->resume`` and
``frame->barrier_id`` to the barrier's id (1, 2, ...) and returns. The entry
block switches on ``frame->resume``: resuming reloads the values and goes on with
the exec mask set to the wave's lanes and every parked-lane mask empty (the
whole wave was at the barrier, so no lane was parked anywhere). Everything else a
resumed wave needs (context fields, thread ids) is recomputed from the context
and the frame header.

Statistics (``ctx->counters[frame->worker * STAT_COUNTERS + k]``): every block
adds its static counts by class (``interpret.stat_group``) once per execution,
and its active lanes; they accumulate in registers and are added to the counters
when the call returns.

Resource slots: the bindings in order, ``count`` slots each (a resource array's
elements); an unbounded array (at most one) comes last and takes as many slots as
the runtime binds, its element count in ``meta[slot * META_INTS +
META_ARRAY_COUNT]`` of its first slot. Scratch (dynamically indexed local
arrays) is lane-major, ``scratch_bytes`` per lane, at ``ctx->scratch +
(group_slot * waves_per_group + wave_in_group) * scratch_bytes_per_wave``; it is
zeroed when a wave starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...machine.abi import (FRAME_BARRIER_ID, FRAME_GROUP_ID, FRAME_HEADER_BYTES, FRAME_RESUME,
                            FRAME_GROUP_SLOT, FRAME_WAVE_IN_GROUP, FRAME_WORKER, HISTORY_SITES, STAT_COUNTERS,
                            ResourceKind, Status)
from ...frontend import hlsl_types as T
from ...ir.core import Binding, Block, Inst, Module
from ...ir.lower.globals import tight_size
from ...ir.ops import LANE_EXCHANGE, Op
from ...ir.structure import nesting_depth
from . import arith as host_arith
from . import atomics as host_atomics
from . import float_mode
from . import gather as host_gather
from . import memory as host_memory
from . import prefix_ladder
from . import textures as host_textures
from . import wave as host_wave
from . import wave_partitions as host_wave_partitions
from .memory import META_ARRAY_COUNT
from .analysis import ACTIVE_LANES, Plan, is_sync_barrier, plan_function
from .divergence import Divergence
from .flow import Construct, FlowEmitter, UnstructuredFlow
from .llvm_text import Builder, V, bit_width, element, flat_scalars, is_vector, ll_scalar
from .values import Value, const_value, wave_scalar

__all__ = ["HostKernel", "SlotInfo", "build_host_module", "UnstructuredFlow", "META_ARRAY_COUNT"]

ENTRY = "shc_wave"

HANDLERS = {**host_arith.HANDLERS, **host_memory.HANDLERS, **host_atomics.HANDLERS, **host_textures.HANDLERS,
            **host_gather.HANDLERS, **host_wave.HANDLERS, **host_wave_partitions.HANDLERS}
# results that define every lane (not only the active ones)
_WHOLE_RESULTS = LANE_EXCHANGE


@dataclass(frozen=True)
class SlotInfo:
    """One resource slot of ``ctx->resources`` and what the JIT expects in it."""

    slot: int
    name: str  # the binding's HLSL name
    array_index: int  # element of a resource array (0 for a single resource)
    kind: ResourceKind
    hlsl_kind: str  # e.g. "RWStructuredBuffer", "Texture2DArray", "SamplerState", "cbuffer"
    element: T.Type | None
    stride: int  # bytes per element for buffers (the JIT's compile-time stride); 16 for textures
    writable: bool
    globally_coherent: bool
    count: int | None  # the binding's array size (None: unbounded)


@dataclass
class HostKernel:
    llvm_ir: str
    entry: str
    frame_bytes: int
    slots: list[SlotInfo]
    lds_bytes: int
    scratch_bytes_per_wave: int
    wave_size: int
    numthreads: tuple[int, int, int]
    waves_per_group: int
    barriers: int  # sync barriers (ids 1..barriers)
    nesting: int = 0  # constructs open at once at the deepest point (jit.short_pipeline reads it)
    blocks: int = 0  # IR blocks of the kernel (jit.short_pipeline reads it)


def build_host_module(module: Module, stats: bool = True) -> HostKernel:
    """LLVM IR for ``module``'s kernel: one wave per call of ``shc_wave`` (see the module docstring)."""
    return KernelEmitter(module, stats).build()


# ---------------------------------------------------------------------------------------
# resource slots
# ---------------------------------------------------------------------------------------

_CBUFFERS = ("cbuffer", "tbuffer", "ConstantBuffer")


def resource_kind(binding: Binding) -> ResourceKind:
    if binding.kind in _CBUFFERS:
        return ResourceKind.CBUFFER
    if binding.kind in T.SAMPLER_KINDS:
        return ResourceKind.SAMPLER
    if "ByteAddress" in binding.kind:
        return ResourceKind.BYTE_ADDRESS
    if binding.kind in T.RESOURCE_KINDS and T.RESOURCE_KINDS[binding.kind][2]:
        return ResourceKind.TEXTURE
    return ResourceKind.BUFFER


def element_stride(binding: Binding) -> int:
    kind = resource_kind(binding)
    if kind is ResourceKind.TEXTURE:
        return 16
    if kind is not ResourceKind.BUFFER or binding.element is None:
        return 1
    size = tight_size(binding.element)
    if size == 0:  # matrices: tightly packed components
        size = sum(4 if s.kind == "bool" else s.bits // 8 for s in flat_scalars(binding.element))
    return size


def assign_slots(bindings: list[Binding]) -> list[SlotInfo]:
    """Slots in binding order, ``count`` each; the one unbounded array last, its elements from
    its (single) listed slot on, as many as the runtime binds."""
    slots: list[SlotInfo] = []
    unbounded = [b for b in bindings if b.count is None]
    if len(unbounded) > 1:
        raise NotImplementedError("the host JIT supports one unbounded resource array per kernel, not "
                                  + ", ".join(b.name for b in unbounded))
    ordered = [b for b in bindings if b.count is not None] + unbounded
    for binding in ordered:
        kind = resource_kind(binding)
        writable = binding.kind.startswith("RW")
        for index in range(binding.count if binding.count is not None else 1):
            slots.append(SlotInfo(len(slots), binding.name, index, kind, binding.kind, binding.element,
                                  element_stride(binding), writable, binding.globally_coherent, binding.count))
    return slots


# ---------------------------------------------------------------------------------------
# the kernel emitter
# ---------------------------------------------------------------------------------------


class KernelEmitter(FlowEmitter):
    def __init__(self, module: Module, stats: bool = True):
        self.module = module
        self.function = module.function
        self.wave_size = self.function.wave_size
        if self.wave_size not in (32, 64):
            raise ValueError(f"a wave has 32 or 64 lanes, not {self.wave_size}")
        self.b = Builder(self.wave_size)
        self.flushing = float_mode.flushes_f32(self.function)  # by MXCSR; else instruction by instruction
        self.b.explicit_flush = not self.flushing
        self.stats = stats
        self.divergence = Divergence(self.function)
        self.order = {inst: index for index, inst in enumerate(self.function.instructions())}
        self.block_index = {block: index for index, block in enumerate(self.function.blocks)}
        self.plan: Plan = plan_function(self.function, self.order)
        self.prefix_ladders = prefix_ladder.find_prefix_ladders(self.function)  # one log-step scan each
        self.slots = assign_slots(module.bindings)
        self.bindings = {binding.name: binding for binding in module.bindings}
        self.slot_base = {}
        for info in self.slots:
            self.slot_base.setdefault(info.name, info.slot)
        nx, ny, nz = self.function.numthreads
        self.threads = nx * ny * nz
        self.waves_per_group = -(-self.threads // self.wave_size)
        self.scratch_lane_bytes = module.scratch_bytes
        self.frames: list[Construct] = []
        self.cache: dict[Inst, Value] = {}
        self.loaded: dict[Inst, tuple[str, Value]] = {}  # home loads, by the LLVM block that made them
        self.homes: dict[Inst, list[tuple[V, str]]] = {}
        self.entry_values: dict[str, V] = {}
        self.prologue: list[str] = []
        self.resume_targets: list[tuple[int, str]] = []
        self.spill_bytes = 0
        self.history_sites = 0  # texture access sites given history words (host_prefetch)
        self.looping: set[Block] = set().union(*self.plan.loop_bodies.values())  # blocks inside loops
        self.exec: V = self.b.all_lanes()
        self.real_exec: V = self.exec
        self.status_var = self.b.alloca("i32")
        self.counter_vars = [self.b.alloca("i64") for _ in range(STAT_COUNTERS)] if stats else []

    # -- entry values (computed once per call, before anything else) ------------------------

    def entry_value(self, key: str, ty: str, text: str) -> V:
        """An instruction of the entry block, shared by the whole function."""
        if key not in self.entry_values:
            name = "%e." + key.replace(" ", "_")
            self.prologue.append(f"  {name} = {text}")
            self.entry_values[key] = V(ty, name)
        return self.entry_values[key]

    def ctx_field(self, name: str, offset: int, ty: str = "ptr") -> V:
        pointer = self.entry_value(f"ctx.{name}.p", "ptr", f"getelementptr i8, ptr %ctx, i64 {offset}")
        return self.entry_value(f"ctx.{name}", ty, f"load {ty}, {pointer}, align 8")

    def frame_field(self, name: str, offset: int) -> V:
        pointer = self.entry_value(f"frame.{name}.p", "ptr", f"getelementptr i8, ptr %frame, i64 {offset}")
        return self.entry_value(f"frame.{name}", "i32", f"load i32, {pointer}, align 4")

    def history_words(self, inst: Inst) -> tuple[V, V] | None:
        """The history words of ``inst``'s access site (``ctx->history``): this wave's and the
        next wave's of the group (the group's first after its last; the same word in a
        one-wave group). None, so no prefetching, inside a loop (the step from one wave to
        the next is not one iteration's) and once ``HISTORY_SITES`` sites have them. See
        ``host_prefetch``."""
        if self.history_sites == HISTORY_SITES or inst.block in self.looping:
            return None
        site = self.history_sites
        self.history_sites += 1
        history = self.ctx_field("history", 88)
        slot = self.frame_field("group_slot", FRAME_GROUP_SLOT)
        wave = self.frame_field("wave_in_group", FRAME_WAVE_IN_GROUP)
        row = self.entry_value("history.row", "i32", f"mul i32 {slot.ref}, {self.waves_per_group}")
        after = self.entry_value("history.after", "i32", f"add i32 {wave.ref}, 1")
        wraps = self.entry_value("history.wraps", "i1", f"icmp eq i32 {after.ref}, {self.waves_per_group}")
        following = self.entry_value("history.following", "i32", f"select i1 {wraps.ref}, i32 0, i32 {after.ref}")
        words = []
        for name, index in (("this", wave), ("next", following)):
            number = self.entry_value(f"history.{name}", "i32", f"add i32 {row.ref}, {index.ref}")
            wide = self.entry_value(f"history.{name}64", "i64", f"zext i32 {number.ref} to i64")
            first = self.entry_value(f"history.{name}.first", "i64", f"mul i64 {wide.ref}, {HISTORY_SITES}")
            word = self.entry_value(f"history.{name}.{site}", "i64", f"add i64 {first.ref}, {site}")
            words.append(self.entry_value(f"history.{name}.{site}.p", "ptr",
                                          f"getelementptr i32, ptr {history.ref}, i64 {word.ref}"))
        return words[0], words[1]

    def stream_word(self, inst: Inst) -> V | None:
        """A stack word (zeroed on every call) for the buffer access ``inst`` inside a loop, in
        which its inline fast path keeps the wave's last offset to prefetch along its steps
        (``contiguous.py``); None outside loops."""
        return self.b.alloca("i64") if inst.block in self.looping else None

    def lane_ids(self) -> V:
        ty = self.b.vec("i32")
        return V(ty, "<" + ", ".join(f"i32 {lane}" for lane in range(self.wave_size)) + ">")

    def first_thread(self) -> V:
        wave = self.frame_field("wave_in_group", FRAME_WAVE_IN_GROUP)
        return self.entry_value("first_thread", "i32", f"mul i32 {wave.ref}, {self.wave_size}")

    def wave_exec(self) -> V:
        """The lanes of this wave that are threads of the group (a partial last wave has fewer)."""
        first = self.first_thread()
        vec = self.b.vec("i32")
        room = self.entry_value("room", "i32", f"sub i32 {self.threads}, {first.ref}")
        one = self.entry_value("room.v1", "<1 x i32>", f"insertelement <1 x i32> poison, i32 {room.ref}, i64 0")
        splat = self.entry_value("room.v", vec, f"shufflevector <1 x i32> {one.ref}, <1 x i32> poison, "
                                 f"<{self.wave_size} x i32> zeroinitializer")
        return self.entry_value("wave_exec", self.b.mask_ty, f"icmp slt {self.lane_ids()}, {splat.ref}")

    def thread_input(self, which: str) -> list[V]:
        """A thread input's components (uint): lane vectors, or scalars for ``group_id``."""
        b = self.b
        vec = b.vec("i32")
        if which == "group_id":
            return [self.frame_field(f"group_id{k}", FRAME_GROUP_ID + 4 * k) for k in range(3)]
        index = self.entry_value("group_index", vec, f"add {self.lane_ids()}, "
                                 f"{self._entry_splat('first_thread', self.first_thread()).ref}")
        if which == "group_index":
            return [index]
        nx, ny, nz = self.function.numthreads
        thread = [
            self.entry_value("gtid.x", vec, f"urem {index}, splat (i32 {nx})"),
            self.entry_value("gtid.y", vec, f"urem {self.entry_value('gtid.yq', vec, f'udiv {index}, splat (i32 {nx})')}, "
                                            f"splat (i32 {ny})"),
            self.entry_value("gtid.z", vec, f"udiv {index}, splat (i32 {nx * ny})"),
        ]
        if which == "group_thread_id":
            return thread
        if which == "dispatch_thread_id":
            result = []
            for k, size in enumerate((nx, ny, nz)):
                group = self.frame_field(f"group_id{k}", FRAME_GROUP_ID + 4 * k)
                base = self.entry_value(f"dtid.base{k}", "i32", f"mul i32 {group.ref}, {size}")
                result.append(self.entry_value(f"dtid.{k}", vec, f"add {thread[k]}, "
                                               f"{self._entry_splat(f'dtid.base{k}', base).ref}"))
            return result
        raise NotImplementedError(f"unknown thread input {which!r}")

    def _entry_splat(self, key: str, scalar: V) -> V:
        vec = self.b.vec(scalar.ty)
        one = self.entry_value(key + ".v1", f"<1 x {scalar.ty}>",
                               f"insertelement <1 x {scalar.ty}> poison, {scalar}, i64 0")
        return self.entry_value(key + ".v", vec, f"shufflevector <1 x {scalar.ty}> {one.ref}, "
                                f"<1 x {scalar.ty}> poison, <{self.wave_size} x i32> zeroinitializer")

    # -- values ----------------------------------------------------------------------------

    def is_uniform(self, inst: Inst) -> bool:
        """Whether ``inst`` may live as one scalar per wave (``host_divergence``: the shared
        uniformity analysis is an optimisation hint elsewhere; here a wrong answer is a
        wrong result, so the JIT decides conservatively itself)."""
        return not self.divergence.varying(inst)

    def home(self, inst: Inst) -> list[tuple[V, str]]:
        """The stack slots of a value that lives across blocks: one per component."""
        if inst not in self.homes:
            scalars = flat_scalars(inst.type)
            uniform = self.is_uniform(inst)
            slots = []
            for scalar in scalars:
                ty = ll_scalar(scalar) if uniform else self.b.vec(ll_scalar(scalar))
                slots.append((self.b.alloca(ty), ty))
            self.homes[inst] = slots
        return self.homes[inst]

    def get(self, inst: Inst) -> Value:
        if inst.op is Op.CONST:
            return const_value(self.b, inst.type, inst.attrs["value"])
        if inst.op is Op.THREAD_INPUT:  # entry-block values: valid everywhere, never spilled
            return host_arith.thread_input(self, inst, [])
        value = self.cache.get(inst)
        if value is not None:
            return value
        if inst not in self.plan.homes:
            raise NotImplementedError(f"%{self.order.get(inst)} ({inst.op.value}) is read where it was "
                                      "never computed")
        # A load from the home is reused only in the LLVM block that made it: one IR block's
        # code can span several (an arm of a uniform branch, then phi copies on the other
        # edge), and a load in one arm does not dominate the other.
        label, loaded = self.loaded.get(inst, ("", None))
        if loaded is not None and label == self.b.current:
            return loaded
        value = Value([self.b.load(ty, slot, align=64) for slot, ty in self.home(inst)])
        self.loaded[inst] = (self.b.current, value)
        return value

    def define(self, inst: Inst, value: Value, written: V | None = None) -> None:
        """Record ``inst``'s result; write its home if it has one.

        ``written``: the lanes a DPP-combined op writes (the others keep the value's
        previous contents). Persistent values merge the active lanes into their home.
        """
        b = self.b
        if len(value.parts) != len(flat_scalars(inst.type)):
            raise NotImplementedError(f"{inst.op.value} produced {len(value.parts)} components for {inst.type}")
        if inst not in self.plan.homes:
            self.cache[inst] = value
            return
        fitted = self.fit(inst, value, self.exec)
        merge_mask = written
        if merge_mask is None and inst in self.plan.persistent and inst.op not in _WHOLE_RESULTS:
            merge_mask = self.exec
        stored = []
        for (slot, ty), part in zip(self.home(inst), fitted.parts):
            if merge_mask is not None and is_vector(ty):
                part = b.select(merge_mask, part, b.load(ty, slot, align=64))
            b.store(part, slot, align=64)
            stored.append(part)
        self.cache[inst] = Value(stored) if written is not None else value

    # -- instructions and blocks -----------------------------------------------------------

    def emit_inst(self, inst: Inst, lanes: V) -> None:
        handler = HANDLERS.get(inst.op)
        if handler is None:
            raise NotImplementedError(f"{inst.op.value} is not supported by the host JIT")
        self.real_exec = lanes
        self.exec = self.b.all_lanes() if inst.attrs.get("wwm") else lanes
        if inst in self.prefix_ladders:
            self.define(inst, prefix_ladder.emit(self, inst, self.prefix_ladders[inst]))
            return
        args = [self.get(operand) for operand in inst.operands]
        written = None
        if "dpp" in inst.attrs:
            args[0], written = host_wave.dpp_operand(self, inst, args[0])
        result = handler(self, inst, args)
        if result is None or inst.type == T.VOID or inst.op is Op.THREAD_INPUT:
            return
        self.define(inst, result, written)

    def emit_block(self, block: Block, lanes: V) -> V:
        """The block's body under ``lanes`` (phis are already in their homes); returns the
        lanes after it (the wave's lanes if it held a barrier)."""
        self.cache = {}
        self.count_block(block, lanes)
        for inst in block.insts:
            if inst.op is Op.PHI or inst.is_terminator:
                continue
            if is_sync_barrier(inst):
                lanes = self.emit_barrier(inst, lanes)
                continue
            self.emit_inst(inst, lanes)
        return lanes

    # -- barriers, the watchdog, leaving the function ----------------------------------------

    def leave(self, status: Status) -> None:
        self.b.store(V("i32", str(int(status))), self.status_var, align=4)
        self.b.br("exit")

    def store_frame_i32(self, offset: int, value: int) -> None:
        pointer = self.b.gep(V("ptr", "%frame"), V("i64", str(offset)))
        self.b.store(V("i32", str(value)), pointer, align=4)

    def spill_layout(self, live: list[Inst]) -> list[tuple[Inst, int, V, str, str]]:
        """``(value, component, home slot, home type, memory type)`` with offsets, per live value."""
        layout, offset = [], FRAME_HEADER_BYTES
        for inst in live:
            for slot, ty in self.home(inst):
                memory = ty.replace("i1", "i8") if element(ty) == "i1" else ty
                count = self.wave_size if is_vector(ty) else 1
                layout.append((inst, offset, slot, ty, memory))
                offset += count * max(bit_width(memory) // 8, 1)
        self.spill_bytes = max(self.spill_bytes, offset - FRAME_HEADER_BYTES)
        return layout

    def emit_barrier(self, inst: Inst, lanes: V) -> V:
        b = self.b
        barrier_id = self.plan.barrier_ids[inst]
        b.raw("fence seq_cst")
        whole = b.icmp("eq", b.mask_bits(lanes), b.mask_bits(self.wave_exec()))
        stop, divergent = b.label("barrier"), b.label("divergent")
        b.cbr(whole, stop, divergent)
        b.start(divergent)
        self.store_frame_i32(FRAME_BARRIER_ID, barrier_id)
        self.leave(Status.DIVERGENT_BARRIER)
        b.start(stop)
        layout = self.spill_layout(self.plan.barrier_live[inst])
        values = {live: self.get(live) for live in self.plan.barrier_live[inst]}
        component = {}
        for live, offset, slot, ty, memory in layout:
            index = component[live] = component.get(live, -1) + 1
            part = self.fit(live, values[live], lanes).parts[index]
            if memory != ty:
                part = b.cast("zext", part, memory)
            b.store(part, b.gep(V("ptr", "%frame"), V("i64", str(offset))), align=1)
        self.store_frame_i32(FRAME_RESUME, barrier_id)
        self.store_frame_i32(FRAME_BARRIER_ID, barrier_id)
        self.leave(Status.BARRIER)
        resume, after = f"resume.{barrier_id}", b.label("after")
        b.start(resume)
        for live, offset, slot, ty, memory in layout:
            part = b.load(memory, b.gep(V("ptr", "%frame"), V("i64", str(offset))), align=1)
            if memory != ty:
                part = b.cast("trunc", part, ty)
            b.store(part, slot, align=64)
        b.br(after)
        b.start(after)
        self.resume_targets.append((barrier_id, resume))
        self.cache = {}
        return self.wave_exec()

    def watchdog(self) -> None:
        b = self.b
        stop = self.ctx_field("stop", 40)
        flag = b.load("i32", stop, align=4, volatile=True)
        stopped, go = b.label("stopped"), b.label("running")
        b.cbr(b.icmp("ne", flag, V("i32", "0")), stopped, go)
        b.start(stopped)
        self.leave(Status.STOPPED)
        b.start(go)

    def count_block(self, block: Block, lanes: V) -> None:
        if not self.stats:
            return
        b = self.b
        stats = self.plan.block_stats[block]
        for index, count in enumerate(stats.counts):
            if count:
                self.add_counter(index, V("i64", str(count)))
        if stats.exec_instructions or stats.whole_wave_instructions:
            active = b.call(b.bits_ty, "llvm.ctpop", [b.mask_bits(lanes)])
            active = b.cast("zext", active, "i64") if self.wave_size == 32 else active
            total = b.binop("mul", active, V("i64", str(stats.exec_instructions)))
            if stats.whole_wave_instructions:
                total = b.binop("add", total, V("i64", str(stats.whole_wave_instructions * self.wave_size)))
            self.add_counter(ACTIVE_LANES, total)

    def add_counter(self, index: int, amount: V) -> None:
        b = self.b
        var = self.counter_vars[index]
        b.store(b.binop("add", b.load("i64", var, align=8), amount), var, align=8)

    # -- the whole function ----------------------------------------------------------------

    def emit_prologue_scratch(self) -> None:
        """Zero this wave's scratch when it starts (the interpreter's scratch starts at 0)."""
        if not self.scratch_lane_bytes:
            return
        base = host_memory.scratch_base(self)
        size = self.scratch_lane_bytes * self.wave_size
        self.b.call("void", "llvm.memset", [base, V("i8", "0"), V("i64", str(size)), V("i1", "false")],
                    mangle_with=["ptr", "i64"])

    def build(self) -> HostKernel:
        b = self.b
        b.start("start")
        self.emit_prologue_scratch()
        self.run(self.function.entry, self.wave_exec())
        self.leave(Status.DONE)
        b.start("exit")
        if self.stats:
            counters = self.ctx_field("counters", 48)
            worker = self.frame_field("worker", FRAME_WORKER)
            row = b.binop("mul", b.cast("sext", worker, "i64"), V("i64", str(STAT_COUNTERS * 8)))
            base = b.gep(counters, row)
            for index, var in enumerate(self.counter_vars):
                pointer = b.gep(base, V("i64", str(8 * index)))
                b.store(b.binop("add", b.load("i64", pointer, align=8), b.load("i64", var, align=8)), pointer, 8)
        status = b.load("i32", self.status_var, align=4)
        flushing = self.flushing
        if flushing:
            b.raw(float_mode.leave_line())
        b.terminate(f"ret {status}")
        resume = self.frame_field("resume", FRAME_RESUME)
        cases = " ".join(f"i32 {barrier_id}, label %{label}" for barrier_id, label in self.resume_targets)
        entry = (["define i32 @shc_wave(ptr noalias %ctx, ptr noalias %frame) #0 {", "entry:"]
                 + (float_mode.enter_lines() if flushing else [])
                 + b.entry_allocas + b.entry_inits + self.prologue
                 + [f"  switch i32 {resume.ref}, label %start [ {cases} ]"])
        attributes = 'nounwind "frame-pointer"="none"' + (" " + float_mode.FLUSHING_ATTRIBUTES if flushing else "")
        body = entry + b.lines + ["}", "", f"attributes #0 = {{ {attributes} }}"]
        if flushing:
            b.declarations.update((line, line) for line in float_mode.DECLARATIONS)
        header = [f"; shc host kernel: {self.function.name}, wave{self.wave_size} "
                  "(the JIT sets the host triple and data layout)"]
        b.lines = body
        text = b.text(header)
        return HostKernel(text, ENTRY, FRAME_HEADER_BYTES + self.spill_bytes, self.slots,
                          self.module.lds_bytes, self.scratch_lane_bytes * self.wave_size, self.wave_size,
                          tuple(self.function.numthreads), self.waves_per_group, len(self.plan.barrier_ids),
                          nesting_depth(self.function), len(self.function.blocks))

    # -- helpers for the emitter tables ----------------------------------------------------

    def sgpr(self, value: Value, index: int = 0) -> V:
        """An SGPR operand: a scalar, or the lowest active lane of a lane vector."""
        return wave_scalar(self.b, value.parts[index], self.exec)
