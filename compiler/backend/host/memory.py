"""Host JIT emitters for memory: buffers, LDS, scratch, constant buffers (atomics: ``atomics.py``).

Operand orders are AST lowering's (``ir/interpret/memory.py`` lists them). Every access
reads or writes the bytes of its value type at a byte address (bool as a 32-bit
word), with the D3D12 rule the interpreter follows: an access whose bytes do not
all fit in its memory reads 0 and is not written; so is one through a resource-array
index past the array. LDS (``lds_bytes`` per group) and scratch (``scratch_bytes``
per lane) follow the same rule, so nothing outside them is ever touched.

Addresses are i32 byte offsets from the memory's base (a resource is addressable up
to 2 GiB - 1); an index that would overflow is out of bounds. A lane-vector access
of ``n`` words of one type whose lanes are back to back and in bounds is one vector load
or store inline (``contiguous.py``; not for LDS or a prefetching texture site, scattered
in practice: they would only pay for the test); otherwise it is a call of an out-of-line
helper (``shc.load.NxT.W``,
``shc.store.NxT.W``, one copy per shape: inlining a gather per use made
instruction selection the bulk of the compile time): when every lane is on and
the lanes' words are back to back it is one vector load or store (a copy kernel
runs at memory speed), otherwise gathers, or stores lane after lane (a scatter of
single words, one vector store of each lane's words), so lanes writing the same
bytes land in lane order (the highest lane wins). Texture loads and stores
prefetch for the group's next wave on their scattered path (``prefetch.py``: a
stride prefetcher per access site and wave, its history in ``ctx->history``); so do buffer
accesses outside loops on their inline fast path, in groups of more than one wave. A
uniform address with a uniform value is one scalar access. All addresses are i32
offsets, so the gathers use 32-bit indices.
"""

from __future__ import annotations

from typing import Callable

from ...frontend import hlsl_types as T
from ...ir.ops import Op
from .contiguous import load_words, store_words
from .lane_order import in_lane_order
from .lane_text import interleave_text, lane_loads_text, pack_text, split_text
from .llvm_text import V, bit_width, element, flat_scalars, is_vector, mangle, memory_bytes, memory_type
from .prefetch import prefetch_text
from .values import Value, cast_value, unify

ZERO_GLOBAL = "@shc.zero"
META_ARRAY_COUNT = 9  # meta int of an unbounded resource array's first slot: its element count


# ---------------------------------------------------------------------------------------
# bases, bounds and addresses
# ---------------------------------------------------------------------------------------

INT32_MAX = (1 << 31) - 1


class Memory:
    """Where an access goes.

    ``base``: a pointer (or one per lane); ``size``: the bytes addressable there as an
    i32 (clamped to 2 GiB - 1: larger resources are addressable up to there);
    ``valid``: lanes that may access at all (None: every lane); ``lane_offset``: an
    i32 lane vector added after the bounds check (each lane's own scratch); ``inline``:
    test for back-to-back lanes inline before calling the helpers (``contiguous.py``).
    """

    def __init__(self, base: V, size: V, valid: V | None = None, lane_offset: V | None = None,
                 inline: bool = True):
        self.base, self.size, self.valid = base, size, valid
        self.lane_offset, self.inline = lane_offset, inline

    def restricted(self, b, valid: V | None) -> Memory:
        """The same memory with only the lanes in ``valid`` (and this memory's) allowed."""
        if valid is None or self.valid is None:
            both = valid if self.valid is None else self.valid
        else:
            both = b.binop("and", *unify(b, [self.valid, valid]))
        return Memory(self.base, self.size, both, self.lane_offset, self.inline)


class Address:
    """A byte address ``index * scale + offset`` computed in i32, with the overflow guard
    worked out once the access size is known (``in_bounds``)."""

    def __init__(self, index: V, scale: int = 1, offset: int = 0):
        self.index, self.scale, self.offset = index, scale, offset


