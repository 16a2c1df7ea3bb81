"""Selection of arithmetic, comparisons, selects, conversions and vector shaping.

Uniform integer work goes to the scalar unit (``s_add_u32``, ``s_cmp_*`` + ``s_cselect``);
everything divergent, and every float (gfx10 has no scalar float ALU), goes to the
vector unit, which reads SGPRs and constants directly. ``valu()`` keeps an instruction
within the constant bus: at most two scalar sources (SGPRs or one literal) on gfx10.
A uniform comparison whose only users branch or select on it is not materialised: the
``s_cmp`` is emitted where SCC is consumed.
"""

from __future__ import annotations

from ...ir.core import Inst
from ...ir.ops import Op
from .isel_f64 import DoubleSelection, is_double
from .isel_int64 import Int64Selection
from .isel_math import MathSelection
from .isel_shape import ShapeSelection
from .isel_tables import (COMMUTATIVE_MNEMONICS, FLOAT_CONDITION, MASK_BINARY, REVERSED_OPERANDS, SALU_BINARY,
                          SALU_CONDITION, SWAPPED_CONDITION, VALU_BINARY, VALU_CONDITION)
from .isel_values import components, element, half_bits, is_packed, type_class
from .machine import Imm, SubReg, VReg

INLINE_FLOAT_VALUES = frozenset({0.0, 0.5, 1.0, 2.0, 4.0, -0.5, -1.0, -2.0, -4.0})


def is_inline(operand) -> bool:
    if not isinstance(operand, Imm):
        return False
    value = operand.value
    if isinstance(value, float):
        return value in INLINE_FLOAT_VALUES
    return -16 <= value <= 64


def power_of_two(operand) -> int | None:
    if isinstance(operand, Imm) and isinstance(operand.value, int) and operand.value > 0:
        value = operand.value
        if value & (value - 1) == 0:
            return value.bit_length() - 1
    return None


# VALU instructions whose last source is a lane mask (or carry-in) in VCC or SGPRs: other sources
# make way for it on the constant bus
_MASK_LAST = ("v_cndmask_b32", "v_add_co_ci_", "v_sub_co_ci_", "v_subrev_co_ci_")


