"""The listing simulator's vector instructions on doubles, 64-bit integers, halves and 16-bit
integers, the f32 ALU with its source modifiers and clamp, the fmas (which round once), and
the scalar unit's 64-bit data and carry instructions.

``execute(machine, inst)`` (vector) and ``execute_scalar`` run one instruction if it is one of
these (True) and leave the rest to ``simulate.py``; ``execute_with_first_source`` runs the
plain form of a DPP instruction on operand values already moved across lanes. A 64-bit
operand is a register pair (low word first) or a constant: a float constant is a double, an
integer one is sign-extended. VOP3 source modifiers (``-|x|``) apply to the float sources.
Results are exact IEEE arithmetic in NumPy's float16/32/64; the fmas round once
(``ir/interpret/fused.py``, shared with the interpreter). A 16-bit result zeroes the high half.

Modelled as exact counterparts of what the hardware documents: ``v_rcp_f32``/``v_rcp_f64`` as
the correctly rounded 1/x (the hardware's is a few ulps off; the division sequences refine it,
so their quotient is the correctly rounded one either way), ``v_fract_*`` as x - floor(x)
kept below 1. The division helpers (``Format`` holds the f32 and f64 constants) follow the ISA
guide as this module reads it: ``v_div_scale_*`` returns its first source, or scales it by
2^+-64 (f32) / 2^+-128 (f64) when the divisor is subnormal, its reciprocal or the quotient
would leave the normal range, or the dividend is tiny (setting VCC when only one operand is
scaled); ``v_div_fmas_*`` is an fma that, under VCC, scales back toward the quotient's
magnitude; ``v_div_fixup_*`` gives the special quotients (0/0, inf/inf -> NaN; x/0, inf/x ->
inf; x/inf, 0/x -> 0; an exponent gap past the format's range -> inf or 0) and otherwise the
estimate with the quotient's sign. ``tests/backend/test_wide_arithmetic.py`` checks that the
sequences built from these give IEEE quotients across the whole exponent range.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...ir.interpret.fused import fused_multiply_add
from . import simulate_bits as bits
from . import simulate_merged as merged
from . import simulate_narrow as narrow
from .machine import Imm, MInst, Special, VReg
from .simulate_operands import (MASK64, QUIET_NAN16, QUIET_NAN64, doubles, halves, put_double, put_word, read64,
                                singles, write64)

# ------------------------------------------------------------------- division helpers
@dataclass(frozen=True)
class Format:
    """What the division helpers need of f32 or f64: how far they scale, and when."""

    dtype: type
    scale: int  # 2^scale moves a value out of trouble
    overflow_gap: int  # exponent(dividend) - exponent(divisor) from which the quotient may overflow
    tiny_exponent: int  # a dividend with this biased exponent or less is scaled up
    smallest_normal: float
    max_exponent: int  # of the largest finite value, 2^max_exponent <= it < 2^(max_exponent + 1)
    min_exponent: int  # of the smallest normal value
    mantissa: int  # stored significand bits

    def exponent(self, x: float) -> int:
        bits = int(np.asarray(x, self.dtype).view(np.uint64 if self.dtype == np.float64 else np.uint32))
        return (bits >> (52 if self.dtype == np.float64 else 23)) & (0x7FF if self.dtype == np.float64 else 0xFF)

    def denormal(self, x: float) -> bool:
        return x != 0 and math.isfinite(x) and abs(x) < self.smallest_normal


F64 = Format(np.float64, 128, 768, 53, 2.2250738585072014e-308, 1023, -1022, 52)
F32 = Format(np.float32, 64, 96, 23, 1.1754943508222875e-38, 127, -126, 23)


def div_scale(form: Format, s0: float, s1: float, s2: float) -> tuple[float, bool]:
    """(scaled s0, VCC): s1 is the divisor, s2 the dividend."""
    if s1 == 0 or s2 == 0 or not (math.isfinite(s1) and math.isfinite(s2)):
        return (math.nan if s1 == 0 or s2 == 0 else s0), False
    with np.errstate(all="ignore"):
        inverse_tiny = form.denormal(float(form.dtype(1.0) / form.dtype(s1)))
        quotient_tiny = form.denormal(float(form.dtype(s2) / form.dtype(s1)))
    with np.errstate(all="ignore"):
        up, down = (float(np.ldexp(form.dtype(s0), scale)) for scale in (form.scale, -form.scale))
    if form.exponent(s2) - form.exponent(s1) >= form.overflow_gap:  # scale only the divisor
        return (up if s0 == s1 else s0), True
    if form.denormal(s1):
        return up, False
    if inverse_tiny and quotient_tiny:
        return (down if s0 == s1 else s0), True
    if inverse_tiny:
        return down, False
    if quotient_tiny:  # scale only the dividend
        return (up if s0 == s2 else s0), True
    if form.exponent(s2) <= form.tiny_exponent:  # a tiny dividend: scale both
        return up, False
    return s0, False


def div_fmas(form: Format, a: float, b: float, c: float, vcc: bool) -> float:
    result = float(fused_multiply_add(form.dtype(a), form.dtype(b), form.dtype(c)))
    if not vcc or not math.isfinite(result) or result == 0:
        return result
    with np.errstate(all="ignore"):
        return float(np.ldexp(form.dtype(result), form.scale if abs(c) >= 1.0 else -form.scale))


def div_fixup(quotient: float, divisor: float, dividend: float, form: Format | None = None) -> float | None:
    """The quotient's special cases, for one lane (Python floats); None: the NaN. With ``form``,
    a quotient whose exponent is beyond the format's range either way is an infinity or a zero."""
    negative = math.copysign(1.0, divisor) * math.copysign(1.0, dividend) < 0
    sign = -1.0 if negative else 1.0
    if math.isnan(dividend) or math.isnan(divisor):
        return None
    if divisor == 0 and dividend == 0 or math.isinf(divisor) and math.isinf(dividend):
        return None
    if divisor == 0 or math.isinf(dividend):
        return sign * math.inf
    if math.isinf(divisor) or dividend == 0:
        return sign * 0.0
    if form is not None:
        gap = math.frexp(dividend)[1] - math.frexp(divisor)[1]
        if gap > form.max_exponent + 1:
            return sign * math.inf
        if gap < form.min_exponent - form.mantissa - 2:
            return sign * 0.0
    return math.copysign(abs(quotient), sign)


