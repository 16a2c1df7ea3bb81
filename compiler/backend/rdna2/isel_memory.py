"""Selection of memory operations: descriptors, LDS, scratch, buffers, cbuffers, images, atomics, barriers.

The kernel ABI modeled here is PAL's, as a D3D12 driver sets it up: ``s[0:1]`` holds the
pointer to the descriptor table, the group ids follow in ``s2..s4``, and ``v0..v2`` hold
the thread ids. Each binding takes a 32-byte slot of the table (a resource array takes
one per element); its descriptor is loaded with ``s_load_dwordx4`` (buffers, cbuffers,
samplers) or ``s_load_dwordx8`` (images) in the prologue, or at the access when the
array index is only known there.

LDS addresses fold constant additions into the instruction's ``offset:`` field, as LLVM
does; the additions themselves are then not emitted when nothing else reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...frontend import hlsl_types as T
from ...ir.core import Binding, Inst
from ...ir.lower.globals import tight_size
from ...ir.ops import Op
from .isel_tables import BUFFER_ATOMIC, DWORDS, LDS_ATOMIC, LDS_BITS, SMEM_DWORDS
from .isel_values import components, element, is_packed
from .isel_image import ImageSelection, is_texture
from .machine import IMPLICIT_DEF, Imm, MInst, Special, SubReg, VReg

SLOT_BYTES = 32
TABLE_NAME = "descriptor table"  # the name of the VReg of s[0:1] (machine_cse.py merges loads from it)
_LDS_ADDRESS_USERS = {Op.LDS_LOAD: 0, Op.LDS_STORE: 0, Op.LDS_ATOMIC: 0}


@dataclass(frozen=True)
class Text:
    """A literal operand field printed as written (an SMEM offset in hex, a swizzle pattern)."""

    name: str

    def format(self) -> str:
        return self.name


def resource_kind(binding: Binding) -> str:
    return binding.kind


def descriptor_dwords(binding: Binding) -> int:
    return 8 if is_texture(binding) else 4


class MemorySelection(ImageSelection):
    """Mixin for ``Selector``: the memory handlers named in ``Selector.HANDLERS``."""

    # ------------------------------------------------------------------ ABI
    def setup_abi(self) -> None:
        self.table = VReg("s", 2, TABLE_NAME, phys=0)
        self.descriptors: dict = {}
        wanted = {inst.attrs.get("which") for inst in self.function.instructions() if inst.op is Op.THREAD_INPUT}
        self.group_ids = []
        if wanted & {"group_id", "dispatch_thread_id"}:
            self.group_ids = [VReg("s", 1, f"group id {axis}", phys=2 + k) for k, axis in enumerate("xyz")]
        _, y, z = self.function.numthreads
        axes = 3 if z > 1 else 2 if y > 1 else 1
        self.thread_ids = [VReg("v", 1, f"thread id {axis}", phys=k) for k, axis in enumerate("xyz"[:axes])]
        self.slots: dict[str, int] = {}
        offset = 0
        ordered = [b for b in self.module.bindings if b.count is not None] + \
                  [b for b in self.module.bindings if b.count is None]
        for binding in ordered:
            self.slots[binding.name] = offset
            offset += SLOT_BYTES * (binding.count or 1)
        self.plan_folds()

    def descriptor(self, binding: Binding, index: Inst | None) -> VReg:
        """The binding's descriptor registers; ``index`` selects an element of a resource array."""
        size = descriptor_dwords(binding)
        slot = self.slots[binding.name]
        constant = None
        if index is None:
            constant = 0
        elif index.op is Op.CONST:
            constant = int(index.attrs["value"])
        if constant is not None and index is None:
            key = (binding.name, 0)
            if key not in self.descriptors:
                reg = self.vreg("s", size, binding.name)
                self.descriptors[key] = reg
                self.prologue.append(MInst(f"s_load_dwordx{size}", [reg], [self.table, Text(f"0x{slot:x}")],
                                           comment=f"{binding.register} {binding.name}", coord=self.function.coord))
            return self.descriptors[key]
        if constant is not None:  # an element of a resource array: loaded where it is used
            key = (binding.name, constant, id(self.block))
            if key not in self.descriptors or self.fresh_block:
                reg = self.vreg("s", size, f"{binding.name}[{constant}]")
                self.descriptors[key] = reg
                self.emit(f"s_load_dwordx{size}", [reg], [self.table, Text(f"0x{slot + SLOT_BYTES * constant:x}")],
                          comment=f"{binding.register} {binding.name}[{constant}]")
            return self.descriptors[key]
        value = self.to_sgpr(self.component(index, 0))
        offset = self.vreg("s")
        self.salu("s_lshl_b32", [offset], [value, Imm(5)])
        if slot:
            self.salu("s_add_u32", [offset], [offset, Imm(slot)])
        reg = self.vreg("s", size, f"{binding.name}[i]")
        self.emit(f"s_load_dwordx{size}", [reg], [self.table, offset], comment=f"{binding.register} {binding.name}[i]")
        return reg

    def binding_of(self, inst: Inst, key: str = "resource") -> Binding:
        return self.binding_by_name[inst.attrs[key]]

    def split_index(self, inst: Inst, binding: Binding) -> tuple[Inst | None, list[Inst]]:
        """(the resource-array index operand or None, the remaining operands)."""
        if binding.count != 1:
            return inst.operands[0], inst.operands[1:]
        return None, list(inst.operands)

    def split_offset(self, inst: Inst, operands: list[Inst]) -> tuple[Inst, Inst | None, list[Inst]]:
        """(index, the ``dynamic_offset`` operand or None, the rest) of the operands after ``[i]``."""
        if inst.attrs.get("dynamic_offset"):
            return operands[0], operands[1], operands[2:]
        return operands[0], None, operands[1:]

    def coherent(self, binding: Binding) -> str:
        return " glc dlc" if binding.globally_coherent else ""

    # ---------------------------------------------------------- words in memory
    def loaded_value(self, inst: Inst, regs: list, bank: str) -> None:
        """Define ``inst`` from loaded dword registers (bools become lane masks)."""
        scalar = element(inst.type)
        if scalar.kind == "bool":
            masks = []
            for reg in regs:
                mask = self.mask_reg()
                if bank == "s":
                    self.salu("s_cmp_lg_u32", [], [reg, Imm(0)])
                    self.emit(f"s_cselect_{self.b}", [mask], [Imm(-1), Imm(0)])
                else:
                    self.valu("v_cmp_ne_u32", [mask], [Imm(0), reg])
                masks.append(mask)
            self.define(inst, masks, "s")
            return
        if scalar.bits == 64:  # one part per component: a dword pair of the loaded tuple
            regs = [_dword_pair(low) for low in regs[::2]]
        self.define(inst, regs, bank, is_packed(inst.type, bank))

    def stored_words(self, value: Inst) -> list:
        """The dwords that store ``value`` (bool masks become 0/1; 16-bit vectors stay packed)."""
        scalar = element(value.type)
        if scalar.kind == "bool":
            words = []
            for index in range(len(self.val(value).parts)):
                word = self.vreg("v")
                self.valu("v_cndmask_b32", [word], [Imm(0), Imm(1), self.mask(value, index)])
                words.append(word)
            return words
        if scalar.bits == 16 and not is_packed(value.type, "v") and len(self.val(value).parts) > 1:
            return self.packed_parts(value)
        if scalar.bits == 64:
            return [self.half_of(part, k) for part in self.val(value).parts for k in (0, 1)]
        return list(self.val(value).parts)

    def dword_count(self, t: T.Type) -> int:
        if element(t).kind == "bool":
            return len([None for _ in range(components(t))])
        return (tight_size(t) + 3) // 4

    def check_layout(self, t: T.Type) -> None:
        if isinstance(t, (T.StructType, T.ArrayType)):
            sizes = set()
            _scalar_sizes(t, sizes)
            if 2 in sizes:
                self.fail("16-bit members inside structs or arrays in memory")

    def fresh_tuple(self, count: int, name: str = "") -> VReg:
        return self.vreg("v", count, name)

    def tuple_parts(self, reg: VReg, count: int) -> list:
        return [reg] if count == 1 and reg.size == 1 else [reg.part(k) for k in range(count)]

    # --------------------------------------------------------------- LDS
    def plan_folds(self) -> None:
        """Additions of a constant that only feed LDS/scratch addresses fold into ``offset:``."""
        self.folded: set[Inst] = set()
        candidates = []
        for inst in self.function.instructions():
            if inst.op is Op.ADD and components(inst.type) == 1 and _constant_operand(inst) is not None:
                candidates.append(inst)
        for inst in reversed(candidates):
            users = self.users.get(inst, [])
            if users and all(_address_use(user, inst) or user in self.folded for user in users):
                self.folded.add(inst)

    def address(self, inst: Inst, limit: int = 65535, low: int = 0) -> tuple:
        """(base VGPR or SGPR operand, constant offset) of a byte address."""
        offset = 0
        base = inst
        while base in self.folded:
            constant, rest = _constant_operand(base)
            if not low <= offset + constant <= limit:
                break
            offset += constant
            base = rest
        if base.op is Op.CONST:
            value = int(base.attrs["value"])
            if low <= offset + value <= limit:
                return Imm(0), offset + value
        return self.component(base, 0), offset

    def select_lds_load(self, inst: Inst) -> None:
        self.check_layout(inst.type)
        base, offset = self.address(inst.operands[0])
        base = self.to_vgpr(base)
        var = self.lds_var(inst)
        dwords = self.dword_count(inst.type)
        regs = []
        for start, count in self.lds_chunks(var, offset, dwords, inst.type):
            reg = self.fresh_tuple(max(count, 1), self.name(inst))
            mods = _offset(offset + 4 * start)
            if count == 0:  # a lone 16-bit value
                self.emit("ds_read_u16", [reg], [base], mods)
                regs.append(reg)
                continue
            self.emit(f"ds_read_{LDS_BITS[count]}", [reg], [base], mods)
            regs.extend(self.tuple_parts(reg, count))
        self.loaded_value(inst, regs, "v")

    def select_lds_store(self, inst: Inst) -> None:
        address, value = inst.operands
        self.check_layout(value.type)
        base, offset = self.address(address)
        base = self.to_vgpr(base)
        words = self.stored_words(value)
        var = self.lds_var(inst)
        for start, count in self.lds_chunks(var, offset, self.dword_count(value.type), value.type):
            if count == 0:
                self.emit("ds_write_b16", [], [base, self.to_vgpr(words[0])], _offset(offset))
                continue
            data = self.tuple_of([self.to_vgpr(w) if count == 1 else w for w in words[start:start + count]])
            self.emit(f"ds_write_{LDS_BITS[count]}", [], [base, data], _offset(offset + 4 * start))

    def lds_var(self, inst: Inst):
        name = inst.attrs.get("var")
        return next((var for var in self.module.groupshared if var.name == name), None)

    def lds_chunks(self, var, offset: int, dwords: int, t: T.Type) -> list[tuple[int, int]]:
        """(first dword, dword count) per instruction: b64/b128 only where alignment allows."""
        if tight_size(t) == 2:
            return [(0, 0)]
        align = 4
        if var is not None:
            element_type = var.type
            while isinstance(element_type, T.ArrayType):
                element_type = element_type.element
            stride = tight_size(element_type)
            for candidate in (16, 8):
                if var.offset % candidate == 0 and offset % candidate == 0 and stride % candidate == 0:
                    align = candidate
                    break
        chunks = []
        start = 0
        while start < dwords:
            count = min(dwords - start, 4)
            if count == 3 and align < 16 or count == 4 and align < 16:
                count = 2 if align >= 8 else 1
            if count == 2 and align < 8:
                count = 1
            chunks.append((start, count))
            start += count
        return chunks

    def select_lds_atomic(self, inst: Inst) -> None:
        fn = inst.attrs["fn"]
        scalar = element(inst.type)
        base, offset = self.address(inst.operands[0])
        base = self.to_vgpr(base)
        width = 2 if scalar.bits == 64 else 1  # the 64-bit forms (``_u64``, ``_i64``, ``_b64``) take dword pairs
        data = [self.to_vgpr(self.component(operand, 0), width) for operand in inst.operands[1:]]
        returns = bool(self.users.get(inst))
        if fn in ("min", "max"):
            stem = f"ds_{fn}"
            suffix = "i32" if scalar.kind == "int" else "u32"
        elif fn == "add" and scalar.kind == "float":
            stem, suffix = "ds_add", "f32"
        else:
            stem = LDS_ATOMIC[fn]
            suffix = "b32" if fn in ("exchange", "cmpxchg", "and", "or", "xor") else "u32"
        if fn == "exchange":
            returns = True
        mods, suffix = _offset(offset), suffix.replace("32", str(scalar.bits))
        result = self.vreg("v", width, self.name(inst))
        if returns:
            self.emit(f"{stem}_rtn_{suffix}", [result], [base, *data], mods)
        else:
            self.emit(f"{stem}_{suffix}", [], [base, *data], mods)
        self.define(inst, [result], "v")

    # ------------------------------------------------------------ scratch
    def select_scratch_load(self, inst: Inst) -> None:
        self.check_layout(inst.type)
        base, offset = self.address(inst.operands[0], 2047, -2048)
        regs = []
        for start in range(0, self.dword_count(inst.type), 4):
            count = min(4, self.dword_count(inst.type) - start)
            reg = self.fresh_tuple(count, self.name(inst))
            self.emit(f"scratch_load_{DWORDS[count]}", [reg], self.scratch_address(base), _offset(offset + 4 * start))
            regs.extend(self.tuple_parts(reg, count))
        self.loaded_value(inst, regs, "v")

    def select_scratch_store(self, inst: Inst) -> None:
        address, value = inst.operands
        base, offset = self.address(address, 2047, -2048)
        words = self.stored_words(value)
        for start in range(0, len(words), 4):
            chunk = words[start:start + 4]
            data = self.tuple_of(chunk)
            self.emit(f"scratch_store_{DWORDS[len(chunk)]}", [], [*self.scratch_address(base)[:1], data,
                                                                 *self.scratch_address(base)[1:]],
                      _offset(offset + 4 * start))

    def scratch_address(self, base) -> list:
        if isinstance(base, Imm) and base.value == 0:
            return [Special("off"), Special("off")]
        if self.is_vgpr(base):
            return [base, Special("off")]
        return [Special("off"), self.to_sgpr(base)]

    # ------------------------------------------------------------ cbuffers
    def select_cbuffer_load(self, inst: Inst) -> None:
        binding = self.binding_by_name[inst.attrs["buffer"]]
        self.check_layout(inst.type)
        descriptor = self.descriptor(binding, None)
        base = inst.attrs.get("offset", 0)
        dynamic = inst.operands[0] if inst.operands else None
        dwords = self.dword_count(inst.type)
        bank = self.bank(inst)
        first, skew = base // 4 * 4, base % 4
        total = (skew + tight_size(inst.type) + 3) // 4
        if bank == "s":
            offset_operand = Text(f"0x{first:x}")
            if dynamic is not None:
                offset_reg = self.vreg("s")
                self.salu("s_add_u32", [offset_reg], [self.component(dynamic, 0), Imm(first)])
                offset_operand = offset_reg
            regs = []
            loaded = 0
            while loaded < total:
                width = min((w for w in (1, 2, 4, 8, 16) if w >= total - loaded), default=16) \
                    if total - loaded <= 16 else 16
                reg = self.vreg("s", width, self.name(inst))
                operand = offset_operand if loaded == 0 else self.smem_offset(offset_operand, loaded * 4)
                self.emit(f"s_buffer_load_{SMEM_DWORDS[width]}", [reg], [descriptor, operand])
                regs.extend(self.tuple_parts(reg, width))
                loaded += width
        else:
            address = self.to_vgpr(self.component(dynamic, 0)) if dynamic is not None else Special("off")
            regs = []
            for start in range(0, total, 4):
                count = min(4, total - start)
                reg = self.fresh_tuple(count, self.name(inst))
                mode = " offen" if dynamic is not None else ""
                self.emit(f"buffer_load_{DWORDS[count]}", [reg], [address, descriptor, Imm(0)],
                          f"{mode.strip()} offset:{first + 4 * start}".strip())
                regs.extend(self.tuple_parts(reg, count))
        parts = self.unskew(inst, regs, skew, bank)
        if element(inst.type).bits != 16:
            parts = parts[:max(dwords, 1)]
        self.loaded_value(inst, parts, bank)

    def smem_offset(self, operand, extra: int):
        if isinstance(operand, Text):
            return Text(f"0x{int(operand.name, 16) + extra:x}")
        reg = self.vreg("s")
        self.salu("s_add_u32", [reg], [operand, Imm(extra)])
        return reg

    def unskew(self, inst: Inst, regs: list, skew: int, bank: str) -> list:
        """16-bit members start mid-dword: shift each component down to bit 0."""
        scalar = element(inst.type)
        if scalar.bits != 16:
            return regs
        if is_packed(inst.type, bank) and skew == 0:
            return regs
        count = components(inst.type)
        parts = []
        for k in range(count):
            byte = skew + 2 * k
            word = regs[byte // 4]
            if byte % 4 == 0:
                parts.append(word)
                continue
            shifted = self.vreg(bank)
            if bank == "s":
                self.salu("s_lshr_b32", [shifted], [word, Imm(16)])
            else:
                self.valu("v_lshrrev_b32", [shifted], [Imm(16), word])
            parts.append(shifted)
        if is_packed(inst.type, bank):
            return [self.pack_pair(parts[i:i + 2], scalar.kind == "float") for i in range(0, count, 2)]
        return parts

    # ------------------------------------------------------------- buffers
    def buffer_addressing(self, binding: Binding, index: Inst, dynamic: Inst | None = None) -> tuple:
        """(vaddr operand, addressing modifier) for an element index or a byte address; with a
        dynamic byte offset inside a structured element, the pair (index, offset) as ``idxen offen``."""
        if dynamic is not None:
            pair = [self.to_vgpr(self.component(index, 0)), self.to_vgpr(self.component(dynamic, 0))]
            return self.tuple_of(pair), "idxen offen"
        vaddr = self.to_vgpr(self.component(index, 0))
        if binding.kind in ("ByteAddressBuffer", "RWByteAddressBuffer"):
            return vaddr, "offen"
        return vaddr, "idxen"

    def select_buffer_load(self, inst: Inst) -> None:
        binding = self.binding_of(inst)
        self.check_layout(inst.type)
        array_index, rest = self.split_index(inst, binding)
        index, dynamic, _ = self.split_offset(inst, rest)
        descriptor = self.descriptor(binding, array_index)
        offset = inst.attrs.get("offset", 0)
        dwords = self.dword_count(inst.type)
        bank = self.bank(inst)
        # bools are always "s" (lane masks): only a uniform read of a read-only buffer is an SMEM load
        scalar = bank == "s" and (element(inst.type).kind != "bool" or not (
            self.divergent(inst) or binding.kind.startswith("RW")))
        if scalar:
            regs = self.scalar_buffer_load(inst, binding, descriptor, index, offset, dwords, dynamic)
            self.loaded_value(inst, regs, "s")
            return
        vaddr, mode = self.buffer_addressing(binding, index, dynamic)
        # a format load widens each 16-bit channel to a dword: 16-bit elements move as raw dwords
        typed = binding.kind in ("Buffer", "RWBuffer") and element(inst.type).bits == 32
        regs = []
        if tight_size(inst.type) == 2:
            reg = self.fresh_tuple(1, self.name(inst))
            self.emit("buffer_load_ushort", [reg], [vaddr, descriptor, Imm(0)],
                      f"{mode}{_offset(offset, ' ')}{self.coherent(binding)}")
            self.loaded_value(inst, [reg], "v")
            return
        for start in range(0, dwords, 4):
            count = min(4, dwords - start)
            reg = self.fresh_tuple(count, self.name(inst))
            name = f"buffer_load_format_{'xyzw'[:count]}" if typed else f"buffer_load_{DWORDS[count]}"
            self.emit(name, [reg], [vaddr, descriptor, Imm(0)],
                      f"{mode}{_offset(offset + 4 * start, ' ')}{self.coherent(binding)}")
            regs.extend(self.tuple_parts(reg, count))
        self.loaded_value(inst, regs, "v")

    def scalar_buffer_load(self, inst, binding, descriptor, index, offset, dwords, dynamic=None) -> list:
        stride = 1 if binding.kind.endswith("ByteAddressBuffer") else tight_size(binding.element or T.UINT)
        value = self.component(index, 0)
        if isinstance(value, Imm) and dynamic is None:
            operand = Text(f"0x{int(value.value) * stride + offset:x}")
        elif isinstance(value, Imm):
            operand = self.vreg("s")
            self.salu("s_add_u32", [operand], [self.to_sgpr(self.component(dynamic, 0)),
                                               Imm(int(value.value) * stride + offset)])
        else:
            operand = self.vreg("s")
            self.salu_binary(Op.MUL, "u32", operand, value, Imm(stride))
            if dynamic is not None:
                self.salu("s_add_u32", [operand], [operand, self.to_sgpr(self.component(dynamic, 0))])
            if offset:
                self.salu("s_add_u32", [operand], [operand, Imm(offset)])
        width = min(w for w in (1, 2, 4, 8, 16) if w >= dwords)
        reg = self.vreg("s", width, self.name(inst))
        self.emit(f"s_buffer_load_{SMEM_DWORDS[width]}", [reg], [descriptor, operand])
        return self.tuple_parts(reg, width)[:dwords]

    def select_buffer_store(self, inst: Inst) -> None:
        binding = self.binding_of(inst)
        array_index, rest = self.split_index(inst, binding)
        index, dynamic, (value,) = self.split_offset(inst, rest)
        self.check_layout(value.type)
        descriptor = self.descriptor(binding, array_index)
        offset = inst.attrs.get("offset", 0)
        vaddr, mode = self.buffer_addressing(binding, index, dynamic)
        typed = binding.kind in ("Buffer", "RWBuffer") and element(value.type).bits == 32  # as in loads
        if tight_size(value.type) == 2:
            self.emit("buffer_store_short", [], [self.to_vgpr(self.component(value, 0)), vaddr, descriptor, Imm(0)],
                      f"{mode}{_offset(offset, ' ')}")
            return
        words = self.stored_words(value)
        if not typed and tight_size(value.type) % 4 == 2:  # half3: two dwords would write 8 of its 6 bytes
            last = self.to_vgpr(words.pop())
            self.emit("buffer_store_short", [], [last, vaddr, descriptor, Imm(0)],
                      f"{mode}{_offset(offset + 4 * len(words), ' ')}")
        for start in range(0, len(words), 4):
            chunk = words[start:start + 4]
            data = self.tuple_of(chunk, self.name(value))
            name = f"buffer_store_format_{'xyzw'[:len(chunk)]}" if typed else f"buffer_store_{DWORDS[len(chunk)]}"
            self.emit(name, [], [data, vaddr, descriptor, Imm(0)], f"{mode}{_offset(offset + 4 * start, ' ')}")

    def select_buffer_atomic(self, inst: Inst) -> None:
        binding = self.binding_of(inst)
        array_index, rest = self.split_index(inst, binding)
        index, dynamic, values = self.split_offset(inst, rest)
        descriptor = self.descriptor(binding, array_index)
        fn = inst.attrs["fn"]
        scalar = element(inst.type)
        if scalar.kind == "float" or scalar.bits not in (32, 64):
            self.fail(f"buffer atomics on {scalar} values")
        if fn in ("min", "max"):
            name = f"buffer_atomic_{'s' if scalar.kind == 'int' else 'u'}{fn}"
        else:
            name = BUFFER_ATOMIC[fn]
        width = scalar.bits // 32  # a 64-bit atomic (``_x2``) takes and returns dword pairs
        sources = list(reversed(values)) if fn == "cmpxchg" else [values[0]]  # data: (value[, compare])
        data = self.vreg("v", width * len(sources), self.name(inst))
        if len(sources) > 1 or width > 1:
            self.emit(IMPLICIT_DEF, [data])
        for k, source in enumerate(sources):
            for half in range(width):
                part = self.component(source, 0)
                target = data.part(k * width + half) if data.size > 1 else data
                self.move(target, self.half_of(part, half) if width > 1 else part, "v")
        result = data.part(0, width) if data.size > 1 else data
        if is_texture(binding):  # an RW texture's texel: image_atomic_* at the texel coordinate
            self.image_atomic(inst, binding, name.replace("buffer_", "image_"), data, index, descriptor)
            self.define(inst, [result], "v")
            return
        if width == 2:
            name += "_x2"
        vaddr, mode = self.buffer_addressing(binding, index, dynamic)
        offset = _offset(inst.attrs.get("offset", 0), " ")
        if self.users.get(inst):
            self.emit(name, [data], [vaddr, descriptor, Imm(0)], f"{mode}{offset} glc")
        else:
            self.emit(name, [], [data, vaddr, descriptor, Imm(0)], f"{mode}{offset}")
        self.define(inst, [result], "v")

    # ------------------------------------------------------------- barriers
    def select_barrier(self, inst: Inst) -> None:
        """Group scope: LDS traffic done (the wait pass adds ``s_waitcnt lgkmcnt(0)``), then ``s_barrier``.
        Device scope: every memory counter drained, then the L1 and L0 caches invalidated."""
        scope = inst.attrs.get("scope", "group")
        sync = inst.attrs.get("sync", True)
        if scope == "group":
            if sync:
                self.emit("s_barrier")
            else:
                self.emit("s_waitcnt", [], [], "lgkmcnt(0)")
            return
        self.emit("s_waitcnt", [], [], "vmcnt(0) lgkmcnt(0)")
        self.emit("s_waitcnt_vscnt", [], [Special("null"), Text("0x0")])
        if sync:
            self.emit("s_barrier")
        self.emit("buffer_gl1_inv")
        self.emit("buffer_gl0_inv")


def _dword_pair(low):
    """The 64-bit register pair that starts at the loaded dword ``low``."""
    return SubReg(low.base, low.index, 2) if isinstance(low, SubReg) else low.part(0, 2)


def _offset(value: int, lead: str = "") -> str:
    return f"{lead}offset:{value}" if value else ""


def _scalar_sizes(t: T.Type, sizes: set) -> None:
    if isinstance(t, T.StructType):
        for _, field_type in t.fields:
            _scalar_sizes(field_type, sizes)
    elif isinstance(t, T.ArrayType):
        _scalar_sizes(t.element, sizes)
    else:
        scalar = t.element if isinstance(t, (T.VectorType, T.MatrixType)) else t
        if isinstance(scalar, T.ScalarType):
            sizes.add(scalar.bits // 8)


def _constant_operand(inst: Inst):
    """(constant, other operand) of an integer addition with one constant operand, or None."""
    if inst.op is not Op.ADD or len(inst.operands) != 2:
        return None
    left, right = inst.operands
    for constant, other in ((right, left), (left, right)):
        if constant.op is Op.CONST and not isinstance(constant.attrs["value"], list):
            value = int(constant.attrs["value"])
            if value >= 0 or True:
                return value & 0xFFFFFFFF if value >= 0 else value, other
    return None


def _address_use(user: Inst, value: Inst) -> bool:
    if user.op in (Op.LDS_LOAD, Op.LDS_ATOMIC, Op.SCRATCH_LOAD):
        return user.operands[0] is value and user.operands.count(value) == 1
    if user.op in (Op.LDS_STORE, Op.SCRATCH_STORE):
        return user.operands[0] is value and user.operands[1] is not value
    return False
