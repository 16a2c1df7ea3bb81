"""Selection of thread inputs and the RDNA2 lane-exchange primitives.

The primitives are the ones ``compiler/machine/wavemodel.py`` defines and the listing prints
one to one: DPP16/DPP8 moves (or, after DPP combining, a VALU op reading operand 0
through DPP: ``v_add_f32_dpp v1, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf``),
``v_permlanex16_b32`` with its lane selects in two SGPRs, ``ds_swizzle_b32``,
``ds_bpermute_b32``, ``v_readlane_b32``/``v_readfirstlane_b32``/``v_writelane_b32``,
``set_inactive`` (the ``s_not exec`` pair around a move), ballots (``v_cmp`` masks
ANDed with exec), ``v_mbcnt_lo/hi`` and ``s_bcnt1``. An exchange through LDS (across
the halves of a wave64) writes each lane's value to a slot after the kernel's own
groupshared memory and reads the partner's slot back.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.core import Inst
from ...ir.ops import Op
from .isel_values import components, element
from .machine import Imm, MInst

_NO_DPP_FORM = ("v_mul_lo_u32", "v_mul_hi_u32")


def dpp_modifiers(attrs: dict, key: str) -> str:
    text = f"{attrs[key]} row_mask:0x{attrs.get('row_mask', 15):x} bank_mask:0x{attrs.get('bank_mask', 15):x}"
    return text + (" bound_ctrl:1" if attrs.get("bound_ctrl") else "")


def has_dpp_form(mnemonic: str) -> bool:
    """VOP1/VOP2 encodings take DPP; VOP3-only and packed (VOP3P) instructions do not on gfx10."""
    if mnemonic.startswith("v_pk_") or mnemonic in _NO_DPP_FORM:
        return False
    return not mnemonic.endswith(("_u16", "_i16", "_b16"))


def swizzle_text(offset: int) -> str:
    """LLVM's spelling of a ``ds_swizzle_b32`` offset."""
    if offset & 0x8000:
        lanes = ",".join(str((offset >> (2 * k)) & 3) for k in range(4))
        return f"swizzle(QUAD_PERM,{lanes})"
    and_mask, or_mask, xor_mask = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
    if and_mask == 0x1F and or_mask == 0 and xor_mask and xor_mask & (xor_mask - 1) == 0:
        return f"swizzle(SWAP,{xor_mask})"
    if and_mask == 0x1F and or_mask == 0 and xor_mask and (xor_mask + 1) & xor_mask == 0:
        return f"swizzle(REVERSE,{xor_mask + 1})"
    bits = []
    for bit in range(4, -1, -1):  # each lane-id bit of ((lane & and) | or) ^ xor
        a, o, x = and_mask >> bit & 1, or_mask >> bit & 1, xor_mask >> bit & 1
        if o or not a:  # a constant bit: 1 ^ xor when or sets it, else the xor bit itself
            bits.append(str((1 ^ x) if o else x))
        else:
            bits.append("i" if x else "p")
    return f'swizzle(BITMASK_PERM,"{"".join(bits)}")'


