"""Selection of double-precision arithmetic, comparisons, division and conversions.

gfx10 computes doubles on the vector unit only, a value in a VGPR pair: ``v_add_f64``
(subtraction is an addition with the second source negated), ``v_mul_f64``,
``v_fma_f64``, ``v_min_f64`` / ``v_max_f64`` and ``v_cmp_*_f64``. Negation and absolute
value fold into their users as VOP3 source modifiers (``-v[2:3]``, ``|v[2:3]|``) when
every user can take them, as LLVM's AMDGPU back end folds ``fneg``/``fabs``; otherwise
they flip or clear the sign bit of the high dword. A double constant that is not one of
the inline values (0, +-0.5, +-1, +-2, +-4) is built in an SGPR pair.

Division is LLVM's correctly rounded expansion: ``v_div_scale_f64`` scales the divisor
and the dividend away from overflow and underflow (the second writes VCC),
``v_rcp_f64`` gives a first reciprocal, two Newton steps (``v_fma_f64``) refine it,
``v_div_fmas_f64`` applies the last correction (reading VCC) and ``v_div_fixup_f64``
produces infinities, zeros and NaNs; f32 division is the same sequence in f32 (one reciprocal
step, two quotient steps), and ``%`` on doubles is LLVM's x - trunc(x / y) * y. Conversions use ``v_cvt_*_f64``; 64-bit integers
split into halves (``v_cvt_f64_u32`` of the low word plus the high word scaled by
``v_ldexp_f64``, and back through ``v_trunc_f64``/``v_floor_f64``/``v_fma_f64``).
"""

from __future__ import annotations

import struct

from ...ir.core import Inst
from ...ir.ops import Op
from .isel_tables import FLOAT_CONDITION, SWAPPED_CONDITION
from .isel_values import components, element, is_packed, type_class
from .machine import Imm

F64_BINARY = {Op.ADD: "v_add_f64", Op.SUB: "v_add_f64", Op.MUL: "v_mul_f64", Op.MIN: "v_min_f64",
              Op.MAX: "v_max_f64"}
# Users that read a double through VOP3 source modifiers (a folded neg/abs costs nothing).
MODIFIER_USERS = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.REM, Op.MIN, Op.MAX, Op.FMA, Op.EQ, Op.NE, Op.LT,
                            Op.LE, Op.GT, Op.GE})
def is_inline_float(operand: Imm) -> bool:
    return isinstance(operand.value, float) and operand.value in INLINE_DOUBLES


INLINE_DOUBLES = frozenset({0.0, 0.5, 1.0, 2.0, 4.0, -0.5, -1.0, -2.0, -4.0})
TWO_POW_32 = 4294967296.0
NO_MODIFIERS: frozenset[str] = frozenset()


def double_words(value: float) -> tuple[int, int]:
    """A double's (low, high) 32-bit words."""
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    return bits & 0xFFFFFFFF, bits >> 32


def is_double(inst: Inst) -> bool:
    scalar = element(inst.type)
    return scalar.kind == "float" and scalar.bits == 64


