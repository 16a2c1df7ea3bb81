"""Selection of ``math``, ``bits``, division and remainder.

The transcendentals arrive as the primitives ``ir/lower/intrinsics_math.py`` leaves, each
one hardware instruction (``v_exp_f32``, ``v_log_f32``, ``v_rsq_f32``; ``v_sin_f32`` and
``v_cos_f32`` take turns, so their argument is first multiplied by f32(1/2pi), the machine
definition's scale). Integer division
has no instruction: by a power of two it is a shift or a mask, by another constant a
multiply-high with a magic number, and otherwise the reciprocal-refinement sequence
LLVM's AMDGPU back end emits (``v_rcp_iflag_f32``, ``v_mul_hi_u32``, two corrections); a
divisor that may be zero gives all ones (D3D's rule) through a final ``v_cndmask_b32``. Float
division is correctly rounded: f32 through ``isel_f64.f32_divide``, f16 through the f32
reciprocal and ``v_div_fixup_f16``. Packed 16-bit results are computed a half at a time.
Uniform results computed this way on the vector unit come back with ``v_readfirstlane_b32``.
"""

from __future__ import annotations

import math

from ...ir.core import Inst
from ...ir.ops import Op
from ...machine.turns import INV_TWO_PI
from .isel_tables import SALU_BITS, VALU_BITS, VALU_MATH
from .isel_values import components, element, half_bits, is_packed, type_class
from .machine import Imm


def fconst(value: float, tc: str) -> Imm:
    """A float constant for an instruction of class ``tc``: f16 literals are 16-bit patterns."""
    if tc == "f16" and float(value) not in (0.0, 0.5, 1.0, 2.0, 4.0, -0.5, -1.0, -2.0, -4.0):
        return Imm(half_bits(float(value)))
    return Imm(float(value))


