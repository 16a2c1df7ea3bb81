"""How IR values look in the host JIT's LLVM IR, and the conversions between them.

An IR value is a ``Value``: one LLVM value per flat component (``flat_scalars``:
a ``float4`` has four, a struct its fields' components one after another). Each
component is either a lane vector ``<W x T>`` (the value may differ per lane) or a
scalar ``T`` (the same in every lane: uniform values, constants, SGPR results).
Struct-of-arrays keeps every operation a plain ``<W x T>`` instruction, which is
what LLVM vectorises best.

Casts follow the interpreter: ``cast`` is NumPy's ``astype`` for operands of a
different element type, and HLSL's ``convert`` for ``convert`` instructions
(float -> integer truncates and saturates, NaN gives 0: ``llvm.fpto[su]i.sat``;
-> bool is ``!= 0``).
"""

from __future__ import annotations

from typing import NamedTuple

from ...frontend import hlsl_types as T
from .llvm_text import Builder, V, element, flat_scalars, is_vector, ll_scalar


class Value(NamedTuple):
    """An IR value: one LLVM value per flat component."""

    parts: list[V]

    @property
    def uniform(self) -> bool:
        return not any(is_vector(part.ty) for part in self.parts)


def like(part: V, scalar_ty: str, b: Builder) -> str:
    """``scalar_ty`` in the shape of ``part`` (a lane vector or a scalar)."""
    return b.vec(scalar_ty) if is_vector(part.ty) else scalar_ty


def widen(b: Builder, value: Value) -> Value:
    return Value([b.splat(part) for part in value.parts])


def unify(b: Builder, parts: list[V]) -> list[V]:
    """Splat the scalars among ``parts`` when any of them is a lane vector."""
    if any(is_vector(part.ty) for part in parts):
        return [b.splat(part) for part in parts]
    return parts


def vselect(b: Builder, condition: V, if_true: V, if_false: V) -> V:
    """``select`` that splats whichever of its operands are scalars when another is a vector."""
    if is_vector(condition.ty):
        if_true, if_false = b.splat(if_true), b.splat(if_false)
    else:
        if_true, if_false = unify(b, [if_true, if_false])
    return b.select(condition, if_true, if_false)


def first_active_lane(b: Builder, exec_mask: V) -> V:
    """The lowest set lane of ``exec_mask`` (lane 0 when none is): ``v_readfirstlane``'s lane."""
    bits = b.mask_bits(exec_mask)
    index = b.call(b.bits_ty, "llvm.cttz", [bits, V("i1", "false")])
    index = b.binop("and", index, b.const(b.bits_ty, b.wave_size - 1))
    return b.cast("trunc", index, "i32") if b.wave_size != 32 else index


def wave_scalar(b: Builder, part: V, exec_mask: V) -> V:
    """A component as one scalar: itself if uniform, else the lowest active lane's value."""
    if not is_vector(part.ty):
        return part
    return b.extract(part, first_active_lane(b, exec_mask))


def const_value(b: Builder, t: T.Type, value) -> Value:
    """A ``const`` instruction's value as scalar LLVM constants."""
    scalars = flat_scalars(t)
    flat = list(_flatten(value))
    if len(flat) == 1 and len(scalars) > 1:
        flat = flat * len(scalars)
    if len(flat) != len(scalars):
        raise ValueError(f"constant {value!r} does not have the {len(scalars)} components of {t}")
    return Value([b.const(ll_scalar(scalar), item) for scalar, item in zip(scalars, flat)])


def _flatten(value):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


def cast(b: Builder, part: V, source: T.ScalarType, target: T.ScalarType) -> V:
    """One component from ``source`` to ``target`` (NumPy's astype / HLSL's convert)."""
    result_ty = like(part, ll_scalar(target), b)
    if target.kind == "bool":
        if source.kind == "bool":
            return part
        if source.kind == "float":
            return b.fcmp("une", part, b.zero(part.ty))
        return b.icmp("ne", part, b.zero(part.ty))
    if source.kind == "bool":
        return b.cast("uitofp" if target.kind == "float" else "zext", part, result_ty)
    if source.kind == "float" and target.kind == "float":
        if source.bits == target.bits:
            return part
        if source.bits == 64 and target.bits == 16:  # the JIT has no double -> half libcall
            return b.cast("fptrunc", rounded_to_odd_float(b, part), result_ty)
        return b.cast("fpext" if target.bits > source.bits else "fptrunc", part, result_ty)
    if source.kind == "float":
        name = "llvm.fptosi.sat" if target.kind == "int" else "llvm.fptoui.sat"
        return b.call(result_ty, name, [part], mangle_with=[result_ty, part.ty])
    if target.kind == "float":
        return b.cast("sitofp" if source.kind == "int" else "uitofp", part, result_ty)
    if source.bits == target.bits:
        return part
    if target.bits < source.bits:
        return b.cast("trunc", part, result_ty)
    return b.cast("sext" if source.kind == "int" else "zext", part, result_ty)


def rounded_to_odd_float(b: Builder, part: V) -> V:
    """A double as a float rounded to odd (toward zero, the last bit set when inexact): rounding
    that to half then rounds the double once (24 bits > 2 * 11 + 1)."""
    nearest = b.cast("fptrunc", part, like(part, "float", b))
    back = b.cast("fpext", nearest, part.ty)
    inexact = b.fcmp("one", back, part)
    away = b.fcmp("ogt", b.call(part.ty, "llvm.fabs", [back]), b.call(part.ty, "llvm.fabs", [part]))
    bits = b.cast("bitcast", nearest, like(part, "i32", b))
    toward_zero = b.select(away, b.binop("sub", bits, b.const(bits.ty, 1)), bits)
    odd = b.binop("or", toward_zero, b.const(bits.ty, 1))
    return b.cast("bitcast", b.select(inexact, odd, bits), nearest.ty)


def cast_value(b: Builder, value: Value, source: T.Type, target_scalar: T.ScalarType) -> Value:
    """Every component of ``value`` (of type ``source``) cast to ``target_scalar``."""
    scalars = flat_scalars(source)
    return Value([cast(b, part, scalar, target_scalar) for part, scalar in zip(value.parts, scalars)])


def numpy_common(a: T.ScalarType, b_: T.ScalarType) -> T.ScalarType:
    """NumPy's result type for two element types (the interpreter compares in it)."""
    if a == b_:
        return a
    if a.kind == "bool":
        return b_
    if b_.kind == "bool":
        return a
    if a.kind == "float" or b_.kind == "float":
        if a.kind == "float" and b_.kind == "float":
            return a if a.bits >= b_.bits else b_
        f, i = (a, b_) if a.kind == "float" else (b_, a)
        if i.bits < f.bits or (i.bits == 16 and f.bits == 32):
            return f
        if i.bits == 16 and f.bits == 16:
            return T.FLOAT
        return T.DOUBLE
    if a.kind == b_.kind:
        return a if a.bits >= b_.bits else b_
    signed, unsigned = (a, b_) if a.kind == "int" else (b_, a)
    if signed.bits > unsigned.bits:
        return signed
    if unsigned.bits < 64:
        return T.scalar_of("int", unsigned.bits * 2)
    return T.DOUBLE


def scalar_ty_of(part: V) -> str:
    return element(part.ty)
