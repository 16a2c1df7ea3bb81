"""Places: what an l-value (or an indexed r-value) names, and how to load and store it.

A ``Place`` is a root plus a path of steps (struct member, array/vector index,
swizzle). Roots:

- ``SSARoot``: a local, parameter or static global. Its whole value is an SSA
  value; a path is read with ``extract``/``shuffle`` and written by rebuilding
  the aggregate with ``insert`` (or a two-operand ``shuffle`` for swizzles).
- ``ValueRoot``: an r-value being indexed (``f().x``, ``(a + b).xy``).
- ``MemoryRoot``: scratch (a dynamically indexed local array) or groupshared
  memory, addressed in bytes (tight layout); the address is one ``uint`` operand.
- ``CBufferRoot``: a constant buffer member; ``cbuffer_load {buffer, offset}``
  with HLSL packing and an operand for the dynamic part of the offset, if any.
- ``ElementRoot``: one element of a buffer or texture (``buf[i]``, ``tex[p]``). Inside a
  structured buffer's element the byte offset may have a dynamic part (``buf[i].arr[j]``:
  field offset + j * array stride), an extra operand of the buffer access.

Steps are taken on the IR types (a matrix is an array of its rows, see
lower/matrices.py, with one more step kind, ``elements``: the (row, column) pairs a
matrix swizzle such as ``m._m01_m10`` picks). Memory is walked on the root's memory
type (``layout``, from ``Globals.stored``), where a matrix is a ``StoredMatrix``
leaf whose elements lower/matrices.py addresses by orientation.

Memory is accessed at the leaf type the path reaches (scalar or vector). A single
component is read or written on its own (``lds[i].y`` is one 4-byte access); a
swizzle store writes the runs of consecutive components it covers, never a
whole-vector read-modify-write that could lose another thread's store to the
other components. Typed buffers and textures have no sub-element access: there a
partial store loads, inserts and stores the element.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...diagnostics import Coord
from ...frontend import hlsl_types as T
from ..core import Binding, Inst
from .globals import (StoredMatrix, cbuffer_offsets, cbuffer_stride, scalar_bytes, tight_offsets,
                            tight_stride)
from .ssa import Var
from .values import Unsupported, components, ir_type
from ..ops import Op


@dataclass
class ResourceRef:
    """A resource or sampler: its binding and, for arrays, the (flattened) index."""

    binding: Binding
    type: T.Type  # ResourceType, SamplerType, or an ArrayType of them until fully indexed
    index: Inst | None = None


@dataclass
class SSARoot:
    var: Var


@dataclass
class ValueRoot:
    value: Inst


@dataclass
class MemoryRoot:
    space: str  # "scratch" or "lds"
    name: str
    base: int  # byte offset of the variable
    layout: T.Type | None = None  # the variable's memory type (None: its IR type)


@dataclass
class CBufferRoot:
    buffer: str
    base: int
    layout: T.Type | None = None  # the member's memory type (None: its IR type)


@dataclass
class ElementRoot:
    ref: ResourceRef
    coordinate: Inst  # element index, byte address or texel coordinate


@dataclass
class Step:
    kind: str  # "member", "index", "swizzle" or "elements" (of a matrix: (row, col) pairs)
    index: int | Inst | tuple
    type: T.Type  # the type after the step


@dataclass
class Place:
    root: object
    type: T.Type  # the root's type
    steps: list[Step] = field(default_factory=list)
    walked: tuple | None = field(default=None, repr=False)  # memory places: the address, once

    @property
    def result_type(self) -> T.Type:
        return self.steps[-1].type if self.steps else self.type


@dataclass
class Address:
    """A byte offset: a constant part plus an optional dynamic ``uint`` part."""

    constant: int = 0
    dynamic: Inst | None = None


def _uses_cbuffer_layout(root) -> bool:
    return isinstance(root, CBufferRoot)


def _byte_addressed(root) -> bool:
    """Roots whose leaves may be accessed a component at a time."""
    if isinstance(root, (MemoryRoot, CBufferRoot)):
        return True
    if isinstance(root, ElementRoot):
        return root.ref.type.kind in ("StructuredBuffer", "RWStructuredBuffer")
    return False


class PlaceLowering:
    """Mixin: building places and loading/storing through them."""

    # ----------------------------------------------------------- building
    def add_step(self, place: Place, kind: str, index, coord: Coord) -> Place:
        current = place.result_type
        if kind == "member":
            step_type = ir_type(current.fields[index][1], coord)
        elif kind == "index":
            if isinstance(current, (T.ArrayType, T.VectorType)):
                step_type = ir_type(current.element, coord)
            elif isinstance(current, T.ScalarType):
                return place  # a one-component vector (a row of an Nx1 matrix): v[0] is v itself
            else:
                raise Unsupported(f"indexing a value of type '{current}'", coord)
            last = place.steps[-1] if place.steps else None
            if isinstance(index, int) and last is not None and last.kind == "swizzle":
                return Place(place.root, place.type, place.steps[:-1] + [
                    Step("index", last.index[index], step_type)])
            if isinstance(index, int) and last is not None and last.kind == "elements":
                return Place(place.root, place.type, place.steps[:-1] + [
                    Step("elements", (last.index[index],), step_type)])
        else:
            lanes = tuple(index)
            last = place.steps[-1] if place.steps else None
            if isinstance(current, T.ArrayType):  # a matrix swizzle: flat row-major indexes
                cols = components(current.element)
                pairs = tuple(divmod(flat, cols) for flat in lanes)
                step_type = T.vector(current.element.element, len(pairs))
                return Place(place.root, place.type, place.steps + [Step("elements", pairs, step_type)])
            if last is not None and last.kind == "elements":
                pairs = tuple(last.index[lane] for lane in lanes)
                step_type = T.vector(current.element, len(pairs))
                return Place(place.root, place.type, place.steps[:-1] + [Step("elements", pairs, step_type)])
            step_type = T.vector(current.element, len(lanes))
            if last is not None and last.kind == "swizzle":
                lanes = tuple(last.index[lane] for lane in lanes)
                return Place(place.root, place.type, place.steps[:-1] + [Step("swizzle", lanes, step_type)])
            if isinstance(current, T.ScalarType):
                if lanes == (0,):
                    return place  # s.x is s itself
                return Place(ValueRoot(self.shuffle(self.load(place, coord), list(lanes), coord)), step_type)
            if len(lanes) == 1:
                return Place(place.root, place.type, place.steps + [Step("index", lanes[0], step_type)])
        return Place(place.root, place.type, place.steps + [Step(kind, index, step_type)])

    # ------------------------------------------------------------ loading
    def load(self, place: Place, coord: Coord) -> Inst:
        root = place.root
        if isinstance(root, SSARoot):
            return self.apply_steps(self.b.read(root.var), place.steps, coord)
        if isinstance(root, ValueRoot):
            return self.apply_steps(root.value, place.steps, coord)
        address, leaf, rest = self.walk(place, coord)
        if isinstance(leaf, StoredMatrix):
            return self.load_matrix(root, address, leaf, rest, coord)
        if len(rest) == 1 and _byte_addressed(root) and rest[0].kind == "index":
            narrow = self.component_address(root, address, leaf, rest[0].index, coord)
            if narrow is not None:
                return self.load_leaf(root, narrow, rest[0].type, coord)
        value = self.load_memory(root, address, leaf, coord)
        return self.apply_steps(value, rest, coord)

    def apply_steps(self, value: Inst, steps: list[Step], coord: Coord) -> Inst:
        for step in steps:
            if step.kind == "swizzle":
                value = self.shuffle(value, list(step.index), coord)
            elif step.kind == "elements":
                value = self.matrix_elements(value, list(step.index), coord)
            elif isinstance(step.index, Inst):
                if isinstance(value.type, T.ArrayType):
                    value = self.select_element(value, step.index, coord)
                    continue
                if not isinstance(value.type, T.VectorType):
                    raise Unsupported("a dynamic index into a temporary array", coord)
                value = self.b.emit(Op.EXTRACT, [value, step.index], step.type, None, coord)
            else:
                value = self.extract(value, step.index, coord)
        return value

    def walk(self, place: Place, coord: Coord) -> tuple[Address, T.Type, list[Step]]:
        """Follow array/struct steps of a memory place: the byte address, leaf type, vector steps."""
        if place.walked is None:
            place.walked = self._walk(place, coord)
        address, leaf, rest = place.walked
        return Address(address.constant, address.dynamic), leaf, list(rest)

    def memory_type(self, place: Place) -> T.Type:
        """The memory type of a memory place's root (matrices as ``StoredMatrix``)."""
        root = place.root
        if isinstance(root, ElementRoot):
            return self.globals.stored(root.ref.type.element)
        return root.layout if root.layout is not None else place.type

    def _walk(self, place: Place, coord: Coord) -> tuple[Address, T.Type, list[Step]]:
        """The leaf is a memory type: a scalar, vector, ``StoredMatrix`` or aggregate."""
        root = place.root
        address = Address(root.base if isinstance(root, (MemoryRoot, CBufferRoot)) else 0)
        current = self.memory_type(place)
        steps = list(place.steps)
        while steps and isinstance(current, (T.ArrayType, T.StructType)):
            step = steps.pop(0)
            if step.kind == "member":
                offsets = cbuffer_offsets(current) if _uses_cbuffer_layout(root) else tight_offsets(current)
                address.constant += offsets[step.index]
                current = current.fields[step.index][1]
            else:
                stride = cbuffer_stride(current) if _uses_cbuffer_layout(root) else tight_stride(current)
                address = self.advance(address, step.index, stride, coord)
                current = current.element
        if isinstance(root, ElementRoot) and address.dynamic is not None and not _byte_addressed(root):
            raise Unsupported("a dynamic array index inside a typed buffer or texture element", coord)
        return address, current, steps

    def advance(self, address: Address, index: int | Inst, stride: int, coord: Coord) -> Address:
        if isinstance(index, int):
            return Address(address.constant + index * stride, address.dynamic)
        term = index
        if stride != 1:
            term = self.b.emit(Op.MUL, [index, self.uint_const(stride, coord)], T.UINT, None, coord)
        if address.dynamic is not None:
            term = self.b.emit(Op.ADD, [address.dynamic, term], T.UINT, None, coord)
        return Address(address.constant, term)

    def component_address(self, root, address: Address, leaf: T.Type, index, coord: Coord) -> Address | None:
        """The address of one component of a vector leaf (None if it can't be addressed alone)."""
        if not isinstance(leaf, T.VectorType):
            return None
        if isinstance(index, Inst) and isinstance(root, ElementRoot):
            return None
        return self.advance(address, index, scalar_bytes(leaf.element), coord)

    def address_operand(self, address: Address, coord: Coord) -> Inst:
        if address.dynamic is None:
            return self.uint_const(address.constant, coord)
        if address.constant == 0:
            return address.dynamic
        return self.b.emit(Op.ADD, [address.dynamic, self.uint_const(address.constant, coord)],
                           T.UINT, None, coord)

    def load_memory(self, root, address: Address, t: T.Type, coord: Coord) -> Inst:
        """A scalar/vector leaf load, or an aggregate built from its leaves (``t`` a memory type)."""
        if isinstance(t, (T.ScalarType, T.VectorType)):
            return self.load_leaf(root, address, t, coord)
        if isinstance(t, StoredMatrix):
            return self.load_matrix(root, address, t, [], coord)
        parts = [self.load_memory(root, sub, sub_type, coord)
                 for sub, sub_type in self.sub_addresses(root, address, t, coord)]
        return self.b.emit(Op.CONSTRUCT, parts, ir_type(t, coord), None, coord)

    def sub_addresses(self, root, address: Address, t: T.Type, coord: Coord):
        """The address and memory type of each element or field of an aggregate memory type."""
        if isinstance(t, T.ArrayType):
            stride = cbuffer_stride(t) if _uses_cbuffer_layout(root) else tight_stride(t)
            for k in range(t.size or 0):
                yield Address(address.constant + k * stride, address.dynamic), t.element
        else:
            offsets = cbuffer_offsets(t) if _uses_cbuffer_layout(root) else tight_offsets(t)
            for offset, (_, field_type) in zip(offsets, t.fields):
                yield Address(address.constant + offset, address.dynamic), field_type

    def load_leaf(self, root, address: Address, t: T.Type, coord: Coord) -> Inst:
        if isinstance(root, MemoryRoot):
            op = Op.SCRATCH_LOAD if root.space == "scratch" else Op.LDS_LOAD
            return self.b.emit(op, [self.address_operand(address, coord)], t, {"var": root.name}, coord)
        if isinstance(root, CBufferRoot):
            operands = [address.dynamic] if address.dynamic is not None else []
            return self.b.emit(Op.CBUFFER_LOAD, operands, t,
                               {"buffer": root.buffer, "offset": address.constant}, coord)
        return self.element_load(root.ref, root.coordinate, t, address.constant, coord, address.dynamic)

    # ------------------------------------------------------------ storing
    def store(self, place: Place, value: Inst, coord: Coord) -> None:
        """Store ``value`` (already of the place's type) through ``place``."""
        root = place.root
        if isinstance(root, SSARoot):
            if place.steps:
                self.name_element(root.var, place.steps, value)
                value = self.insert_path(self.b.read(root.var), place.steps, value, coord)
            self.b.write(root.var, value)
            return
        if isinstance(root, CBufferRoot):
            raise Unsupported("writing a constant buffer", coord)
        if isinstance(root, ValueRoot):
            raise Unsupported("assigning to a temporary value", coord)
        address, leaf, rest = self.walk(place, coord)
        if isinstance(leaf, StoredMatrix):
            self.store_matrix(root, address, leaf, rest, value, coord)
            return
        if not rest:
            self.store_memory(root, address, leaf, value, coord)
            return
        if len(rest) == 1 and _byte_addressed(root):
            step = rest[0]
            if step.kind == "index":
                narrow = self.component_address(root, address, leaf, step.index, coord)
                if narrow is not None:
                    self.store_leaf(root, narrow, value, coord)
                    return
            elif isinstance(leaf, T.VectorType):
                self.store_runs(root, address, leaf, list(step.index), value, coord)
                return
        old = self.load_memory(root, address, leaf, coord)
        self.store_memory(root, address, leaf, self.insert_path(old, rest, value, coord), coord)

    def name_element(self, var, steps: list[Step], value: Inst) -> None:
        """Name a value stored to ``a[3]`` of a register array after that element, for reports."""
        step = steps[0]
        if len(steps) == 1 and step.kind == "index" and isinstance(step.index, int) \
                and isinstance(var.type, T.ArrayType) and var.name.isidentifier():
            self.b.value_names.setdefault(value, f"{var.name}[{step.index}]")

    def store_runs(self, root, address: Address, leaf: T.VectorType, lanes: list[int], value: Inst,
                   coord: Coord) -> None:
        """``v.<lanes> = value`` in memory: one store per run of consecutive components."""
        pairs = sorted((component, source) for source, component in enumerate(lanes))
        runs: list[list[tuple[int, int]]] = []
        for pair in pairs:
            if runs and runs[-1][-1][0] + 1 == pair[0]:
                runs[-1].append(pair)
            else:
                runs.append([pair])
        element_bytes = scalar_bytes(leaf.element)
        for run in runs:
            part = self.shuffle(value, [source for _, source in run], coord)
            start = Address(address.constant + run[0][0] * element_bytes, address.dynamic)
            self.store_leaf(root, start, part, coord)

    def store_memory(self, root, address: Address, t: T.Type, value: Inst, coord: Coord) -> None:
        if isinstance(t, (T.ScalarType, T.VectorType)):
            self.store_leaf(root, address, value, coord)
            return
        if isinstance(t, StoredMatrix):
            self.store_matrix(root, address, t, [], value, coord)
            return
        for k, (sub, sub_type) in enumerate(self.sub_addresses(root, address, t, coord)):
            self.store_memory(root, sub, sub_type, self.extract(value, k, coord), coord)

    def store_leaf(self, root, address: Address, value: Inst, coord: Coord) -> None:
        if isinstance(root, MemoryRoot):
            op = Op.SCRATCH_STORE if root.space == "scratch" else Op.LDS_STORE
            self.b.emit(op, [self.address_operand(address, coord), value], T.VOID, {"var": root.name}, coord)
            return
        self.element_store(root.ref, root.coordinate, value, address.constant, coord, address.dynamic)

    def insert_path(self, old: Inst, steps: list[Step], value: Inst, coord: Coord) -> Inst:
        """``old`` with the part named by ``steps`` replaced by ``value``."""
        step = steps[0]
        if isinstance(step.index, Inst) and isinstance(old.type, T.ArrayType):
            return self.replace_element(old, step.index, steps[1:], value, coord)
        if len(steps) > 1:
            inner = self.apply_steps(old, [step], coord)
            value = self.insert_path(inner, steps[1:], value, coord)
        if step.kind == "elements":
            return self.set_matrix_elements(old, list(step.index), value, coord)
        if step.kind == "swizzle":
            size = components(old.type)
            lanes = [size + list(step.index).index(k) if k in step.index else k for k in range(size)]
            return self.b.emit(Op.SHUFFLE, [old, value], old.type, {"lanes": lanes}, coord)
        if isinstance(step.index, Inst):
            return self.b.emit(Op.INSERT, [old, value, step.index], old.type, None, coord)
        if isinstance(old.type, T.ScalarType):
            return value
        return self.insert(old, value, step.index, coord)
