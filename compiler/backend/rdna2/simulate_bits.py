"""Bit-field instructions for the listing simulator: ``v_bfi_b32`` and the scalar bit scans.

``v_bfi_b32 d, mask, a, b`` takes the bits of ``a`` where ``mask`` is 1 and of ``b`` where it is
0. ``s_ff1_i32_b32`` is the lowest set bit's index, ``s_flbit_i32_b32`` the number of zeros above
the highest set bit, ``s_flbit_i32`` the same for the first bit that differs from the sign;
each gives -1 (all ones) when there is no such bit. ``s_brev_b32`` reverses the 32 bits.
``v_cmp_class_f32 mask, x, classes`` sets a lane's bit when x is in one of the classes the ten
low bits of ``classes`` select: signalling NaN, quiet NaN, -inf, -normal, -denormal, -0, +0,
+denormal, +normal, +inf (bits 0 to 9); x is read as ``simulate_denormals`` says (flushed).
"""

from __future__ import annotations

import numpy as np

from .simulate_operands import put_word

ALL_ONES = 0xFFFFFFFF


def _bit_insert(machine, inst) -> None:
    mask, a, b = (machine.vector(op) for op in inst.uses)
    put_word(machine, inst, (mask & a) | (~mask & b))


def _lowest_set(word: int) -> int:
    return (word & -word).bit_length() - 1 if word else ALL_ONES


def _zeros_above(word: int) -> int:
    return 32 - word.bit_length() if word else ALL_ONES


def _sign_bits_above(word: int) -> int:
    flipped = (~word & ALL_ONES) if word >> 31 else word
    return 32 - flipped.bit_length() if flipped else ALL_ONES


def _scalar_unary(function):
    def run(machine, inst) -> None:
        machine.write_s(inst.defs[0], function(machine.read(inst.uses[0])))
    return run


def _float_classes(words: np.ndarray) -> np.ndarray:
    """Per word, the one bit of its class (as ``v_cmp_class_f32`` numbers them)."""
    exponent, fraction, negative = (words >> 23) & 0xFF, words & 0x7FFFFF, (words >> 31) == 1
    nan = (exponent == 0xFF) & (fraction != 0)
    classes = np.where(negative, 5, 6)  # zeros
    classes = np.where((exponent == 0) & (fraction != 0), np.where(negative, 4, 7), classes)
    classes = np.where((exponent != 0) & (exponent != 0xFF), np.where(negative, 3, 8), classes)
    classes = np.where((exponent == 0xFF) & (fraction == 0), np.where(negative, 2, 9), classes)
    classes = np.where(nan, np.where(fraction >> 22 == 1, 1, 0), classes)
    return np.left_shift(1, classes.astype(np.uint32)).astype(np.uint32)


def _compare_class(machine, inst) -> None:
    values, selected = (machine.vector(op).astype(np.uint32) for op in inst.uses)
    machine.write_mask(inst.defs[0], ((_float_classes(values) & selected) != 0) & machine.exec)


HANDLERS = {"v_bfi_b32": _bit_insert, "v_cmp_class_f32": _compare_class}
SCALAR_HANDLERS = {
    "s_ff1_i32_b32": _scalar_unary(_lowest_set),
    "s_flbit_i32_b32": _scalar_unary(_zeros_above),
    "s_flbit_i32": _scalar_unary(_sign_bits_above),
    "s_brev_b32": _scalar_unary(lambda word: int(f"{word:032b}"[::-1], 2)),
}
