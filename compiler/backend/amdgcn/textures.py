"""amdgcn handlers for textures and ``resource_info``: LLVM's image intrinsics.

    texture_load T [i], coordinate            -> image.load.mip.<dim> (read-only: last component
                                                 is the mip) / image.load.<dim> (RW, or mip 0)
    texture_store [i], coordinate, value      -> image.store.<dim>
    texture_sample T [t], [s], uv, lod        -> image.sample.lz.<dim> (lod 0) / image.sample.l.<dim>,
                                                 ``.o`` forms with a constant texel offset
    texture_gather T4 [t], [s], uv {channel}  -> image.gather4.lz[.o].<dim>, dmask = 1 << channel
    resource_info uintN [i], [mip] {fields}   -> image.getresinfo.<dim>; buffers: the descriptor's
                                                 num_records (bytes) / the element stride

Image descriptors are ``<8 x i32>``, samplers ``<4 x i32>``. Loads ask for all four
channels and keep the ones the type has; LLVM shrinks ``dmask`` to the channels
used. 16-bit results use the packed D16 forms (``image_load ... d16``).
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.ops import Op
from .memory import GLC, element_stride, is_texture
from .values import AmdgcnError, components, element_of, intrinsic_suffix, llvm_type, vector_of

_DIMS = {
    "Texture1D": "1d", "RWTexture1D": "1d", "Texture1DArray": "1darray", "RWTexture1DArray": "1darray",
    "Texture2D": "2d", "RWTexture2D": "2d", "Texture2DArray": "2darray", "RWTexture2DArray": "2darray",
    "Texture3D": "3d", "RWTexture3D": "3d", "TextureCube": "cube", "TextureCubeArray": "cube",
}
# getresinfo's result: width, height, depth or array size, mip levels
_INFO_COMPONENT = {"width": 0, "height": 1, "depth": 2, "levels": 3}


def _dim(binding) -> str:
    if binding.kind not in _DIMS:
        raise AmdgcnError(f"{binding.kind} is not a texture the amdgcn back end knows")
    return _DIMS[binding.kind]


def _channel_type(t: T.Type) -> str:
    """The four-channel LLVM type an image instruction moves for a value of ``t``: image data
    is float-typed in LLVM's intrinsics, integer texels travel bitcast."""
    return "<4 x half>" if element_of(t).bits == 16 else "<4 x float>"


def _from_channels(k, raw: str, raw_type: str, t: T.Type) -> str:
    """The first channels of an image result as ``t``."""
    count = components(t)
    element = raw_type[1:-1].split(" x ")[1]
    if count == 1:
        value = k.assign(f"extractelement {raw_type} {raw}, i32 0")
    elif count < 4:
        lanes = ", ".join(f"i32 {c}" for c in range(count))
        value = k.assign(f"shufflevector {raw_type} {raw}, {raw_type} poison, <{count} x i32> <{lanes}>")
    else:
        value = raw
    held = vector_of(element, count)
    if held == llvm_type(t):
        return value
    if element_of(t).kind == "bool":
        words = T.vector(T.UINT, count)
        as_words = k.assign(f"bitcast {held} {value} to {llvm_type(words)}")
        return k.convert(as_words, words, t)
    return k.assign(f"bitcast {held} {value} to {llvm_type(t)}")


def _coordinates(k, inst, position: int, count: int, element: T.ScalarType) -> list[str]:
    operand = inst.operands[position]
    value = k.arg_as(inst, position, T.vector(element, components(operand.type)))
    parts = k.parts(value, T.vector(element, components(operand.type)))
    if len(parts) < count:
        raise AmdgcnError(f"{inst.op.value} needs {count} coordinate components, got {len(parts)}")
    return parts


