"""Host JIT emitters for textures: ``texture_load``, ``texture_store``, ``texture_sample``
(SampleLevel) and ``resource_info`` (GetDimensions).

A texture slot holds 4-channel texels (float32, or uint32/int32 for integer
formats), every mip level back to back; ``meta`` gives width, height, depth
(array slices, or the depth of a 3-D texture), the mip count and where the
per-mip texel offsets start (``runtime/abi.py``). Mip ``m`` is ``max(1, size >> m)``
texels wide and high (3-D textures shrink in depth too; arrays keep their slices);
texel ``(x, y, z)`` of it is at ``offset[m] + (z * height_m + y) * width_m + x``.

Out of range (a coordinate, the mip level, the array index, or the slot's bytes)
reads 0 and is not written. ``texture_sample``: the sampler slot's ``filter`` (0
point, 1 linear) and ``address`` (0 clamp, 1 wrap, 2 mirror, 3 border with a
transparent black border) apply to u and v; the array slice is ``round(w)``
clamped; point sampling takes mip ``floor(lod + 0.5)``, linear sampling is
trilinear (bilinear in mips ``floor(lod)`` and the next, blended by the fraction;
an integer lod is plain bilinear). Texel centres are at half-integers.
"""

from __future__ import annotations

from ..frontend import hlsl_types as T
from ..ir.ops import Op
from .host_ir import V, element, flat_scalars, is_vector
from .host_memory import META_ARRAY_COUNT, Address, Memory, buffer_info, load_value, slot_memory, store_value
from .host_values import Value, cast, cast_value, unify

_META = {"kind": 0, "stride": 1, "width": 2, "height": 3, "depth": 4, "mips": 5, "mip_offsets": 6,
         "filter": 7, "address": 8}
META_INTS = 16


def _kind(em, name: str) -> tuple[str, int, bool, bool]:
    binding = em.bindings.get(name)
    if binding is None:
        raise NotImplementedError(f"no texture named {name!r} is bound")
    if binding.kind in ("TextureCube", "TextureCubeArray"):
        raise NotImplementedError(f"{binding.kind} is not supported by the host JIT")
    writable, dims, _, is_array = T.RESOURCE_KINDS[binding.kind]
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
    texel = load_value(em, memory, _texel_address(em, slot, level, mip, x, y, z), T.vector(storage, width))
    return cast_value(b, texel, T.vector(storage, width), flat_scalars(inst.type)[0])


def texture_store(em, inst, args):
    b = em.b
    name = inst.attrs["resource"]
    kind, dims, writable, is_array = _kind(em, name)
    array_index, (coordinate, value) = _split(em, name, args)
    slot = Slot(em, name, array_index)
    coords = _coordinates(em, coordinate, inst.operands[-2].type, dims)
    mip = b.const("i32", 0)
    level = Level(slot, kind, dims, is_array, mip)
    x = coords[0]
    y = coords[1] if level.rows >= 2 else b.const("i32", 0)
    z = coords[dims - 1] if is_array or level.rows == 3 else b.const("i32", 0)
    ok = _and(b, slot.valid, _within(b, x, level.width), _within(b, y, level.height), _within(b, z, level.depth))
    memory = slot_memory(em, name, array_index)
    memory = memory.restricted(b, ok)
    storage = _storage(em, name)
    width = min(len(flat_scalars(inst.operands[-1].type)), 4)
    texel = cast_value(b, value, inst.operands[-1].type, storage)
    store_value(em, memory, _texel_address(em, slot, level, mip, x, y, z), Value(texel.parts[:width]),
                T.vector(storage, width))


# ---------------------------------------------------------------------------------------
# sampling
# ---------------------------------------------------------------------------------------


def _address_mode(b, i: V, n: V, mode: V) -> tuple[V, V]:
    """An integer-valued float texel index wrapped by the address mode; and whether it is
    inside (border mode reads transparent black outside)."""
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


def _sample_level(em, slot: Slot, memory: Memory, kind, dims, is_array, mip: V, uv: list[V], slice_: V,
                  offsets: list[int], linear: V, mode: V, width: int, storage: T.ScalarType) -> list[V]:
    """Point or bilinear filtering at one mip level: ``width`` float channels."""
    b = em.b
    level = Level(slot, kind, dims, is_array, mip)
    fty = uv[0].ty
    sizes = [level.width, level.height][:len(uv)]
    sizes = [b.cast("uitofp", b.splat(s) if is_vector(fty) else s, fty) for s in sizes]
    linear_f = b.select(b.splat(linear) if is_vector(fty) else linear, b.const(fty, 0.5), b.zero(fty))
    starts, fractions = [], []
    for coordinate, size, offset in zip(uv, sizes, offsets):
        texel = b.binop("fadd", b.binop("fsub", b.binop("fmul", coordinate, size), linear_f), b.const(fty, offset))
        start = b.call(fty, "llvm.floor", [texel])
        starts.append(start)
        fraction = b.binop("fsub", texel, start)
        fractions.append(b.select(b.splat(linear) if is_vector(fty) else linear, fraction, b.zero(fty)))
    corners = [(0, 0), (1, 0), (0, 1), (1, 1)] if len(uv) == 2 else [(0, 0), (1, 0)]
    texels = []
    for dx, dy in corners:
        inside, index = None, []
        for axis, step in enumerate((dx, dy)[:len(uv)]):
            position = b.binop("fadd", starts[axis], b.const(fty, float(step))) if step else starts[axis]
            wrapped, ok = _address_mode(b, position, sizes[axis], mode)
            index.append(b.call(b.vec("i32") if is_vector(fty) else "i32", "llvm.fptosi.sat", [wrapped],
                                mangle_with=[b.vec("i32") if is_vector(fty) else "i32", fty]))
            inside = ok if inside is None else b.binop("and", inside, ok)
        y = index[1] if len(index) > 1 else b.const("i32", 0)
        address = _texel_address(em, slot, level, mip, index[0], y, slice_)
        texel = load_value(em, memory.restricted(b, inside), address, T.vector(storage, width))
        texels.append(cast_value(b, texel, T.vector(storage, width), T.FLOAT).parts)
    fx = b.cast("fpext", fractions[0], b.vec("float") if is_vector(fty) else "float") if element(fty) != "float" \
        else fractions[0]
    result = []
    for channel in range(width):
        values = [b.splat(texel[channel]) if is_vector(fx.ty) else texel[channel] for texel in texels]
        top = _lerp(b, values[0], values[1], fx)
        if len(uv) == 2:
            fy = b.cast("fpext", fractions[1], fx.ty) if element(fty) != "float" else fractions[1]
            top = _lerp(b, top, _lerp(b, values[2], values[3], fx), fy)
        result.append(top)
    return result