class AluSelection(MathSelection, ShapeSelection, DoubleSelection, Int64Selection):
    """Mixin for ``Selector``: the ALU handlers named in ``Selector.HANDLERS``."""

    # ------------------------------------------------------------ legalizing
    def valu(self, mnemonic: str, defs: list, sources: list, modifiers: str = "", limit: int = 2):
        """A vector ALU instruction with its scalar sources kept within the constant bus."""
        seen_scalars: list = []
        literals: list = []
        legal = []
        dpp = "_dpp" in mnemonic or "dpp8" in modifiers
        mask = len(sources) - 1 if mnemonic.startswith(_MASK_LAST) else None  # the mask stays scalar
        if mask is not None and self.is_sgpr(sources[mask]):
            seen_scalars.append(_register_key(sources[mask]))
        for index, source in enumerate(sources):
            if index == mask:  # counted above
                legal.append(source)
                continue
            if isinstance(source, Imm) and not is_inline(source):
                if dpp or (literals and literals[0] != source) or len(seen_scalars) + (0 if literals else 1) > limit:
                    source = self.to_vgpr(source)
                elif not literals:
                    literals.append(source)
            elif self.is_sgpr(source) and not isinstance(source, Imm):
                key = _register_key(source)
                if key not in seen_scalars:
                    if dpp and index < 2 or len(seen_scalars) + len(literals) >= limit:
                        source = self.to_vgpr(source)
                    else:
                        seen_scalars.append(key)
            elif dpp and index < 2 and isinstance(source, Imm):
                source = self.to_vgpr(source)
            legal.append(source)
        return self.emit(mnemonic, defs, legal, modifiers)

    def salu(self, mnemonic: str, defs: list, sources: list, modifiers: str = ""):
        """A scalar ALU instruction: uniform values the vector unit produced are read back first."""
        legal = [source if self.is_sgpr(source) or isinstance(source, Imm) else self.to_sgpr(source)
                 for source in sources]
        if sum(1 for s in legal if isinstance(s, Imm) and not is_inline(s)) > 1:
            legal = [self.to_sgpr(s) if isinstance(s, Imm) and not is_inline(s) else s for s in legal[:1]] + legal[1:]
        return self.emit(mnemonic, defs, legal, modifiers)

    # -------------------------------------------------------------- binary
    def select_binary(self, inst: Inst) -> None:
        scalar = element(inst.type)
        if scalar.kind == "bool":
            self.mask_binary(inst)
            return
        if scalar.bits == 64 and "dpp" in inst.attrs:
            self.select_dpp_wide(inst)
            return
        if is_double(inst):
            self.select_binary_f64(inst)
            return
        if scalar.bits == 64 and inst.op in (Op.MUL, Op.MIN, Op.MAX, Op.SHL, Op.SHR):
            self.select_binary_int64(inst)
            return
        if scalar.bits == 64 and inst.op in (Op.ADD, Op.SUB) and self.bank(inst) == "s":
            out = self.result(inst)
            for index, target in enumerate(out.parts):
                a, b = (self.component(operand, index) for operand in inst.operands)
                self.add64(inst.op, target, a, b, "s")
            return
        if scalar.bits == 64 and self.bank(inst) == "v":
            self.valu_binary64(inst)
            return
        left, right = inst.operands
        out = self.result(inst)
        tc = type_class(scalar)
        if out.bank == "s":
            for index, target in enumerate(out.parts):
                a, b = self.component(left, index), self.component(right, index)
                alias = identity(inst.op, a, b)
                if alias is not None and inst not in self.fixed_results:
                    out.parts[index] = alias
                    continue
                self.salu_binary(inst.op, tc, target, a, b)
        elif is_packed(inst.type, "v"):
            lefts, rights = self.packed_parts(left), self.packed_parts(right)
            for index, target in enumerate(out.parts):
                if "dpp" in inst.attrs:
                    self.select_dpp_binary(inst, VALU_BINARY[(inst.op, "pk_" + tc)], target, lefts[index],
                                           rights[index])
                    continue
                self.valu_binary(inst.op, "pk_" + tc, target, lefts[index], rights[index])
        elif "dpp" in inst.attrs:
            for index, target in enumerate(out.parts):
                mnemonic = VALU_BINARY.get((inst.op, tc))
                if mnemonic is None or mnemonic in REVERSED_OPERANDS:
                    self.fail(f"DPP on '{inst.op.value}'")
                self.select_dpp_binary(inst, mnemonic, target, self.component(left, index),
                                       self.component(right, index))
        else:
            for index, target in enumerate(out.parts):
                a, b = self.component(left, index), self.component(right, index)
                alias = identity(inst.op, a, b)
                if alias is not None and inst not in self.fixed_results:
                    out.parts[index] = alias
                    continue
                self.valu_binary(inst.op, tc, target, a, b)

    def valu_binary(self, op: Op, tc: str, target, left, right) -> None:
        shift = power_of_two(right)
        if op is Op.MUL and tc in ("u32", "i32") and shift is not None:
            op, right = Op.SHL, Imm(shift)
        elif op is Op.MUL and tc in ("u32", "i32") and power_of_two(left) is not None:
            op, left, right = Op.SHL, right, Imm(power_of_two(left))
        if op is Op.SUB and tc == "pk_f16":  # no v_pk_sub_f16: add the negated right, as LLVM does
            self.valu("v_pk_add_f16", [target], [left, right], "neg_lo:[0,1] neg_hi:[0,1]")
            return
        mnemonic = VALU_BINARY.get((op, tc))
        if mnemonic is None:
            self.fail(f"'{op.value}' on {tc} values")
        if mnemonic in REVERSED_OPERANDS:
            sources = [right, left]
        elif mnemonic in COMMUTATIVE_MNEMONICS and self.is_vgpr(left) and not self.is_vgpr(right):
            sources = [right, left]
        elif op is Op.SUB and tc in ("u32", "i32") and self.is_vgpr(left) and not self.is_vgpr(right):
            mnemonic, sources = "v_subrev_nc_u32", [right, left]
        elif op is Op.SUB and tc == "f32" and self.is_vgpr(left) and not self.is_vgpr(right):
            mnemonic, sources = "v_subrev_f32", [right, left]
        else:
            sources = [left, right]
        self.valu(mnemonic, [target], sources, limit=1 if tc.endswith("64") else 2)

    def salu_binary(self, op: Op, tc: str, target, left, right) -> None:
        shift = power_of_two(right)
        if op is Op.MUL and shift is not None:
            op, right = Op.SHL, Imm(shift)
        mnemonic = SALU_BINARY.get((op, tc))
        if mnemonic is None:
            self.fail(f"uniform '{op.value}' on {tc} values")
        self.salu(mnemonic, [target], [left, right])

    def mask_binary(self, inst: Inst) -> None:
        stem = MASK_BINARY.get(inst.op)
        if stem is None:
            self.fail(f"'{inst.op.value}' on bools")
        left, right = inst.operands
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            a, b = self.mask(left, index), self.mask(right, index)
            known = constant_mask(inst.op, a, b)
            if known is not None and inst not in self.fixed_results:
                out.parts[index] = known
                continue
            self.salu(f"{stem}_{self.b}", [target], [a, b])

    def valu_binary64(self, inst: Inst) -> None:
        """64-bit integer add/sub/bitwise on the vector unit: two halves, with a carry for add/sub."""
        left, right = inst.operands
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            a, b = self.component(left, index), self.component(right, index)
            lo = [self.half_of(a, 0), self.half_of(b, 0)]
            hi = [self.half_of(a, 1), self.half_of(b, 1)]
            if inst.op in (Op.AND, Op.OR, Op.XOR):
                name = {Op.AND: "v_and_b32", Op.OR: "v_or_b32", Op.XOR: "v_xor_b32"}[inst.op]
                self.valu(name, [target.part(0) if isinstance(target, VReg) else target], lo)
                self.valu(name, [target.part(1) if isinstance(target, VReg) else target], hi)
            elif inst.op in (Op.ADD, Op.SUB):
                carry = self.mask_reg("carry")
                stem = "v_add" if inst.op is Op.ADD else "v_sub"
                self.valu(f"{stem}_co_u32", [target.part(0), carry], lo)
                self.valu(f"{stem}_co_ci_u32", [target.part(1), carry], hi + [carry])
            else:
                self.fail(f"64-bit '{inst.op.value}' on divergent values")

    def packed_parts(self, inst: Inst) -> list:
        """``inst``'s 16-bit components two to a dword, as the packed ``v_pk_*`` forms read them."""
        value = self.val(inst)
        if value.packed:
            return value.parts
        comps = self.comps(inst)
        result = []
        for index in range(0, len(comps), 2):
            pair = comps[index:index + 2]
            if all(isinstance(c, Imm) for c in pair):
                bits = [half_bits(c.value) if isinstance(c.value, float) else int(c.value) & 0xFFFF for c in pair]
                if len(bits) == 2 and pair[0] == pair[1] and is_inline(pair[0]):
                    result.append(pair[0])
                else:
                    result.append(Imm(bits[0] | (bits[1] << 16 if len(bits) > 1 else 0)))
            else:
                result.append(self.pack_pair(pair, element_is_float=True))
        return result

    def pack_pair(self, pair: list, element_is_float: bool):
        target = self.vreg("v")
        if len(pair) == 1:
            return self.to_vgpr(pair[0])
        if element_is_float:
            self.valu("v_pack_b32_f16", [target], pair)
        else:
            low = self.vreg("v")
            self.valu("v_and_b32", [low], [Imm(0xFFFF), pair[0]])
            self.valu("v_lshl_or_b32", [target], [pair[1], Imm(16), low])
        return target

    # ----------------------------------------------------------------- unary
    def select_unary(self, inst: Inst) -> None:
        scalar = element(inst.type)
        (operand,) = inst.operands
        if is_double(inst):
            self.select_unary_f64(inst)
            return
        if inst.op is Op.ABS and scalar.kind == "uint":  # abs of an unsigned value is the value
            self.define(inst, self.val(operand).parts, self.val(operand).bank, self.val(operand).packed)
            return
        out = self.result(inst)
        if scalar.bits == 64:
            for index, target in enumerate(out.parts):
                self.unary64(inst.op, target, self.component(operand, index), out.bank)
            return
        if scalar.kind == "bool":  # only the active lanes' bits: ~m would set the others'
            for index, target in enumerate(out.parts):
                self.salu(f"s_andn2_{self.b}", [target], [self.exec, self.mask(operand, index)])
            return
        packed = is_packed(inst.type, "v")
        sources = self.packed_parts(operand) if packed else self.comps(operand)
        for target, source in zip(out.parts, sources):
            if scalar.kind == "float":
                sign = {32: 0x80000000, 16: 0x80008000 if packed else 0x8000}[scalar.bits]
                if inst.op is Op.NEG:
                    self.valu("v_xor_b32", [target], [Imm(sign), source])
                elif inst.op is Op.ABS:
                    self.valu("v_and_b32", [target], [Imm(~sign & 0xFFFFFFFF), source])
                else:
                    self.fail("'not' on floats")
            elif out.bank == "s":
                if inst.op is Op.NEG:
                    self.salu("s_sub_i32", [target], [Imm(0), source])
                elif inst.op is Op.ABS and scalar.bits == 16:  # sign-extended first: the upper bits are undefined
                    wide = self.vreg("s")
                    self.salu("s_sext_i32_i16", [wide], [source])
                    self.salu("s_abs_i32", [target], [wide])
                elif inst.op is Op.ABS:
                    self.salu("s_abs_i32", [target], [source])
                else:
                    self.salu("s_not_b64" if self.width(target) == 2 else "s_not_b32", [target], [source])
            else:
                if inst.op is Op.NEG:
                    self.valu("v_pk_sub_i16" if packed else "v_sub_nc_u32", [target], [Imm(0), source])
                elif inst.op is Op.ABS:  # 16 bits: the 16-bit forms (a value's upper bits are undefined)
                    sub, maximum = ("v_pk_sub_i16", "v_pk_max_i16") if packed else \
                        ("v_sub_nc_u16", "v_max_i16") if scalar.bits == 16 else ("v_sub_nc_u32", "v_max_i32")
                    negated = self.vreg("v")
                    self.valu(sub, [negated], [Imm(0), source])
                    self.valu(maximum, [target], [source, negated])
                else:
                    self.valu("v_not_b32", [target], [source])

    def select_fma(self, inst: Inst) -> None:
        scalar = element(inst.type)
        a, b, c = inst.operands
        if "dpp" in inst.attrs and scalar.bits == 64:
            self.select_dpp_wide(inst)
            return
        if "dpp" in inst.attrs:
            self.select_dpp_fma(inst)
            return
        if is_double(inst):
            self.select_fma_f64(inst)
            return
        if scalar.bits == 64:  # a 64-bit integer mad
            out = self.result(inst)
            for index, target in enumerate(out.parts):
                product = self.vreg(out.bank, 2)
                self.multiply64(product, self.component(a, index), self.component(b, index), out.bank)
                self.add64(Op.ADD, target, product, self.component(c, index), out.bank)
            return
        if scalar.kind != "float":
            out = self.result(inst)
            for index, target in enumerate(out.parts):
                product = self.vreg(out.bank)
                self.valu_binary(Op.MUL, "u32", product, self.component(a, index), self.component(b, index))
                self.valu_binary(Op.ADD, "u32", target, product, self.component(c, index))
            return
        if is_packed(inst.type, "v"):
            out = self.result(inst)
            for target, x, y, z in zip(out.parts, self.packed_parts(a), self.packed_parts(b), self.packed_parts(c)):
                self.valu("v_pk_fma_f16", [target], [x, y, z])
            return
        name = "v_fma_f32" if scalar.bits == 32 else "v_fma_f16"
        accumulate = self.reusable(c, inst)
        if accumulate is not None and scalar.bits == 32:
            self.define(inst, accumulate)
            for index, target in enumerate(accumulate):
                self.valu("v_fmac_f32", [target], [self.component(a, index), self.component(b, index)])
            return
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            self.valu(name, [target], [self.component(a, index), self.component(b, index), self.component(c, index)])

    def reusable(self, value: Inst, user: Inst) -> list | None:
        """``value``'s registers, if ``user`` may overwrite them (its only use, same block, own VGPRs)."""
        if value.block is not user.block or value.op is Op.PHI or user in self.placement:
            return None
        if self.users.get(value, []) != [user] or value not in self.values:
            return None
        parts = self.values[value].parts
        if self.values[value].packed or not all(isinstance(p, VReg) and p.cls == "v" and p.size == 1 for p in parts):
            return None
        return list(parts)

    def select_dot(self, inst: Inst) -> None:
        a, b = inst.operands
        scalar = element(a.type)
        count = components(a.type)
        out = self.result(inst)
        (target,) = out.parts
        if scalar.bits == 64:  # products then sums in component order, each rounded (no fma)
            plain = frozenset()
            for index in range(count):
                product = target if index == 0 else self.vreg(out.bank, 2)
                x, y = self.component(a, index), self.component(b, index)
                if scalar.kind == "float":
                    self.f64_valu("v_mul_f64", [product], [(x, plain), (y, plain)])
                else:
                    self.multiply64(product, x, y, out.bank)
                if index == 0:
                    continue
                if scalar.kind == "float":
                    self.f64_valu("v_add_f64", [target], [(target, plain), (product, plain)])
                else:
                    self.add64(Op.ADD, target, target, product, out.bank)
            return
        if out.bank == "s":
            self.salu("s_mul_i32", [target], [self.component(a, 0), self.component(b, 0)])
            for index in range(1, count):
                product = self.vreg("s")
                self.salu("s_mul_i32", [product], [self.component(a, index), self.component(b, index)])
                self.salu("s_add_u32", [target], [target, product])
            return
        if scalar.kind == "float":
            suffix = "f32" if scalar.bits == 32 else "f16"
            self.valu(f"v_mul_{suffix}", [target], [self.component(a, 0), self.component(b, 0)])
            for index in range(1, count):  # no fma: the products are rounded, as the other executors do
                product = self.vreg("v")
                self.valu(f"v_mul_{suffix}", [product], [self.component(a, index), self.component(b, index)])
                self.valu(f"v_add_{suffix}", [target], [target, product])
            return
        self.valu("v_mul_lo_u32", [target], [self.component(a, 0), self.component(b, 0)])
        for index in range(1, count):
            product = self.vreg("v")
            self.valu("v_mul_lo_u32", [product], [self.component(a, index), self.component(b, index)])
            self.valu("v_add_nc_u32", [target], [product, target])

    # ------------------------------------------------------------ comparisons
    def select_compare(self, inst: Inst) -> None:
        left, right = inst.operands
        scalar = element(left.type)
        if scalar.kind == "bool":
            self.mask_binary(inst)
            return
        if scalar.kind == "float" and scalar.bits == 64:
            self.select_compare_f64(inst)
            return
        comparable = [(self.component(left, k), self.component(right, k)) for k in range(components(left.type))]
        if all(isinstance(a, Imm) and isinstance(b, Imm) for a, b in comparable):
            self.define(inst, [Imm(-1 if _compare(inst.op, a.value, b.value) else 0) for a, b in comparable], "s")
            return
        if self.scalar_compare(inst):
            if all(self.consumes_scc(user) for user in self.users.get(inst, [])) and self.users.get(inst):
                self.deferred[inst] = True
                self.define(inst, [None], "s")
                return
            out = self.result(inst)
            for index, target in enumerate(out.parts):
                self.emit_scc_compare(inst, index)
                self.emit(f"s_cselect_{self.b}", [target], [Imm(-1), Imm(0)])
            return
        out = self.result(inst)
        tc = type_class(scalar)
        conditions = FLOAT_CONDITION if scalar.kind == "float" else VALU_CONDITION
        for index, target in enumerate(out.parts):
            a, b = self.component(left, index), self.component(right, index)
            op = inst.op
            if self.is_vgpr(a) and not self.is_vgpr(b):
                a, b, op = b, a, SWAPPED_CONDITION[op]
            self.valu(f"v_cmp_{conditions[op]}_{tc}", [target], [a, b], limit=1 if tc.endswith("64") else 2)

    def scalar_compare(self, inst: Inst) -> bool:
        left, right = inst.operands
        scalar = element(left.type)
        if self.divergent(inst) or scalar.kind == "float":
            return False
        if scalar.bits == 64 and inst.op not in (Op.EQ, Op.NE):
            return False
        return all(self.bank(operand) == "s" for operand in (left, right))

    def consumes_scc(self, user: Inst) -> bool:
        if user.op is Op.COND_BR:
            return not self.divergent(user.operands[0]) and user.block in self.layout_set
        return user.op is Op.SELECT and self.bank(user) == "s" and user.operands[0] is not user.operands[1] \
            and user.operands.count(user.operands[0]) == 1

    def emit_scc_compare(self, inst: Inst, index: int = 0) -> None:
        left, right = inst.operands
        tc = type_class(element(left.type))
        size = "u64" if tc.endswith("64") else ("i32" if tc.startswith("i") else "u32")
        a, b = self.component(left, index), self.component(right, index)
        op = inst.op
        if isinstance(a, Imm) and not isinstance(b, Imm):
            a, b, op = b, a, SWAPPED_CONDITION[op]
        self.salu(f"s_cmp_{SALU_CONDITION[op]}_{size}", [], [a, b])

    def scc_from(self, condition: Inst, index: int = 0) -> None:
        """Set SCC to the uniform bool ``condition`` (component ``index``)."""
        if condition in self.deferred:
            self.emit_scc_compare(condition, index)
            return
        mask = self.mask(condition, index)
        self.test_mask(mask)

    def test_mask(self, mask) -> None:
        """SCC = whether any active lane's bit is set (a uniform mask may be -1 or exec-limited)."""
        if isinstance(mask, Imm):
            mask = self.to_sgpr(mask, self.mask_size)
        self.emit(f"s_and_{self.b}", [self.mask_reg()], [mask, self.exec])

    def mask(self, inst: Inst, index: int = 0):
        """A bool component as a lane mask operand (materialising a deferred comparison)."""
        if inst in self.deferred:
            target = self.mask_reg(self.name(inst))
            self.emit_scc_compare(inst, index)
            self.emit(f"s_cselect_{self.b}", [target], [Imm(-1), Imm(0)])
            return target
        part = self.component(inst, index)
        if self.is_vgpr(part):  # a bool that came through memory or a VGPR move: compare it
            target = self.mask_reg()
            self.valu("v_cmp_ne_u32", [target], [Imm(0), part])
            return target
        return part

    def select_select(self, inst: Inst) -> None:
        condition, when_true, when_false = inst.operands
        scalar = element(inst.type)
        out = self.result(inst)
        scalar_condition = components(condition.type) == 1
        if scalar.kind == "bool":
            for index, target in enumerate(out.parts):
                c = 0 if scalar_condition else index
                a, b = self.mask(when_true, index), self.mask(when_false, index)
                if not self.divergent(condition):
                    self.scc_from(condition, c)
                    self.salu(f"s_cselect_{self.b}", [target], [a, b])
                else:
                    m = self.mask(condition, c)
                    chosen, other = self.mask_reg(), self.mask_reg()
                    self.salu(f"s_and_{self.b}", [chosen], [m, a])
                    self.salu(f"s_andn2_{self.b}", [other], [b, m])
                    self.salu(f"s_or_{self.b}", [target], [chosen, other])
            return
        if out.bank == "s":
            for index, target in enumerate(out.parts):
                if index == 0 or not scalar_condition:
                    self.scc_from(condition, 0 if scalar_condition else index)
                wide = self.width(target) == 2
                self.salu("s_cselect_b64" if wide else "s_cselect_b32", [target],
                          [self.component(when_true, index), self.component(when_false, index)])
            return
        if is_packed(inst.type, "v"):
            trues, falses = self.packed_parts(when_true), self.packed_parts(when_false)
            for index, target in enumerate(out.parts):
                masks = [self.mask(condition, 0 if scalar_condition else k)
                         for k in (2 * index, 2 * index + 1) if k < components(inst.type)]
                if all(m is masks[0] for m in masks):
                    self.valu("v_cndmask_b32", [target], [falses[index], trues[index], masks[0]])
                else:
                    halves = []
                    for k, m in zip((2 * index, 2 * index + 1), masks):
                        half = self.vreg("v")
                        self.valu("v_cndmask_b32", [half], [self.component(when_false, k),
                                                           self.component(when_true, k), m])
                        halves.append(half)
                    self.valu("v_pack_b32_f16", [target], halves)
            return
        masks = {}
        for index, target in enumerate(out.parts):
            c = 0 if scalar_condition else index
            if c not in masks:
                masks[c] = self.mask(condition, c)
            a, b = self.component(when_true, index), self.component(when_false, index)
            if self.width(target) == 2:
                for half in (0, 1):
                    self.valu("v_cndmask_b32", [target.part(half)], [self.half_of(b, half), self.half_of(a, half),
                                                                     masks[c]])
            else:
                self.valu("v_cndmask_b32", [target], [b, a, masks[c]])

