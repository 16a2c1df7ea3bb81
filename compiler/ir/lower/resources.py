"""Resources: buffer and texture elements, resource methods, atomics on memory.

Operand orders (``[i]`` is present only when the binding is a resource array,
``binding.count != 1``; it is the flattened ``uint`` array index):

    buffer_load    T  [i], index[, dynamic]          {resource[, offset][, dynamic_offset]}
    buffer_store      [i], index[, dynamic], value   {resource[, offset][, dynamic_offset]}
    texture_load   T  [i], coordinate            {resource}
    texture_store     [i], coordinate, value     {resource}
    texture_sample T  [t], [s], uv, lod[, ref]   {resource, sampler[, offset][, compare]}
    texture_gather T4 [t], [s], uv[, ref]        {resource, sampler, channel[, offset][, compare]}
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

``buf.Load<T>(a)`` / ``buf.Store<T>(a, v)`` on a byte-address buffer access T's leaves (scalars
and vectors, in the structured-buffer layout, matrices as stored) at ``a`` plus each leaf's
offset, one ``buffer_load``/``buffer_store`` each. A hidden counter (IncrementCounter,
DecrementCounter, Append, Consume) is one more binding, ``<name>_counter``, a 4-byte
RWByteAddressBuffer: ``buffer_atomic uint {fn=add}`` of 1 or 0xFFFFFFFF at byte 0.
``tex.mips[l][p]`` is ``texture_load`` at ``(p, l)``; ``SampleGrad`` a ``texture_sample``
whose lod is computed from the gradients and the mip 0 size (``resource_info``).
"""

from __future__ import annotations

from ...diagnostics import Coord
from ...frontend import ast
from ...frontend import hlsl_types as T
from ..core import Binding, Inst
from .places import Address, ElementRoot, MemoryRoot, Place, ResourceRef
from .resource_cells import not_unique
from .values import Unsupported, components, ir_type
from ..ops import Op

ATOMIC_FUNCTIONS = {
    "InterlockedAdd": "add", "InterlockedAnd": "and", "InterlockedOr": "or", "InterlockedXor": "xor",
    "InterlockedMin": "min", "InterlockedMax": "max", "InterlockedExchange": "exchange",
    "InterlockedCompareExchange": "cmpxchg", "InterlockedCompareStore": "cmpxchg",
}
GATHER_CHANNELS = {"Gather": 0, "GatherRed": 0, "GatherGreen": 1, "GatherBlue": 2, "GatherAlpha": 3}
_BYTE_ADDRESS = ("ByteAddressBuffer", "RWByteAddressBuffer")
COUNTER_STEPS = {"IncrementCounter": 1, "DecrementCounter": -1}


def size_fields(res: T.ResourceType) -> list[str]:
    """What GetDimensions reports for ``res`` (before an optional mip-level count)."""
    if res.kind in _BYTE_ADDRESS:
        return ["bytes"]
    if not res.is_texture:
        return ["count", "stride"] if "Structured" in res.kind else ["count"]
    count = res.coord_dims - 1 if res.kind in T.CUBE_KINDS else res.coord_dims
    names = ["width", "height", "depth"][:count]
    if res.is_array:
        names[-1] = "elements"
    return names


