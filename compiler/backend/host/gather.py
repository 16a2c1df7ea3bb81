"""Host JIT emitter for ``texture_gather`` (Gather, GatherRed/Green/Blue/Alpha).

D3D's gather4, as the interpreter's model states it (``ir/interpret/gather.py``): one
channel of the four texels a bilinear filter would read at mip 0, x = (u0, v1), y = (u1,
v1), z = (u1, v0), w = (u0, v0) with ``u0 = floor(u * width - 0.5 + offset.x)`` in float32.
The sampler slot's ``address`` mode applies to each texel index (``textures._address_mode``:
clamp, wrap, mirror, border with the slot's border color); its ``filter`` does not. A
Texture2DArray's slice is ``round(w)`` clamped, as in SampleLevel. The four loads are
inline (a few dozen instructions each): no helper function as SampleLevel has.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.ops import Op
from .llvm_text import flat_scalars
from .memory import Address, load_value, slot_memory
from .textures import Slot, _address_mode, _and, _kind, _storage, border_color
from .values import Value, cast_value, unify

# (du, dv) of x, y, z, w: lower left, lower right, upper right, upper left
CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))


def _slice(em, slot: Slot, layer) -> object:
    """``round(layer)`` clamped to the slot's slices, as a lane vector of i32."""
    b = em.b
    lanes_f = b.vec("float")
    slices = b.splat(b.cast("uitofp", slot.meta("depth"), "float"))
    chosen = b.call(lanes_f, "llvm.floor", [b.binop("fadd", layer, b.const(lanes_f, 0.5))])
    highest = b.binop("fsub", slices, b.const(lanes_f, 1.0))
    chosen = b.call(lanes_f, "llvm.maxnum", [b.call(lanes_f, "llvm.minnum", [chosen, highest]), b.zero(lanes_f)])
    return b.call(b.vec("i32"), "llvm.fptoui.sat", [chosen], mangle_with=[b.vec("i32"), lanes_f])


def texture_gather(em, inst, args):
    b = em.b
    name, sampler_name = inst.attrs["resource"], inst.attrs["sampler"]
    _, _, _, is_array = _kind(em, name)
    rest = list(args)
    array_index = rest.pop(0).parts[0] if em.bindings[name].count != 1 else None
    sampler_index = rest.pop(0).parts[0] if em.bindings[sampler_name].count != 1 else None
    # a descriptor lives in SGPRs: a lane-varying index takes the first active lane's
    array_index = em.sgpr(Value([array_index])) if array_index is not None else None
    sampler_index = em.sgpr(Value([sampler_index])) if sampler_index is not None else None
    slot, sampler = Slot(em, name, array_index), Slot(em, sampler_name, sampler_index)
    lanes_f, lanes_i = b.vec("float"), b.vec("i32")
    (coordinate,) = rest
    coords = [b.splat(part) for part in cast_value(b, coordinate, inst.operands[-1].type, T.FLOAT).parts]
    width, height = slot.meta("width"), slot.meta("height")
    scales = [b.splat(b.cast("uitofp", size, "float")) for size in (width, height)]
    slice_ = _slice(em, slot, coords[2]) if is_array else b.zero(lanes_i)
    mode = sampler.meta("address")
    channel = int(inst.attrs["channel"])
    offsets = list(inst.attrs.get("offset", [0, 0]))
    starts = []
    for coordinate_part, scale, offset in zip(coords, scales, offsets):
        texel = b.binop("fsub", b.binop("fmul", coordinate_part, scale), b.const(lanes_f, 0.5))
        texel = b.binop("fadd", texel, b.const(lanes_f, float(offset)))
        starts.append(b.call(lanes_f, "llvm.floor", [texel]))
    storage = _storage(em, name)
    memory = slot_memory(em, name, array_index)
    memory = memory.restricted(b, _and(b, slot.valid, b.icmp("sgt", slot.meta("mips"), b.const("i32", 0))))
    base = slot.mip_offset(b.const("i32", 0))
    border = border_color(em, sampler_name, sampler_index)[channel]
    result = []
    for du, dv in CORNERS:
        inside, index = None, []
        for axis, step in enumerate((du, dv)):
            position = b.binop("fadd", starts[axis], b.const(lanes_f, 1.0)) if step else starts[axis]
            wrapped, ok = _address_mode(b, position, scales[axis], mode)
            index.append(b.call(lanes_i, "llvm.fptosi.sat", [wrapped], mangle_with=[lanes_i, lanes_f]))
            inside = ok if inside is None else b.binop("and", inside, ok)
        x, y, slices, row_width, rows, start = unify(b, [index[0], index[1], slice_, width, height, base])
        row = b.binop("add", b.binop("mul", slices, rows), y)
        texel_index = b.binop("add", b.binop("add", b.binop("mul", row, row_width), x), start)
        address = Address(b.binop("add", b.binop("mul", texel_index, b.const(texel_index.ty, 16)),
                                  b.const(texel_index.ty, 4 * channel)))
        value = load_value(em, memory.restricted(b, inside), address, storage).parts[0]
        if storage == T.FLOAT:
            value = b.select(inside, b.splat(value), b.splat(border))
        result.append(b.splat(value))
    return cast_value(b, Value(result), T.vector(storage, 4), flat_scalars(inst.type)[0])


HANDLERS = {Op.TEXTURE_GATHER: texture_gather}
