"""Values during selection: an IR value's machine operands, and type helpers the selectors share."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ...frontend import hlsl_types as T
from .machine import Imm, SubReg, VReg

@dataclass
class Val:
    """An IR value in machine operands: one per component, or per two packed 16-bit components."""

    parts: list
    bank: str  # "v" or "s"
    packed: bool = False


def element(t: T.Type) -> T.ScalarType:
    while isinstance(t, T.ArrayType):
        t = t.element
    if isinstance(t, T.StructType):
        return element(t.fields[0][1]) if t.fields else T.UINT
    return t.element if isinstance(t, (T.VectorType, T.MatrixType)) else t


def components(t: T.Type) -> int:
    if isinstance(t, (T.ScalarType, T.VectorType, T.MatrixType)):
        return t.components
    if isinstance(t, T.ArrayType):
        return components(t.element) * (t.size or 1)
    if isinstance(t, T.StructType):
        return sum(components(field_type) for _, field_type in t.fields)
    return 0


def type_class(scalar: T.ScalarType) -> str:
    """``f32``, ``u16``, ``i64``, ``b`` (bool) ...: the suffix family the tables are keyed by."""
    if scalar.kind == "bool":
        return "b"
    letter = {"float": "f", "int": "i", "uint": "u"}[scalar.kind]
    return f"{letter}{scalar.bits}"


def is_packed(t: T.Type, bank: str) -> bool:
    return bank == "v" and isinstance(t, T.VectorType) and t.element.bits == 16


def part_count(t: T.Type, bank: str) -> int:
    count = components(t)
    return (count + 1) // 2 if is_packed(t, bank) else count


def flat_constants(value) -> list:
    if isinstance(value, (list, tuple)):
        return [item for entry in value for item in flat_constants(entry)]
    return [value]


def register_key(operand):
    """What identifies an operand's register(s) (or an immediate's value) for caching copies."""
    if isinstance(operand, SubReg):
        return ("sub", id(operand.base), operand.index, operand.count)
    if isinstance(operand, VReg):
        return ("reg", id(operand))
    if isinstance(operand, Imm):
        return ("imm", repr(operand.value))
    return ("other", repr(operand))


def base_id(operand):
    if isinstance(operand, SubReg):
        return id(operand.base)
    return id(operand) if isinstance(operand, VReg) else None




def half_bits(value: float) -> int:
    return struct.unpack("<H", struct.pack("<e", value))[0]


