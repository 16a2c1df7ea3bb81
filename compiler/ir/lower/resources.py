"""Resources: buffer and texture elements, resource methods, atomics on memory.

Operand orders (``[i]`` is present only when the binding is a resource array,
``binding.count != 1``; it is the flattened ``uint`` array index):

    buffer_load    T  [i], index[, dynamic]          {resource[, offset][, dynamic_offset]}
    buffer_store      [i], index[, dynamic], value   {resource[, offset][, dynamic_offset]}
    texture_load   T  [i], coordinate            {resource}
    texture_store     [i], coordinate, value     {resource}
    texture_sample T  [t], [s], uv, lod          {resource, sampler[, offset]}
    texture_gather T4 [t], [s], uv               {resource, sampler, channel[, offset]}
    resource_info  uintN [i], [mip]              {resource, fields}
    buffer_atomic  T  [i], index[, dynamic], value   {resource, fn[, offset][, dynamic_offset]}
                      ... compare, value for fn="cmpxchg"
    lds_atomic     T  address, value             {var, fn}   (cmpxchg: address, compare, value)

``index`` is an element index for typed and structured buffers, a byte address
for byte-address buffers and a texel coordinate for atomics on RW textures
(``InterlockedMax(tex[p], v)``); ``offset`` is a byte offset inside a
structured buffer's element (a struct member or one vector component). When an array
inside the element is indexed at run time (``buf[i].arr[j]``), the access has
``dynamic_offset=true`` and one more ``uint`` operand after ``index``: the bytes
added to ``offset`` (``j * array stride``, tight layout). As DXC does (``rawBufferLoad``
with offset ``field + j * stride``), the address is plain arithmetic, ``index * stride +
offset + dynamic``: an inner index past its array reaches the next element's bytes, and
only an address past the end of the buffer is out of bounds (reads 0, writes dropped).
``coordinate`` is a ``uint`` vector: texel x[, y][, z or array slice], and for
read-only textures the mip level as the last component (as in HLSL's ``Load``).
``resource_info`` returns the sizes ``fields`` names, e.g. ``["width",
"height", "levels"]``; its mip operand is present for read-only textures.
Atomics return the value the memory held before.
"""

from __future__ import annotations

from ...diagnostics import Coord
from ...frontend import ast
from ...frontend import hlsl_types as T
from ..core import Inst
from .places import ElementRoot, MemoryRoot, Place, ResourceRef
from .values import Unsupported, components, ir_type
from ..ops import Op

ATOMIC_FUNCTIONS = {
    "InterlockedAdd": "add", "InterlockedAnd": "and", "InterlockedOr": "or", "InterlockedXor": "xor",
    "InterlockedMin": "min", "InterlockedMax": "max", "InterlockedExchange": "exchange",
    "InterlockedCompareExchange": "cmpxchg", "InterlockedCompareStore": "cmpxchg",
}
_CUBES = ("TextureCube", "TextureCubeArray")
GATHER_CHANNELS = {"Gather": 0, "GatherRed": 0, "GatherGreen": 1, "GatherBlue": 2, "GatherAlpha": 3}
_BYTE_ADDRESS = ("ByteAddressBuffer", "RWByteAddressBuffer")


def size_fields(res: T.ResourceType) -> list[str]:
    """What GetDimensions reports for ``res`` (before an optional mip-level count)."""
    if res.kind in _BYTE_ADDRESS:
        return ["bytes"]
    if not res.is_texture:
        return ["count", "stride"] if "Structured" in res.kind else ["count"]
    count = res.coord_dims - 1 if res.kind in _CUBES else res.coord_dims
    names = ["width", "height", "depth"][:count]
    if res.is_array:
        names[-1] = "elements"
    return names