class WaveSelection:
    """Mixin for ``Selector``: thread inputs and lane exchanges."""

    # --------------------------------------------------------- thread inputs
    def select_thread_input(self, inst: Inst) -> None:
        which = inst.attrs.get("which")
        ids = self.thread_ids + [Imm(0)] * (3 - len(self.thread_ids))
        if which == "group_id":
            self.define(inst, self.group_ids[:self.component_count(inst)], "s")
        elif which == "group_thread_id":
            self.define(inst, ids[:self.component_count(inst)], "v")
        elif which == "group_index":
            self.define(inst, [self.flat_thread_index()], "v")
        elif which == "dispatch_thread_id":
            parts = []
            used = set()
            for user in self.users.get(inst, []):
                if user.op is Op.EXTRACT and "index" in user.attrs and user.operands[0] is inst:
                    used.add(user.attrs["index"])
                else:
                    used.update(range(self.component_count(inst)))
            for axis in range(self.component_count(inst)):
                if axis not in used:
                    parts.append(Imm(0))
                    continue
                size = self.function.numthreads[axis]
                base = self.vreg("s", 1, f"group base {'xyz'[axis]}")
                if size == 1:
                    base = self.group_ids[axis]
                else:
                    self.salu_binary(Op.MUL, "u32", base, self.group_ids[axis], Imm(size))
                if isinstance(ids[axis], Imm):
                    parts.append(base)
                    continue
                value = self.vreg("v", 1, f"{self.name(inst)}.{'xyz'[axis]}")
                self.valu("v_add_nc_u32", [value], [base, ids[axis]])
                parts.append(value)
            self.define(inst, parts, "v")
        else:
            self.fail(f"the thread input '{which}'")

    def component_count(self, inst: Inst) -> int:
        return components(inst.type)

    def flat_thread_index(self):
        """SV_GroupIndex: x + y*X + z*X*Y (the id VGPRs themselves for a 1-D group); in the prologue."""
        if getattr(self, "_flat_index", None) is not None:
            return self._flat_index
        x_size, y_size, _ = self.function.numthreads
        index = self.thread_ids[0]
        for axis in range(1, len(self.thread_ids)):
            step = x_size if axis == 1 else x_size * y_size
            result = self.vreg("v", 1, "group index")
            self.prologue.append(MInst("v_mad_u32_u24", [result], [self.thread_ids[axis], Imm(step), index],
                                       coord=self.function.coord))
            index = result
        self._flat_index = index
        return index

    # ------------------------------------------------------------ DPP and moves
    def select_dpp_binary(self, inst: Inst, mnemonic: str, target, left, right) -> None:
        """A VALU op whose operand 0 is read through DPP16 (after DPP combining)."""
        modifiers = dpp_modifiers(inst.attrs, "dpp")
        left = self.to_vgpr(left)
        if has_dpp_form(mnemonic):
            self.valu(f"{mnemonic}_dpp", [target], [left, self.to_vgpr(right)], modifiers)
            return
        moved = self.vreg("v")
        self.emit("v_mov_b32_dpp", [moved], [left], modifiers)
        self.valu(mnemonic, [target], [moved, right])

    def select_dpp_fma(self, inst: Inst) -> None:
        """``fma`` with a DPP source: ``v_fmac_f32_dpp`` accumulates into a copy of the addend."""
        a, b, c = inst.operands
        out = self.result(inst)
        modifiers = dpp_modifiers(inst.attrs, "dpp")
        for index, target in enumerate(out.parts):
            self.move(target, self.component(c, index), "v")
            self.valu("v_fmac_f32_dpp", [target], [self.to_vgpr(self.component(a, index)),
                                                   self.to_vgpr(self.component(b, index))], modifiers)

    def select_dpp16(self, inst: Inst) -> None:
        source, old = inst.operands
        attrs = inst.attrs
        keeps_old = not attrs.get("bound_ctrl") or attrs.get("row_mask", 15) != 15 or attrs.get("bank_mask", 15) != 15
        self.lane_move(inst, source, old if keeps_old else None, "v_mov_b32_dpp", dpp_modifiers(attrs, "ctrl"))

    def select_dpp8(self, inst: Inst) -> None:
        source, _ = inst.operands
        selects = ",".join(str(s) for s in inst.attrs["selects"])
        self.lane_move(inst, source, None, "v_mov_b32_dpp", f"dpp8:[{selects}]")

    def lane_move(self, inst: Inst, source: Inst, old: Inst | None, mnemonic: str, modifiers: str,
                  extra: list = ()) -> None:
        """A per-part lane exchange into a result that starts as ``old`` when lanes may keep it."""
        out = self.result(inst)
        sources = self.packed_parts(source) if out.packed else self.val(source).parts
        olds = None
        if old is not None:
            olds = self.packed_parts(old) if out.packed else self.val(old).parts
        reuse = self.reusable(old, inst) if old is not None and old is not source and not out.packed else None
        if reuse is not None and inst not in self.fixed_results:
            out.parts[:] = reuse
            olds = None
        for index, target in enumerate(out.parts):
            if olds is not None:
                self.move(target, olds[index], "v")
            for word, part in self.words(target, sources[index]):
                self.valu(mnemonic, [word], [self.to_vgpr(part), *extra], modifiers)

    def words(self, target, source) -> list[tuple]:
        """(target word, source word) pairs: a lane exchange moves a 64-bit value word by word."""
        if self.width(target) == 2:
            return [(self.half_of(target, half), self.half_of(source, half)) for half in (0, 1)]
        return [(target, source)]

    def select_permlanex16(self, inst: Inst) -> None:
        source, old = inst.operands
        selects = inst.attrs["selects"]
        low = sum((s & 15) << (4 * k) for k, s in enumerate(selects[:8]))
        high = sum((s & 15) << (4 * k) for k, s in enumerate(selects[8:16]))
        operands = []
        for word in (low, high):
            imm = self.immediate(word, T.UINT)
            operands.append(imm if -16 <= imm.value <= 64 else self.to_sgpr(imm))
        fetch, bound = inst.attrs.get("fetch_inactive", False), inst.attrs.get("bound_ctrl", False)
        modifiers = f"op_sel:[{int(fetch)},{int(bound)}]" if fetch or bound else ""
        # its lane selects never leave the row: with either bit every active lane is written
        self.lane_move(inst, source, None if fetch or bound else old, "v_permlanex16_b32", modifiers, operands)

    def select_ds_swizzle(self, inst: Inst) -> None:
        source, _ = inst.operands
        out = self.result(inst)
        sources = self.packed_parts(source) if out.packed else self.val(source).parts
        text = f"offset:{swizzle_text(int(inst.attrs['offset']))}"
        for target, part in zip(out.parts, sources):
            for word, piece in self.words(target, part):
                self.emit("ds_swizzle_b32", [word], [self.to_vgpr(piece)], text)

    def select_ds_bpermute(self, inst: Inst) -> None:
        source, _, address = inst.operands
        out = self.result(inst)
        sources = self.packed_parts(source) if out.packed else self.val(source).parts
        address_reg = self.to_vgpr(self.component(address, 0))
        for target, part in zip(out.parts, sources):
            for word, piece in self.words(target, part):
                self.emit("ds_bpermute_b32", [word], [address_reg, self.to_vgpr(piece)])

    def select_readlane(self, inst: Inst) -> None:
        source, lane = inst.operands
        lane_operand = self.component(lane, 0)
        if not isinstance(lane_operand, Imm):
            lane_operand = self.to_sgpr(lane_operand)
        self.read_lanes(inst, source, "v_readlane_b32", [lane_operand])

    def select_readfirstlane(self, inst: Inst) -> None:
        self.read_lanes(inst, inst.operands[0], "v_readfirstlane_b32", [])

    def read_lanes(self, inst: Inst, source: Inst, mnemonic: str, extra: list) -> None:
        value = self.val(source)
        parts = []
        for part in value.parts:
            if not self.is_vgpr(part):  # already uniform: nothing to read
                parts.append(part)
                continue
            target = self.vreg("s", self.width(part), self.name(inst))
            for word, piece in self.words(target, part):
                self.emit(mnemonic, [word], [piece, *extra])
            parts.append(target)
        self.define(inst, parts, "s" if all(self.is_sgpr(p) or isinstance(p, Imm) for p in parts) else "v",
                    value.packed)

    def select_writelane(self, inst: Inst) -> None:
        old, value, lane = inst.operands
        out = self.result(inst)
        lane_operand = self.component(lane, 0)
        if not isinstance(lane_operand, Imm):
            lane_operand = self.to_sgpr(lane_operand)
        reuse = self.reusable(old, inst)
        if reuse is not None and inst not in self.fixed_results and not out.packed:
            out.parts[:] = reuse
        for index, target in enumerate(out.parts):
            if target is not self.val(old).parts[index]:
                self.move(target, self.val(old).parts[index], "v")
            for word, written in self.words(target, self.val(value).parts[index]):
                if not isinstance(written, Imm):
                    written = self.to_sgpr(written)
                self.emit("v_writelane_b32", [word], [written, lane_operand])

    def select_set_inactive(self, inst: Inst) -> None:
        """Active lanes take the value, inactive ones the identity: a move, then one under ~exec."""
        source, identity = inst.operands
        out = self.result(inst)
        for index, target in enumerate(out.parts):
            self.move(target, self.val(source).parts[index], "v")
        self.emit(f"s_not_{self.b}", [self.exec], [self.exec])
        for index, target in enumerate(out.parts):
            self.move(target, self.val(identity).parts[index], "v")
        self.emit(f"s_not_{self.b}", [self.exec], [self.exec])

    def select_ballot_mask(self, inst: Inst) -> None:
        (condition,) = inst.operands
        mask = self.mask(condition, 0)
        target = self.vreg("s", self.mask_size, self.name(inst))
        if isinstance(mask, Imm) and mask.value == -1:
            self.emit(f"s_mov_{self.b}", [target], [self.exec])
        else:
            self.salu(f"s_and_{self.b}", [target], [mask, self.exec])
        self.define(inst, [target], "s")

    def select_mbcnt(self, inst: Inst) -> None:
        mask, addend = inst.operands
        mask_part = self.component(mask, 0)
        add = self.component(addend, 0)
        out = self.result(inst)
        (target,) = out.parts
        if self.wave == 32 or _element_bits(mask) == 32:
            self.valu("v_mbcnt_lo_u32_b32", [target], [self.half_of(mask_part, 0), add])
            if self.wave == 64:
                self.valu("v_mbcnt_hi_u32_b32", [target], [Imm(0), target])
            return
        low = self.vreg("v")
        self.valu("v_mbcnt_lo_u32_b32", [low], [self.half_of(mask_part, 0), add])
        self.valu("v_mbcnt_hi_u32_b32", [target], [self.half_of(mask_part, 1), low])

    def select_bcnt(self, inst: Inst) -> None:
        (mask,) = inst.operands
        out = self.result(inst, bank="s")
        part = self.component(mask, 0)
        wide = _element_bits(mask) == 64
        if self.is_vgpr(part):
            part = self.to_sgpr(part)
        self.salu(f"s_bcnt1_i32_b{64 if wide else 32}", [out.parts[0]], [part])

    def select_lds_exchange(self, inst: Inst) -> None:
        """Each lane's value to its slot after the kernel's LDS, the partner's slot back. Each word
        of the value has its own slots (a group's worth apart): all are written, then all read
        back, so no word waits for the one before it and the accesses pair (``lds_pairs.py``)."""
        source, _, partner = inst.operands
        base = (self.module.lds_bytes + 3) // 4 * 4
        threads = self.function.numthreads[0] * self.function.numthreads[1] * self.function.numthreads[2]
        own = self.vreg("v")
        self.valu("v_lshlrev_b32", [own], [Imm(2), self.flat_thread_index()])
        wave_base, lane, address = self.vreg("v"), self.vreg("v"), self.vreg("v")
        self.valu("v_and_b32", [wave_base], [Imm(-self.wave), self.flat_thread_index()])
        self.valu("v_add_nc_u32", [lane], [wave_base, self.component(partner, 0)])
        self.valu("v_lshlrev_b32", [address], [Imm(2), lane])
        out = self.result(inst)
        sources = self.packed_parts(source) if out.packed else self.val(source).parts
        words = [pair for target, part in zip(out.parts, sources) for pair in self.words(target, part)]
        self.extra_lds = max(self.extra_lds, 4 * threads * len(words))
        slots = [base + 4 * threads * k for k in range(len(words))]
        for (_, piece), slot in zip(words, slots):
            self.emit("ds_write_b32", [], [own, self.to_vgpr(piece)], f"offset:{slot}" if slot else "")
        for (word, _), slot in zip(words, slots):
            self.emit("ds_read_b32", [word], [address], f"offset:{slot}" if slot else "")


def _element_bits(inst: Inst) -> int:
    return element(inst.type).bits
