"""Selection of conversions and vector shaping (construct, extract, insert, shuffle, bitcast).

Shaping ops move no data when they can: a construct concatenates its operands'
registers, an extract names a component's register (a sub-register of a tuple), a
bitcast reuses the registers. Only 16-bit components packed two per VGPR, dynamic
indices and tuples that must be contiguous cost instructions. Float-to-half vector
conversions round each component to nearest even (``v_cvt_f16_f32``, as LLVM selects
``fptrunc`` and as the host JIT and the interpreter compute) and pack the pairs with
``v_pack_b32_f16``; ``v_cvt_pkrtz_f16_f32`` would round toward zero and disagree with them.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.core import Inst
from .isel_tables import VALU_CONVERT
from .isel_values import components, element, is_packed, part_count, type_class
from .machine import Imm, SubReg


class ShapeSelection:
    """Mixin for ``Selector``: conversions and vector shaping."""

    def select_convert(self, inst: Inst) -> None:
        (operand,) = inst.operands
        source, target_type = element(operand.type), element(inst.type)
        frm, to = type_class(source), type_class(target_type)
        if "f64" in (frm, to) and frm != to:
            self.select_convert_f64(inst)
            return
        count = components(inst.type)
        if frm == to or (frm[1:] == to[1:] and frm[0] in "iu" and to[0] in "iu"):
            self.define(inst, self.val(operand).parts, self.val(operand).bank, self.val(operand).packed)
            return
        if to == "b":
            out = self.result(inst)
            for index, target in enumerate(out.parts):
                value = self.component(operand, index)
                if frm.startswith("f"):
                    self.valu(f"v_cmp_neq_{frm}", [target], [Imm(0), value])
                elif self.bank(operand) == "s" and not self.divergent(inst):
                    self.salu(f"s_cmp_lg_u{'64' if frm.endswith('64') else '32'}", [], [value, Imm(0)])
                    self.emit(f"s_cselect_{self.b}", [target], [Imm(-1), Imm(0)])
                else:
                    self.valu(f"v_cmp_ne_{'u64' if frm.endswith('64') else 'u32'}", [target], [Imm(0), value])
            return
        bank = self.bank(inst)
        if not is_packed(inst.type, bank):
            out = self.result(inst)
            for index, target in enumerate(out.parts):
                value = self.convert_one(frm, to, self.component(operand, index), bank, target)
                if value is target:
                    continue
                if inst in self.fixed_results:
                    self.move(target, value, bank)
                else:
                    out.parts[index] = value
            return
        results = [self.convert_one(frm, to, self.component(operand, index), bank) for index in range(count)]
        packed = []
        for index in range(0, count, 2):
            pair = results[index:index + 2]
            if len(pair) == 1:
                packed.append(self.to_vgpr(pair[0]))
                continue
            target = self.vreg("v", 1, self.name(inst))
            if to == "f16":
                self.valu("v_pack_b32_f16", [target], pair)
            else:
                self.valu("v_perm_b32", [target], [pair[1], pair[0], Imm(0x05040100)])
            packed.append(target)
        self.define(inst, packed, bank, True)

    def convert_one(self, frm: str, to: str, value, bank: str, target=None):
        """One component from class ``frm`` to class ``to``; returns the operand holding it
        (``target`` when it could be written there directly)."""
        if frm == "b" and to in ("i64", "u64"):  # 0 or 1 in the low word
            result = self.vreg(bank, 2)
            self.move(result.part(0), self.convert_one("b", "u32", value, bank), bank)
            self.move(result.part(1), Imm(0), bank)
            return result
        if frm == "b":
            one = Imm(0x3C00) if to == "f16" else Imm(1.0) if to.startswith("f") else Imm(1)
            if bank == "s":
                result = self.vreg("s")
                self.test_mask(value)
                self.emit("s_cselect_b32", [result], [one, Imm(0)])
                return result
            result = target if target is not None and self.is_vgpr(target) else self.vreg("v")
            self.valu("v_cndmask_b32", [result], [Imm(0), one, value])
            return result
        direct = VALU_CONVERT.get((frm, to))
        if direct is not None:
            result = target if target is not None and self.is_vgpr(target) else self.vreg("v")
            self.valu(direct, [result], [value])
            return result
        if frm[0] in "iu" and to[0] in "iu":
            return self.convert_integer(frm, to, value, bank)
        if frm in ("i64", "u64") and to == "f32":
            return self.int64_to_f32(frm == "i64", value, target)
        if frm == "f32" and to in ("i64", "u64"):
            return self.f32_to_int64(to == "i64", value, target)
        if frm == "f16":  # through f32
            return self.convert_one("f32", to, self.convert_one("f16", "f32", value, "v"), bank)
        if to == "f16":
            return self.convert_one("f32", "f16", self.convert_one(frm, "f32", value, "v"), bank)
        if frm in ("u16", "i16"):
            return self.convert_one(frm[0] + "32", to, self.convert_integer(frm, frm[0] + "32", value, "v"), bank)
        if to in ("u16", "i16"):
            return self.convert_one(frm, to[0] + "32", value, bank)
        self.fail(f"converting {frm} to {to}")

    def convert_integer(self, frm: str, to: str, value, bank: str):
        bits_from, bits_to = int(frm[1:]), int(to[1:])
        if bits_to <= bits_from:  # truncation keeps the low bits
            return self.half_of(value, 0) if bits_from == 64 else value
        if bits_from == 16:
            result = self.vreg(bank)
            if bank == "s":
                self.salu("s_sext_i32_i16" if frm[0] == "i" else "s_and_b32", [result],
                          [value] if frm[0] == "i" else [Imm(0xFFFF), value])
            elif frm[0] == "i":
                self.valu("v_bfe_i32", [result], [value, Imm(0), Imm(16)])
            else:
                self.valu("v_and_b32", [result], [Imm(0xFFFF), value])
            if bits_to == 64:
                return self.convert_integer(frm[0] + "32", to, result, bank)
            return result
        result = self.vreg(bank, 2)  # 32 -> 64
        self.move(result.part(0), value, bank)
        if frm[0] == "i":
            if bank == "s":
                self.salu("s_ashr_i32", [result.part(1)], [value, Imm(31)])
            else:
                self.valu("v_ashrrev_i32", [result.part(1)], [Imm(31), value])
        else:
            self.move(result.part(1), Imm(0), bank)
        return result

    def select_bitcast(self, inst: Inst) -> None:
        (operand,) = inst.operands
        value = self.val(operand)
        target_bits, source_bits = element(inst.type).bits, element(operand.type).bits
        bank = self.bank(inst)
        if target_bits == source_bits or (value.packed or source_bits == 32) and part_count(inst.type, bank) == \
                len(value.parts) and target_bits != 64 and source_bits != 64:
            self.define(inst, value.parts, value.bank, value.packed or (bank == "v" and target_bits == 16
                                                                          and components(inst.type) > 1))
            return
        if target_bits == 64:  # uint2 -> uint64_t
            parts = self.comps(operand)
            result = []
            for index in range(0, len(parts), 2):
                pair = parts[index:index + 2]
                if value.bank == "v":
                    result.append(self.tuple_of(pair))
                else:
                    reg = self.vreg("s", 2)
                    for k, part in enumerate(pair):
                        self.move(reg.part(k), part, "s")
                    result.append(reg)
            self.define(inst, result, value.bank)
            return
        if source_bits == 64:  # uint64_t -> uint2
            parts = [self.half_of(part, k) for part in value.parts for k in (0, 1)]
            self.define(inst, parts, value.bank)
            return
        self.fail(f"bitcast from {operand.type} to {inst.type}")

    def select_f32tof16(self, inst: Inst) -> None:
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            half = self.vreg("v")
            self.valu("v_cvt_f16_f32", [half], [self.component(inst.operands[0], index)])
            self.valu("v_and_b32", [target], [Imm(0xFFFF), half])

    def select_f16tof32(self, inst: Inst) -> None:
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            self.valu("v_cvt_f32_f16", [target], [self.component(inst.operands[0], index)])

    # --------------------------------------------------------- vector shaping
    def select_construct(self, inst: Inst) -> None:
        comps = []
        for operand in inst.operands:
            comps.extend(self.comps(operand))
        bank = self.bank(inst)
        if is_packed(inst.type, bank):
            self.define(inst, self.pack_components(inst.operands, comps, element(inst.type)), bank, True)
            return
        base = self.construct_targets.get(inst)
        if base is not None:
            parts = []
            for index, comp in enumerate(comps):
                slot = base.part(index)
                if not (isinstance(comp, SubReg) and comp.base is base and comp.index == index):
                    self.start_tuple(base)
                    self.move(slot, comp, "v")
                parts.append(slot)
            self.define(inst, parts, bank)
            return
        self.define(inst, comps, bank)

    def pack_components(self, operands: list, comps: list, scalar: T.ScalarType) -> list:
        """Packed dwords for 16-bit components, reusing an operand's dword when a pair is intact."""
        intact = {}
        position = 0
        for operand in operands:
            value = self.val(operand)
            if value.packed:
                for k, part in enumerate(value.parts):
                    intact[position + 2 * k] = part
            position += components(operand.type)
        parts = []
        for index in range(0, len(comps), 2):
            if index in intact and (index + 1 < len(comps) or True):
                parts.append(intact[index])
            else:
                parts.append(self.pack_pair(comps[index:index + 2], scalar.kind == "float"))
        return parts

    def select_extract(self, inst: Inst) -> None:
        container = inst.operands[0]
        if "index" in inst.attrs:
            start = flat_offset(container.type, inst.attrs["index"])
            count = components(inst.type)
            value = self.val(container)
            if value.packed and is_packed(inst.type, self.bank(inst)) and start % 2 == 0:
                self.define(inst, value.parts[start // 2:start // 2 + (count + 1) // 2], value.bank, True)
                return
            comps = [self.component(container, start + k) for k in range(count)]
            if is_packed(inst.type, self.bank(inst)):
                self.define(inst, self.pack_components([], comps, element(inst.type)), "v", True)
            else:
                self.define(inst, comps, value.bank)
            return
        self.dynamic_extract(inst, container, inst.operands[1])

    def dynamic_extract(self, inst: Inst, container: Inst, index: Inst) -> None:
        count = components(container.type)
        out = self.result(inst)
        (target,) = out.parts
        comps = self.comps(container)
        if out.bank == "s":
            self.move(target, comps[0], "s")
            for k in range(1, count):
                self.salu("s_cmp_eq_u32", [], [self.component(index, 0), Imm(k)])
                self.salu("s_cselect_b32", [target], [comps[k], target])
            return
        current = comps[0]
        for k in range(1, count):
            hit = self.mask_reg()
            self.valu("v_cmp_eq_u32", [hit], [Imm(k), self.component(index, 0)])
            step = target if k == count - 1 else self.vreg("v")
            self.valu("v_cndmask_b32", [step], [current, comps[k], hit])
            current = step
        if count == 1:
            self.move(target, current, "v")

    def select_insert(self, inst: Inst) -> None:
        container, value = inst.operands[0], inst.operands[1]
        comps = self.comps(container)
        bank = self.bank(inst)
        if "index" in inst.attrs:
            start = flat_offset(container.type, inst.attrs["index"])
            for k, comp in enumerate(self.comps(value)):
                comps[start + k] = comp
        else:
            index = inst.operands[2]
            new = self.component(value, 0)
            for k in range(len(comps)):
                if bank == "s":
                    target = self.vreg("s")
                    self.salu("s_cmp_eq_u32", [], [self.component(index, 0), Imm(k)])
                    self.salu("s_cselect_b32", [target], [new, comps[k]])
                else:
                    hit, target = self.mask_reg(), self.vreg("v")
                    self.valu("v_cmp_eq_u32", [hit], [Imm(k), self.component(index, 0)])
                    self.valu("v_cndmask_b32", [target], [comps[k], new, hit])
                comps[k] = target
        if is_packed(inst.type, bank):
            self.define(inst, self.pack_components([], comps, element(inst.type)), bank, True)
        else:
            self.define(inst, comps, bank)

    def select_shuffle(self, inst: Inst) -> None:
        comps = []
        for operand in inst.operands:
            comps.extend(self.comps(operand))
        chosen = [comps[lane] for lane in inst.attrs["lanes"]]
        bank = self.bank(inst)
        if is_packed(inst.type, bank):
            lanes = inst.attrs["lanes"]
            first = self.val(inst.operands[0])
            if first.packed and all(lane == k for k, lane in enumerate(lanes)):
                self.define(inst, first.parts[:(len(lanes) + 1) // 2], bank, True)
                return
            self.define(inst, self.pack_components([], chosen, element(inst.type)), bank, True)
        else:
            self.define(inst, chosen, bank)



def flat_offset(t: T.Type, index: int) -> int:
    """The first flattened component of member/element/component ``index`` of ``t``."""
    if isinstance(t, T.StructType):
        return sum(components(field_type) for _, field_type in t.fields[:index])
    if isinstance(t, T.ArrayType):
        return index * components(t.element)
    if isinstance(t, T.MatrixType):
        return index * t.cols
    return index