class ResourceLowering:
    """Mixin: resource references, element access, methods, atomics."""

    # ---------------------------------------------------------- references
    def resource_ref(self, node) -> ResourceRef:
        if isinstance(node, ast.Identifier):
            ref = self.variable(node.decl, node.coord)
            if not isinstance(ref, ResourceRef):
                raise Unsupported(f"'{node.name}' used as a resource", node.coord)
            return ref
        if isinstance(node, ast.Index) and isinstance(node.obj.type, T.ArrayType):
            base = self.resource_ref(node.obj)
            index = self.convert(self.expr(node.index), T.UINT, node.index.coord)
            if base.index is not None:
                size = self.uint_const(base.type.size or 0, node.coord)
                scaled = self.b.emit(Op.MUL, [base.index, size], T.UINT, None, node.coord)
                index = self.b.emit(Op.ADD, [scaled, index], T.UINT, None, node.coord)
            return ResourceRef(base.binding, base.type.element, index)
        raise Unsupported("this kind of resource expression", node.coord)

    def resource_operands(self, ref: ResourceRef, coord: Coord) -> list[Inst]:
        if isinstance(ref.type, T.ArrayType):
            raise Unsupported(f"the resource array '{ref.binding.name}' used without an index", coord)
        return [ref.index] if ref.index is not None else []

    def element_root(self, ref: ResourceRef, index_node) -> ElementRoot:
        """``resource[index]``: the element's root with its coordinate as a uint vector."""
        res = ref.type
        if isinstance(res, T.ArrayType) or not isinstance(res, T.ResourceType):
            raise Unsupported("indexing this resource", index_node.coord)
        coordinate = self.convert(self.expr(index_node), T.vector(T.UINT, res.coord_dims), index_node.coord)
        if res.is_texture and not res.writable:
            coordinate = self.construct([coordinate, self.uint_const(0, index_node.coord)],
                                        T.VectorType(T.UINT, res.coord_dims + 1), index_node.coord)
        return ElementRoot(ref, coordinate)

    # -------------------------------------------------------------- elements
    def element_load(self, ref: ResourceRef, coordinate: Inst, t: T.Type, offset: int, coord: Coord,
                     dynamic: Inst | None = None) -> Inst:
        operands = self.resource_operands(ref, coord) + [coordinate]
        attrs = {"resource": ref.binding.name}
        if ref.type.is_texture:
            return self.b.emit(Op.TEXTURE_LOAD, operands, t, attrs, coord)
        if self.is_sub_element(ref, t, offset, coord):
            attrs["offset"] = offset
        self.add_dynamic_offset(operands, attrs, dynamic)
        return self.b.emit(Op.BUFFER_LOAD, operands, t, attrs, coord)

    def element_store(self, ref: ResourceRef, coordinate: Inst, value: Inst, offset: int, coord: Coord,
                      dynamic: Inst | None = None) -> None:
        if not ref.type.writable:
            raise Unsupported(f"writing the read-only resource '{ref.binding.name}'", coord)
        operands = self.resource_operands(ref, coord) + [coordinate]
        attrs = {"resource": ref.binding.name}
        if ref.type.is_texture:
            self.b.emit(Op.TEXTURE_STORE, operands + [value], T.VOID, attrs, coord)
            return
        if self.is_sub_element(ref, value.type, offset, coord):
            attrs["offset"] = offset
        self.add_dynamic_offset(operands, attrs, dynamic)
        self.b.emit(Op.BUFFER_STORE, operands + [value], T.VOID, attrs, coord)

    @staticmethod
    def add_dynamic_offset(operands: list[Inst], attrs: dict, dynamic: Inst | None) -> None:
        """The run-time part of a structured-buffer element's byte offset, after ``index``."""
        if dynamic is not None:
            operands.append(dynamic)
            attrs["dynamic_offset"] = True

    def is_sub_element(self, ref: ResourceRef, t: T.Type, offset: int, coord: Coord) -> bool:
        """Whether an access reaches only part of a structured buffer's element."""
        element = ref.type.element
        if element is None:  # byte-address buffers: the index is the byte address
            return False
        return bool(offset) or isinstance(element, T.StructType) or t != ir_type(element, coord)

    # --------------------------------------------------------------- atomics
    def memory_atomic(self, fn: str, dest: Place, operands: list[Inst], coord: Coord) -> Inst:
        """An Interlocked* on a groupshared variable or a UAV element; returns the old value."""
        root = dest.root
        if not isinstance(root, (MemoryRoot, ElementRoot)) or (isinstance(root, MemoryRoot)
                                                               and root.space != "lds"):
            raise Unsupported("an Interlocked* destination that is not groupshared memory or a UAV element",
                              coord)
        address, leaf, rest = self.walk(dest, coord)
        if rest:
            address = self.component_address(root, address, leaf, rest[0].index, coord) \
                if len(rest) == 1 and rest[0].kind == "index" else None
            if address is None:
                raise Unsupported("an Interlocked* on this part of a vector", coord)
        result_type = dest.result_type
        if isinstance(root, MemoryRoot):
            return self.b.emit(Op.LDS_ATOMIC, [self.address_operand(address, coord)] + operands, result_type,
                               {"var": root.name, "fn": fn}, coord)
        ref = root.ref
        attrs = {"resource": ref.binding.name, "fn": fn}
        if address.constant:
            attrs["offset"] = address.constant
        element = self.resource_operands(ref, coord) + [root.coordinate]
        self.add_dynamic_offset(element, attrs, address.dynamic)
        return self.b.emit(Op.BUFFER_ATOMIC, element + operands, result_type, attrs, coord)

    # --------------------------------------------------------------- methods
    def visit_MethodCall(self, node: ast.MethodCall):
        resolution = node.decl
        ref = self.resource_ref(node.obj)
        name = resolution.name
        values, places = self.call_arguments(node.args, resolution.param_types, resolution.out_params)
        res = ref.type
        coord = node.coord
        result_type = ir_type(resolution.return_type, coord) if resolution.return_type != T.VOID else T.VOID
        if name.startswith("Load") and (res.kind in _BYTE_ADDRESS or not res.is_texture):
            index = self.convert(values[0], T.UINT, coord)
            return self.element_load(ref, index, result_type, 0, coord)
        if name == "Load":
            return self.texture_load_method(ref, values, result_type, coord)
        if name.startswith("Store"):
            root = ElementRoot(ref, values[0])
            self.element_store(root.ref, root.coordinate, values[1], 0, coord)
            return None
        if name == "GetDimensions":
            self.get_dimensions(ref, resolution, values, places, coord)
            return None
        if name == "SampleLevel":
            return self.sample_level(ref, node.args, values, result_type, coord)
        if name in GATHER_CHANNELS:
            if res.kind in _CUBES:  # D3D gathers across face edges; the executors clamp to the face
                raise Unsupported(f"'{name}' on a {res.kind}", coord)
            return self.sample_level(ref, node.args, values, result_type, coord, GATHER_CHANNELS[name])
        if name in ATOMIC_FUNCTIONS:
            fn = ATOMIC_FUNCTIONS[name]
            operands = self.resource_operands(ref, coord) + [v for v in values if v is not None]
            old = self.b.emit(Op.BUFFER_ATOMIC, operands, T.UINT, {"resource": ref.binding.name, "fn": fn}, coord)
            for index, place in places.items():
                self.store(place, self.convert(old, place.result_type, coord), coord)
            return None
        raise Unsupported(f"the resource method '{name}'", coord)

    def texture_load_method(self, ref: ResourceRef, values: list, result_type: T.Type, coord: Coord) -> Inst:
        location = values[0]
        if len(values) > 1:  # an offset on the texel position (not the slice or mip)
            offset = values[1]
            pad = components(location.type) - components(offset.type)
            zeros = [self.scalar_zero(T.INT, coord)] * pad
            offset = self.construct([offset] + zeros, location.type, coord)
            location = self.b.emit(Op.ADD, [location, offset], location.type, None, coord)
        location = self.convert(location, T.vector(T.UINT, components(location.type)), coord)
        return self.element_load(ref, location, result_type, 0, coord)

    def sample_level(self, ref: ResourceRef, args, values: list, result_type: T.Type, coord: Coord,
                     channel: int | None = None) -> Inst:
        """SampleLevel, or a Gather of ``channel`` (which has no level: its offset is ``values[2]``)."""
        if channel is not None:
            values = values[:2] + [None] + values[2:]
        sampler = self.resource_ref(args[0])
        operands = self.resource_operands(ref, coord) + self.resource_operands(sampler, coord)
        attrs = {"resource": ref.binding.name, "sampler": sampler.binding.name}
        if len(values) > 3:
            offset = values[3]
            if not self.is_const(offset):
                raise Unsupported("a non-constant texel offset", coord)
            attrs["offset"] = offset.attrs["value"] if isinstance(offset.attrs["value"], list) \
                else [offset.attrs["value"]]
            if channel is not None and not any(attrs["offset"]):  # int2(0, 0): the plain gather
                del attrs["offset"]
        if channel is not None:
            attrs["channel"] = channel
            return self.b.emit(Op.TEXTURE_GATHER, operands + [values[1]], result_type, attrs, coord)
        return self.b.emit(Op.TEXTURE_SAMPLE, operands + [values[1], values[2]], result_type, attrs, coord)

    def get_dimensions(self, ref: ResourceRef, resolution, values: list, places: dict, coord: Coord) -> None:
        res = ref.type
        fields = size_fields(res)
        operands = self.resource_operands(ref, coord)
        inputs = [v for v in values if v is not None]
        if res.is_texture and not res.writable:
            operands.append(self.convert(inputs[0], T.UINT, coord) if inputs else self.uint_const(0, coord))
            if inputs:
                fields = fields + ["levels"]
        info = self.b.emit(Op.RESOURCE_INFO, operands, T.vector(T.UINT, len(fields)),
                           {"resource": ref.binding.name, "fields": fields}, coord)
        for k, index in enumerate(sorted(places)):
            part = self.convert(self.extract(info, k, coord), resolution.param_types[index], coord)
            place = places[index]
            self.store(place, self.convert(part, place.result_type, coord), coord)