# ------------------------------------------------------------------- instructions
def _binary64(function):
    def run(machine, inst):
        a, b = doubles(machine, inst, 2)
        with np.errstate(all="ignore"):
            put_double(machine, inst, function(a, b))
    return run


def _compare(condition: str, kind: str):
    tests = {"eq": np.equal, "neq": lambda a, b: ~np.equal(a, b), "ne": np.not_equal, "lt": np.less,
             "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal, "u": lambda a, b: np.isnan(a) | np.isnan(b),
             "lg": lambda a, b: np.less(a, b) | np.greater(a, b), "o": lambda a, b: ~(np.isnan(a) | np.isnan(b))}

    def run(machine, inst):
        if kind == "f64":
            a, b = doubles(machine, inst, 2)
        elif kind == "f16":
            a, b = halves(machine, inst, 2)
        else:
            a, b = (read64(machine, op) for op in inst.uses[:2])
            if kind == "i64":
                a, b = a.view(np.int64), b.view(np.int64)
        machine.write_mask(inst.defs[0], tests[condition](a, b) & machine.exec)
    return run


def _fma64(machine, inst):
    a, b, c = doubles(machine, inst, 3)
    put_double(machine, inst, fused_multiply_add(a, b, c))


def _div_scale(form: Format):
    def run(machine, inst):
        sources = doubles(machine, inst, 3) if form is F64 else singles(machine, inst, 3)
        pairs = [div_scale(form, float(x), float(y), float(z)) for x, y, z in zip(*sources)]
        values = np.array([value for value, _ in pairs], dtype=form.dtype)
        if form is F64:
            put_double(machine, inst, values)
        else:
            put_word(machine, inst, values.view(np.uint32))
        flags = np.array([flag for _, flag in pairs], dtype=bool) & machine.exec
        if isinstance(inst.defs[1], Special):
            machine.vcc_lanes = flags
        else:
            machine.write_mask(inst.defs[1], flags)
    return run


def _div_fmas(form: Format):
    def run(machine, inst):
        sources = doubles(machine, inst, 3) if form is F64 else singles(machine, inst, 3)
        vcc = getattr(machine, "vcc_lanes", np.zeros(machine.wave, dtype=bool))
        values = np.array([div_fmas(form, float(x), float(y), float(z), bool(v)) for x, y, z, v in zip(*sources, vcc)],
                          dtype=form.dtype)
        if form is F64:
            put_double(machine, inst, values)
        else:
            put_word(machine, inst, values.view(np.uint32))
    return run


def _div_fixup64(machine, inst):
    q, d, n = doubles(machine, inst, 3)
    fixed = [div_fixup(float(x), float(y), float(z), F64) for x, y, z in zip(q, d, n)]
    bits = [QUIET_NAN64 if value is None else int(np.float64(value).view(np.uint64)) for value in fixed]
    write64(machine, inst.defs[0], np.array(bits, dtype=np.uint64))


