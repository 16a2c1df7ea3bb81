"""Host JIT emitters for textures: ``texture_load``, ``texture_store``, ``texture_sample``
(SampleLevel) and ``resource_info`` (GetDimensions).

A texture slot holds 4-channel texels (float32, or uint32/int32 for integer
formats), every mip level back to back; ``meta`` gives width, height, depth
(array slices, or the depth of a 3-D texture), the mip count and where the
per-mip texel offsets start (``compiler/machine/abi.py``). Mip ``m`` is ``max(1, size >> m)``
texels wide and high (3-D textures shrink in depth too; arrays keep their slices);
texel ``(x, y, z)`` of it is at ``offset[m] + (z * height_m + y) * width_m + x``.

Out of range (a coordinate, the mip level, the array index, or the slot's bytes)
reads 0 and is not written. A store's channels round through the format the texture is
bound with first (``texel_rounding.py``), so a texel read back in the same dispatch reads
as the GPU would read it. ``texture_sample``: the sampler slot's ``filter`` (0
point, 1 linear) and ``address`` (0 clamp, 1 wrap, 2 mirror, 3 border with a
transparent black border) apply to u and v; the array slice is ``round(w)``
clamped; point sampling reads the texel under the coordinate in mip
``floor(lod + 0.5)`` and nothing else, linear sampling is trilinear (bilinear in
mips ``floor(lod)`` and the next, blended by the fraction; an integer lod is plain
bilinear: the next mip is not read). Texel centres are at half-integers.
``compiler/machine/sampling.py`` is the same arithmetic in NumPy (the listing simulator's):
a change to the filter here changes it there too (``tests/backend/test_simulate_images.py``).

Texture3D SampleLevel filters over u, v and w (point, or 8 texels per mip) with the
address mode on each axis. Cubes are 2-D arrays of ``6 * cubes`` faces (+X, -X, +Y,
-Y, +Z, -Z): SampleLevel picks the face by D3D cube addressing (major axis = largest
magnitude, ties to z, then y, then x; face uv = (sc / |ma| + 1) / 2, (tc / |ma| + 1) / 2),
a TextureCubeArray's cube is ``round(w)`` clamped, and the face is filtered in 2-D
clamped to its own edges, whatever the sampler's address mode: no seamless filtering
across faces (a bilinear tap at a face edge repeats the edge texel instead of reading
the neighbouring face). GetDimensions of a cube array counts cubes.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.ops import Op
from ...machine.abi import META_ABSENT_CHANNELS, META_TEXEL_FORMAT
from .llvm_text import V, element, flat_scalars, is_vector, ll_scalar, mangle
from .memory import (INT32_MAX, META_ARRAY_COUNT, Address, Memory, buffer_info, load_value, slot_memory,
                          store_value)
from .texel_rounding import as_stored
from .values import Value, cast, cast_value, unify

_META = {"kind": 0, "stride": 1, "width": 2, "height": 3, "depth": 4, "mips": 5, "mip_offsets": 6,
         "filter": 7, "address": 8, "comparison": 10, "texel_format": META_TEXEL_FORMAT,
         "absent_channels": META_ABSENT_CHANNELS}
# SampleCmp: how a comparison function's number (machine/abi.py COMPARISONS) compares ``ref`` with a
# texel, as an LLVM fcmp predicate (never and always are constant)
_COMPARE_PREDICATES = {1: "olt", 2: "oeq", 3: "ole", 4: "ogt", 5: "une", 6: "oge"}
META_INTS = 16

def _kind(em, name: str) -> tuple[str, int, bool, bool]:
    binding = em.bindings.get(name)
    if binding is None:
        raise NotImplementedError(f"no texture named {name!r} is bound")
    writable, dims, _, is_array = T.RESOURCE_KINDS[binding.kind]
    if binding.kind in T.CUBE_KINDS:  # laid out like a 2-D array of 6 * cubes faces
        return binding.kind, 3, False, True
    return binding.kind, dims, writable, is_array


def _storage(em, name: str) -> T.ScalarType:
    element_type = em.bindings[name].element
    scalar = T.element_of(element_type) if element_type is not None else T.FLOAT
    if scalar is None or scalar.kind == "float":
        return T.FLOAT
    return T.INT if scalar.kind == "int" else T.UINT


class Slot:
    """A texture or sampler slot: base slot and the lanes' (or the wave's) array index."""

    def __init__(self, em, name: str, array_index: V | None):
        self.em, self.name = em, name
        self.base = em.slot_base[name]
        self.index = array_index
        b = em.b
        if array_index is None:
            self.slot, self.valid = V("i32", str(self.base)), None
            return
        count = em.bindings[name].count
        index = b.cast("trunc", array_index, "i32") if element(array_index.ty) == "i64" else array_index
        if count is None:  # unbounded: the runtime's element count in the first slot's meta
            at = self.base * META_INTS + META_ARRAY_COUNT
            meta = em.ctx_field("meta", 16)
            pointer = em.entry_value(f"meta{at}.p", "ptr", f"getelementptr i32, ptr {meta.ref}, i64 {at}")
            limit = em.entry_value(f"meta{at}", "i32", f"load i32, ptr {pointer.ref}, align 4")
            limit = b.splat(limit) if is_vector(index.ty) else limit
        else:
            limit = b.const(index.ty, count)
        self.valid = b.icmp("ult", index, limit)
        self.slot = b.binop("add", b.select(self.valid, index, b.zero(index.ty)), b.const(index.ty, self.base))

    def meta(self, field: str) -> V:
        """A meta int of the slot: an entry value for a fixed slot, else loaded per use."""
        em, b = self.em, self.em.b
        meta = em.ctx_field("meta", 16)
        position = _META[field]
        if self.index is None:
            at = self.base * META_INTS + position
            pointer = em.entry_value(f"meta{at}.p", "ptr", f"getelementptr i32, ptr {meta.ref}, i64 {at}")
            return em.entry_value(f"meta{at}", "i32", f"load i32, ptr {pointer.ref}, align 4")
        at = b.binop("add", b.binop("mul", self.slot, b.const(self.slot.ty, META_INTS)),
                     b.const(self.slot.ty, position))
        pointers = b.inst(b.vec("ptr") if is_vector(at.ty) else "ptr", f"getelementptr i32, ptr {meta.ref}, {at}")
        if not is_vector(at.ty):
            return b.load("i32", pointers, align=4)
        return b.call(b.vec("i32"), "llvm.masked.gather", [pointers, V("i32", "4"), b.all_lanes(),
                                                            b.zero(b.vec("i32"))], mangle_with=[b.vec("i32"), pointers.ty])

    def mip_offset(self, mip: V) -> V:
        """The texel offset of mip level ``mip`` (clamped into the chain), i32."""
        em, b = self.em, self.em.b
        start = self.meta("mip_offsets")
        mips = self.meta("mips")
        last = b.binop("sub", mips, b.const(mips.ty, 1))
        start, last, mip = unify(b, [start, last, mip])
        safe = b.call(mip.ty, "llvm.umin", [mip, b.call(last.ty, "llvm.smax", [last, b.zero(last.ty)])])
        at = b.binop("add", start, safe)
        meta = em.ctx_field("meta", 16)
        pointers = b.inst(b.vec("ptr") if is_vector(at.ty) else "ptr", f"getelementptr i32, ptr {meta.ref}, {at}")
        if is_vector(at.ty):
            offset = b.call(b.vec("i32"), "llvm.masked.gather", [pointers, V("i32", "4"), em.exec,
                                                                 b.zero(b.vec("i32"))],
                            mangle_with=[b.vec("i32"), pointers.ty])
        else:
            offset = b.load("i32", pointers, align=4)
        return offset


def _level_size(b, size: V, mip: V) -> V:
    """``max(1, size >> mip)``."""
    size, mip = unify(b, [size, mip])
    shifted = b.binop("lshr", size, b.call(mip.ty, "llvm.umin", [mip, b.const(mip.ty, 31)]))
    return b.call(shifted.ty, "llvm.umax", [shifted, b.const(shifted.ty, 1)])


class Level:
    """The sizes of one mip level of a texture slot."""

    def __init__(self, slot: Slot, kind: str, dims: int, is_array: bool, mip: V):
        b = slot.em.b
        self.width = _level_size(b, slot.meta("width"), mip)
        rows = dims - (1 if is_array else 0)  # texel axes: x[, y][, z]
        self.height = _level_size(b, slot.meta("height"), mip) if rows >= 2 else b.const("i32", 1)
        if is_array:
            self.depth = slot.meta("depth")
        elif rows == 3:
            self.depth = _level_size(b, slot.meta("depth"), mip)
        else:
            self.depth = b.const("i32", 1)
        self.rows, self.is_array = rows, is_array


def _texel_address(em, slot: Slot, level: Level, mip: V, x: V, y: V, z: V) -> Address:
    """Byte address of texel (x, y, z) of ``level``, in i32 (a wrapped address only ever
    lands inside the slot's bytes or fails the bounds check)."""
    b = em.b
    x, y, z, width, height, base = unify(b, [x, y, z, level.width, level.height, slot.mip_offset(mip)])
    row = b.binop("add", b.binop("mul", z, height), y)
    texel = b.binop("add", b.binop("add", b.binop("mul", row, width), x), base)
    return Address(b.binop("mul", texel, b.const(texel.ty, 16)))


def _coordinates(em, value: Value, source: T.Type, count: int) -> list[V]:
    parts = cast_value(em.b, value, source, T.UINT).parts
    return parts + [em.b.const("i32", 0)] * (count - len(parts))


def _split(em, name: str, args: list[Value]) -> tuple[V | None, list[Value]]:
    if em.bindings[name].count != 1:
        return args[0].parts[0], args[1:]
    return None, args


def _within(b, value: V, size: V) -> V:
    return b.icmp("ult", *unify(b, [value, size]))


def _and(b, *flags: V) -> V:
    result = None
    for flag in flags:
        if flag is None:
            continue
        result = flag if result is None else b.binop("and", *unify(b, [result, flag]))
    return result


def texture_load(em, inst, args):
    b = em.b
    name = inst.attrs["resource"]
    kind, dims, writable, is_array = _kind(em, name)
    array_index, (coordinate,) = _split(em, name, args)
    slot = Slot(em, name, array_index)
    coords = _coordinates(em, coordinate, inst.operands[-1].type, dims + (0 if writable else 1))
    mip = coords[dims] if not writable else b.const("i32", 0)
    level = Level(slot, kind, dims, is_array, mip)
    x = coords[0]
    y = coords[1] if level.rows >= 2 else b.const("i32", 0)
    z = coords[dims - 1] if is_array or level.rows == 3 else b.const("i32", 0)
    ok = _and(b, slot.valid, _within(b, mip, slot.meta("mips")), _within(b, x, level.width),
              _within(b, y, level.height), _within(b, z, level.depth))
    memory = slot_memory(em, name, array_index)
    memory = memory.restricted(b, ok)
    width = min(len(flat_scalars(inst.type)), 4)
    storage = _storage(em, name)
    texel = load_value(em, memory, _texel_address(em, slot, level, mip, x, y, z), T.vector(storage, width),
                       volatile=em.bindings[name].globally_coherent,
                       history=None if em.bindings[name].globally_coherent else lambda: em.history_words(inst))
    return cast_value(b, texel, T.vector(storage, width), flat_scalars(inst.type)[0])


def texel_place(em, name: str, array_index: V | None, coordinate: Value, coordinate_type: T.Type):
    """The memory (restricted to lanes whose texel exists) and address of mip 0's texel at
    ``coordinate`` of the RW texture ``name``: what texture stores and texel atomics write."""
    return _texel_slot_and_place(em, name, array_index, coordinate, coordinate_type)[1:]


def _texel_slot_and_place(em, name: str, array_index: V | None, coordinate: Value, coordinate_type: T.Type):
    b = em.b
    kind, dims, writable, is_array = _kind(em, name)
    slot = Slot(em, name, array_index)
    coords = _coordinates(em, coordinate, coordinate_type, dims)
    mip = b.const("i32", 0)
    level = Level(slot, kind, dims, is_array, mip)
    x = coords[0]
    y = coords[1] if level.rows >= 2 else b.const("i32", 0)
    z = coords[dims - 1] if is_array or level.rows == 3 else b.const("i32", 0)
    ok = _and(b, slot.valid, _within(b, x, level.width), _within(b, y, level.height), _within(b, z, level.depth))
    memory = slot_memory(em, name, array_index).restricted(b, ok)
    return slot, memory, _texel_address(em, slot, level, mip, x, y, z)


def is_texture(em, name: str) -> bool:
    return T.RESOURCE_KINDS.get(em.bindings[name].kind, (False, 0, False, False))[2]


def texture_store(em, inst, args):
    b = em.b
    name = inst.attrs["resource"]
    array_index, (coordinate, value) = _split(em, name, args)
    slot, memory, address = _texel_slot_and_place(em, name, array_index, coordinate, inst.operands[-2].type)
    storage = _storage(em, name)
    width = min(len(flat_scalars(inst.operands[-1].type)), 4)
    texel = cast_value(b, value, inst.operands[-1].type, storage)
    channels = as_stored(em, slot, storage, texel.parts[:width])  # as the bound format keeps them
    store_value(em, memory, address, Value(channels), T.vector(storage, width),
                history=lambda: em.history_words(inst))


# ---------------------------------------------------------------------------------------
# sampling
# ---------------------------------------------------------------------------------------


def _address_mode(b, i: V, n: V, mode: V) -> tuple[V, V]:
    """An integer-valued float texel index wrapped by the address mode; and whether it is
    inside (border mode reads the border color outside)."""
    one = b.const(i.ty, 1.0)
    clamped = b.call(i.ty, "llvm.maxnum", [b.call(i.ty, "llvm.minnum", [i, b.binop("fsub", n, one)]),
                                           b.zero(i.ty)])

    def modulo(value, period):
        q = b.call(value.ty, "llvm.floor", [b.binop("fdiv", value, period)])
        r = b.binop("fsub", value, b.binop("fmul", q, period))
        r = b.select(b.fcmp("olt", r, b.zero(r.ty)), b.binop("fadd", r, period), r)
        return b.select(b.fcmp("oge", r, period), b.binop("fsub", r, period), r)

    wrapped = modulo(i, n)
    twice = b.binop("fadd", n, n)
    folded = modulo(i, twice)
    mirrored = b.select(b.fcmp("olt", folded, n), folded,
                        b.binop("fsub", b.binop("fsub", twice, one), folded))
    mode = b.splat(mode) if is_vector(i.ty) else mode
    result = b.select(b.icmp("eq", mode, b.const(mode.ty, 1)), wrapped,
                      b.select(b.icmp("eq", mode, b.const(mode.ty, 2)), mirrored, clamped))
    inside = b.binop("and", b.fcmp("oge", i, b.zero(i.ty)), b.fcmp("olt", i, n))
    border = b.icmp("eq", mode, b.const(mode.ty, 3))
    outside_ok = b.binop("or", inside, b.binop("xor", border, b.const(border.ty, True)))
    return b.select(border, i, result), outside_ok


def _sample_level(em, memory: Memory, sizes: tuple[V, V, V], offsets_ptr: V, mip: V, uv: list[V], slice_: V,
                  offsets: list[V], filtered: bool, mode: V, width: int, storage: T.ScalarType,
                  border: list[V], history: list[tuple[V, V]] | None = None,
                  compare: tuple[V, V] | None = None) -> list[V]:
    """Point (the texel under the coordinate alone) or linear filtering (of the 2^axes texels
    around it) at mip level ``mip`` (a lane vector) over ``len(uv)`` axes (3 axes: a 3-D
    texture, whose depth shrinks with the mip): ``width`` float channels. ``history``: the
    sample site's two pairs of history words; the loads of the first texel and of the one
    a row below prefetch for the next wave (the texels to their right share their lines or
    take the next ones; in 3-D, the slice behind is not prefetched)."""
    b = em.b
    fty = b.vec("float")
    level_sizes = [_level_size(b, size, mip) for size in sizes]
    level_width, level_height = level_sizes[0], level_sizes[1]
    scales = [b.cast("uitofp", size, fty) for size in level_sizes][:len(uv)]
    mip_offset = load_value(em, Memory(offsets_ptr, V("i32", str(INT32_MAX))), Address(b.binop("shl", mip, b.const(
        mip.ty, 2))), T.INT).parts[0]
    starts, fractions = [], []
    for coordinate, scale, offset in zip(uv, scales, offsets):
        texel = b.binop("fmul", coordinate, scale)
        if filtered:
            texel = b.binop("fsub", texel, b.const(fty, 0.5))
        texel = b.binop("fadd", texel, b.splat(offset))
        start = b.call(fty, "llvm.floor", [texel])
        starts.append(start)
        fractions.append(b.binop("fsub", texel, start))
    # corner k has step (k >> axis) & 1 on each axis: x pairs first, then y, then z
    corners = [tuple((k >> axis) & 1 for axis in range(len(uv))) for k in range(1 << len(uv) if filtered else 1)]
    # the first texel and the one a row below it prefetch, with the site's two pairs of words
    prefetching = {} if history is None else {(0,) * len(uv): history[0], (0, 1) + (0,) * (len(uv) - 2): history[1]}
    texels = []
    for steps in corners:
        inside, index = None, []
        for axis, step in enumerate(steps):
            position = b.binop("fadd", starts[axis], b.const(fty, float(step))) if step else starts[axis]
            wrapped, ok = _address_mode(b, position, scales[axis], mode)
            index.append(b.call(b.vec("i32"), "llvm.fptosi.sat", [wrapped], mangle_with=[b.vec("i32"), fty]))
            inside = ok if inside is None else b.binop("and", inside, ok)
        y = index[1] if len(index) > 1 else b.const(b.vec("i32"), 0)
        z = index[2] if len(index) > 2 else slice_
        row = b.binop("add", b.binop("mul", z, b.splat(level_height)), y)
        texel_index = b.binop("add", b.binop("add", b.binop("mul", row, b.splat(level_width)), index[0]), mip_offset)
        address = Address(b.binop("mul", texel_index, b.const(texel_index.ty, 16)))
        words = prefetching.get(steps)
        texel = load_value(em, memory.restricted(b, inside), address, T.vector(storage, width),
                           history=None if words is None else lambda: words)
        texel = cast_value(b, texel, T.vector(storage, width), T.FLOAT).parts
        texels.append([b.select(inside, part, b.splat(color)) for part, color in zip(texel, border)])
        if compare is not None:  # SampleCmp: 1 or 0 per texel (border color included), then filtered
            texels[-1] = [_compared(b, *compare, texels[-1][0])]
    if not filtered:
        return texels[0]
    result = []
    for channel in range(width):
        values = [texel[channel] for texel in texels]
        for fraction in fractions:
            values = [_lerp(b, values[i], values[i + 1], fraction) for i in range(0, len(values), 2)]
        result.append(values[0])
    return result


def _compared(b, reference: V, function: V, texel: V) -> V:
    """``reference <function> texel`` as 1.0 or 0.0 (``function``: a COMPARISONS number)."""
    fty = b.vec("float")
    one, zero = b.const(fty, 1.0), b.zero(fty)
    result = b.select(b.splat(b.icmp("eq", function, b.const("i32", 7))), one, zero)  # always
    for number, predicate in _COMPARE_PREDICATES.items():
        hit = b.select(b.fcmp(predicate, reference, texel), one, zero)
        result = b.select(b.splat(b.icmp("eq", function, b.const("i32", number))), hit, result)
    return result


def _lerp(b, a: V, c: V, t: V) -> V:
    a, c, t = unify(b, [a, c, t])
    return b.binop("fadd", a, b.binop("fmul", t, b.binop("fsub", c, a)))


def _sample_helper(em, axes: int, storage: T.ScalarType, width: int, compare: bool = False) -> tuple[str, str]:
    """``@shc.sample...``: SampleLevel of one texture for a whole wave, out of line (one copy per
    texture shape instead of ~500 instructions per sample). Its last four arguments are the
    sample site's two pairs of history words (``host_prefetch``; null: no prefetching); with
    ``compare`` (SampleCmp, one channel), two more: the reference and the comparison function."""
    b = em.b
    lanes_f, lanes_i, mask = b.vec("float"), b.vec("i32"), b.mask_ty
    result = "{ " + ", ".join([lanes_f] * width) + " }"
    name = f"shc.sample{axes}d{'.cmp' if compare else ''}.{mangle(ll_scalar(storage))}.{width}.{em.wave_size}"
    params = ["ptr", "i32", mask, lanes_f, lanes_f, lanes_f, lanes_i, lanes_f, "i32", "i32", "i32", "i32", "ptr",
              "i1", "i32", lanes_f, lanes_f, lanes_f, "float", "float", "float", "float", "ptr", "ptr", "ptr", "ptr"]
    params += [lanes_f, "i32"] if compare else []
    if name in b.helpers:
        return name, result
    saved_exec = em.exec
    with b.detached() as lines:
        p = [V(ty, f"%p{index}") for index, ty in enumerate(params)]
        (base, size, valid, u, v, w, slice_, lod, tex_width, tex_height, tex_depth, mips, offsets_ptr, linear, mode,
         ox, oy, oz) = p[:18]
        border, history = p[18:22], [(p[22], p[23]), (p[24], p[25])]
        comparing = (p[26], p[27]) if compare else None
        em.exec = valid

        def level(mip: V, filtered: bool, first: bool = True) -> list[V]:
            number = b.call(lanes_i, "llvm.fptoui.sat", [mip], mangle_with=[lanes_i, lanes_f])
            return _sample_level(em, Memory(base, size, valid), (tex_width, tex_height, tex_depth), offsets_ptr, number,
                                 [u, v, w][:axes], slice_, [ox, oy, oz], filtered, mode, width, storage, border,
                                 history if first else None, comparing)

        def give(channels: list[V]) -> None:
            current = "poison"
            for index, channel in enumerate(channels):
                current = b.inst(result, f"insertvalue {result} {current}, {channel}, {index}").ref
            b.terminate(f"ret {result} {current}")

        try:
            last = b.cast("sitofp", b.splat(b.binop("sub", mips, b.const("i32", 1))), lanes_f)
            clamped = b.call(lanes_f, "llvm.maxnum", [b.call(lanes_f, "llvm.minnum", [lod, last]), b.zero(lanes_f)])
            point, filtered = b.label("point"), b.label("linear")
            b.cbr(linear, filtered, point)
            b.start(point)  # the nearest mip's nearest texel, nothing else read
            give(level(b.call(lanes_f, "llvm.floor", [b.binop("fadd", clamped, b.const(lanes_f, 0.5))]), False))
            b.start(filtered)  # trilinear: the next mip only where the level of detail is between two
            floor = b.call(lanes_f, "llvm.floor", [clamped])
            blend = b.binop("fsub", clamped, floor)
            near = level(floor, True)
            blending = b.fcmp("one", blend, b.zero(lanes_f))
            one, two = b.label("one_mip"), b.label("two_mips")
            b.cbr(b.any_lane(b.mask_and(valid, blending)), two, one)
            b.start(one)
            give(near)
            b.start(two)
            far = level(b.call(lanes_f, "llvm.minnum", [b.binop("fadd", floor, b.const(lanes_f, 1.0)), last]), True,
                        first=False)
            give([b.select(blending, _lerp(b, closer, further, blend), closer) for closer, further in zip(near, far)])
        finally:
            em.exec = saved_exec
    body = [line.strip() if not line.endswith(":") else line for line in lines]
    b.helper(name, result, params, body, "write")  # the history words are written
    return name, result


def border_color(em, sampler_name: str, sampler_index: V | None) -> list[V]:
    """The sampler slot's float32[4] border color (transparent black when the slot has none)."""
    memory = slot_memory(em, sampler_name, sampler_index)
    return load_value(em, memory, Address(em.b.const("i32", 0)), T.vector(T.FLOAT, 4)).parts


def sampled_operands(em, inst, args) -> tuple[Slot, Slot, V | None, V | None, list[Value]]:
    """A sampling op's texture and sampler slots, their array indexes, and its other operands.

    A descriptor lives in SGPRs: a lane-varying array index without NonUniformResourceIndex
    takes the first active lane's (what the hardware does with it)."""
    name, sampler_name = inst.attrs["resource"], inst.attrs["sampler"]
    rest = list(args)
    array_index = rest.pop(0).parts[0] if em.bindings[name].count != 1 else None
    sampler_index = rest.pop(0).parts[0] if em.bindings[sampler_name].count != 1 else None
    array_index = em.sgpr(Value([array_index])) if array_index is not None else None
    sampler_index = em.sgpr(Value([sampler_index])) if sampler_index is not None else None
    return Slot(em, name, array_index), Slot(em, sampler_name, sampler_index), array_index, sampler_index, rest


def array_slice(b, layers: V, layer: V) -> V:
    """The array slice a float ``layer`` coordinate picks: ``round(layer)`` clamped to the
    ``layers`` slices, as a lane vector of i32."""
    lanes_f = b.vec("float")
    slices = b.splat(b.cast("uitofp", layers, "float"))
    chosen = b.call(lanes_f, "llvm.floor", [b.binop("fadd", layer, b.const(lanes_f, 0.5))])
    highest = b.binop("fsub", slices, b.const(lanes_f, 1.0))
    chosen = b.call(lanes_f, "llvm.maxnum", [b.call(lanes_f, "llvm.minnum", [chosen, highest]), b.zero(lanes_f)])
    return b.call(b.vec("i32"), "llvm.fptoui.sat", [chosen], mangle_with=[b.vec("i32"), lanes_f])


def texture_sample(em, inst, args):
    b = em.b
    name, sampler_name = inst.attrs["resource"], inst.attrs["sampler"]
    kind, dims, writable, is_array = _kind(em, name)
    slot, sampler, array_index, sampler_index, (coordinate, lod, *reference) = sampled_operands(em, inst, args)
    cube = em.bindings[name].kind in T.CUBE_KINDS
    axes = 2 if cube else dims - (1 if is_array else 0)
    lanes_f = b.vec("float")
    coordinate_type, lod_type = (op.type for op in inst.operands[-2 - len(reference):len(inst.operands) - len(reference)])
    coords = [b.splat(part) for part in cast_value(b, coordinate, coordinate_type, T.FLOAT).parts]
    level_of_detail = b.splat(cast(b, lod.parts[0], flat_scalars(lod_type)[0], T.FLOAT))
    mips = slot.meta("mips")
    layer_at = 3 if cube else axes
    if is_array and (not cube or em.bindings[name].kind == "TextureCubeArray"):
        layers = slot.meta("depth")
        if cube:
            layers = b.binop("udiv", layers, b.const("i32", 6))
        slice_ = array_slice(b, layers, coords[layer_at])
    else:
        slice_ = b.zero(b.vec("i32"))
    mode = sampler.meta("address")
    if cube:
        face, uv = _cube_face(b, coords[:3])
        slice_ = b.binop("add", b.binop("mul", slice_, b.const(slice_.ty, 6)), face)
        coords = uv
        mode = b.const("i32", 0)  # clamp to the face's edge (no seamless filtering across faces)
    memory = slot_memory(em, name, array_index)
    valid = b.mask_and(em.exec, b.splat(_and(b, memory.valid, slot.valid, b.icmp("sgt", mips, b.const("i32", 0)))))
    meta = em.ctx_field("meta", 16)
    offsets_ptr = b.gep(meta, b.binop("shl", slot.meta("mip_offsets"), b.const("i32", 2)))
    width = min(len(flat_scalars(inst.type)), 4)
    helper, result = _sample_helper(em, axes, _storage(em, name), width, compare=bool(reference))
    offsets = (list(inst.attrs.get("offset", [])) + [0, 0, 0])[:3]
    linear = b.icmp("eq", sampler.meta("filter"), b.const("i32", 1))
    height = slot.meta("height") if axes >= 2 else b.const("i32", 1)
    depth = slot.meta("depth") if axes == 3 else b.const("i32", 1)
    arguments = [memory.base, memory.size, valid, coords[0], coords[1] if axes >= 2 else b.zero(lanes_f),
                 coords[2] if axes == 3 else b.zero(lanes_f), slice_, level_of_detail, slot.meta("width"), height,
                 depth, mips, offsets_ptr, linear, mode]
    arguments += [b.const(lanes_f, float(offset)) for offset in offsets]
    arguments += border_color(em, sampler_name, sampler_index)
    for _ in range(2):  # the first row of texels and the one below it
        arguments += em.history_words(inst) or (V("ptr", "null"), V("ptr", "null"))
    if reference:  # SampleCmpLevelZero: the reference and the sampler's comparison function
        arguments += [b.splat(cast(b, reference[0].parts[0], flat_scalars(inst.operands[-1].type)[0], T.FLOAT)),
                      sampler.meta("comparison")]
    sampled = b.inst(result, f"call {result} @{helper}(" + ", ".join(str(a) for a in arguments) + ")")
    channels = [b.inst(lanes_f, f"extractvalue {sampled}, {index}") for index in range(width)]
    return cast_value(b, Value(channels), T.vector(T.FLOAT, width), flat_scalars(inst.type)[0])


def _cube_face(b, direction: list[V]) -> tuple[V, list[V]]:
    """D3D cube addressing of a direction (lane vectors): the face (+X, -X, +Y, -Y, +Z, -Z =
    0..5; the major axis is the largest magnitude, ties going to z, then y, then x; a
    non-negative component picks the positive face) and the face's (u, v) in [0, 1]."""
    x, y, z = direction
    fty = x.ty
    ax, ay, az = (b.call(fty, "llvm.fabs", [c]) for c in (x, y, z))
    z_major = b.binop("and", b.fcmp("oge", az, ay), b.fcmp("oge", az, ax))
    y_major = b.fcmp("oge", ay, ax)
    negate = lambda value: b.binop("fsub", b.zero(fty), value)  # noqa: E731
    ipos = lambda value: b.fcmp("oge", value, b.zero(fty))  # noqa: E731
    i32 = b.vec("i32")

    def pick(on_z, on_y, on_x):
        return b.select(z_major, on_z, b.select(y_major, on_y, on_x))

    face = pick(b.select(ipos(z), b.const(i32, 4), b.const(i32, 5)),
                b.select(ipos(y), b.const(i32, 2), b.const(i32, 3)),
                b.select(ipos(x), b.const(i32, 0), b.const(i32, 1)))
    major = pick(az, ay, ax)
    sc = pick(b.select(ipos(z), x, negate(x)), x, b.select(ipos(x), negate(z), z))
    tc = pick(negate(y), b.select(ipos(y), z, negate(z)), negate(y))
    half = b.const(fty, 0.5)
    uv = [b.binop("fadd", b.binop("fmul", b.binop("fdiv", c, major), half), half) for c in (sc, tc)]
    return face, uv


# ---------------------------------------------------------------------------------------
# GetDimensions
# ---------------------------------------------------------------------------------------


def resource_info(em, inst, args):
    b = em.b
    name = inst.attrs.get("resource")
    binding = em.bindings.get(name)
    if binding is None or not T.RESOURCE_KINDS.get(binding.kind, (False, 0, False, False))[2]:
        return buffer_info(em, inst, args)
    kind, dims, writable, is_array = _kind(em, name)
    array_index, rest = _split(em, name, args)
    slot = Slot(em, name, array_index)
    mip = cast(b, rest[0].parts[0], flat_scalars(inst.operands[-1].type)[0], T.UINT) if rest else b.const("i32", 0)
    level = Level(slot, kind, dims, is_array, mip)
    mips = slot.meta("mips")
    present = _and(b, slot.valid, _within(b, mip, mips))
    sizes = {"width": level.width, "height": level.height if level.rows >= 2 else slot.meta("depth"),
             "depth": level.depth, "elements": slot.meta("depth"), "levels": mips}
    if kind == "TextureCubeArray":
        sizes["elements"] = b.binop("udiv", slot.meta("depth"), b.const("i32", 6))
    if kind == "Texture1DArray" or kind == "RWTexture1DArray":
        sizes["height"] = slot.meta("depth")
    parts = []
    for field in inst.attrs.get("fields", [])[:len(flat_scalars(inst.type))]:
        value = sizes.get(field, b.const("i32", 0))
        value, flag = unify(b, [value, present])
        parts.append(b.select(flag, value, b.zero(value.ty)))
    return cast_value(b, Value(parts), T.vector(T.UINT, len(parts)), flat_scalars(inst.type)[0])


HANDLERS = {
    Op.TEXTURE_LOAD: texture_load, Op.TEXTURE_STORE: texture_store, Op.TEXTURE_SAMPLE: texture_sample,
    Op.RESOURCE_INFO: resource_info,
}

__all__ = ["HANDLERS"]