def _size32(b, size64: V) -> V:
    below = b.icmp("slt", size64, b.const(size64.ty, INT32_MAX))
    clamped = b.select(below, size64, b.const(size64.ty, INT32_MAX))
    return b.cast("trunc", clamped, b.vec("i32") if is_vector(size64.ty) else "i32")


def slot_memory(em, name: str, array_index: V | None) -> Memory:
    """Resource slot memory of binding ``name`` (element ``array_index`` of a resource array)."""
    b = em.b
    base_slot = em.slot_base.get(name)
    if base_slot is None:
        raise NotImplementedError(f"no resource named {name!r} is bound")
    binding = em.bindings[name]
    resources = em.ctx_field("resources", 0)
    sizes = em.ctx_field("sizes", 8)
    if array_index is None:
        key = f"slot{base_slot}"
        pointer = em.entry_value(key + ".pp", "ptr", f"getelementptr ptr, ptr {resources.ref}, i64 {base_slot}")
        size_pointer = em.entry_value(key + ".sp", "ptr", f"getelementptr i64, ptr {sizes.ref}, i64 {base_slot}")
        size64 = em.entry_value(key + ".size64", "i64", f"load i64, ptr {size_pointer.ref}, align 8")
        below = em.entry_value(key + ".below", "i1", f"icmp slt i64 {size64.ref}, {INT32_MAX}")
        clamped = em.entry_value(key + ".clamped", "i64", f"select i1 {below.ref}, i64 {size64.ref}, i64 {INT32_MAX}")
        return Memory(em.entry_value(key, "ptr", f"load ptr, ptr {pointer.ref}, align 8"),
                      em.entry_value(key + ".size", "i32", f"trunc i64 {clamped.ref} to i32"))
    index = array_index
    if element(index.ty) != "i64":
        index = b.cast("zext", index, b.vec("i64") if is_vector(index.ty) else "i64")
    if binding.count is not None:
        count = b.const(index.ty, binding.count)
    else:
        meta = em.ctx_field("meta", 16)
        count_pointer = b.gep(meta, V("i64", str(4 * (base_slot * 16 + META_ARRAY_COUNT))))
        count = b.cast("zext", b.load("i32", count_pointer, align=4), "i64")
        count = b.splat(count) if is_vector(index.ty) else count
    valid = b.icmp("ult", index, count)
    slot = b.binop("add", b.select(valid, index, b.zero(index.ty)), b.const(index.ty, base_slot))
    if not is_vector(index.ty):
        base = b.load("ptr", b.inst("ptr", f"getelementptr ptr, {resources}, {slot}"), align=8)
        size = b.load("i64", b.inst("ptr", f"getelementptr i64, {sizes}, {slot}"), align=8)
        return Memory(base, _size32(b, size), valid)
    pointers = b.inst(b.vec("ptr"), f"getelementptr ptr, {resources}, {slot}")
    size_pointers = b.inst(b.vec("ptr"), f"getelementptr i64, {sizes}, {slot}")
    return Memory(gather(b, b.vec("ptr"), pointers, valid, 8),
                  _size32(b, gather(b, b.vec("i64"), size_pointers, valid, 8)), valid)


def lds_memory(em) -> Memory:
    lds = em.ctx_field("lds", 24)
    slot = em.frame_field("group_slot", 24)
    pointer = em.entry_value("lds.pp", "ptr", f"getelementptr ptr, ptr {lds.ref}, i32 {slot.ref}")
    base = em.entry_value("lds", "ptr", f"load ptr, ptr {pointer.ref}, align 8")
    return Memory(base, V("i32", str(em.module.lds_bytes)), inline=False)


def scratch_base(em) -> V:
    scratch = em.ctx_field("scratch", 32)
    slot = em.frame_field("group_slot", 24)
    wave = em.frame_field("wave_in_group", 4)
    group = em.entry_value("scratch.group", "i32", f"mul i32 {slot.ref}, {em.waves_per_group}")
    number = em.entry_value("scratch.wave", "i32", f"add i32 {group.ref}, {wave.ref}")
    wide = em.entry_value("scratch.wave64", "i64", f"zext i32 {number.ref} to i64")
    offset = em.entry_value("scratch.offset", "i64",
                            f"mul i64 {wide.ref}, {em.scratch_lane_bytes * em.wave_size}")
    return em.entry_value("scratch", "ptr", f"getelementptr i8, ptr {scratch.ref}, i64 {offset.ref}")


