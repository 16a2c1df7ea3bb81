"""Values during lowering: IR types, constants, and HLSL's implicit conversions made explicit.

Sema only checked conversions; here each one becomes an instruction:
an element type change is ``convert``, dropping trailing components is
``shuffle`` (``extract {index=0}`` down to a scalar), a scalar used where a
vector is needed is a ``construct`` of copies. Conversions of constants are
folded on the spot so literals arrive in the type they are used at.

Conventions the rest of the compiler relies on:
- ``convert`` to bool means ``!= 0``; from bool gives 0 or 1; float to integer
  truncates toward zero and saturates (NaN gives 0), as the GPU's cvt does.
- ``construct`` concatenates the components of its operands (scalars or vectors
  of the result's element type); for arrays and structs it takes one operand
  per element or field.
- ``shuffle`` picks ``lanes`` from the concatenation of its operands (one or
  two vectors), like SPIR-V's OpVectorShuffle.
- ``extract``/``insert`` take ``{index=k}`` for a constant index into a
  vector, array or struct; a dynamic vector component index is an extra operand
  (``extract v, i`` / ``insert v, x, i``) and no ``index`` attribute.
"""

from __future__ import annotations

import math
import struct

from ... import diagnostics
from ...diagnostics import Coord
from ...frontend import ast
from ...frontend import hlsl_types as T
from ..core import Inst
from .globals import StoredMatrix
from .ssa import FunctionBuilder, zero_scalar
from ..ops import Op


class Unsupported(diagnostics.Unsupported):
    """A construct the IR can't express yet; becomes one diagnostic at its statement."""

    def __init__(self, what: str, coord: Coord):
        super().__init__(f"{what} is not supported by shc's IR yet", coord)


def ir_type(t: T.Type, coord: Coord) -> T.Type:
    """The IR's form of a sema (or memory) type: 1-component vectors are scalars; a matrix
    is an array of its rows (``float3x4`` is ``float4[3]``, ``float4x1`` is ``float[4]``); the packed 8-bit types are uint."""
    if isinstance(t, T.VectorType):  # vectors and scalars first: asked thousands of times per kernel
        return t.element if t.size == 1 else t
    if isinstance(t, T.ScalarType):
        return T.UINT if t in (T.UINT8_4_PACKED, T.INT8_4_PACKED) else t
    if isinstance(t, StoredMatrix):
        t = t.matrix
    if isinstance(t, T.MatrixType):
        return T.ArrayType(T.vector(t.element, t.cols), t.rows)
    if isinstance(t, T.ArrayType):
        return T.ArrayType(ir_type(t.element, coord), t.size)
    if isinstance(t, T.StructType):
        fields = tuple((name, ir_type(_resource_placeholder(field_type), coord)) for name, field_type in t.fields)
        if any(new is not old for (_, new), (_, old) in zip(fields, t.fields)):
            return T.StructType(t.name, fields)  # equal to ``t`` (structs compare by name)
    return t


def _resource_placeholder(t: T.Type) -> T.Type:
    """A struct member of resource type holds a ``uint`` nothing reads: the resource
    itself is a compile-time cell (lower/resource_cells.py)."""
    if isinstance(t, (T.ResourceType, T.SamplerType)):
        return T.UINT
    if isinstance(t, T.ArrayType) and isinstance(t.element, (T.ResourceType, T.SamplerType, T.ArrayType)):
        return T.ArrayType(_resource_placeholder(t.element), t.size)
    return t


def matrix_shape(t: T.Type) -> tuple[int, int] | None:
    """(rows, cols) of an IR type that can hold a matrix: an array of scalars or vectors."""
    if isinstance(t, T.ArrayType) and isinstance(t.element, (T.ScalarType, T.VectorType)) and t.size:
        return t.size, components(t.element)
    return None


def components(t: T.Type) -> int:
    return t.size if isinstance(t, T.VectorType) else 1


# ------------------------------------------------------------ constant values
def fold_scalar(value, source: T.ScalarType, target: T.ScalarType):
    """``value`` (a constant of ``source``) converted to ``target`` with GPU rules."""
    if target.kind == "bool":
        return bool(value != 0)
    if target.is_float:
        return round_float(float(value), target.bits)
    if source.is_float:
        if math.isnan(value):
            return 0
        low, high = integer_range(target)
        return max(low, min(high, int(value))) if not math.isinf(value) else (high if value > 0 else low)
    return wrap_integer(int(value), target)


def integer_range(t: T.ScalarType) -> tuple[int, int]:
    if t.kind == "uint":
        return 0, (1 << t.bits) - 1
    return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1