class MathSelection:
    """Mixin for ``Selector``: math functions, bit functions, division."""

    def select_math(self, inst: Inst) -> None:
        fn = inst.attrs["fn"]
        scalar = element(inst.operands[0].type if fn in ("isnan", "isinf", "isfinite", "sign") else inst.type)
        tc = type_class(scalar)
        if tc == "f64":
            self.select_math_f64(inst)
            return
        if is_packed(inst.type, "v") and self.bank(inst) == "v":  # one half at a time, packed again
            self.per_component_packed(inst, lambda target, index: self.math_component(
                fn, tc, target, [self.component(operand, index) for operand in inst.operands]))
            return
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            self.math_component(fn, tc, target, [self.component(operand, index) for operand in inst.operands])

    def math_component(self, fn: str, tc: str, target, args: list) -> None:
        direct = VALU_MATH.get((fn, tc))
        if direct is not None:
            self.valu(direct, [target], args)
            return
        handler = getattr(self, f"math_{fn}", None)
        if handler is None or (tc not in ("f32", "f16") and fn != "sign"):
            self.fail(f"'{fn}' on {tc} values")
        handler(target, args, tc)

    def per_component_packed(self, inst: Inst, compute) -> None:
        """A packed 16-bit result computed component by component (``compute(target, index)``)
        and packed two to a register again."""
        results = []
        for index in range(components(inst.type)):
            results.append(self.vreg("v"))
            compute(results[-1], index)
        out = self.result(inst)
        is_float = element(inst.type).kind == "float"
        for index, target in enumerate(out.parts):
            pair = results[2 * index:2 * index + 2]
            if len(pair) == 1:
                self.emit("v_mov_b32", [target], pair)
            elif is_float:
                self.valu("v_pack_b32_f16", [target], pair)
            else:
                low = self.vreg("v")
                self.valu("v_and_b32", [low], [Imm(0xFFFF), pair[0]])
                self.valu("v_lshl_or_b32", [target], [pair[1], Imm(16), low])

    # each math_<fn>(target, args, tc) writes one component
    def math_sin(self, target, args, tc):
        turns = self.vreg("v")
        self.valu(f"v_mul_{tc}", [turns], [fconst(float(INV_TWO_PI), tc), args[0]])
        self.valu(f"v_sin_{tc}", [target], [turns])

    def math_cos(self, target, args, tc):
        turns = self.vreg("v")
        self.valu(f"v_mul_{tc}", [turns], [fconst(float(INV_TWO_PI), tc), args[0]])
        self.valu(f"v_cos_{tc}", [target], [turns])

    def math_saturate(self, target, args, tc):
        self.valu(f"v_max_{tc}", [target], [args[0], args[0]], "clamp")

    def math_sign(self, target, args, tc):
        if tc in ("i32", "i16", "u32", "u16"):
            value, scalar = args[0], self.is_sgpr(target)
            if tc.endswith("16"):  # a 16-bit value's upper bits are undefined: extend it first
                value = self.vreg("s" if scalar else "v")
                if scalar:
                    self.salu("s_sext_i32_i16" if tc == "i16" else "s_and_b32", [value],
                              [args[0]] if tc == "i16" else [args[0], Imm(0xFFFF)])
                else:
                    self.valu("v_bfe_i32" if tc == "i16" else "v_bfe_u32", [value], [args[0], Imm(0), Imm(16)])
            if tc.startswith("u") and scalar:  # 0 or 1
                self.salu("s_min_u32", [target], [value, Imm(1)])
            elif tc.startswith("u"):
                self.valu("v_min_u32", [target], [value, Imm(1)])
            elif scalar:
                bounded = self.vreg("s")
                self.salu("s_max_i32", [bounded], [value, Imm(-1)])
                self.salu("s_min_i32", [target], [bounded, Imm(1)])
            else:
                self.valu("v_med3_i32", [target], [value, Imm(-1), Imm(1)])
            return
        positive, negative = self.mask_reg(), self.mask_reg()
        step = self.vreg("v")
        self.valu(f"v_cmp_lt_{tc}", [positive], [Imm(0.0), args[0]])
        self.valu("v_cndmask_b32", [step], [Imm(0), Imm(1), positive])
        self.valu(f"v_cmp_gt_{tc}", [negative], [Imm(0.0), args[0]])
        self.valu("v_cndmask_b32", [target], [step, Imm(-1), negative])

    def math_isnan(self, target, args, tc):
        self.valu(f"v_cmp_u_{tc}", [target], [args[0], args[0]])

    def math_isinf(self, target, args, tc):
        self.valu(f"v_cmp_class_{tc}", [target], [args[0], Imm(0x204)])

    def math_isfinite(self, target, args, tc):
        self.valu(f"v_cmp_class_{tc}", [target], [args[0], Imm(0x1F8)])

    def math_fmod(self, target, args, tc):
        inverse, quotient, whole, product, difference = (self.vreg("v") for _ in range(5))
        self.valu(f"v_rcp_{tc}", [inverse], [args[1]])
        self.valu(f"v_mul_{tc}", [quotient], [args[0], inverse])
        self.valu(f"v_trunc_{tc}", [whole], [quotient])
        self.valu(f"v_mul_{tc}", [product], [whole, args[1]])
        self.valu(f"v_sub_{tc}", [difference], [args[0], product])
        # a zero result takes the sign of x (D3D): -0 - -0 is +0, and a negative denormal x reads as -0
        sign, zero = self.vreg("v"), self.mask_reg()
        self.valu("v_and_b32", [sign], [Imm(0x8000 if tc == "f16" else 0x80000000), args[0]])
        self.valu(f"v_cmp_eq_{tc}", [zero], [Imm(0.0), difference])
        self.valu("v_cndmask_b32", [target], [difference, sign, zero])

    def math_smoothstep(self, target, args, tc):
        low, high, x = args
        offset, span, inverse, t, cubic, square = (self.vreg("v") for _ in range(6))
        self.valu(f"v_sub_{tc}", [offset], [x, low])
        self.valu(f"v_sub_{tc}", [span], [high, low])
        self.valu(f"v_rcp_{tc}", [inverse], [span])
        self.valu(f"v_mul_{tc}", [t], [offset, inverse], "clamp")
        self.valu(f"v_fma_{tc}", [cubic], [Imm(-2.0), t, fconst(3.0, tc)])
        self.valu(f"v_mul_{tc}", [square], [t, t])
        self.valu(f"v_mul_{tc}", [target], [square, cubic])

    # ------------------------------------------------------------------ bits
    def select_bits(self, inst: Inst) -> None:
        fn = inst.attrs["fn"]
        source = element(inst.operands[0].type)
        signed = source.kind == "int"
        if is_packed(inst.type, "v") and self.bank(inst) == "v":  # one half at a time, packed again
            self.per_component_packed(inst, lambda target, index: self.bits16(
                fn, signed, target, self.component(inst.operands[0], index), "v"))
            return
        out = self.result(inst)
        wide = source.bits == 64
        for index, target in enumerate(out.parts):
            value = self.component(inst.operands[0], index)
            if source.bits == 16:
                self.bits16(fn, signed, target, value, out.bank)
            elif wide:
                result = self.bits64(fn, signed, value)
                for half in range(self.width(target)):  # back to SGPRs when uniform
                    word = self.half_of(target, half)
                    if out.bank == "s":
                        self.emit("v_readfirstlane_b32", [word], [self.half_of(result, half)])
                    else:
                        self.emit("v_mov_b32", [word], [self.half_of(result, half)])
            elif fn == "firstbithigh":
                self.first_bit_high(target, value, signed, out.bank)
            elif out.bank == "s":
                self.salu(SALU_BITS[fn], [target], [value])
            elif fn == "countbits":
                self.valu(VALU_BITS[fn], [target], [value, Imm(0)])
            else:
                self.valu(VALU_BITS[fn], [target], [value])

    def bits16(self, fn: str, signed: bool, target, value, bank: str) -> None:
        """A bit function of a 16-bit value: widened to 32 bits (sign-extended only where
        firstbithigh looks for the sign), a reversal shifted back down."""
        kind = "i" if signed and fn == "firstbithigh" else "u"
        wide = self.convert_integer(f"{kind}16", f"{kind}32", value, bank)
        if fn == "firstbithigh":
            self.first_bit_high(target, wide, signed, bank)
            return
        if fn != "reversebits":
            if bank == "s":
                self.salu(SALU_BITS[fn], [target], [wide])
            else:
                self.valu(VALU_BITS[fn], [target], [wide, Imm(0)] if fn == "countbits" else [wide])
            return
        reversed_bits = self.vreg(bank)
        if bank == "s":
            self.salu(SALU_BITS[fn], [reversed_bits], [wide])
            self.salu("s_lshr_b32", [target], [reversed_bits, Imm(16)])
        else:
            self.valu(VALU_BITS[fn], [reversed_bits], [wide])
            self.valu("v_lshrrev_b32", [target], [Imm(16), reversed_bits])

    def first_bit_high(self, target, value, signed: bool, bank: str) -> None:
        """HLSL counts from bit 0; the hardware counts leading bits (-1 when none is found)."""
        leading = self.vreg(bank)
        index = self.vreg(bank)
        if bank == "s":
            self.salu("s_flbit_i32" if signed else "s_flbit_i32_b32", [leading], [value])
            self.salu("s_sub_i32", [index], [Imm(31), leading])
            self.salu("s_cmp_lg_u32", [], [leading, Imm(-1)])
            self.salu("s_cselect_b32", [target], [index, Imm(-1)])
            return
        found = self.mask_reg()
        self.valu("v_ffbh_i32" if signed else "v_ffbh_u32", [leading], [value])
        self.valu("v_sub_nc_u32", [index], [Imm(31), leading])
        self.valu("v_cmp_ne_u32", [found], [Imm(-1), leading])
        self.valu("v_cndmask_b32", [target], [Imm(-1), index, found])

    # -------------------------------------------------------------- division
    def select_divide(self, inst: Inst) -> None:
        scalar = element(inst.type)
        tc = type_class(scalar)
        numerator, denominator = inst.operands
        if tc == "f64":
            self.select_divide_f64(inst)
            return
        if is_packed(inst.type, "v") and self.bank(inst) == "v":  # one half at a time, packed again
            self.per_component_packed(inst, lambda target, index: self.divide_component(
                inst, target, self.component(numerator, index), self.component(denominator, index)))
            return
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            self.divide_component(inst, target, self.component(numerator, index), self.component(denominator, index),
                                  out.bank)

    def divide_component(self, inst: Inst, target, a, b, bank: str = "v") -> None:
        """One component of a division or remainder."""
        scalar = element(inst.type)
        tc = type_class(scalar)
        remainder = inst.op is Op.REM
        if scalar.kind != "float" and scalar.bits == 64:
            result = self.vreg("v", 2) if bank == "s" else target
            self.divide64(remainder, scalar.kind == "int", result, a, b)
            for half in range(2 if bank == "s" else 0):  # a uniform result back in SGPRs
                self.emit("v_readfirstlane_b32", [target.part(half)], [result.part(half)])
        elif scalar.kind != "float":
            divide = self.divide16 if scalar.bits == 16 else self.integer_divide
            divide(remainder, scalar.kind == "int", target, a, b, bank)
        elif remainder:
            self.math_fmod(target, [a, b], tc)
        elif tc == "f16":
            self.divide_half(target, a, b)
        else:
            self.f32_divide(target, a, b)

    def divide_half(self, target, numerator, denominator) -> None:
        """LLVM's f16 division: the f32 quotient through the f32 reciprocal, rounded to f16 and
        fixed up for zeros, infinities and NaNs (``v_div_fixup_f16``)."""
        wide_n, wide_d, inverse, quotient, rounded = (self.vreg("v") for _ in range(5))
        self.valu("v_cvt_f32_f16", [wide_n], [numerator])
        self.valu("v_cvt_f32_f16", [wide_d], [denominator])
        self.valu("v_rcp_f32", [inverse], [wide_d])
        self.valu("v_mul_f32", [quotient], [wide_n, inverse])
        self.valu("v_cvt_f16_f32", [rounded], [quotient])
        self.valu("v_div_fixup_f16", [target], [rounded, denominator, numerator])

    def integer_divide(self, remainder: bool, signed: bool, target, a, b, bank: str) -> None:
        shift = None
        if isinstance(b, Imm) and isinstance(b.value, int) and b.value > 0 and b.value & (b.value - 1) == 0:
            shift = b.value.bit_length() - 1
        if shift is not None and not signed:
            if bank == "s":
                self.salu("s_and_b32" if remainder else "s_lshr_b32", [target],
                          [a, Imm(b.value - 1)] if remainder else [a, Imm(shift)])
            elif remainder:
                self.valu("v_and_b32", [target], [Imm(b.value - 1), a])
            else:
                self.valu("v_lshrrev_b32", [target], [Imm(shift), a])
            return
        maybe_zero = not (isinstance(b, Imm) and int(b.value) != 0)
        result = self.vreg("v") if bank == "s" or maybe_zero else target
        if signed:
            self.signed_divide(remainder, result, a, b)
        elif isinstance(b, Imm) and isinstance(b.value, int) and b.value > 0 and not remainder:
            self.divide_by_constant(result, a, b.value)
        else:
            self.unsigned_divide(remainder, result, a, b)
        if maybe_zero:  # D3D: a quotient or remainder by zero is all ones
            zero = self.mask_reg()
            checked = self.vreg("v") if bank == "s" else target
            self.valu("v_cmp_eq_u32", [zero], [Imm(0), b])
            self.valu("v_cndmask_b32", [checked], [result, Imm(-1), zero])
            result = checked
        if bank == "s":
            self.emit("v_readfirstlane_b32", [target], [result])

    def divide_by_constant(self, target, numerator, divisor: int) -> None:
        """q = mulhi(n, m) >> s with m = ceil(2^(32+s) / d), or the 33-bit variant (Granlund-Montgomery)."""
        s = math.ceil(math.log2(divisor))
        magic = (1 << (32 + s)) // divisor + 1
        high = self.vreg("v")
        if magic < (1 << 32):
            self.valu("v_mul_hi_u32", [high], [numerator, Imm(magic)])
            self.valu("v_lshrrev_b32", [target], [Imm(s), high])
            return
        difference, half, total = self.vreg("v"), self.vreg("v"), self.vreg("v")
        self.valu("v_mul_hi_u32", [high], [numerator, Imm(magic - (1 << 32))])
        self.valu("v_sub_nc_u32", [difference], [numerator, high])
        self.valu("v_lshrrev_b32", [half], [Imm(1), difference])
        self.valu("v_add_nc_u32", [total], [half, high])
        self.valu("v_lshrrev_b32", [target], [Imm(s - 1), total])

    def unsigned_divide(self, remainder: bool, target, numerator, denominator) -> None:
        """LLVM's expansion of udiv/urem on gfx10: a float reciprocal refined to an exact quotient."""
        r = [self.vreg("v") for _ in range(12)]
        fix1, fix2 = self.mask_reg(), self.mask_reg()
        self.valu("v_cvt_f32_u32", [r[0]], [denominator])
        self.valu("v_rcp_iflag_f32", [r[0]], [r[0]])
        self.valu("v_mul_f32", [r[0]], [Imm(0x4F7FFFFE), r[0]])
        self.valu("v_cvt_u32_f32", [r[0]], [r[0]])
        self.valu("v_sub_nc_u32", [r[1]], [Imm(0), denominator])
        self.valu("v_mul_lo_u32", [r[1]], [r[1], r[0]])
        self.valu("v_mul_hi_u32", [r[1]], [r[0], r[1]])
        self.valu("v_add_nc_u32", [r[0]], [r[0], r[1]])
        self.valu("v_mul_hi_u32", [r[2]], [numerator, r[0]])
        self.valu("v_mul_lo_u32", [r[3]], [r[2], denominator])
        self.valu("v_sub_nc_u32", [r[4]], [numerator, r[3]])
        self.valu("v_add_nc_u32", [r[5]], [Imm(1), r[2]])
        self.valu("v_sub_nc_u32", [r[6]], [r[4], denominator])
        self.valu("v_cmp_le_u32", [fix1], [denominator, r[4]])
        self.valu("v_cndmask_b32", [r[2]], [r[2], r[5], fix1])
        self.valu("v_cndmask_b32", [r[4]], [r[4], r[6], fix1])
        self.valu("v_cmp_le_u32", [fix2], [denominator, r[4]])
        if remainder:
            self.valu("v_sub_nc_u32", [r[7]], [r[4], denominator])
            self.valu("v_cndmask_b32", [target], [r[4], r[7], fix2])
        else:
            self.valu("v_add_nc_u32", [r[7]], [Imm(1), r[2]])
            self.valu("v_cndmask_b32", [target], [r[2], r[7], fix2])

    def signed_divide(self, remainder: bool, target, numerator, denominator) -> None:
        """|n| / |d| unsigned, then the sign: the quotient's is n ^ d, the remainder's n's."""
        sign_n, sign_d, abs_n, abs_d, unsigned, sign, flipped = (self.vreg("v") for _ in range(7))
        self.valu("v_ashrrev_i32", [sign_n], [Imm(31), numerator])
        self.valu("v_ashrrev_i32", [sign_d], [Imm(31), denominator])
        self.valu("v_add_nc_u32", [abs_n], [numerator, sign_n])
        self.valu("v_xor_b32", [abs_n], [abs_n, sign_n])
        self.valu("v_add_nc_u32", [abs_d], [denominator, sign_d])
        self.valu("v_xor_b32", [abs_d], [abs_d, sign_d])
        self.unsigned_divide(remainder, unsigned, abs_n, abs_d)
        if remainder:
            sign = sign_n
        else:
            self.valu("v_xor_b32", [sign], [sign_n, sign_d])
        self.valu("v_xor_b32", [flipped], [unsigned, sign])
        self.valu("v_sub_nc_u32", [target], [flipped, sign])