def _lerp(b, a: V, c: V, t: V) -> V:
    a, c, t = unify(b, [a, c, t])
    return b.binop("fadd", a, b.binop("fmul", t, b.binop("fsub", c, a)))


def texture_sample(em, inst, args):
    b = em.b
    name, sampler_name = inst.attrs["resource"], inst.attrs["sampler"]
    kind, dims, writable, is_array = _kind(em, name)
    rest = list(args)
    array_index = rest.pop(0).parts[0] if em.bindings[name].count != 1 else None
    sampler_index = rest.pop(0).parts[0] if em.bindings[sampler_name].count != 1 else None
    coordinate, lod = rest
    if dims - (1 if is_array else 0) > 2:
        raise NotImplementedError(f"SampleLevel on {kind} is not supported by the host JIT")
    slot, sampler = Slot(em, name, array_index), Slot(em, sampler_name, sampler_index)
    filter_mode, mode = em.sgpr(Value([sampler.meta("filter")])), em.sgpr(Value([sampler.meta("address")]))
    linear = b.icmp("eq", filter_mode, b.const("i32", 1))
    uvw = cast_value(b, coordinate, inst.operands[-2].type, T.FLOAT).parts
    level_of_detail = cast(b, lod.parts[0], flat_scalars(inst.operands[-1].type)[0], T.FLOAT)
    axes = dims - (1 if is_array else 0)
    uvw = unify(b, uvw + [level_of_detail])
    level_of_detail, uvw = uvw[-1], uvw[:-1]
    fty = uvw[0].ty
    uv = uvw[:axes]
    offsets = list(inst.attrs.get("offset", [])) + [0, 0]
    mips = slot.meta("mips")
    last = b.cast("sitofp", b.binop("sub", mips, b.const("i32", 1)), "float")
    last = b.splat(last) if is_vector(fty) else last
    if is_array:
        slices = b.cast("uitofp", slot.meta("depth"), "float")
        slices = b.splat(slices) if is_vector(fty) else slices
        layer = b.call(fty, "llvm.floor", [b.binop("fadd", uvw[axes], b.const(fty, 0.5))])
        layer = b.call(fty, "llvm.maxnum", [b.call(fty, "llvm.minnum", [layer, b.binop("fsub", slices, b.const(fty, 1.0))]),
                                            b.zero(fty)])
        slice_ = b.call(b.vec("i32") if is_vector(fty) else "i32", "llvm.fptoui.sat", [layer],
                        mangle_with=[b.vec("i32") if is_vector(fty) else "i32", fty])
    else:
        slice_ = b.const("i32", 0)
    clamped = b.call(fty, "llvm.maxnum", [b.call(fty, "llvm.minnum", [level_of_detail, last]), b.zero(fty)])
    nearest = b.call(fty, "llvm.floor", [b.binop("fadd", clamped, b.const(fty, 0.5))])
    base = b.call(fty, "llvm.floor", [clamped])
    linear_v = b.splat(linear) if is_vector(fty) else linear
    first = b.select(linear_v, base, nearest)
    blend = b.select(linear_v, b.binop("fsub", clamped, base), b.zero(fty))
    to_int = b.vec("i32") if is_vector(fty) else "i32"
    mip0 = b.call(to_int, "llvm.fptoui.sat", [first], mangle_with=[to_int, fty])
    mip1 = b.call(to_int, "llvm.fptoui.sat", [b.call(fty, "llvm.minnum", [b.binop("fadd", first, b.const(fty, 1.0)), last])],
                  mangle_with=[to_int, fty])
    memory = slot_memory(em, name, array_index)
    memory = memory.restricted(b, _and(b, slot.valid, b.icmp("sgt", mips, b.const("i32", 0))))
    width = min(len(flat_scalars(inst.type)), 4)
    storage = _storage(em, name)
    near = _sample_level(em, slot, memory, kind, dims, is_array, mip0, uv, slice_, offsets, linear, mode,
                         width, storage)
    far = _sample_level(em, slot, memory, kind, dims, is_array, mip1, uv, slice_, offsets, linear, mode,
                        width, storage)
    blend = b.cast("fpext", blend, b.vec("float") if is_vector(fty) else "float") if element(fty) != "float" else blend
    channels = [_lerp(b, n, f, blend) for n, f in zip(near, far)]
    return cast_value(b, Value(channels), T.vector(T.FLOAT, width), flat_scalars(inst.type)[0])


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

__all__ = ["HANDLERS", "in_bounds"]
