"""Operands and results of the listing simulator's wide and narrow ALU instructions
(``simulate_wide.py``, ``simulate_narrow.py``): 64-bit pairs, 16-bit halves, VOP3 source
modifiers."""

from __future__ import annotations

import numpy as np

from .machine import Imm, MInst

MASK64 = (1 << 64) - 1
QUIET_NAN64 = 0x7FF8000000000000
QUIET_NAN16 = 0x7E00


# ------------------------------------------------------------------- operands
def read64(machine, operand) -> np.ndarray:
    """A 64-bit source per lane, as uint64."""
    if isinstance(operand, Imm):
        value = operand.value
        bits = np.float64(value).view(np.uint64) if isinstance(value, float) else np.uint64(int(value) & MASK64)
        return np.full(machine.wave, bits, dtype=np.uint64)
    cls, first, _ = machine.regs(operand)
    if cls == "v":
        low, high = machine.v[first], machine.v[first + 1]
    else:
        low = np.full(machine.wave, int(machine.s[first]) & 0xFFFFFFFF, np.uint32)
        high = np.full(machine.wave, int(machine.s[first + 1]) & 0xFFFFFFFF, np.uint32)
    return low.astype(np.uint64) | (high.astype(np.uint64) << np.uint64(32))


def write64(machine, operand, values: np.ndarray) -> None:
    values = np.asarray(values, dtype=np.uint64)
    machine.write_v(operand, (values & np.uint64(0xFFFFFFFF)).astype(np.uint32), 0)
    machine.write_v(operand, (values >> np.uint64(32)).astype(np.uint32), 1)


def modified(bits: np.ndarray, modifiers, width: int) -> np.ndarray:
    """Apply VOP3 abs/neg to float bit patterns of ``width`` bits."""
    sign = {64: np.uint64(1 << 63), 32: np.uint32(1 << 31), 16: np.uint32(1 << 15)}[width]
    if "abs" in modifiers:
        bits = bits & ~sign
    if "neg" in modifiers:
        bits = bits ^ sign
    return bits


def doubles(machine, inst: MInst, count: int) -> list[np.ndarray]:
    return [modified(read64(machine, inst.uses[k]), inst.source_modifiers.get(k, ()), 64).view(np.float64)
            for k in range(count)]


def words(machine, inst: MInst, index: int, width: int = 32) -> np.ndarray:
    bits = machine.vector(inst.uses[index]).astype(np.uint32)
    if width == 16:
        bits = bits & np.uint32(0xFFFF)
    return modified(bits, inst.source_modifiers.get(index, ()), width)


def singles(machine, inst: MInst, count: int) -> list[np.ndarray]:
    return [words(machine, inst, k).view(np.float32) for k in range(count)]


def halves(machine, inst: MInst, count: int) -> list[np.ndarray]:
    return [words(machine, inst, k, 16).astype(np.uint16).view(np.float16) for k in range(count)]


def put_double(machine, inst: MInst, values) -> None:
    result = np.asarray(values, dtype=np.float64)
    if "clamp" in inst.modifiers:
        result = np.where(np.isnan(result), 0.0, np.clip(result, 0.0, 1.0))
    write64(machine, inst.defs[0], result.view(np.uint64))


def put_word(machine, inst: MInst, values) -> None:
    machine.write_v(inst.defs[0], np.asarray(values).astype(np.uint32))
