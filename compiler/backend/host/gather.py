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
from .textures import (_address_mode, _and, _compared, _kind, _storage, array_slice, border_color,
                       sampled_operands)
from .values import Value, cast, cast_value, unify

# (du, dv) of x, y, z, w: lower left, lower right, upper right, upper left
CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))


def texture_gather(em, inst, args):
    b = em.b
    name, sampler_name = inst.attrs["resource"], inst.attrs["sampler"]
    _, _, _, is_array = _kind(em, name)
    slot, sampler, array_index, sampler_index, (coordinate, *reference) = sampled_operands(em, inst, args)
    lanes_f, lanes_i = b.vec("float"), b.vec("i32")
    coordinate_type = inst.operands[-1 - len(reference)].type  # GatherCmp*: the reference is last
    coords = [b.splat(part) for part in cast_value(b, coordinate, coordinate_type, T.FLOAT).parts]
    if reference:
        reference = b.splat(cast(b, reference[0].parts[0], flat_scalars(inst.operands[-1].type)[0], T.FLOAT))
    width, height = slot.meta("width"), slot.meta("height")
    scales = [b.splat(b.cast("uitofp", size, "float")) for size in (width, height)]
    slice_ = array_slice(b, slot.meta("depth"), coords[2]) if is_array else b.zero(lanes_i)
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
        if reference:  # 1.0 or 0.0: reference <comparison> texel
            value = _compared(b, reference, sampler.meta("comparison"), cast(b, b.splat(value), storage, T.FLOAT))
        result.append(b.splat(value))
    gathered = T.FLOAT if reference else storage
    return cast_value(b, Value(result), T.vector(gathered, 4), flat_scalars(inst.type)[0])


HANDLERS = {Op.TEXTURE_GATHER: texture_gather}