class DoubleSelection:
    """Mixin for ``Selector``: every operation on doubles."""

    # ------------------------------------------------------------- operands
    def folds_modifiers(self, inst: Inst) -> bool:
        """Whether a double neg/abs is read only by instructions that take source modifiers."""
        users = self.users.get(inst, [])
        return bool(users) and all(user.op in MODIFIER_USERS and "dpp" not in user.attrs
                                   and all(is_double(operand) for operand in user.operands) for user in users)

    def f64_source(self, inst: Inst, index: int) -> tuple[object, frozenset[str]]:
        """Component ``index`` of a double operand, looking through folded neg/abs: (operand, modifiers)."""
        if inst.op in (Op.NEG, Op.ABS) and inst not in self.values:
            operand, modifiers = self.f64_source(inst.operands[0], index)
            if inst.op is Op.ABS:
                return operand, frozenset({"abs"})
            return operand, modifiers ^ {"neg"}
        return self.component(inst, index), NO_MODIFIERS

    def f64_constant(self, value: float):
        """A non-inline double in an SGPR pair (an f64 literal could carry only its high word)."""
        low, high = double_words(value)
        pair = self.vreg("s", 2)
        self.emit("s_mov_b32", [pair.part(0)], [Imm(low)])
        self.emit("s_mov_b32", [pair.part(1)], [Imm(high)])
        return pair

    def f64_valu(self, mnemonic: str, defs: list, sources: list, modifiers: str = ""):
        """A VOP3 double instruction from (operand, source modifiers) pairs."""
        operands, applied = [], {}
        for index, (operand, mods) in enumerate(sources):
            if isinstance(operand, Imm):
                value = float(operand.value)
                value = abs(value) if "abs" in mods else value
                value = -value if "neg" in mods else value
                operand, mods = (Imm(value) if value in INLINE_DOUBLES else self.f64_constant(value)), NO_MODIFIERS
            operands.append(operand)
            if mods:
                applied[index] = frozenset(mods)
        inst = self.valu(mnemonic, defs, operands, modifiers, limit=1)
        inst.source_modifiers = applied
        return inst

    # ------------------------------------------------------------ arithmetic
    def select_binary_f64(self, inst: Inst) -> None:
        left, right = inst.operands
        mnemonic = F64_BINARY.get(inst.op)
        if mnemonic is None:
            self.fail(f"'{inst.op.value}' on double values")
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            a, b = self.f64_source(left, index), self.f64_source(right, index)
            if inst.op is Op.SUB:
                b = (b[0], b[1] ^ {"neg"})
            self.f64_valu(mnemonic, [target], [a, b])

    def select_unary_f64(self, inst: Inst) -> None:
        if inst.op is Op.NOT:
            self.fail("'not' on doubles")
        if self.folds_modifiers(inst):
            return  # every user reads the operand with a source modifier
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            value = self.component(inst.operands[0], index)
            if isinstance(value, Imm):
                result = -float(value.value) if inst.op is Op.NEG else abs(float(value.value))
                self.f64_move(target, Imm(result))
                continue
            self.emit("v_mov_b32", [target.part(0)], [self.half_of(value, 0)])
            if inst.op is Op.NEG:
                self.valu("v_xor_b32", [target.part(1)], [Imm(0x80000000), self.half_of(value, 1)])
            else:
                self.valu("v_and_b32", [target.part(1)], [Imm(0x7FFFFFFF), self.half_of(value, 1)])

    def f64_move(self, target, value) -> None:
        """A double into a VGPR pair (a constant word by word)."""
        if isinstance(value, Imm):
            for half, word in enumerate(double_words(float(value.value))):
                self.emit("v_mov_b32", [target.part(half)], [Imm(word - (1 << 32) if word >= 0xFFFFFFF0 else word)])
            return
        for half in (0, 1):
            self.emit("v_mov_b32", [target.part(half)], [self.half_of(value, half)])

    def select_fma_f64(self, inst: Inst) -> None:
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            sources = [self.f64_source(operand, index) for operand in inst.operands]
            self.f64_valu("v_fma_f64", [target], sources)

    def select_compare_f64(self, inst: Inst) -> None:
        left, right = inst.operands
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            a, b = self.f64_source(left, index), self.f64_source(right, index)
            op = inst.op
            if not self.is_vgpr(a[0]) and self.is_vgpr(b[0]):
                a, b, op = b, a, SWAPPED_CONDITION[op]
            self.f64_valu(f"v_cmp_{FLOAT_CONDITION[op]}_f64", [target], [a, b])

    def select_math_f64(self, inst: Inst) -> None:
        """The double forms DXC keeps: rcp (a division of 1), saturate (max with clamp), sign."""
        fn = inst.attrs["fn"]
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            value = self.f64_source(inst.operands[0], index)
            if fn == "rcp":
                self.f64_divide(target, (Imm(1.0), NO_MODIFIERS), value)
            elif fn == "saturate":
                self.f64_valu("v_max_f64", [target], [value, value], "clamp")
            elif fn == "sign":
                positive, negative, step = self.mask_reg(), self.mask_reg(), self.vreg("v")
                self.f64_valu("v_cmp_lt_f64", [positive], [(Imm(0.0), NO_MODIFIERS), value])
                self.valu("v_cndmask_b32", [step], [Imm(0), Imm(1), positive])
                self.f64_valu("v_cmp_gt_f64", [negative], [(Imm(0.0), NO_MODIFIERS), value])
                self.valu("v_cndmask_b32", [target], [step, Imm(-1), negative])
            else:
                self.fail(f"'{fn}' on double values")

    # -------------------------------------------------------------- division
    def select_divide_f64(self, inst: Inst) -> None:
        numerator, denominator = inst.operands
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            a, b = self.f64_source(numerator, index), self.f64_source(denominator, index)
            if inst.op is Op.DIV:
                self.f64_divide(target, a, b)
                continue
            quotient, whole = self.vreg("v", 2), self.vreg("v", 2)  # LLVM's frem: x - trunc(x / y) * y
            self.f64_divide(quotient, a, b)
            self.f64_valu("v_trunc_f64", [whole], [(quotient, NO_MODIFIERS)])
            self.f64_valu("v_fma_f64", [target], [(whole, frozenset({"neg"})), b, a])

    def f64_divide(self, target, numerator, denominator) -> None:
        """numerator / denominator, correctly rounded (LLVM's fdiv f64 expansion)."""
        num, den = (self.f64_register(value) for value in (numerator, denominator))  # (operand, modifiers)
        plain = NO_MODIFIERS
        scaled_den, inverse, error, scaled_num, quotient, residual = (self.vreg("v", 2) for _ in range(6))
        refined, error2, refined2 = self.vreg("v", 2), self.vreg("v", 2), self.vreg("v", 2)
        one = (Imm(1.0), plain)
        self.f64_valu("v_div_scale_f64", [scaled_den, self.mask_reg()], [den, den, num])
        self.f64_valu("v_rcp_f64", [inverse], [(scaled_den, plain)])
        self.f64_valu("v_fma_f64", [error], [(scaled_den, frozenset({"neg"})), (inverse, plain), one])
        self.f64_valu("v_fma_f64", [refined], [(inverse, plain), (error, plain), (inverse, plain)])
        self.f64_valu("v_fma_f64", [error2], [(scaled_den, frozenset({"neg"})), (refined, plain), one])
        self.f64_valu("v_fma_f64", [refined2], [(refined, plain), (error2, plain), (refined, plain)])
        self.f64_valu("v_div_scale_f64", [scaled_num, self.mf.vcc], [num, den, num])
        self.f64_valu("v_mul_f64", [quotient], [(scaled_num, plain), (refined2, plain)])
        self.f64_valu("v_fma_f64", [residual], [(scaled_den, frozenset({"neg"})), (quotient, plain),
                                                (scaled_num, plain)])
        fixed = self.vreg("v", 2)
        self.f64_valu("v_div_fmas_f64", [fixed], [(residual, plain), (refined2, plain), (quotient, plain)])
        self.f64_valu("v_div_fixup_f64", [target], [(fixed, plain), den, num])

    def f32_divide(self, target, numerator, denominator) -> None:
        """numerator / denominator in f32, correctly rounded (LLVM's fdiv float expansion): the
        scaled operands, the reciprocal refined once, the quotient refined twice."""
        num, den = (self.to_vgpr(value) if isinstance(value, Imm) and not is_inline_float(value) else value
                    for value in (numerator, denominator))
        scaled_den, scaled_num, inverse, error, quotient, residual, fixed = (self.vreg("v") for _ in range(7))
        negated = {0: frozenset({"neg"})}
        self.valu("v_div_scale_f32", [scaled_den, self.mask_reg()], [den, den, num])
        self.valu("v_div_scale_f32", [scaled_num, self.mf.vcc], [num, den, num])
        self.valu("v_rcp_f32", [inverse], [scaled_den])
        self.valu("v_fma_f32", [error], [scaled_den, inverse, Imm(1.0)]).source_modifiers = negated
        self.valu("v_fmac_f32", [inverse], [error, inverse])
        self.valu("v_mul_f32", [quotient], [scaled_num, inverse])
        self.valu("v_fma_f32", [residual], [scaled_den, quotient, scaled_num]).source_modifiers = negated
        self.valu("v_fmac_f32", [quotient], [residual, inverse])
        self.valu("v_fma_f32", [fixed], [scaled_den, quotient, scaled_num]).source_modifiers = negated
        self.valu("v_div_fmas_f32", [fixed], [fixed, inverse, quotient])
        self.valu("v_div_fixup_f32", [target], [fixed, den, num])

    def f64_register(self, source):
        """A division operand read three times: a constant once in registers (unless inline),
        a register with its source modifiers."""
        operand, mods = source
        if not isinstance(operand, Imm):
            return operand, mods
        value = abs(float(operand.value)) if "abs" in mods else float(operand.value)
        value = -value if "neg" in mods else value
        return (Imm(value) if value in INLINE_DOUBLES else self.f64_constant(value)), NO_MODIFIERS

    # ----------------------------------------------------------- conversions
    def select_convert_f64(self, inst: Inst) -> None:
        (operand,) = inst.operands
        frm, to = type_class(element(operand.type)), type_class(element(inst.type))
        if is_packed(inst.type, "v"):  # to 16-bit components: one at a time, packed again
            self.per_component_packed(inst, lambda target, index: self.convert_from_f64(
                to, target, self.component(operand, index)))
            return
        out = self.result(inst, "v") if to != "b" else self.result(inst)
        for index in range(components(inst.type)):
            target = out.parts[index]
            value = self.component(operand, index)
            if frm == to:
                self.f64_move(target, value)
            elif to == "f64":
                self.convert_to_f64(frm, target, value)
            else:
                self.convert_from_f64(to, target, value)

    def convert_to_f64(self, frm: str, target, value) -> None:
        if frm == "b":
            one_high = double_words(1.0)[1]
            self.emit("v_mov_b32", [target.part(0)], [Imm(0)])
            self.valu("v_cndmask_b32", [target.part(1)], [Imm(0), Imm(one_high), value])
        elif frm in ("f32", "i32", "u32"):
            self.valu(f"v_cvt_f64_{frm}", [target], [value])
        elif frm == "f16":
            self.valu("v_cvt_f64_f32", [target], [self.convert_one("f16", "f32", value, "v")])
        elif frm in ("i16", "u16"):
            wide = self.convert_integer(frm, frm[0] + "32", value, "v")
            self.valu(f"v_cvt_f64_{frm[0]}32", [target], [wide])
        elif frm in ("i64", "u64"):
            high, low, scaled = self.vreg("v", 2), self.vreg("v", 2), self.vreg("v", 2)
            self.valu(f"v_cvt_f64_{frm[0]}32", [high], [self.half_of(value, 1)])
            self.valu("v_cvt_f64_u32", [low], [self.half_of(value, 0)])
            self.valu("v_ldexp_f64", [scaled], [high, Imm(32)])
            self.f64_valu("v_add_f64", [target], [(scaled, NO_MODIFIERS), (low, NO_MODIFIERS)])
        else:
            self.fail(f"converting {frm} to f64")

    def convert_from_f64(self, to: str, target, value) -> None:
        if to == "b":
            self.f64_valu("v_cmp_neq_f64", [target], [(Imm(0.0), NO_MODIFIERS), (value, NO_MODIFIERS)])
        elif to in ("f32", "i32", "u32"):
            self.f64_valu(f"v_cvt_{to}_f64", [target], [(value, NO_MODIFIERS)])
        elif to == "f16":
            self.valu("v_cvt_f16_f32", [target], [self.f64_to_odd_f32(value)])
        elif to in ("i16", "u16"):
            self.f64_valu(f"v_cvt_{to[0]}32_f64", [target], [(value, NO_MODIFIERS)])
        elif to in ("i64", "u64"):
            self.f64_to_int64(to[0] == "i", target, value)
        else:
            self.fail(f"converting f64 to {to}")

    def f64_to_odd_f32(self, value):
        """The double as an f32 rounded to odd (toward zero, the last bit set when inexact), so
        that rounding it to f16 rounds the double once: f32 has more than 2 * 11 + 1 bits."""
        plain = NO_MODIFIERS
        nearest, toward_zero, odd, result = self.vreg("v"), self.vreg("v"), self.vreg("v"), self.vreg("v")
        back = self.vreg("v", 2)
        inexact, away = self.mask_reg(), self.mask_reg()
        self.f64_valu("v_cvt_f32_f64", [nearest], [(value, plain)])
        self.valu("v_cvt_f64_f32", [back], [nearest])
        self.f64_valu("v_cmp_lg_f64", [inexact], [(back, plain), (value, plain)])
        self.f64_valu("v_cmp_gt_f64", [away], [(back, frozenset({"abs"})), (value, frozenset({"abs"}))])
        self.valu("v_add_nc_u32", [toward_zero], [Imm(-1), nearest])
        self.valu("v_cndmask_b32", [toward_zero], [nearest, toward_zero, away])
        self.valu("v_or_b32", [odd], [Imm(1), toward_zero])
        self.valu("v_cndmask_b32", [result], [nearest, odd, inexact])
        return result

    def f64_to_int64(self, signed: bool, target, value) -> None:
        """trunc(x) = high * 2^32 + low: high = floor(trunc(x) * 2^-32), low = fma(high, -2^32, trunc(x))."""
        whole, scaled, high, low = (self.vreg("v", 2) for _ in range(4))
        plain = NO_MODIFIERS
        self.f64_valu("v_trunc_f64", [whole], [(value, plain)])
        self.f64_valu("v_mul_f64", [scaled], [(whole, plain), (Imm(1.0 / TWO_POW_32), plain)])
        self.f64_valu("v_floor_f64", [high], [(scaled, plain)])
        self.f64_valu("v_fma_f64", [low], [(high, plain), (Imm(-TWO_POW_32), plain), (whole, plain)])
        self.f64_valu(f"v_cvt_{'i' if signed else 'u'}32_f64", [target.part(1)], [(high, plain)])
        self.f64_valu("v_cvt_u32_f64", [target.part(0)], [(low, plain)])