def texture_load(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    dim = _dim(binding)
    writable, dims = T.RESOURCE_KINDS[binding.kind][:2]
    coords = _coordinates(k, inst, position, dims + (0 if writable else 1), T.UINT)
    raw_type = _channel_type(inst.type)
    args = [("i32", "15")] + [("i32", c) for c in coords[:dims]]
    name = f"llvm.amdgcn.image.load.{dim}.{intrinsic_suffix(raw_type)}.i32"
    if not writable and k.component_constant(inst.operands[position], dims) not in (0, 0.0):
        args.append(("i32", coords[dims]))
        name = f"llvm.amdgcn.image.load.mip.{dim}.{intrinsic_suffix(raw_type)}.i32"
    aux = str(GLC if binding.globally_coherent else 0)
    raw = k.call(raw_type, name, args + [("<8 x i32>", rsrc), ("i32", "0"), ("i32", aux)])
    return _from_channels(k, raw, raw_type, inst.type)


def texture_store(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    dim = _dim(binding)
    dims = T.RESOURCE_KINDS[binding.kind][1]
    coords = _coordinates(k, inst, position, dims, T.UINT)
    value_type = inst.operands[-1].type
    element = element_of(value_type)
    count = components(value_type)
    data_type = vector_of("half" if element.bits == 16 else "float", count)
    value = k.arg(inst, len(inst.operands) - 1)
    if element.kind == "bool":
        value_type = T.vector(T.UINT, count)
        value = k.convert(value, inst.operands[-1].type, value_type)
    if data_type != llvm_type(value_type):
        value = k.assign(f"bitcast {llvm_type(value_type)} {value} to {data_type}")
    aux = str(GLC if binding.globally_coherent else 0)
    k.call("void", f"llvm.amdgcn.image.store.{dim}.{intrinsic_suffix(data_type)}.i32",
           [(data_type, value), ("i32", str((1 << count) - 1))] + [("i32", c) for c in coords[:dims]] +
           [("<8 x i32>", rsrc), ("i32", "0"), ("i32", aux)])
    return None


def _packed_offset(offset) -> str:
    values = list(offset) if isinstance(offset, (list, tuple)) else [offset]
    packed = 0
    for index, value in enumerate(values[:3]):
        packed |= (int(value) & 0x3F) << (8 * index)
    return str(packed)


def _cube_coordinates(k, binding, coords: list[str]) -> list[str]:
    """A cube's direction (and slice) projected as the image unit takes it, as RDNA drivers do:
    the face's coordinates over the major axis plus 1.5, and the face id plus 8 x the slice."""
    direction = [("float", c) for c in coords[:3]]
    part = {name: k.call("float", f"llvm.amdgcn.cube{name}", direction) for name in ("ma", "sc", "tc", "id")}
    size = k.call("float", "llvm.fabs.f32", [("float", part["ma"])])
    inverse = k.call("float", "llvm.amdgcn.rcp.f32", [("float", size)])
    projected = [k.call("float", "llvm.fma.f32", [("float", part[name]), ("float", inverse), ("float", "1.5")])
                 for name in ("sc", "tc")]
    face = part["id"]
    if binding.kind == "TextureCubeArray":
        layer = k.call("float", "llvm.rint.f32", [("float", coords[3])])
        face = k.call("float", "llvm.fma.f32", [("float", layer), ("float", "8.0"), ("float", face)])
    return projected + [face]


def texture_sample(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    sampler = k.arguments.binding(inst.attrs["sampler"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    samp, position = k.arguments.descriptor(k, inst, sampler, position)
    dim = _dim(binding)
    dims = T.RESOURCE_KINDS[binding.kind][1]
    coords = _coordinates(k, inst, position, dims, T.FLOAT)
    if binding.kind in T.CUBE_KINDS:
        coords, dims = _cube_coordinates(k, binding, coords), 3
    lod_operand = inst.operands[position + 1]
    zero_lod = k.constant_of(lod_operand) in (0, 0.0, [0], [0.0])
    raw_type = _channel_type(inst.type)
    offset = inst.attrs.get("offset")
    compare = inst.attrs.get("compare", False)  # SampleCmpLevelZero: the reference after the offset
    form = ("c." if compare else "") + ("lz" if zero_lod else "l") + (".o" if offset is not None else "")
    args = [("i32", "1" if compare else "15")]
    if offset is not None:
        args.append(("i32", _packed_offset(offset)))
    if compare:
        args.append(("float", k.arg_as(inst, position + 2, T.FLOAT)))
    args += [("float", c) for c in coords[:dims]]
    if not zero_lod:
        args.append(("float", k.arg_as(inst, position + 1, T.FLOAT)))
    args += [("<8 x i32>", rsrc), ("<4 x i32>", samp), ("i1", "false"), ("i32", "0"), ("i32", "0")]
    raw = k.call(raw_type, f"llvm.amdgcn.image.sample.{form}.{dim}.{intrinsic_suffix(raw_type)}.f32", args)
    return _from_channels(k, raw, raw_type, inst.type)


def texture_gather(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    sampler = k.arguments.binding(inst.attrs["sampler"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    samp, position = k.arguments.descriptor(k, inst, sampler, position)
    dims = T.RESOURCE_KINDS[binding.kind][1]
    coords = _coordinates(k, inst, position, dims, T.FLOAT)
    raw_type = _channel_type(inst.type)
    offset = inst.attrs.get("offset")
    args = [("i32", str(1 << int(inst.attrs["channel"])))]
    if offset is not None:
        args.append(("i32", _packed_offset(offset)))
    compare = inst.attrs.get("compare", False)  # GatherCmp*: the reference after the offset
    if compare:
        args.append(("float", k.arg_as(inst, position + 1, T.FLOAT)))
    args += [("float", c) for c in coords[:dims]]
    args += [("<8 x i32>", rsrc), ("<4 x i32>", samp), ("i1", "false"), ("i32", "0"), ("i32", "0")]
    form = ("c." if compare else "") + ("lz.o" if offset is not None else "lz")
    raw = k.call(raw_type, f"llvm.amdgcn.image.gather4.{form}.{_dim(binding)}.{intrinsic_suffix(raw_type)}.f32", args)
    return _from_channels(k, raw, raw_type, inst.type)


def resource_info(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    fields = list(inst.attrs.get("fields", []))[:components(inst.type)]
    if not is_texture(binding):
        return _buffer_info(k, inst, binding, rsrc, fields)
    dim = _dim(binding)
    writable, dims, _, is_array = T.RESOURCE_KINDS[binding.kind]
    mip = "0" if writable or position >= len(inst.operands) else k.arg_as(inst, position, T.UINT)
    raw = k.call("<4 x float>", f"llvm.amdgcn.image.getresinfo.{dim}.v4f32.i32",
                 [("i32", "15"), ("i32", mip), ("<8 x i32>", rsrc), ("i32", "0"), ("i32", "0")])
    words = k.assign(f"bitcast <4 x float> {raw} to <4 x i32>")
    parts = []
    for field in fields:
        if field == "elements":
            index = dims - 1 if is_array else 2
        elif field in _INFO_COMPONENT:
            index = _INFO_COMPONENT[field]
        else:
            raise AmdgcnError(f"resource_info field {field!r} of a texture")
        parts.append(k.extract(words, "<4 x i32>", index))
    return k.convert(k.build(parts, "i32"), T.vector(T.UINT, len(parts)), inst.type)


def _buffer_info(k, inst, binding, rsrc: str, fields: list[str]) -> str:
    stride = element_stride(binding, T.UINT)
    records = k.extract(rsrc, "<4 x i32>", 2)  # num_records: the buffer's size in bytes
    parts = []
    for field in fields or ["count", "stride"][:components(inst.type)]:
        if field == "bytes":
            parts.append(records)
        elif field == "count":
            parts.append(records if stride == 1 else k.assign(f"udiv i32 {records}, {stride}"))
        elif field == "stride":
            parts.append(str(stride))
        else:
            raise AmdgcnError(f"resource_info field {field!r} of a buffer")
    return k.convert(k.build(parts, "i32"), T.vector(T.UINT, len(parts)), inst.type)


HANDLERS = {
    Op.TEXTURE_LOAD: texture_load, Op.TEXTURE_STORE: texture_store, Op.TEXTURE_SAMPLE: texture_sample,
    Op.TEXTURE_GATHER: texture_gather, Op.RESOURCE_INFO: resource_info,
}
