"""Selection of 64-bit integer arithmetic the tables lack (multiplication, min/max, shifts,
division, negation, bit functions, f32 conversions), and of 16-bit integer division.

A 64-bit integer is a register pair (low word first). What gfx10 lacks is built as LLVM's
AMDGPU back end builds it: a product from 32-bit halves (``v_mul_lo_u32`` of the low
words, ``v_mul_hi_u32`` for their carry, the two cross products added to the high word
with ``v_add3_u32``), min/max as a 64-bit comparison (``v_cmp_*_i64`` / ``u64``) choosing
each half with ``v_cndmask_b32``; on the scalar unit ``s_mul_hi_u32`` and a ``v_cmp``
whose active lanes agree, read through SCC into ``s_cselect_b64``. A shift takes its
amount from the low word. Conversions to f32 normalise the value with a 64-bit shift by
its leading zeros (``v_ffbh_u32``, or the leading sign bits for signed values) so the
high word holds the significant bits, fold the low word in as a sticky bit, convert that
word and scale back with ``v_ldexp_f32``; from f32 the value is truncated and split as
high = floor(x * 2^-32), low = x - high * 2^32 (exact in f32), signed values through
their magnitude. Division and remainder are LLVM's long division (the high word divided by
a 32-bit divisor when the divisor's high word is zero, then one quotient bit per step for the
low word), signed ones through magnitudes. The bit functions combine the halves' results.
Operand 0 of a DPP-combined 64-bit op moves word by word (``v_mov_b32_dpp``) first. 16-bit
division widens to 32 bits, where the quotient of any two 16-bit values is the same.
"""

from __future__ import annotations

from ...ir.core import Inst
from ...ir.ops import Op
from .isel_f64 import F64_BINARY
from .isel_values import element
from .isel_wave import dpp_modifiers
from .machine import Imm

TWO_POW_32 = 4294967296.0


def widened_constant(value: Imm, signed: bool) -> Imm:
    """A 16-bit constant as the 32-bit value its extension gives."""
    number = int(value.value) & 0xFFFF
    return Imm(number - 0x10000 if signed and number & 0x8000 else number)