def _div_fixup32(machine, inst):
    q, d, n = singles(machine, inst, 3)
    fixed = [div_fixup(float(x), float(y), float(z), F32) for x, y, z in zip(q, d, n)]
    bits = [0x7FC00000 if value is None else int(np.float32(value).view(np.uint32)) for value in fixed]
    put_word(machine, inst, np.array(bits, dtype=np.uint32))


def _div_fixup16(machine, inst):
    q, d, n = halves(machine, inst, 3)
    fixed = [div_fixup(float(x), float(y), float(z)) for x, y, z in zip(q, d, n)]
    bits = [QUIET_NAN16 if value is None else int(np.float16(value).view(np.uint16)) for value in fixed]
    put_word(machine, inst, np.array(bits, dtype=np.uint32))


def _shift64(kind: str):
    def run(machine, inst):
        amount = (machine.vector(inst.uses[0]).astype(np.uint64) & np.uint64(63))
        value = read64(machine, inst.uses[1])
        if kind == "lshl":
            result = value << amount
        elif kind == "lshr":
            result = value >> amount
        else:
            result = (value.view(np.int64) >> amount.astype(np.int64)).view(np.uint64)
        write64(machine, inst.defs[0], result)
    return run


def _carry(subtract: bool, with_carry: bool):
    """v_add_co_u32 / v_add_co_ci_u32 (and sub): a 32-bit sum and its carry (borrow) as a lane mask."""
    def run(machine, inst):
        a = machine.vector(inst.uses[0]).astype(np.int64)
        b = machine.vector(inst.uses[1]).astype(np.int64)
        carry_in = machine.read_mask(inst.uses[2]).astype(np.int64) if with_carry else 0
        total = a - b - carry_in if subtract else a + b + carry_in
        put_word(machine, inst, (total & 0xFFFFFFFF).astype(np.uint32))
        machine.write_mask(inst.defs[1], ((total < 0) if subtract else (total > 0xFFFFFFFF)) & machine.exec)
    return run


def _leading(signed: bool):
    def run(machine, inst):
        values = machine.vector(inst.uses[0]).astype(np.uint32)
        out = []
        for value in values.tolist():
            if signed and value & 0x80000000:
                value = ~value & 0xFFFFFFFF
            out.append(0xFFFFFFFF if value == 0 else 32 - value.bit_length())  # the sign bit counts
        put_word(machine, inst, np.array(out, dtype=np.uint32))
    return run


def _from_double(convert, put=put_word):
    """An instruction of one double source: ``convert`` of it, written by ``put`` (a word, or
    with ``put_double`` a double)."""
    def run(machine, inst):
        (a,) = doubles(machine, inst, 1)
        with np.errstate(all="ignore"):
            put(machine, inst, convert(a))
    return run


def _to_double(convert):
    def run(machine, inst):
        with np.errstate(all="ignore"):
            put_double(machine, inst, convert(machine.vector(inst.uses[0]).astype(np.uint32)))
    return run


def _unary64(function):
    return _from_double(function, put_double)


def _bit_field(value: np.ndarray, offset: np.ndarray, width: np.ndarray) -> np.ndarray:
    """``v_bfe_u32``: ``width`` bits of ``value`` from bit ``offset`` (both taken mod 32)."""
    offset, width = offset.astype(np.uint64) & np.uint64(31), width.astype(np.uint64) & np.uint64(31)
    return (value.astype(np.uint64) >> offset) & ((np.uint64(1) << width) - np.uint64(1))


def _ldexp(machine, inst):
    amount = machine.vector(inst.uses[1]).view(np.int32).astype(np.int64)
    if inst.mnemonic == "v_ldexp_f64":
        (a,) = doubles(machine, inst, 1)
        put_double(machine, inst, [math.ldexp(float(x), int(k)) if math.isfinite(x) else x for x, k in zip(a, amount)])
        return
    (a,) = singles(machine, inst, 1)
    with np.errstate(all="ignore"):
        put_word(machine, inst, np.ldexp(a, np.clip(amount, -400, 400).astype(np.int32)).astype(np.float32)
                 .view(np.uint32))


def _saturating_int(low: int, high: int, dtype):
    def convert(values):
        finite = np.nan_to_num(np.trunc(values), nan=0.0)
        return np.clip(finite, low, high).astype(np.int64).astype(dtype).view(np.uint32)
    return convert