def wrap_integer(value: int, t: T.ScalarType) -> int:
    value &= (1 << t.bits) - 1
    if t.kind == "int" and value >= 1 << (t.bits - 1):
        value -= 1 << t.bits
    return value


def round_float(value: float, bits: int) -> float:
    """``value`` rounded to a float of ``bits`` bits (overflow gives infinity)."""
    if bits == 64 or math.isnan(value) or math.isinf(value):
        return value
    code = "e" if bits == 16 else "f"
    try:
        return struct.unpack(code, struct.pack(code, value))[0]
    except (OverflowError, struct.error):
        return math.copysign(math.inf, value)


def constant_components(inst: Inst) -> list:
    value = inst.attrs["value"]
    if isinstance(value, list):
        return list(value)
    return [value] * components(inst.type)


class ValueLowering:
    """Mixin: constants and conversions. Needs ``self.b``, a FunctionBuilder."""

    b: FunctionBuilder

    def const(self, t: T.Type, value, coord: Coord) -> Inst:
        """A constant of a scalar or vector type, or a matrix of them; a scalar ``value`` splats."""
        if isinstance(t, T.ArrayType):
            rows = [self.const(t.element, value, coord) for _ in range(t.size or 0)]
            return self.b.prelude_inst(Op.CONSTRUCT, rows, t, None, coord)
        element = t.element
        if isinstance(value, list):
            value = [fold_scalar(v, element, element) for v in value]
        else:
            value = fold_scalar(value, element, element)
            if isinstance(t, T.VectorType):
                value = [value] * t.size
        return self.b.const(t, value, coord)

    def is_const(self, inst: Inst) -> bool:
        return inst.op is Op.CONST and isinstance(inst.type, (T.ScalarType, T.VectorType))

    def uint_const(self, value: int, coord: Coord) -> Inst:
        return self.b.const(T.UINT, wrap_integer(value, T.UINT), coord)

    def zero(self, t: T.Type, coord: Coord) -> Inst:
        return self.b.zero(t, coord)

    # ---------------------------------------------------------- conversions
    def expr_as(self, node, target: T.Type, coord: Coord) -> Inst:
        """The expression ``node`` converted to ``target``. An unsuffixed float literal that
        becomes a double keeps the literal's own precision (``d + 0.1`` adds the double
        nearest 0.1, as DXC's literal float does), not the float it would be on its own."""
        literal = _untyped_float_literal(node)
        wanted = ir_type(target, coord)
        if literal is not None and isinstance(wanted, (T.ScalarType, T.VectorType)) and wanted.element == T.DOUBLE:
            return self.b.const(wanted, [literal] * wanted.size if isinstance(wanted, T.VectorType) else literal, coord)
        return self.convert(self.expr(node), target, coord)

    def convert(self, value: Inst, target: T.Type, coord: Coord) -> Inst:
        """``value`` implicitly or explicitly converted to ``target``."""
        target = ir_type(target, coord)
        source = value.type
        if source == target:
            return value
        if isinstance(target, (T.ScalarType, T.VectorType)) and isinstance(source, (T.ScalarType, T.VectorType)):
            if isinstance(source, T.VectorType) and isinstance(target, T.ScalarType):
                value = self.extract(value, 0, coord)
            elif isinstance(source, T.VectorType) and components(target) < source.size:
                value = self.shuffle(value, list(range(components(target))), coord)
            value = self.convert_element(value, target.element, coord)
            if isinstance(target, T.VectorType) and isinstance(value.type, T.ScalarType):
                value = self.splat(value, target.size, coord)
            if value.type != target:
                raise Unsupported(f"conversion from '{source}' to '{target}'", coord)
            return value
        if isinstance(source, T.ArrayType) and isinstance(target, T.ArrayType) and source.size == target.size:
            parts = [self.convert(self.extract(value, k, coord), target.element, coord)
                     for k in range(source.size or 0)]
            return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)
        if isinstance(source, T.StructType) and isinstance(target, T.StructType) \
                and len(target.fields) < len(source.fields):  # derived to base: the base's fields come first
            parts = [self.extract(value, k, coord) for k in range(len(target.fields))]
            return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)
        reshaped = self.convert_matrix(value, target, coord)  # lower/matrices.py
        if reshaped is not None:
            return reshaped
        raise Unsupported(f"conversion from '{source}' to '{target}'", coord)

    def convert_element(self, value: Inst, element: T.ScalarType, coord: Coord) -> Inst:
        """Change only the element type of a scalar or vector."""
        source = value.type.element
        if source == element:
            return value
        target = T.with_element(value.type, element)
        if self.is_const(value):
            folded = [fold_scalar(v, source, element) for v in constant_components(value)]
            return self.b.const(target, folded if isinstance(target, T.VectorType) else folded[0], coord)
        return self.b.emit(Op.CONVERT, [value], target, None, coord)

    def splat(self, scalar: Inst, size: int, coord: Coord) -> Inst:
        """A vector of ``size`` copies of ``scalar`` (a construct, or a constant)."""
        target = T.VectorType(scalar.type, size)
        if self.is_const(scalar):
            return self.b.const(target, [scalar.attrs["value"]] * size, coord)
        return self.b.emit(Op.CONSTRUCT, [scalar] * size, target, None, coord)

    def to_bool(self, value: Inst, coord: Coord) -> Inst:
        """A condition: any scalar (or 1-vector) as a bool."""
        return self.convert(value, T.vector(T.BOOL, components(value.type)), coord)

    # ------------------------------------------------------ vector shaping
    def extract(self, value: Inst, index: int, coord: Coord) -> Inst:
        """Component, element or field ``index`` of a vector, array or struct."""
        t = value.type
        if isinstance(t, T.ScalarType):
            return value
        if isinstance(t, T.VectorType):
            result = t.element
        elif isinstance(t, T.ArrayType):
            result = t.element
        else:
            result = t.fields[index][1]
        result = ir_type(result, coord)
        while value.op is Op.INSERT and "index" in value.attrs:  # look through inserts
            if value.attrs["index"] == index:
                return value.operands[1]
            value = value.operands[0]
        if self.is_const(value):
            return self.b.const(result, constant_components(value)[index], coord)
        if value.op is Op.CONSTRUCT and len(value.operands) == _parts(t):
            return value.operands[index]
        if value.op is Op.CONSTRUCT and all(isinstance(part.type, T.ScalarType) for part in value.operands):
            return value.operands[index]
        return self.b.emit(Op.EXTRACT, [value], result, {"index": index}, coord)

    def shuffle(self, value: Inst, lanes: list[int], coord: Coord) -> Inst:
        """A swizzle of one vector (or scalar): ``lanes`` pick components."""
        if len(lanes) == 1:
            return self.extract(value, lanes[0], coord)
        element = value.type.element
        target = T.VectorType(element, len(lanes))
        if isinstance(value.type, T.ScalarType):
            return self.splat(value, len(lanes), coord)
        if lanes == list(range(value.type.size)):
            return value
        if self.is_const(value):
            parts = constant_components(value)
            return self.b.const(target, [parts[lane] for lane in lanes], coord)
        return self.b.emit(Op.SHUFFLE, [value], target, {"lanes": list(lanes)}, coord)

    def insert(self, container: Inst, value: Inst, index: int, coord: Coord) -> Inst:
        return self.b.emit(Op.INSERT, [container, value], container.type, {"index": index}, coord)

    def construct(self, parts: list[Inst], target: T.Type, coord: Coord) -> Inst:
        """A vector from scalars/vectors of its element type (folded when all are constants)."""
        if len(parts) == 1 and parts[0].type == target:
            return parts[0]
        if all(self.is_const(part) for part in parts) and isinstance(target, T.VectorType):
            values = [v for part in parts for v in constant_components(part)]
            return self.b.const(target, values, coord)
        return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)

    def scalar_zero(self, element: T.ScalarType, coord: Coord) -> Inst:
        return self.b.const(element, zero_scalar(element), coord)

    def one(self, t: T.Type, coord: Coord) -> Inst:
        element = t
        while not isinstance(element, T.ScalarType):
            element = element.element
        value = True if element.kind == "bool" else (1.0 if element.is_float else 1)
        if isinstance(t, T.ArrayType):
            return self.const(t, value, coord)
        return self.b.const(t, value, coord)


def _parts(t: T.Type) -> int:
    if isinstance(t, T.VectorType):
        return -1  # vector constructs may mix scalars and vectors: never shortcut
    if isinstance(t, T.ArrayType):
        return t.size or 0
    return len(t.fields)


def _untyped_float_literal(node) -> float | None:
    """The value of ``0.1``, ``-0.1`` or ``+0.1`` (no suffix), else None."""
    sign = 1.0
    if isinstance(node, ast.Unary) and node.op in ("-", "+") and not node.postfix:
        sign, node = (-1.0 if node.op == "-" else 1.0), node.operand
    if isinstance(node, ast.FloatLiteral) and node.suffix == "":
        return sign * node.value
    return None