class Int64Selection:
    """Mixin for ``Selector``: 64-bit integer operations the tables lack."""

    def select_binary_int64(self, inst: Inst) -> None:
        """mul, min, max and shifts of 64-bit integers (VGPR or SGPR pairs)."""
        left, right = inst.operands
        signed = element(inst.type).kind == "int"
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            a, b = self.component(left, index), self.component(right, index)
            if inst.op is Op.MUL:
                self.multiply64(target, a, b, out.bank)
            elif inst.op in (Op.MIN, Op.MAX):
                self.min_max64(inst.op, signed, target, a, b, out.bank)
            elif inst.op in (Op.SHL, Op.SHR):
                self.shift64(inst.op, signed, target, a, self.half_of(b, 0), out.bank)
            else:
                self.fail(f"64-bit '{inst.op.value}'")

    def select_dpp_wide(self, inst: Inst) -> None:
        """A 64-bit op whose operand 0 is read through DPP (after DPP combining): gfx10 has no
        DPP form of a 64-bit op, so each word moves with ``v_mov_b32_dpp`` first."""
        modifiers = dpp_modifiers(inst.attrs, "dpp")
        double = element(inst.type).kind == "float"
        signed = element(inst.type).kind == "int"
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            moved = self.vreg("v", 2)
            for half in (0, 1):
                source = self.to_vgpr(self.half_of(self.component(inst.operands[0], index), half))
                self.emit("v_mov_b32_dpp", [moved.part(half)], [source], modifiers)
            rest = [self.component(operand, index) for operand in inst.operands[1:]]
            if double:
                mnemonic = "v_fma_f64" if inst.op is Op.FMA else F64_BINARY[inst.op]
                sources = [(moved, frozenset())] + [(value, frozenset()) for value in rest]
                if inst.op is Op.SUB:
                    sources[1] = (rest[0], frozenset({"neg"}))
                self.f64_valu(mnemonic, [target], sources)
            elif inst.op in (Op.ADD, Op.SUB):
                self.add64(inst.op, target, moved, rest[0], "v")
            elif inst.op in (Op.MIN, Op.MAX):
                self.min_max64(inst.op, signed, target, moved, rest[0], "v")
            elif inst.op is Op.MUL:
                self.multiply64(target, moved, rest[0], "v")
            elif inst.op is Op.FMA:
                product = self.vreg("v", 2)
                self.multiply64(product, moved, rest[0], "v")
                self.add64(Op.ADD, target, product, rest[1], "v")
            elif inst.op in (Op.AND, Op.OR, Op.XOR):
                for half in (0, 1):
                    self.bitwise32(inst.op.value, target.part(half), [moved.part(half), self.half_of(rest[0], half)],
                                   "v")
            else:
                self.fail(f"DPP on 64-bit '{inst.op.value}'")

    def multiply64(self, target, a, b, bank: str) -> None:
        lo_a, hi_a, lo_b, hi_b = self.half_of(a, 0), self.half_of(a, 1), self.half_of(b, 0), self.half_of(b, 1)
        carry, cross1, cross2 = self.vreg(bank), self.vreg(bank), self.vreg(bank)
        if bank == "s":
            self.salu("s_mul_i32", [target.part(0)], [lo_a, lo_b])
            self.salu("s_mul_hi_u32", [carry], [lo_a, lo_b])
            self.salu("s_mul_i32", [cross1], [lo_a, hi_b])
            self.salu("s_mul_i32", [cross2], [hi_a, lo_b])
            partial = self.vreg("s")
            self.salu("s_add_i32", [partial], [carry, cross1])
            self.salu("s_add_i32", [target.part(1)], [partial, cross2])
            return
        self.valu("v_mul_lo_u32", [target.part(0)], [lo_a, lo_b])
        self.valu("v_mul_hi_u32", [carry], [lo_a, lo_b])
        self.valu("v_mul_lo_u32", [cross1], [lo_a, hi_b])
        self.valu("v_mul_lo_u32", [cross2], [hi_a, lo_b])
        self.valu("v_add3_u32", [target.part(1)], [carry, cross1, cross2])

    def min_max64(self, op: Op, signed: bool, target, a, b, bank: str) -> None:
        condition = "lt" if op is Op.MIN else "gt"
        chosen = self.mask_reg()
        self.valu(f"v_cmp_{condition}_{'i' if signed else 'u'}64", [chosen], [a, b], limit=1)
        if bank == "s":  # every active lane compared the same values
            self.test_mask(chosen)
            self.salu("s_cselect_b64", [target], [a, b])
            return
        for half in (0, 1):
            self.valu("v_cndmask_b32", [target.part(half)], [self.half_of(b, half), self.half_of(a, half), chosen])

    def shift64(self, op: Op, signed: bool, target, value, amount, bank: str) -> None:
        if bank == "s":
            name = "s_lshl_b64" if op is Op.SHL else ("s_ashr_i64" if signed else "s_lshr_b64")
            self.salu(name, [target], [value, amount])
            return
        name = "v_lshlrev_b64" if op is Op.SHL else ("v_ashrrev_i64" if signed else "v_lshrrev_b64")
        self.valu(name, [target], [amount, value], limit=1)

    def unary64(self, op: Op, target, value, bank: str) -> None:
        """-x, ~x and abs(x) = (x ^ s) - s with s = x >> 63, on a 64-bit integer."""
        if op is Op.NEG:
            self.add64(Op.SUB, target, Imm(0), value, bank)
            return
        if op is Op.NOT:
            for half in (0, 1):
                self.bitwise32("not", target.part(half), [self.half_of(value, half)], bank)
            return
        sign, flipped = self.vreg(bank, 2), self.vreg(bank, 2)
        self.shift64(Op.SHR, True, sign, value, Imm(63), bank)
        for half in (0, 1):
            self.bitwise32("xor", flipped.part(half), [self.half_of(value, half), sign.part(half)], bank)
        self.add64(Op.SUB, target, flipped, sign, bank)

    def bitwise32(self, name: str, target, sources: list, bank: str) -> None:
        if bank == "s":
            self.salu(f"s_{name}_b32", [target], sources)
        else:
            self.valu(f"v_{name}_b32", [target], sources)

    def add64(self, op: Op, target, a, b, bank: str) -> None:
        """A 64-bit sum or difference: the low words set the carry the high words take."""
        low = [self.half_of(a, 0), self.half_of(b, 0)]
        high = [self.half_of(a, 1), self.half_of(b, 1)]
        if bank == "s":
            stem = "s_add" if op is Op.ADD else "s_sub"
            self.salu(f"{stem}_u32", [target.part(0)], low)
            self.salu(f"{stem[:-3]}{'addc' if op is Op.ADD else 'subb'}_u32", [target.part(1)], high)
            return
        carry = self.mask_reg("carry")
        stem = "v_add" if op is Op.ADD else "v_sub"
        self.valu(f"{stem}_co_u32", [target.part(0), carry], low)
        self.valu(f"{stem}_co_ci_u32", [target.part(1), carry], high + [carry])

    def bits64(self, fn: str, signed: bool, value):
        """countbits, firstbitlow, firstbithigh (uint results) and reversebits of a 64-bit value, in VGPRs."""
        low, high = self.half_of(value, 0), self.half_of(value, 1)
        if fn == "reversebits":  # each word reversed, the words swapped
            result = self.vreg("v", 2)
            self.valu("v_bfrev_b32", [result.part(0)], [high])
            self.valu("v_bfrev_b32", [result.part(1)], [low])
            return result
        result, first, second = self.vreg("v"), self.vreg("v"), self.vreg("v")
        if fn == "countbits":
            self.valu("v_bcnt_u32_b32", [first], [low, Imm(0)])
            self.valu("v_bcnt_u32_b32", [result], [high, first])
            return result
        found, upper = self.mask_reg(), self.vreg("v")
        if fn == "firstbitlow":  # the low word's lowest bit, else 32 + the high word's (-1: none)
            self.valu("v_ffbl_b32", [second], [high])
            self.valu("v_add_nc_u32", [upper], [Imm(32), second])
            self.valu("v_cmp_ne_u32", [found], [Imm(-1), second])
            self.valu("v_cndmask_b32", [upper], [Imm(-1), upper, found])
            self.valu("v_ffbl_b32", [first], [low])
            self.valu("v_min_u32", [result], [first, upper])
            return result
        if signed:  # the highest bit that differs from the sign: of the value xor its sign
            sign, low_x, high_x = self.vreg("v"), self.vreg("v"), self.vreg("v")
            self.valu("v_ashrrev_i32", [sign], [Imm(31), high])
            self.valu("v_xor_b32", [low_x], [sign, low])
            self.valu("v_xor_b32", [high_x], [sign, high])
            low, high = low_x, high_x
        lower, high_found = self.vreg("v"), self.mask_reg()
        self.valu("v_ffbh_u32", [first], [low])
        self.valu("v_sub_nc_u32", [lower], [Imm(31), first])
        self.valu("v_cmp_ne_u32", [found], [Imm(0), low])
        self.valu("v_cndmask_b32", [lower], [Imm(-1), lower, found])
        self.valu("v_ffbh_u32", [second], [high])
        self.valu("v_sub_nc_u32", [upper], [Imm(63), second])
        self.valu("v_cmp_ne_u32", [high_found], [Imm(0), high])
        self.valu("v_cndmask_b32", [result], [lower, upper, high_found])
        return result

    # ----------------------------------------------------------- conversions
    def int64_to_f32(self, signed: bool, value, target=None):
        """A 64-bit integer to f32, rounded once (LLVM's normalise-and-sticky expansion)."""
        low, high = self.half_of(value, 0), self.half_of(value, 1)
        leading, shift, normal, sticky, word, converted, exponent = (
            self.vreg("v"), self.vreg("v"), self.vreg("v", 2), self.vreg("v"), self.vreg("v"), self.vreg("v"),
            self.vreg("v"))
        if signed:  # keep one sign bit: shift by the leading sign bits less one, at most 32 (31 when the
            limit, bound = self.vreg("v"), self.vreg("v")  # low word's top bit is not the sign)
            self.valu("v_xor_b32", [limit], [low, high])
            self.valu("v_ashrrev_i32", [limit], [Imm(31), limit])
            self.valu("v_add_nc_u32", [bound], [Imm(32), limit])
            self.valu("v_ffbh_i32", [leading], [high])
            self.valu("v_add_nc_u32", [leading], [Imm(-1), leading])
            self.valu("v_min_u32", [shift], [leading, bound])
        else:
            self.valu("v_ffbh_u32", [leading], [high])
            self.valu("v_min_u32", [shift], [Imm(32), leading])
        self.valu("v_lshlrev_b64", [normal], [shift, value], limit=1)
        self.valu("v_min_u32", [sticky], [Imm(1), normal.part(0)])
        self.valu("v_or_b32", [word], [sticky, normal.part(1)])
        self.valu(f"v_cvt_f32_{'i' if signed else 'u'}32", [converted], [word])
        self.valu("v_sub_nc_u32", [exponent], [Imm(32), shift])
        result = target if target is not None and self.is_vgpr(target) else self.vreg("v")
        self.valu("v_ldexp_f32", [result], [converted, exponent])
        return result

    def f32_to_int64(self, signed: bool, value, target=None):
        """An f32 to a 64-bit integer, truncated: high = floor(t * 2^-32), low = fma(high, -2^32, t)."""
        whole, magnitude, scaled, high_f, low_f = (self.vreg("v") for _ in range(5))
        result = self.vreg("v", 2)
        self.valu("v_trunc_f32", [whole], [value])
        if signed:
            self.valu("v_and_b32", [magnitude], [Imm(0x7FFFFFFF), whole])
            whole = magnitude
        self.valu("v_mul_f32", [scaled], [Imm(1.0 / TWO_POW_32), whole])
        self.valu("v_floor_f32", [high_f], [scaled])
        self.valu("v_fma_f32", [low_f], [high_f, Imm(-TWO_POW_32), whole])
        self.valu("v_cvt_u32_f32", [result.part(1)], [high_f])
        self.valu("v_cvt_u32_f32", [result.part(0)], [low_f])
        if not signed:
            return result
        sign, flipped = self.vreg("v"), self.vreg("v", 2)
        final = target if target is not None and self.is_vgpr(target) else self.vreg("v", 2)
        carry = self.mask_reg("carry")
        self.valu("v_ashrrev_i32", [sign], [Imm(31), value])
        self.valu("v_xor_b32", [flipped.part(0)], [sign, result.part(0)])
        self.valu("v_xor_b32", [flipped.part(1)], [sign, result.part(1)])
        self.valu("v_sub_co_u32", [final.part(0), carry], [flipped.part(0), sign])
        self.valu("v_sub_co_ci_u32", [final.part(1), carry], [flipped.part(1), sign, carry])
        return final

    # -------------------------------------------------------------- division
    def divide64(self, remainder: bool, signed: bool, target, a, b) -> None:
        """A 64-bit quotient or remainder (VGPRs); by zero, all ones (as 32-bit division)."""
        if signed:  # |a| / |b| unsigned; the quotient takes the sign a ^ b, the remainder a's
            signs, magnitudes = [], []
            for value in (a, b):
                sign, magnitude = self.vreg("v", 2), self.vreg("v", 2)
                self.valu("v_ashrrev_i32", [sign.part(0)], [Imm(31), self.half_of(value, 1)])
                self.emit("v_mov_b32", [sign.part(1)], [sign.part(0)])
                self.unary64(Op.ABS, magnitude, value, "v")
                signs.append(sign)
                magnitudes.append(magnitude)
            unsigned, sign, flipped = self.vreg("v", 2), self.vreg("v", 2), self.vreg("v", 2)
            self.unsigned_divide64(remainder, unsigned, *magnitudes)
            for half in (0, 1):
                if remainder:
                    self.emit("v_mov_b32", [sign.part(half)], [signs[0].part(half)])
                else:
                    self.valu("v_xor_b32", [sign.part(half)], [signs[0].part(half), signs[1].part(half)])
                self.valu("v_xor_b32", [flipped.part(half)], [unsigned.part(half), sign.part(half)])
            result = self.vreg("v", 2)
            self.add64(Op.SUB, result, flipped, sign, "v")
        else:
            result = self.vreg("v", 2)
            self.unsigned_divide64(remainder, result, a, b)
        zero = self.mask_reg()
        self.valu("v_cmp_eq_u64", [zero], [Imm(0), b], limit=1)
        for half in (0, 1):
            self.valu("v_cndmask_b32", [target.part(half)], [result.part(half), Imm(-1), zero])

    def unsigned_divide64(self, remainder: bool, target, numerator, denominator) -> None:
        """LLVM's long division for a 64-bit udiv/urem: the high word divided by a 32-bit
        divisor first (when the divisor's high word is zero), then one quotient bit per step
        for the 32 low bits: shift the next bit into the remainder, subtract where it fits."""
        low_n, high_n = self.half_of(numerator, 0), self.half_of(numerator, 1)
        low_d, high_d = self.half_of(denominator, 0), self.half_of(denominator, 1)
        part_q, part_r, high_q, low_q = self.vreg("v"), self.vreg("v"), self.vreg("v"), self.vreg("v")
        narrow = self.mask_reg()
        rest = self.vreg("v", 2)
        self.integer_divide(False, False, part_q, high_n, low_d, "v")
        self.integer_divide(True, False, part_r, high_n, low_d, "v")
        self.valu("v_cmp_eq_u32", [narrow], [Imm(0), high_d])
        self.valu("v_cndmask_b32", [high_q], [Imm(0), part_q, narrow])
        self.valu("v_cndmask_b32", [rest.part(0)], [high_n, part_r, narrow])
        self.emit("v_mov_b32", [rest.part(1)], [Imm(0)])
        self.emit("v_mov_b32", [low_q], [Imm(0)])
        for bit in range(31, -1, -1):
            next_bit, quotient_bit, more = self.vreg("v"), self.vreg("v"), self.vreg("v")
            shifted, difference, kept = self.vreg("v", 2), self.vreg("v", 2), self.vreg("v", 2)
            fits, borrow = self.mask_reg(), self.mask_reg("carry")
            self.valu("v_bfe_u32", [next_bit], [low_n, Imm(bit), Imm(1)])
            self.valu("v_lshlrev_b64", [shifted], [Imm(1), rest], limit=1)
            self.valu("v_or_b32", [shifted.part(0)], [next_bit, shifted.part(0)])
            self.valu("v_cmp_ge_u64", [fits], [shifted, denominator], limit=1)
            self.valu("v_sub_co_u32", [difference.part(0), borrow], [shifted.part(0), low_d])
            self.valu("v_sub_co_ci_u32", [difference.part(1), borrow], [shifted.part(1), high_d, borrow])
            for half in (0, 1):
                self.valu("v_cndmask_b32", [kept.part(half)], [shifted.part(half), difference.part(half), fits])
            self.valu("v_cndmask_b32", [quotient_bit], [Imm(0), Imm(1 << bit), fits])
            self.valu("v_or_b32", [more], [low_q, quotient_bit])
            rest, low_q = kept, more
        if remainder:
            self.move(target, rest, "v")
            return
        self.emit("v_mov_b32", [target.part(0)], [low_q])
        self.emit("v_mov_b32", [target.part(1)], [high_q])

    def divide16(self, remainder: bool, signed: bool, target, a, b, bank: str) -> None:
        """16-bit division in 32 bits: the operands sign- or zero-extended, the low half kept."""
        kind = "i" if signed else "u"
        wide_a, wide_b = (widened_constant(value, signed) if isinstance(value, Imm)
                          else self.convert_integer(f"{kind}16", f"{kind}32", value, bank) for value in (a, b))
        self.integer_divide(remainder, signed, target, wide_a, wide_b, bank)