HANDLERS = {
    "v_add_f64": _binary64(np.add), "v_mul_f64": _binary64(np.multiply),
    "v_min_f64": _binary64(np.fmin), "v_max_f64": _binary64(np.fmax),
    "v_fma_f64": _fma64,
    "v_div_scale_f64": _div_scale(F64), "v_div_fmas_f64": _div_fmas(F64),
    "v_div_scale_f32": _div_scale(F32), "v_div_fmas_f32": _div_fmas(F32),
    "v_div_fixup_f64": _div_fixup64, "v_div_fixup_f32": _div_fixup32, "v_div_fixup_f16": _div_fixup16,
    "v_rcp_f64": _unary64(lambda a: np.float64(1.0) / a),
    "v_trunc_f64": _unary64(np.trunc), "v_floor_f64": _unary64(np.floor),
    "v_ldexp_f64": _ldexp, "v_ldexp_f32": _ldexp,
    "v_cvt_f32_f64": _from_double(lambda a: a.astype(np.float32).view(np.uint32)),
    "v_cvt_i32_f64": _from_double(_saturating_int(-2 ** 31, 2 ** 31 - 1, np.int32)),
    "v_cvt_u32_f64": _from_double(_saturating_int(0, 2 ** 32 - 1, np.uint32)),
    "v_cvt_f64_f32": _to_double(lambda w: w.view(np.float32).astype(np.float64)),
    "v_cvt_f64_i32": _to_double(lambda w: w.view(np.int32).astype(np.float64)),
    "v_cvt_f64_u32": _to_double(lambda w: w.astype(np.float64)),
    "v_cvt_u32_f32": lambda machine, inst: put_word(machine, inst, _saturating_int(0, 2 ** 32 - 1, np.uint32)(
        singles(machine, inst, 1)[0].astype(np.float64))),
    "v_cvt_i32_f32": lambda machine, inst: put_word(machine, inst, _saturating_int(-2 ** 31, 2 ** 31 - 1, np.int32)(
        singles(machine, inst, 1)[0].astype(np.float64))),
    "v_lshlrev_b64": _shift64("lshl"), "v_lshrrev_b64": _shift64("lshr"), "v_ashrrev_i64": _shift64("ashr"),
    "v_add_co_u32": _carry(False, False), "v_add_co_ci_u32": _carry(False, True),
    "v_sub_co_u32": _carry(True, False), "v_sub_co_ci_u32": _carry(True, True),
    "v_ffbh_u32": _leading(False), "v_ffbh_i32": _leading(True),
    "v_ffbl_b32": lambda machine, inst: put_word(machine, inst, [
        (word & -word).bit_length() - 1 if word else 0xFFFFFFFF for word in machine.vector(inst.uses[0]).tolist()]),
    "v_bfrev_b32": lambda machine, inst: put_word(machine, inst, [
        int(f"{word:032b}"[::-1], 2) for word in machine.vector(inst.uses[0]).tolist()]),
    "v_bfe_u32": lambda machine, inst: put_word(machine, inst, _bit_field(*(machine.vector(op) for op in inst.uses))),
    "v_add3_u32": lambda machine, inst: put_word(
        machine, inst, sum(machine.vector(op).astype(np.uint64) for op in inst.uses) & np.uint64(0xFFFFFFFF)),
}
for _condition in ("eq", "neq", "ne", "lt", "le", "gt", "ge", "u", "lg", "o"):
    HANDLERS[f"v_cmp_{_condition}_f64"] = _compare(_condition, "f64")
    HANDLERS[f"v_cmp_{_condition}_f16"] = _compare(_condition, "f16")
for _condition in ("eq", "ne", "lt", "le", "gt", "ge"):
    HANDLERS[f"v_cmp_{_condition}_i64"] = _compare(_condition, "i64")
    HANDLERS[f"v_cmp_{_condition}_u64"] = _compare(_condition, "u64")
HANDLERS.update(narrow.HANDLERS)
HANDLERS.update(merged.HANDLERS)
HANDLERS.update(bits.HANDLERS)


# ------------------------------------------------------------------- scalar 64-bit data
def _scalar64(machine, operand) -> int:
    if isinstance(operand, Imm):
        return int(np.float64(operand.value).view(np.uint64)) if isinstance(operand.value, float) \
            else int(operand.value) & MASK64
    return machine.read(operand) | (machine.read(operand, 1) << 32)


def _write_scalar64(machine, operand, value: int) -> None:
    machine.write_s(operand, value & 0xFFFFFFFF)
    machine.write_s(operand, (value >> 32) & 0xFFFFFFFF, 1)