class ResourceLowering:
    """Mixin: resource references, element access, methods, atomics."""

    # ---------------------------------------------------------- references
    def resource_ref(self, node) -> ResourceRef:
        local = self.local_resource(node)
        if local is not None:
            return local
        if isinstance(node, ast.Call):
            value = self.call_result_cells(node).get(())
            if not isinstance(value, ResourceRef):
                raise not_unique(node.coord)
            return value
        if isinstance(node, ast.Identifier):
            ref = self.variable(node.decl, node.coord)
            if not isinstance(ref, ResourceRef):
                raise Unsupported(f"'{node.name}' used as a resource", node.coord)
            return ref
        if isinstance(node, ast.Index) and isinstance(node.obj.type, T.ArrayType):
            base = self.resource_ref(node.obj)
            index = self.expr_as(node.index, T.UINT, node.index.coord)
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
        coordinate = self.expr_as(index_node, T.vector(T.UINT, res.coord_dims), index_node.coord)
        if res.is_texture and not res.writable:
            coordinate = self.construct([coordinate, self.uint_const(0, index_node.coord)],
                                        T.VectorType(T.UINT, res.coord_dims + 1), index_node.coord)
        return ElementRoot(ref, coordinate)

    def mip_element(self, node) -> ElementRoot:
        """``tex.mips[level][pos]``: the element at ``uint(pos), uint(level)``, as ``Load`` reads it."""
        level_index = node.obj
        ref = self.resource_ref(level_index.obj.obj)
        level = self.expr_as(level_index.index, T.UINT, level_index.index.coord)
        dims = ref.type.coord_dims
        position = self.expr_as(node.index, T.vector(T.UINT, dims), node.index.coord)
        coordinate = self.construct([position, level], T.VectorType(T.UINT, dims + 1), node.coord)
        return ElementRoot(ref, coordinate)

    # -------------------------------------------------------------- elements
    def element_load(self, ref: ResourceRef, coordinate: Inst, t: T.Type, offset: int, coord: Coord,
                     dynamic: Inst | None = None) -> Inst:
        coordinate, offset, dynamic = self.raw_address(ref, coordinate, offset, dynamic, coord)
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
        coordinate, offset, dynamic = self.raw_address(ref, coordinate, offset, dynamic, coord)
        operands = self.resource_operands(ref, coord) + [coordinate]
        attrs = {"resource": ref.binding.name}
        if ref.type.is_texture:
            self.b.emit(Op.TEXTURE_STORE, operands + [value], T.VOID, attrs, coord)
            return
        if self.is_sub_element(ref, value.type, offset, coord):
            attrs["offset"] = offset
        self.add_dynamic_offset(operands, attrs, dynamic)
        self.b.emit(Op.BUFFER_STORE, operands + [value], T.VOID, attrs, coord)

    def raw_address(self, ref: ResourceRef, coordinate: Inst, offset: int, dynamic: Inst | None,
                    coord: Coord) -> tuple[Inst, int, Inst | None]:
        """A byte-address buffer's parts of a ``Load<T>``/``Store<T>`` value are addressed by
        adding their offset to the byte address: (address, 0, None); others are unchanged."""
        if ref.type.is_texture or ref.type.kind not in _BYTE_ADDRESS or not (offset or dynamic is not None):
            return coordinate, offset, dynamic
        if dynamic is not None:
            coordinate = self.b.emit(Op.ADD, [coordinate, dynamic], T.UINT, None, coord)
        if offset:
            coordinate = self.b.emit(Op.ADD, [coordinate, self.uint_const(offset, coord)], T.UINT, None, coord)
        return coordinate, 0, None

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
        if name.startswith("Load") and places:  # the status overloads: every access is fully mapped
            for place in places.values():
                self.store(place, self.convert(self.uint_const(1, coord), place.result_type, coord), coord)
            values = [value for value in values if value is not None]
        if node.template_type is not None:  # Load<T>(address) / Store<T>(address, value)
            root = ElementRoot(ref, self.convert(values[0], T.UINT, coord))
            layout = self.globals.stored(node.template_type)
            if name == "Load":
                return self.load_memory(root, Address(), layout, coord)
            self.store_memory(root, Address(), layout, values[1], coord)
            return None
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
        if name == "SampleCmpLevelZero":  # texture_sample {compare} at lod 0, the reference last
            return self.sample_level(ref, node.args, values[:2] + [self.const(T.FLOAT, 0.0, coord)] + values[3:],
                                     result_type, coord, compare=values[2])
        if name == "SampleGrad":  # SampleLevel at the level the gradients give
            if res.kind in T.CUBE_KINDS:
                raise Unsupported(f"'SampleGrad' on a {res.kind}", coord)
            lod = self.gradient_level(ref, values[2], values[3], coord)
            return self.sample_level(ref, node.args, values[:2] + [lod] + values[4:], result_type, coord)
        if name.replace("Cmp", "") in GATHER_CHANNELS:
            if res.kind in T.CUBE_KINDS:  # D3D gathers across face edges; the executors clamp to the face
                raise Unsupported(f"'{name}' on a {res.kind}", coord)
            channel = GATHER_CHANNELS[name.replace("Cmp", "")]
            if "Cmp" in name:  # GatherCmp*: the reference (values[2]) is compared with each texel
                return self.sample_level(ref, node.args, values[:2] + values[3:], result_type, coord, channel,
                                         compare=values[2])
            return self.sample_level(ref, node.args, values, result_type, coord, channel)
        if name in COUNTER_STEPS:
            return self.counter_step(ref, COUNTER_STEPS[name], coord)
        if name in ("Append", "Consume"):  # the element at the counter's old (Append) / new (Consume) value
            place = Place(ElementRoot(ref, self.counter_step(ref, 1 if name == "Append" else -1, coord)),
                          ir_type(res.element, coord))
            if name == "Consume":
                return self.load(place, coord)
            self.store(place, values[0], coord)
            return None
        if name.removesuffix("64") in ATOMIC_FUNCTIONS:  # InterlockedAdd64: SM 6.6's 64-bit forms
            fn = ATOMIC_FUNCTIONS[name.removesuffix("64")]
            operands = self.resource_operands(ref, coord) + [v for v in values if v is not None]
            value_type = resolution.param_types[1]  # int or int64_t: min/max compare signed
            old = self.b.emit(Op.BUFFER_ATOMIC, operands, value_type, {"resource": ref.binding.name, "fn": fn},
                              coord)
            for index, place in places.items():
                self.store(place, self.convert(old, place.result_type, coord), coord)
            return None
        raise Unsupported(f"the resource method '{name}'", coord)

    def intrinsic_CheckAccessFullyMapped(self, values, places, result, coord):
        """``status != 0``: the status every Load writes (1) says fully mapped (no tiled resources)."""
        return self.b.emit(Op.NE, [values[0], self.uint_const(0, coord)], T.BOOL, None, coord)

    def counter_step(self, ref: ResourceRef, delta: int, coord: Coord) -> Inst:
        """Add ``delta`` (1 or -1) to the hidden counter of a RW/Append/Consume structured buffer:
        its value before an increment, after a decrement (D3D's IncrementCounter/DecrementCounter)."""
        if ref.index is not None:
            raise Unsupported(f"the hidden counter of an element of the resource array '{ref.binding.name}'", coord)
        counter = self.counter_binding(ref.binding, coord)
        step = self.uint_const(delta & 0xFFFFFFFF, coord)
        old = self.b.emit(Op.BUFFER_ATOMIC, [self.uint_const(0, coord), step], T.UINT,
                          {"resource": counter.name, "fn": "add"}, coord)
        if delta > 0:
            return old
        return self.b.emit(Op.SUB, [old, self.uint_const(1, coord)], T.UINT, None, coord)

    def counter_binding(self, binding: Binding, coord: Coord) -> Binding:
        """The counter of ``binding``: one more binding, ``<name>_counter``, a 4-byte
        RWByteAddressBuffer at the buffer's register (from Python, a one-element uint32 array)."""
        name = f"{binding.name}_counter"
        declared = {b.name for b in self.globals.bindings} | {decl.name for decl in self.globals.cbuffer_member}
        if name in declared:
            raise Unsupported(f"the hidden counter of '{binding.name}' (bound as '{name}', which names "
                              f"another global)", coord)
        for existing in self.module.bindings:
            if existing.name == name:  # made by an earlier counter access
                return existing
        counter = Binding(name, "RWByteAddressBuffer", None, binding.register, binding.space)
        self.module.bindings.append(counter)
        return counter

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
                     channel: int | None = None, compare: Inst | None = None) -> Inst:
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
            if compare is not None:
                attrs["compare"] = True
            extra = [compare] if compare is not None else []
            return self.b.emit(Op.TEXTURE_GATHER, operands + [values[1]] + extra, result_type, attrs, coord)
        if compare is not None:
            attrs["compare"] = True
            return self.b.emit(Op.TEXTURE_SAMPLE, operands + [values[1], values[2], compare], result_type, attrs,
                               coord)
        return self.b.emit(Op.TEXTURE_SAMPLE, operands + [values[1], values[2]], result_type, attrs, coord)

    def gradient_level(self, ref: ResourceRef, ddx: Inst, ddy: Inst, coord: Coord) -> Inst:
        """D3D's isotropic level of detail for explicit gradients: ``log2(max(|ddx * size|, |ddy *
        size|))`` with ``size`` the texels of mip 0 along each axis (not the array slices), as
        ``0.5 * log2(max(dot(a, a), dot(b, b)))``."""
        res = ref.type
        axes = res.coord_dims - res.is_array
        fields = size_fields(res)[:axes]
        operands = self.resource_operands(ref, coord) + [self.uint_const(0, coord)]
        info = self.b.emit(Op.RESOURCE_INFO, operands, T.vector(T.UINT, axes),
                           {"resource": ref.binding.name, "fields": fields}, coord)
        size = self.convert(info, T.vector(T.FLOAT, axes), coord)
        squares = []
        for gradient in (ddx, ddy):
            scaled = self.b.emit(Op.MUL, [self.convert(gradient, size.type, coord), size], size.type, None, coord)
            op = Op.DOT if axes > 1 else Op.MUL
            squares.append(self.b.emit(op, [scaled, scaled], T.FLOAT, None, coord))
        longest = self.b.emit(Op.MAX, squares, T.FLOAT, None, coord)
        level = self.b.emit(Op.MATH, [longest], T.FLOAT, {"fn": "log2"}, coord)
        return self.b.emit(Op.MUL, [level, self.const(T.FLOAT, 0.5, coord)], T.FLOAT, None, coord)

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