def scratch_memory(em) -> Memory:
    """Each lane's own ``scratch_bytes``, lane after lane."""
    b = em.b
    offsets = b.const(b.vec("i32"), [lane * em.scratch_lane_bytes for lane in range(em.wave_size)])
    return Memory(scratch_base(em), V("i32", str(em.scratch_lane_bytes)), lane_offset=offsets)


def byte_address(em, index: V, scale: int = 1, offset: int = 0) -> Address:
    return Address(index, scale, offset)


def in_bounds(em, memory: Memory, address: Address, nbytes: int) -> tuple[V, V]:
    """``(ok, address)``: the lanes (or the one scalar) whose ``nbytes`` at ``address`` fit
    in ``memory``, and the i32 byte address (with the lane offset added)."""
    return bounds(em, memory, address, nbytes)[:2]


def bounds(em, memory: Memory, address: Address, nbytes: int) -> tuple[V, V, list[V]]:
    """``in_bounds`` and the flags other than the memory's size that ``ok`` holds (the
    overflow guard, the memory's valid lanes): ``contiguous`` tests those apart."""
    b = em.b
    value, guard = address_value(b, address, nbytes)
    value, size = unify(b, [value, memory.size])
    last = b.binop("sub", size, b.const(size.ty, nbytes))
    ok = b.binop("and", b.icmp("sge", value, b.zero(value.ty)), b.icmp("sle", value, last))
    for flag in (guard, memory.valid):
        if flag is not None:
            ok, flag = unify(b, [ok, flag])
            ok = b.binop("and", ok, flag)
    if memory.lane_offset is not None:
        value = b.binop("add", b.splat(value), memory.lane_offset)
    return ok, value, [flag for flag in (guard, memory.valid) if flag is not None]


def address_value(b, address: Address, nbytes: int) -> tuple[V, V | None]:
    """``(the i32 byte address, the lanes (or scalar) where it did not overflow, or None)``."""
    index = address.index
    guard = None
    if element(index.ty) == "i64":
        guard = b.icmp("ule", index, b.const(index.ty, INT32_MAX))
        index = b.cast("trunc", index, b.vec("i32") if is_vector(index.ty) else "i32")
    elif element(index.ty) != "i32":
        index = b.cast("zext", index, b.vec("i32") if is_vector(index.ty) else "i32")
    value = index
    if address.scale != 1 or address.offset:
        limit = (INT32_MAX - address.offset - nbytes) // address.scale
        within = b.icmp("ule", index, b.const(index.ty, limit)) if limit >= 0 else b.const(
            b.vec("i1") if is_vector(index.ty) else "i1", False)
        guard = within if guard is None else b.binop("and", guard, within)
        if address.scale != 1:
            value = b.binop("mul", value, b.const(value.ty, address.scale))
        if address.offset:
            value = b.binop("add", value, b.const(value.ty, address.offset))
    return value, guard


def component_offsets(scalars: list[T.ScalarType]) -> list[int]:
    offsets, offset = [], 0
    for scalar in scalars:
        offsets.append(offset)
        offset += memory_bytes(scalar)
    return offsets


def zero_global(em) -> V:
    if not any(line.startswith(ZERO_GLOBAL + " ") for line in em.b.globals):
        em.b.globals.append(f"{ZERO_GLOBAL} = private unnamed_addr constant [64 x i8] zeroinitializer, align 64")
    return V("ptr", ZERO_GLOBAL)


# ---------------------------------------------------------------------------------------
# generic loads and stores
# ---------------------------------------------------------------------------------------


