"""LLVM types, constants and value conversions for the amdgcn back end.

HLSL types map onto LLVM's first-class types one to one: ``bool`` is ``i1`` (a
lane mask once LLVM selects it), ``half`` is ``half``, vectors are LLVM vectors
(``float4`` is ``<4 x float>``), a matrix is the vector of its components in row
order (the interpreter's layout), arrays and structs used as SSA values are LLVM
arrays and literal structs. In memory a ``bool`` is a 32-bit word.

Float constants are written in LLVM's exact hexadecimal forms (``0x3FD0000000000000``
for 0.25f, ``0xH3C00`` for 1.0h), so no value is rounded on the way.
"""

from __future__ import annotations

import math
import struct

from ...frontend import hlsl_types as T
from ..llvm_types import scalar_type


class AmdgcnError(Exception):
    """The module uses something the amdgcn back end cannot express."""


# ---------------------------------------------------------------------------------------
# types
# ---------------------------------------------------------------------------------------


def llvm_type(t: T.Type) -> str:
    if t == T.VOID:
        return "void"
    if isinstance(t, T.ScalarType):
        return scalar_type(t)
    if isinstance(t, (T.VectorType, T.MatrixType)):
        return f"<{t.components} x {scalar_type(t.element)}>"
    if isinstance(t, T.ArrayType):
        if t.size is None:
            raise AmdgcnError(f"an unsized array ({t}) cannot be a value")
        return f"[{t.size} x {llvm_type(t.element)}]"
    if isinstance(t, T.StructType):
        return "{ " + ", ".join(llvm_type(field) for _, field in t.fields) + " }"
    raise AmdgcnError(f"type {t} has no LLVM form here")


def vector_of(element: str, count: int) -> str:
    """``element`` (an LLVM scalar type) as a ``count``-wide vector; 1 is the scalar itself."""
    return element if count == 1 else f"<{count} x {element}>"


def components(t: T.Type) -> int:
    return t.components if isinstance(t, (T.ScalarType, T.VectorType, T.MatrixType)) else 1


def element_of(t: T.Type) -> T.ScalarType:
    element = T.element_of(t)
    if element is None:
        raise AmdgcnError(f"{t} has no scalar element")
    return element


def is_aggregate(t: T.Type) -> bool:
    return isinstance(t, (T.ArrayType, T.StructType))


def with_count(t: T.Type, count: int) -> T.Type:
    return T.vector(element_of(t), count)


_SUFFIXES = {"half": "f16", "float": "f32", "double": "f64"}


def intrinsic_suffix(llvm: str) -> str:
    """The overload suffix of an LLVM type: ``float`` -> ``f32``, ``<4 x half>`` -> ``v4f16``."""
    if llvm.startswith("<"):
        count, element = llvm[1:-1].split(" x ")
        return f"v{count}{_SUFFIXES.get(element, element)}"
    return _SUFFIXES.get(llvm, llvm)


def memory_bytes(t: T.Type) -> int:
    """Bytes a value of ``t`` takes in memory (bool: a 32-bit word)."""
    element = element_of(t)
    return components(t) * (4 if element.kind == "bool" else element.bits // 8)


def memory_type(t: T.Type) -> T.Type:
    """``t`` as it is stored: bool components become uint."""
    element = element_of(t)
    return with_count(t, components(t)) if element.kind != "bool" else T.vector(T.UINT, components(t))


# ---------------------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------------------


def integer_literal(value, bits: int) -> str:
    """Two's complement in ``bits``, written signed (LLVM's own spelling)."""
    number = int(value) & ((1 << bits) - 1)
    if number >= 1 << (bits - 1):
        number -= 1 << bits
    return str(number)


def float_literal(value, bits: int) -> str:
    if bits == 16:
        return "0xH%04X" % (_half_nan_bits(value) if math.isnan(value) else _rounded_bits(value, "e", 0x7C00, 0x8000))
    if bits == 32:
        value = struct.unpack("<f", struct.pack("<I", _rounded_bits(value, "f", 0x7F800000, 0x80000000)))[0]
    elif not isinstance(value, float) or math.isnan(value):
        value = float(value)
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def _rounded_bits(value, code: str, infinity: int, sign: int) -> int:
    """The bits of ``value`` rounded to the nearest even ``half`` (code ``e``) or ``float`` (``f``);
    past the largest finite value, an infinity of its sign (as a C or NumPy conversion gives:
    ``struct`` raises instead). ``struct``, not NumPy, keeps NumPy out of ``shc regs``."""
    try:
        packed = struct.pack("<" + code, value)
    except OverflowError:
        return infinity | (sign if value < 0 else 0)
    return int.from_bytes(packed, "little")


def _half_nan_bits(value) -> int:
    """A NaN as a ``half``: its sign and the top ten bits of its payload (never zero), as NumPy keeps
    them (``struct`` writes every NaN as 0x7E00)."""
    double = struct.unpack("<Q", struct.pack("<d", value))[0]
    payload = (double & ((1 << 52) - 1)) >> 42
    return (double >> 63) << 15 | 0x7C00 | (payload or 1)


def scalar_literal(value, element: T.ScalarType) -> str:
    if element.kind == "bool":
        return "true" if bool(value) else "false"
    if element.kind == "float":
        return float_literal(value, element.bits)
    if isinstance(value, float):
        value = int(value)
    return integer_literal(value, element.bits)


def constant(value, t: T.Type) -> str:
    """The literal of a ``const`` attribute value (a number or nested lists) of type ``t``."""
    if isinstance(t, T.ScalarType):
        if isinstance(value, (list, tuple)):
            value = value[0]
        return scalar_literal(value, t)
    if isinstance(t, (T.VectorType, T.MatrixType)):
        values = list(value) if isinstance(value, (list, tuple)) else [value] * t.components
        if len(values) != t.components:
            raise AmdgcnError(f"constant {value!r} does not have the {t.components} components of {t}")
        element = scalar_type(t.element)
        return "<" + ", ".join(f"{element} {scalar_literal(v, t.element)}" for v in values) + ">"
    if isinstance(t, T.ArrayType):
        return "[" + ", ".join(f"{llvm_type(t.element)} {constant(v, t.element)}" for v in value) + "]"
    if isinstance(t, T.StructType):
        return "{ " + ", ".join(f"{llvm_type(field)} {constant(v, field)}"
                                for (_, field), v in zip(t.fields, value)) + " }"
    raise AmdgcnError(f"no constant of type {t}")


def splat_literal(value, element: T.ScalarType, count: int) -> str:
    """``value`` in every component (the scalar itself when ``count`` is 1)."""
    if count == 1:
        return scalar_literal(value, element)
    llvm = scalar_type(element)
    return "<" + ", ".join([f"{llvm} {scalar_literal(value, element)}"] * count) + ">"