def _compare(op: Op, a, b) -> bool:
    return {Op.EQ: a == b, Op.NE: a != b, Op.LT: a < b, Op.LE: a <= b, Op.GT: a > b, Op.GE: a >= b}[op]


def constant_mask(op: Op, left, right):
    """The result of a lane-mask op when an operand is all-true (-1) or all-false (0), else None."""
    def value(operand):
        return operand.value if isinstance(operand, Imm) else None

    for a, b in ((left, right), (right, left)):
        if op is Op.AND and value(a) == -1 or op in (Op.OR, Op.XOR, Op.NE) and value(a) == 0:
            return b
        if op is Op.AND and value(a) == 0:
            return Imm(0)
        if op is Op.OR and value(a) == -1:
            return Imm(-1)
    return None


def identity(op: Op, left, right):
    """The operand ``left op right`` equals when the other is the op's identity (x + 0, x * 1 ...)."""
    def value(operand):
        return operand.value if isinstance(operand, Imm) and isinstance(operand.value, int) else None

    if op in (Op.ADD, Op.OR, Op.XOR) and value(left) == 0:
        return right
    if op in (Op.ADD, Op.SUB, Op.OR, Op.XOR, Op.SHL, Op.SHR) and value(right) == 0:
        return left
    if op is Op.MUL and value(right) == 1:
        return left
    if op is Op.MUL and value(left) == 1:
        return right
    if op is Op.AND and value(right) in (-1, 0xFFFFFFFF):
        return left
    if op is Op.AND and value(left) in (-1, 0xFFFFFFFF):
        return right
    return None


def _register_key(operand):
    if isinstance(operand, SubReg):
        return (id(operand.base), operand.index)
    if isinstance(operand, VReg):
        return (id(operand), 0)
    return operand