def gather(b, ty: str, pointers: V, mask: V, align: int = 1, passthru: V | None = None) -> V:
    return b.call(ty, "llvm.masked.gather", [pointers, V("i32", str(align)), mask, passthru or b.zero(ty)],
                  mangle_with=[ty, pointers.ty])


def _words_helper(b, kind: str, elem: str, count: int, coherent: bool = False,
                  prefetch: bool = False) -> tuple[str, str]:
    """Out-of-line ``count``-word loads/stores of ``elem`` per lane at byte offsets from a base.

    A ``coherent`` load (a globallycoherent resource) is declared as touching memory, so
    LLVM never merges it with another load or hoists it out of a loop (a spin-wait on a
    flag another group sets must see the new value).

    Fast path: every lane on and the lanes' words back to back (lane i at ``offset[0] + i *
    count * size``): one vector load or store (a copy kernel runs at memory speed). Otherwise
    a load gathers single words, or loads each lane's words with one vector load and
    transposes them (``lane_text.lane_loads_text``: LLVM turns a gather into a branch and a
    load per word; SPD at 2048 x 2048 ran about 18% faster); a store writes lane after lane,
    so that lanes writing the same bytes land in lane order and the highest lane wins: one
    scatter of single words, or one vector store of each lane's words (a scatter stores word
    by word, four times the stores for a ``float4``; SPD at 4096 x 4096 runs about 5% faster).

    With ``prefetch`` the helper takes three more arguments, the access site's history
    words for this wave and the next one and the memory's size, and its slow path first
    prefetches for the next wave (``host_prefetch``). Such a helper writes through an
    argument, so LLVM no longer merges or moves those loads past other memory accesses.
    """
    width = b.wave_size
    size = max(bit_width(elem) // 8, 1)
    lanes, words = f"<{width} x {elem}>", f"<{width * count} x {elem}>"
    offsets, mask, bits = f"<{width} x i32>", f"<{width} x i1>", f"i{width}"
    result = lanes if count == 1 else "{ " + ", ".join([lanes] * count) + " }"
    extra = ["ptr", "ptr", "i32"] if prefetch else []
    suffix = ".prefetch" if prefetch else ""
    ahead = []
    if prefetch:  # the history words and the size follow the other parameters
        first_extra = 3 if kind == "load" else 3 + count
        history, following, memory_size = (f"%p{first_extra + k}" for k in range(3))
        ahead = prefetch_text(b, width, count * size, kind == "store", history, following, memory_size)
    stride = ", ".join(f"i32 {lane * count * size}" for lane in range(width))
    body = [f"%bits = bitcast {mask} %p2 to {bits}", f"%full = icmp eq {bits} %bits, -1",
            f"%first = extractelement {offsets} %p1, i32 0",
            f"%head = insertelement {offsets} poison, i32 %first, i64 0",
            f"%splat = shufflevector {offsets} %head, {offsets} poison, {offsets} zeroinitializer",
            f"%expect = add {offsets} %splat, <{stride}>", f"%same = icmp eq {offsets} %p1, %expect",
            f"%samebits = bitcast {mask} %same to {bits}", f"%line = icmp eq {bits} %samebits, -1",
            "%quick = and i1 %full, %line", "br i1 %quick, label %fast, label %slow", "fast:",
            "%at = getelementptr i8, ptr %p0, i32 %first"]
    pointers = f"<{width} x ptr>"
    if kind == "load":
        name = f"shc.load.{count}x{mangle(elem)}.{width}" + (".coherent" if coherent else "") + suffix
        gather = f"llvm.masked.gather.{mangle(lanes)}.{mangle(pointers)}"
        b.declarations.setdefault(gather, f"declare {lanes} @{gather}({pointers}, i32, {mask}, {lanes})")
        body.append(f"%all = load {words}, ptr %at, align 1")
        lines, names = split_text(width, count, elem, bit_width(elem), "%all", "f") if count > 1 else ([], ["%all"])
        body += lines + pack_text(result, names) + ["slow:"] + ahead
        if count > 1:
            lines, names = lane_loads_text(width, count, elem, bit_width(elem), "%p1", "%p2", "s")
        else:
            lines, names = [f"%q0 = getelementptr i8, ptr %p0, {offsets} %p1",
                            f"%s0 = call {lanes} @{gather}({pointers} %q0, i32 1, {mask} %p2, {lanes} zeroinitializer)"], ["%s0"]
        body += lines + pack_text(result, names)
        params = ["ptr", offsets, mask] + extra
        return b.helper(name, result, params, body, "write" if coherent or prefetch else "read"), result
    name = f"shc.store.{count}x{mangle(elem)}.{width}" + suffix
    params = ["ptr", offsets, mask] + [lanes] * count + extra
    # the words lane by lane (%w), which both paths store
    branch = body.index("br i1 %quick, label %fast, label %slow")
    body[branch:branch] = interleave_text(width, elem, bit_width(elem), [f"%p{3 + k}" for k in range(count)], "w")
    body += [f"store {words} %w, ptr %at, align 1", "ret void", "slow:"] + ahead
    if count > 1:  # each lane's words in one store, lane after lane; an inactive lane's go to %sink
        chunk = f"<{count} x {elem}>"
        body.insert(0, f"%sink = alloca {chunk}, align 16")
        for lane in range(width):
            picks = ", ".join(f"i32 {lane * count + k}" for k in range(count))
            body += [f"%lane{lane} = extractelement {offsets} %p1, i32 {lane}",
                     f"%on{lane} = extractelement {mask} %p2, i32 {lane}",
                     f"%to{lane} = getelementptr i8, ptr %p0, i32 %lane{lane}",
                     f"%into{lane} = select i1 %on{lane}, ptr %to{lane}, ptr %sink",
                     f"%words{lane} = shufflevector {words} %w, {words} poison, <{count} x i32> <{picks}>",
                     f"store {chunk} %words{lane}, ptr %into{lane}, align 1"]
        body.append("ret void")
        return b.helper(name, "void", params, body, "write"), "void"
    scatter = f"llvm.masked.scatter.{mangle(lanes)}.{mangle(pointers)}"
    b.declarations.setdefault(scatter, f"declare void @{scatter}({lanes}, {pointers}, i32, {mask})")
    body += [f"%aq = getelementptr i8, ptr %p0, {offsets} %p1",
             f"call void @{scatter}({lanes} %w, {pointers} %aq, i32 1, {mask} %p2)", "ret void"]
    return b.helper(name, "void", params, body, "write"), "void"


def _count(ty: str) -> int:
    return int(ty[1:ty.index("x")])


def load_value(em, memory: Memory, address: Address, t: T.Type, volatile: bool = False,
               history: Callable[[], tuple[V, V] | None] | None = None, stream: V | None = None,
               lane_ordered: bool = False, ahead: Callable[[], tuple[V, V] | None] | None = None) -> Value:
    """``t`` at ``address`` of ``memory``, 0 where out of bounds or inactive; ``volatile``
    (globallycoherent resources): never merged with other loads or moved out of loops.
    ``history`` gives the access site's history words, to prefetch for the next wave;
    it is called only when the load is a helper call over lanes (one word type, lane
    addresses), so other accesses do not use up sites (``host_prefetch``). A prefetching
    load writes its history word, so LLVM does not merge it or move it either. ``stream``: a
    stack word for a load inside a loop, whose inline fast path prefetches along the wave's
    own steps (``contiguous``). ``lane_ordered``: the index is in lane order (``lane_order.py``).
    ``ahead``: history words for the inline fast path outside loops (``contiguous``)."""
    b = em.b
    scalars = flat_scalars(t)
    offsets = component_offsets(scalars)
    total = offsets[-1] + memory_bytes(scalars[-1]) if scalars else 0
    ok, at, flags = bounds(em, memory, address, total)
    back_to_back = _back_to_back(memory, address, total, lane_ordered)
    parts = []
    if not (is_vector(at.ty) or is_vector(memory.base.ty)):
        base = b.gep(memory.base, at)
        for scalar, offset in zip(scalars, offsets):
            pointer = b.gep(base, V("i32", str(offset))) if offset else base
            word = b.load(memory_type(scalar), b.select(ok, pointer, zero_global(em)), align=1,
                          volatile=volatile)
            parts.append(_from_memory(b, word, scalar))
        return Value(parts)
    mask = b.mask_and(em.exec, b.splat(ok))
    at = b.splat(at)
    types = [memory_type(scalar) for scalar in scalars]
    if not is_vector(memory.base.ty) and len(set(types)) == 1:
        site = history() if history is not None else None

        def call() -> list[V]:
            name, result = _words_helper(b, "load", types[0], len(types), volatile, prefetch=site is not None)
            arguments = f"{memory.base}, {at}, {mask}{_history_arguments(site, memory)}"
            loaded = b.inst(result, f"call {result} @{name}({arguments})")
            return [loaded] if len(types) == 1 else \
                [b.inst(b.vec(types[0]), f"extractvalue {loaded}, {k}") for k in range(len(types))]
        # a prefetching site (a texture's) is scattered: the inline test would only cost there
        inline = not volatile and site is None and memory.inline and memory.lane_offset is None \
            and not is_vector(memory.size.ty)
        words = load_words(b, memory.base, at, memory.size, flags, em.exec, types[0], len(types), call, stream,
                           back_to_back, ahead) if inline else call()
        return Value([_from_memory(b, word, scalar) for word, scalar in zip(words, scalars)])
    for scalar, offset in zip(scalars, offsets):
        where = b.binop("add", at, b.const(at.ty, offset)) if offset else at
        ty = b.vec(memory_type(scalar))
        if is_vector(memory.base.ty):
            word = gather(b, ty, b.gep(memory.base, where), mask)
        else:
            name, result = _words_helper(b, "load", memory_type(scalar), 1, volatile)
            word = b.inst(result, f"call {result} @{name}({memory.base}, {where}, {mask})")
        parts.append(_from_memory(b, word, scalar))
    return Value(parts)


def _back_to_back(memory: Memory, address: Address, nbytes: int, lane_ordered: bool) -> bool:
    """Whether lane ``i``'s ``nbytes`` follow lane 0's by ``i * nbytes`` whenever the overflow
    guard holds: an index in lane order, one element a lane, every lane allowed."""
    return lane_ordered and address.scale == nbytes and memory.valid is None


def _history_arguments(history: tuple[V, V] | None, memory: Memory) -> str:
    """The prefetching helpers' extra arguments: the two history words and the memory's size."""
    return "" if history is None else f", {history[0]}, {history[1]}, {memory.size}"


def _from_memory(b, word: V, scalar: T.ScalarType) -> V:
    return b.icmp("ne", word, b.zero(word.ty)) if scalar.kind == "bool" else word


def _to_memory(b, part: V, scalar: T.ScalarType) -> V:
    if scalar.kind == "bool":
        return b.cast("zext", part, b.vec("i32") if is_vector(part.ty) else "i32")
    return part


def store_value(em, memory: Memory, address: Address, value: Value, t: T.Type,
                history: Callable[[], tuple[V, V] | None] | None = None, stream: V | None = None,
                lane_ordered: bool = False, ahead: Callable[[], tuple[V, V] | None] | None = None) -> None:
    """Write ``value`` (of type ``t``) at ``address`` on the active lanes that fit.
    ``history``, ``stream``, ``lane_ordered`` and ``ahead``: as for ``load_value``."""
    b = em.b
    scalars = flat_scalars(t)
    offsets = component_offsets(scalars)
    total = offsets[-1] + memory_bytes(scalars[-1]) if scalars else 0
    ok, at, flags = bounds(em, memory, address, total)
    words = [_to_memory(b, part, scalar) for part, scalar in zip(value.parts, scalars)]
    if not (is_vector(at.ty) or is_vector(memory.base.ty) or any(is_vector(w.ty) for w in words)):
        go, skip = b.label("store"), b.label("stored")
        b.cbr(ok, go, skip)
        b.start(go)
        base = b.gep(memory.base, at)
        for word, offset in zip(words, offsets):
            b.store(word, b.gep(base, V("i32", str(offset))) if offset else base, align=1)
        b.br(skip)
        b.start(skip)
        return
    mask = b.mask_and(em.exec, b.splat(ok))
    at = b.splat(at)
    words = [b.splat(word) for word in words]
    types = [word.ty for word in words]
    if not is_vector(memory.base.ty) and len(set(types)) == 1:
        site = history() if history is not None else None

        def call() -> None:
            name, _ = _words_helper(b, "store", element(types[0]), len(words), prefetch=site is not None)
            b.raw(f"call void @{name}({memory.base}, {at}, {mask}, " + ", ".join(str(w) for w in words)
                  + f"{_history_arguments(site, memory)})")
        if site is None and memory.inline and memory.lane_offset is None and not is_vector(memory.size.ty):
            store_words(b, memory.base, at, memory.size, flags, em.exec, words, call, stream,
                        _back_to_back(memory, address, total, lane_ordered), ahead)
        else:
            call()
        return
    for word, offset in zip(words, offsets):
        where = b.binop("add", at, b.const(at.ty, offset)) if offset else at
        if is_vector(memory.base.ty):
            b.call("void", "llvm.masked.scatter", [word, b.gep(memory.base, where), V("i32", "1"), mask],
                   mangle_with=[word.ty, b.vec("ptr")])
        else:
            name, _ = _words_helper(b, "store", element(word.ty), 1)
            b.raw(f"call void @{name}({memory.base}, {where}, {mask}, {word})")


# ---------------------------------------------------------------------------------------
# resources
# ---------------------------------------------------------------------------------------


def split_array_index(em, inst, args: list[Value], plain: int) -> tuple[V | None, list[Value]]:
    """``(array index or None, the other operands)``; a ``dynamic_offset`` operand stays after ``index``."""
    plain += int(bool(inst.attrs.get("dynamic_offset")))
    binding = em.bindings.get(inst.attrs.get("resource"))
    has_index = binding.count != 1 if binding is not None else len(args) == plain + 1
    if has_index:
        return args[0].parts[0], args[1:]
    return None, args


def split_offset(inst, args: list[Value]) -> tuple[V, V | None, list[Value]]:
    """``(index, dynamic byte offset or None, the rest)`` of the operands after ``[i]``."""
    if inst.attrs.get("dynamic_offset"):
        return args[0].parts[0], args[1].parts[0], args[2:]
    return args[0].parts[0], None, args[1:]


def element_address(em, inst, memory_name: str, index: V, dynamic: V | None = None) -> Address:
    binding = em.bindings[memory_name]
    offset = int(inst.attrs.get("offset", 0))
    stride = 1 if "ByteAddress" in binding.kind else next(info.stride for info in em.slots
                                                          if info.name == memory_name)
    if dynamic is None:
        return byte_address(em, index, stride, offset)
    # index * stride + dynamic in i64, so nothing wraps: only the buffer's end bounds the sum
    b = em.b
    wide = [b.cast("zext", part, b.vec("i64") if is_vector(part.ty) else "i64") for part in (index, dynamic)]
    index, dynamic = unify(b, wide)
    if stride != 1:
        index = b.binop("mul", index, b.const(index.ty, stride))
    return byte_address(em, b.binop("add", index, dynamic), 1, offset)


def _coherent(em, name: str) -> bool:
    binding = em.bindings.get(name)
    return binding is not None and binding.globally_coherent


def buffer_load(em, inst, args):
    name = inst.attrs["resource"]
    array_index, rest = split_array_index(em, inst, args, 1)
    index, dynamic, _ = split_offset(inst, rest)
    memory = slot_memory(em, name, array_index)
    address = element_address(em, inst, name, index, dynamic)
    return load_value(em, memory, address, inst.type, volatile=_coherent(em, name), stream=em.stream_word(inst),
                      lane_ordered=_index_in_lane_order(em, inst, array_index, dynamic), ahead=_ahead(em, inst))


def buffer_store(em, inst, args):
    name = inst.attrs["resource"]
    array_index, rest = split_array_index(em, inst, args, 2)
    index, dynamic, (value,) = split_offset(inst, rest)
    memory = slot_memory(em, name, array_index)
    address = element_address(em, inst, name, index, dynamic)
    store_value(em, memory, address, value, inst.operands[-1].type, stream=em.stream_word(inst),
                lane_ordered=_index_in_lane_order(em, inst, array_index, dynamic), ahead=_ahead(em, inst))


def _ahead(em, inst):
    """The history words of a buffer access outside loops in a group of more than one wave (its
    fast path prefetches for the next wave: ``contiguous.py``), asked for only if it has one."""
    return None if em.waves_per_group == 1 else (lambda: em.history_words(inst))


def _index_in_lane_order(em, inst, array_index: V | None, dynamic: V | None) -> bool:
    """Whether a buffer access's element index (its first operand without an array index or
    a dynamic offset) is in lane order (``lane_order.py``)."""
    return array_index is None and dynamic is None and in_lane_order(em, inst.operands[0])


def lds_load(em, inst, args):
    return load_value(em, lds_memory(em), byte_address(em, args[0].parts[0], 1, 0), inst.type)


def lds_store(em, inst, args):
    store_value(em, lds_memory(em), byte_address(em, args[0].parts[0], 1, 0), args[1], inst.operands[1].type)


def scratch_load(em, inst, args):
    return load_value(em, scratch_memory(em), byte_address(em, args[0].parts[0], 1, 0), inst.type)


def scratch_store(em, inst, args):
    store_value(em, scratch_memory(em), byte_address(em, args[0].parts[0], 1, 0), args[1],
                inst.operands[1].type)


def cbuffer_load(em, inst, args):
    name = inst.attrs.get("buffer")
    memory = slot_memory(em, name, None)
    offset = int(inst.attrs.get("offset", 0))
    address = byte_address(em, args[0].parts[0], 1, offset) if args else Address(V("i32", "0"), 1, offset)
    return load_value(em, memory, address, inst.type)


def buffer_info(em, inst, args):
    """Buffer sizes by ``fields`` (bytes, count, stride; default: count then stride)."""
    b = em.b
    name = inst.attrs.get("resource")
    binding = em.bindings.get(name)
    array_index = args[0].parts[0] if binding is not None and binding.count != 1 and args else None
    memory = slot_memory(em, name, array_index)
    stride = next(info.stride for info in em.slots if info.name == name)
    if "ByteAddress" in binding.kind:
        stride = 1
    size = memory.size
    if memory.valid is not None:
        size = b.select(memory.valid, size, b.zero(size.ty))
    fields = inst.attrs.get("fields", ["count", "stride"])[:len(flat_scalars(inst.type))]
    values = {"bytes": size, "count": b.binop("udiv", size, b.const(size.ty, stride)) if stride != 1 else size,
              "stride": b.const(size.ty, stride)}
    result = [b.cast("trunc", values[field], "i32" if not is_vector(size.ty) else b.vec("i32")) for field in fields]
    return cast_value(b, Value(result), T.vector(T.UINT, len(result)), flat_scalars(inst.type)[0])


HANDLERS = {
    Op.BUFFER_LOAD: buffer_load, Op.BUFFER_STORE: buffer_store,
    Op.LDS_LOAD: lds_load, Op.LDS_STORE: lds_store,
    Op.SCRATCH_LOAD: scratch_load, Op.SCRATCH_STORE: scratch_store,
    Op.CBUFFER_LOAD: cbuffer_load,
}

__all__ = ["HANDLERS", "META_ARRAY_COUNT", "Address", "Memory", "slot_memory", "load_value", "store_value",
           "buffer_info", "scratch_base", "byte_address", "element_address",
           "in_bounds", "lds_memory", "split_array_index", "split_offset"]