def _scalar_data64(function, sets_scc: bool = True):
    """A 64-bit SALU op on data (in wave32 no lane mask is 64 bits wide)."""
    def run(machine, inst):
        value = function(machine, *(_scalar64(machine, op) if k == 0 or not inst.mnemonic.startswith(
            ("s_lsh", "s_ashr")) else machine.read(op) for k, op in enumerate(inst.uses))) & MASK64
        _write_scalar64(machine, inst.defs[0], value)
        if sets_scc:
            machine.scc = value != 0
    return run


def _carry_scalar(subtract: bool, with_carry: bool):
    """s_add_u32 / s_addc_u32 / s_sub_u32 / s_subb_u32: SCC is the carry (borrow) out, and in."""
    def run(machine, inst):
        a, b = (machine.read(op) for op in inst.uses)
        carry = int(machine.scc) if with_carry else 0
        total = a - b - carry if subtract else a + b + carry
        machine.write_s(inst.defs[0], total & 0xFFFFFFFF)
        machine.scc = total < 0 if subtract else total > 0xFFFFFFFF
    return run


def _signed32(value: int) -> int:
    return value - (1 << 32) if value >> 31 else value


def _signed64(value: int) -> int:
    return value - (1 << 64) if value >> 63 else value


SCALAR_HANDLERS = {
    "s_ashr_i64": _scalar_data64(lambda m, value, amount: _signed64(value) >> (amount & 63)),
    "s_add_u32": _carry_scalar(False, False), "s_addc_u32": _carry_scalar(False, True),
    "s_sub_u32": _carry_scalar(True, False), "s_subb_u32": _carry_scalar(True, True),
    "s_max_i32": lambda machine, inst: machine.write_s(
        inst.defs[0], max(_signed32(machine.read(inst.uses[0])), _signed32(machine.read(inst.uses[1])))),
    "s_min_i32": lambda machine, inst: machine.write_s(
        inst.defs[0], min(_signed32(machine.read(inst.uses[0])), _signed32(machine.read(inst.uses[1])))),
    "s_mul_hi_u32": lambda machine, inst: machine.write_s(
        inst.defs[0], (machine.read(inst.uses[0]) * machine.read(inst.uses[1])) >> 32),
}
SCALAR_HANDLERS.update(bits.SCALAR_HANDLERS)
WAVE32_SCALAR_HANDLERS = {  # 64-bit data ops, which wave64's lane-mask handling already covers
    "s_lshl_b64": _scalar_data64(lambda m, value, amount: value << (amount & 63)),
    "s_lshr_b64": _scalar_data64(lambda m, value, amount: value >> (amount & 63)),
    "s_and_b64": _scalar_data64(lambda m, a, b: a & b), "s_or_b64": _scalar_data64(lambda m, a, b: a | b),
    "s_xor_b64": _scalar_data64(lambda m, a, b: a ^ b), "s_not_b64": _scalar_data64(lambda m, a: ~a),
    "s_mov_b64": _scalar_data64(lambda m, a: a, sets_scc=False),
    "s_cselect_b64": _scalar_data64(lambda m, a, b: a if m.scc else b, sets_scc=False),
}


def execute_scalar(machine, inst: MInst) -> bool:
    """Run a scalar instruction on 64-bit data or with a carry; False leaves it to the caller."""
    handler = SCALAR_HANDLERS.get(inst.mnemonic)
    if handler is None and machine.wave == 32 and not any(isinstance(op, Special) for op in inst.defs + inst.uses):
        handler = WAVE32_SCALAR_HANDLERS.get(inst.mnemonic)
    if handler is None:
        return False
    handler(machine, inst)
    return True


def execute_with_first_source(machine, inst: MInst, values: np.ndarray) -> bool:
    """Run ``inst`` (no DPP) with its first source replaced by ``values`` per lane: the operand a
    DPP form read from other lanes. The values sit in the last VGPR for the instruction."""
    handler = HANDLERS.get(inst.mnemonic)
    if handler is None:
        return False
    spare = machine.v.shape[0] - 1
    saved = machine.v[spare].copy()
    machine.v[spare] = values
    register = VReg("v", 1, phys=spare)
    handler(machine, MInst(inst.mnemonic, inst.defs, [register, *inst.uses[1:]], "", inst.coord,
                           source_modifiers=inst.source_modifiers))
    if spare not in [machine.regs(target)[1] for target in inst.defs if not isinstance(target, Special)]:
        machine.v[spare] = saved
    return True


def execute(machine, inst: MInst) -> bool:
    """Run ``inst`` if it is one of this module's; False leaves it to the caller."""
    handler = HANDLERS.get(inst.mnemonic)
    if handler is None:
        return False
    handler(machine, inst)
    return True
