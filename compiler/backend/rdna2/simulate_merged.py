"""The three-source VALU instructions ``combine.py`` merges pairs into, for the listing simulator.

Each computes what its two-instruction pair computed: ``v_min3_f32 d, a, b, c`` is
``min(min(a, b), c)`` (NaN-avoiding as ``v_min_f32``, with VOP3 ``neg``/``abs`` on any source),
``v_lshl_add_u32 d, a, s, c`` is ``(a << s) + c`` mod 2^32, ``v_and_or_b32 d, a, b, c`` is
``(a & b) | c``, ``v_cvt_f32_f16_sdwa d, a src0_sel:WORD_1`` converts ``a``'s high half (``WORD_0``
its low half), ``v_cvt_f16_f32_sdwa d, a dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE`` converts ``a``
into ``d``'s high half and keeps its low half. (``v_lshl_or_b32``, ``v_add3_u32`` and ``v_bfe_u32`` were simulated already.)
"""

from __future__ import annotations

import numpy as np

from .simulate_operands import put_word, singles


def _three_floats(function):
    def run(machine, inst):
        a, b, c = singles(machine, inst, 3)
        put_word(machine, inst, function(function(a, b), c).astype(np.float32).view(np.uint32))
    return run


def _three_ints(function, signed: bool):
    def run(machine, inst):
        a, b, c = (machine.vector(op).astype(np.uint32) for op in inst.uses)
        if signed:
            a, b, c = a.view(np.int32), b.view(np.int32), c.view(np.int32)
        put_word(machine, inst, np.asarray(function(function(a, b), c)).view(np.uint32))
    return run


def _lshl_add(machine, inst):
    value, shift, addend = (machine.vector(op).astype(np.uint64) for op in inst.uses)
    put_word(machine, inst, ((value << (shift & np.uint64(31))) + addend) & np.uint64(0xFFFFFFFF))


def _and_or(machine, inst):
    a, b, c = (machine.vector(op).astype(np.uint32) for op in inst.uses)
    put_word(machine, inst, (a & b) | c)


def _half_to_float(machine, inst):
    if "dst_sel:DWORD" not in inst.modifiers or "src0_sel:WORD_" not in inst.modifiers:
        raise ValueError(f"cannot simulate {inst.format()}")
    word = machine.vector(inst.uses[0]).astype(np.uint32)
    half = word >> np.uint32(16) if "src0_sel:WORD_1" in inst.modifiers else word & np.uint32(0xFFFF)
    put_word(machine, inst, half.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32))


def _float_to_high_half(machine, inst):
    if inst.modifiers != "dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD":
        raise ValueError(f"cannot simulate {inst.format()}")
    (value,) = singles(machine, inst, 1)
    half = value.astype(np.float16).view(np.uint16).astype(np.uint32)  # round to nearest even
    kept = machine.vector(inst.defs[0]).astype(np.uint32) & np.uint32(0xFFFF)
    put_word(machine, inst, kept | (half << np.uint32(16)))


HANDLERS: dict = {"v_lshl_add_u32": _lshl_add, "v_and_or_b32": _and_or, "v_cvt_f32_f16_sdwa": _half_to_float,
                  "v_cvt_f16_f32_sdwa": _float_to_high_half}
for _name, _float, _int in (("min", np.fmin, np.minimum), ("max", np.fmax, np.maximum)):
    HANDLERS[f"v_{_name}3_f32"] = _three_floats(_float)
    HANDLERS[f"v_{_name}3_i32"] = _three_ints(_int, True)
    HANDLERS[f"v_{_name}3_u32"] = _three_ints(_int, False)
