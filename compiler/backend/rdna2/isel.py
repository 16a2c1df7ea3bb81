"""Instruction selection: the middle end's final IR to RDNA2 machine IR, ``select(module)``.

Every IR value becomes a ``Val``: its components as machine operands, in one register
file. The file is the register report's (``passes/liveness.py``): divergent values and
what only the vector unit can produce live in VGPRs, other uniform values in SGPRs, a
bool is a lane mask in SGPRs (``v_cmp`` results; ``s_cselect -1, 0`` when uniform) and a
constant is an immediate until an instruction needs it in a register. VGPR vectors of
16-bit elements pack two components per register (``half4`` = 2 VGPRs).

Selection is table-driven (STYLE item 12): ``isel_tables.py`` maps (op, type class) to
mnemonics; the mixins hold the emitters:

    isel_alu.py     arithmetic, comparisons, selects, conversions, math, vector shaping
    isel_f64.py     doubles (source modifiers, the division sequence, conversions)
    isel_int64.py   64-bit integer mul/div/min/max/shifts/bits, their f32 conversions
    isel_memory.py  descriptors, LDS, scratch, buffers, images, cbuffers, atomics, barriers
    isel_wave.py    lane-exchange primitives, whole-wave mode, thread inputs
    control.py      exec-mask control flow, phi copies, branches, the waterfall loop

Values are computed where the IR computes them. A component result gets its own VGPR,
except that a value stored as a whole (a ``float4`` written to memory) is computed
straight into a register tuple (``v[4:7]``): ``implicit_def`` marks where such a tuple
starts, for the allocator, and prints nothing. Loads define tuples; extracting a
component is a sub-register, never a copy.
"""

from __future__ import annotations

import struct

from ...diagnostics import UNKNOWN, Coord, Unsupported
from ...frontend import hlsl_types as T
from ...ir.core import Block, Inst, Module
from ...ir.ops import Op
from ...ir.printer import Printer
from ...passes.liveness import _register_banks as register_banks
from ...passes.uniformity import LANE, Uniformity
from .cleanup import CleanUp
from .smem_clauses import read_only_descriptors
from .control import ControlFlow
from .isel_alu import AluSelection
from .isel_memory import MemorySelection
from .isel_wave import WaveSelection
from .isel_values import (Val, base_id, components, element, flat_constants, half_bits, is_packed,
                          part_count, register_key)
from .machine import IMPLICIT_DEF, Imm, Label, MBlock, MFunction, MInst, Special, SubReg, VReg


class SelectionError(Unsupported):
    """The IR uses something the RDNA2 back end cannot select yet: an error at ``coord``."""

    def __init__(self, message: str, coord: Coord = UNKNOWN):
        super().__init__(message, coord)


class Selector(AluSelection, MemorySelection, WaveSelection, ControlFlow):
    """One module's selection; ``run()`` returns the MFunction over virtual registers."""

    def __init__(self, module: Module):
        self.module = module
        self.clean_up = CleanUp()  # cleanup.py, after selection
        self.function = module.function
        info = module.analyses.get("uniformity")
        if info is None or any(inst not in info.levels for inst in self.function.instructions()
                               if inst.type != T.VOID and inst.op is not Op.CONST):
            Uniformity().run(module)
            info = module.analyses["uniformity"]
        self.info = info
        self.banks = register_banks(module, info)
        self.wave = self.function.wave_size
        self.mask_size = self.wave // 32
        self.mf = MFunction(self.function.name, [], self.wave)
        self.values: dict[Inst, Val] = {}
        self.users: dict[Inst, list[Inst]] = self.function.users()
        self.names = Printer(self.function, show_coords=False).names
        self.coord: Coord = UNKNOWN
        self.block: MBlock | None = None
        self.fresh_block = False
        self.prologue: list[MInst] = []
        self.block_labels: dict[Block, Label] = {}
        self.label_blocks: dict[str, MBlock] = {}
        self.wwm_saved: VReg | None = None
        self.want_wwm = False
        self.switching_mode = False
        self.copies: dict = {}  # (machine block, operand key, file) -> a copy of it in the other file
        self.copy_sources: dict = {}  # operand key -> cache keys to forget when it is overwritten
        self.placement: dict[Inst, tuple[VReg, int]] = {}
        self.started_tuples: set[int] = set()
        self.extra_lds = 0
        self.binding_by_name = {binding.name: binding for binding in module.bindings}
        self.construct_targets: dict = {}
        self.deferred: dict[Inst, bool] = {}
        self.resinfo_cache: dict = {}
        self.folded: set[Inst] = set()
        self.fixed_results: set[Inst] = set()
        self.skipped: set[Block] = set()
        self.index: dict[Block, int] = {}
        self.coalesced: set[Inst] = set()
        self.layout_set: set[Block] = set()

    # ------------------------------------------------------------------ driver
    def run(self) -> MFunction:
        layout = self.reachable_layout()
        self.layout_set = set(layout)
        self.plan_control(layout)
        self.plan_tuples(layout)
        self.setup_abi()
        for block in layout:
            if block in self.skipped:
                continue
            self.begin_block(block)
            for inst in block.insts:
                if inst.op is Op.PHI:
                    continue
                self.coord = inst.coord
                self.want_wwm = bool(inst.attrs.get("wwm")) and not inst.is_terminator
                if inst.is_terminator:
                    self.leave_wwm()
                    self.terminator(block, inst)
                    continue
                self.select_inst(inst)
            self.want_wwm = False
            self.leave_wwm()
        self.finish()
        self.clean_up.run(self.mf, read_only_descriptors(self.descriptors, self.binding_by_name))
        return self.mf

    def reachable_layout(self) -> list[Block]:
        seen = {self.function.entry}
        stack = [self.function.entry]
        while stack:
            for successor in stack.pop().successors:
                if successor not in seen:
                    seen.add(successor)
                    stack.append(successor)
        return [block for block in self.function.blocks if block in seen]

    def select_inst(self, inst: Inst) -> None:
        if inst in self.folded:
            return
        handler = self.HANDLERS.get(inst.op)
        if handler is None:
            raise SelectionError(f"the RDNA2 back end cannot select '{inst.op.value}'", inst.coord)
        try:
            getattr(self, handler)(inst)
        except (KeyError, NotImplementedError) as failure:  # a type the handler's tables lack
            raise SelectionError(f"the RDNA2 back end does not support '{inst.op.value}' on {inst.type} "
                                 f"values yet", inst.coord) from failure

    HANDLERS = {
        Op.CONST: "select_const",
        Op.THREAD_INPUT: "select_thread_input",
        **{op: "select_binary" for op in (Op.ADD, Op.SUB, Op.MUL, Op.MIN, Op.MAX, Op.AND, Op.OR, Op.XOR,
                                          Op.SHL, Op.SHR)},
        Op.DIV: "select_divide", Op.REM: "select_divide",
        Op.NEG: "select_unary", Op.ABS: "select_unary", Op.NOT: "select_unary",
        Op.FMA: "select_fma", Op.MATH: "select_math", Op.BITS: "select_bits", Op.DOT: "select_dot",
        **{op: "select_compare" for op in (Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE)},
        Op.SELECT: "select_select",
        Op.CONVERT: "select_convert", Op.BITCAST: "select_bitcast",
        Op.F32TOF16: "select_f32tof16", Op.F16TOF32: "select_f16tof32",
        Op.CONSTRUCT: "select_construct", Op.EXTRACT: "select_extract", Op.INSERT: "select_insert",
        Op.SHUFFLE: "select_shuffle",
        Op.SCRATCH_LOAD: "select_scratch_load", Op.SCRATCH_STORE: "select_scratch_store",
        Op.LDS_LOAD: "select_lds_load", Op.LDS_STORE: "select_lds_store", Op.LDS_ATOMIC: "select_lds_atomic",
        Op.CBUFFER_LOAD: "select_cbuffer_load",
        Op.BUFFER_LOAD: "select_buffer_load", Op.BUFFER_STORE: "select_buffer_store",
        Op.BUFFER_ATOMIC: "select_buffer_atomic",
        Op.TEXTURE_LOAD: "select_texture_load", Op.TEXTURE_STORE: "select_texture_store",
        Op.TEXTURE_SAMPLE: "select_texture_sample", Op.TEXTURE_GATHER: "select_texture_gather",
        Op.RESOURCE_INFO: "select_resource_info",
        Op.BARRIER: "select_barrier",
        Op.DPP16: "select_dpp16", Op.DPP8: "select_dpp8", Op.PERMLANEX16: "select_permlanex16",
        Op.DS_SWIZZLE: "select_ds_swizzle", Op.DS_BPERMUTE: "select_ds_bpermute",
        Op.READLANE: "select_readlane", Op.READFIRSTLANE: "select_readfirstlane",
        Op.WRITELANE: "select_writelane", Op.SET_INACTIVE: "select_set_inactive",
        Op.BALLOT_MASK: "select_ballot_mask", Op.MBCNT: "select_mbcnt", Op.BCNT: "select_bcnt",
        Op.LDS_EXCHANGE: "select_lds_exchange",
    }

    # ---------------------------------------------------------------- emission
    def emit(self, mnemonic: str, defs=(), uses=(), modifiers: str = "", comment: str = "") -> MInst:
        uses = self.vector_fields_in_vgprs(mnemonic, list(defs), list(uses))
        return self.append(MInst(mnemonic, list(defs), uses, modifiers, self.coord, comment))

    def vector_fields_in_vgprs(self, mnemonic: str, defs: list, uses: list) -> list:
        """Vector memory and images take address and data from VGPRs (the two fields before the
        resource), LDS every field: an SGPR or a constant there is copied with ``v_mov_b32`` first."""
        if mnemonic.startswith("ds_"):
            vector = len(uses)
        elif mnemonic.startswith(("buffer_", "image_", "scratch_", "global_")):
            vector = max(0, 2 - len(defs))
        else:
            return uses
        return [self.to_vgpr(use) if k < vector and (isinstance(use, Imm) or self.is_sgpr(use))
                and not isinstance(use, Special) else use for k, use in enumerate(uses)]

    def append(self, inst: MInst) -> MInst:
        if self.fresh_block:
            self.new_block()
        if self.want_wwm != (self.wwm_saved is not None) and not self.switching_mode:
            self.switching_mode = True
            self.enter_wwm() if self.want_wwm else self.leave_wwm()
            self.switching_mode = False
        inst.coord = inst.coord if inst.coord.line > 0 else self.coord
        self.block.insts.append(inst)
        if self.copies and ("exec" in inst.mnemonic or any(isinstance(d, Special) for d in inst.defs)):
            self.copies.clear()  # a copy made under one exec mask is partial under another
            self.copy_sources.clear()
        elif self.copies:
            for operand in inst.defs:
                key = base_id(operand)
                if key in self.copy_sources:
                    for cached in self.copy_sources.pop(key):
                        self.copies.pop(cached, None)
        return inst

    def new_block(self, label: Label | None = None, comment: str = "") -> MBlock:
        name = label.name if label is not None else f"@anon{len(self.mf.blocks)}"
        block = MBlock(name, [], comment)
        self.mf.blocks.append(block)
        self.label_blocks[name] = block
        self.block = block
        self.fresh_block = False
        return block

    def branch(self, mnemonic: str, target: Label) -> None:
        """A branch ends its machine block; what follows starts a new (fall-through) one."""
        self.emit(mnemonic, [], [target])
        self.fresh_block = True

    def label(self, block: Block) -> Label:
        if block not in self.block_labels:
            self.block_labels[block] = Label(f"@{block.name}")
        return self.block_labels[block]

    def fail(self, what: str) -> None:
        raise SelectionError(f"the RDNA2 back end does not support {what}", self.coord)

    def vreg(self, cls: str, size: int = 1, name: str = "") -> VReg:
        return VReg(cls, size, name)

    def mask_reg(self, name: str = "") -> VReg:
        return VReg("s", self.mask_size, name)

    @property
    def exec(self) -> Special:
        return self.mf.exec_reg

    @property
    def b(self) -> str:
        """The lane-mask operation width: ``b32`` in wave32, ``b64`` in wave64."""
        return self.mf.mask_suffix

    # ------------------------------------------------------------------- values
    def val(self, inst: Inst) -> Val:
        value = self.values.get(inst)
        if value is None:
            if inst in self.folded:  # an address addition that could not fold everywhere
                self.folded.discard(inst)
                self.select_binary(inst)
                return self.values[inst]
            if inst.op is Op.CONST:
                self.select_const(inst)
                return self.values[inst]
            raise SelectionError(f"value {self.names.get(inst, '%?')} used before it is defined", self.coord)
        return value

    def bank(self, inst: Inst) -> str:
        return self.banks.get(inst, "s" if inst.op is Op.CONST else "v")

    def divergent(self, inst: Inst) -> bool:
        return self.info.level(inst) == LANE

    def name(self, inst: Inst) -> str:
        return self.names.get(inst, "")

    def select_const(self, inst: Inst) -> None:
        if inst in self.values:
            return
        scalar = element(inst.type)
        values = flat_constants(inst.attrs["value"])
        if len(values) == 1 and components(inst.type) > 1:
            values = values * components(inst.type)
        parts = [self.immediate(value, scalar) for value in values]
        self.values[inst] = Val(parts, "s")

    def immediate(self, value, scalar: T.ScalarType) -> Imm:
        if scalar.kind == "bool":
            return Imm(-1 if value else 0)
        if scalar.kind == "float":
            if scalar.bits == 16:  # a bit pattern: the constant may also travel through 32-bit moves
                return Imm(half_bits(float(value)))
            return Imm(float(value))
        number = int(value)
        if scalar.bits == 64:
            return Imm(number & 0xFFFFFFFFFFFFFFFF if number >= 0 else number)
        number &= 0xFFFFFFFF
        return Imm(number - (1 << 32) if number >= 0x80000000 and number - (1 << 32) >= -16 else number)

    def component(self, inst: Inst, index: int):
        """Component ``index`` of ``inst`` as one operand (a packed 16-bit half is unpacked)."""
        value = self.val(inst)
        if not value.packed:
            return value.parts[index]
        part = value.parts[index // 2]
        if index % 2 == 0:
            return part
        if isinstance(part, Imm):
            return Imm((int(part.value) >> 16) & 0xFFFF) if isinstance(part.value, int) else part
        result = self.vreg("v", 1, self.name(inst))
        self.emit("v_lshrrev_b32", [result], [Imm(16), part])
        return result

    def comps(self, inst: Inst) -> list:
        return [self.component(inst, index) for index in range(components(inst.type))]

    def result(self, inst: Inst, bank: str | None = None, parts: int | None = None) -> Val:
        """Fresh registers for ``inst``'s result, in a tuple when the value is wanted whole."""
        bank = bank or self.bank(inst)
        packed = is_packed(inst.type, bank)
        count = parts if parts is not None else part_count(inst.type, bank)
        scalar = element(inst.type)
        name = self.name(inst)
        if scalar.kind == "bool":
            value = Val([self.mask_reg(name) for _ in range(count)], "s")
        elif inst in self.placement:
            base, offset = self.placement[inst]
            self.start_tuple(base)
            value = Val([base.part(offset + k) for k in range(count)], bank, packed)
            self.fixed_results.add(inst)
        elif (target := self.coalesce_target(inst, bank, count)) is not None:
            value = Val(list(target.parts), bank, packed)
            self.fixed_results.add(inst)
        elif scalar.bits == 64:
            value = Val([self.vreg(bank, 2, name) for _ in range(count)], bank, packed)
        else:
            value = Val([self.vreg(bank, 1, name) for _ in range(count)], bank, packed)
        self.values[inst] = value
        return value

    def coalesce_target(self, inst: Inst, bank: str, count: int):
        """The registers of the phi that is ``inst``'s only user, along a forward edge from its block.

        Computing the value straight into them saves the phi copy: along a forward edge the
        phi's registers hold nothing live in the predecessor.
        """
        users = self.users.get(inst, [])
        if len(users) != 1 or users[0].op is not Op.PHI or element(inst.type).kind == "bool":
            return None
        phi = users[0]
        incoming = [pred for value, pred in zip(phi.operands, phi.targets) if value is inst]
        if len(incoming) != 1 or phi in self.coalesced or phi.type != inst.type or self.bank(phi) != bank:
            return None
        backward = self.index.get(phi.block, -1) <= self.index.get(incoming[0], 1 << 30)
        if backward and not self.safe_back_edge(inst, phi) or not backward and incoming != [inst.block]:
            return None
        target = self.values.get(phi) or self.result(phi)
        if len(target.parts) != count or target.packed != is_packed(inst.type, bank):
            return None
        return target

    def safe_back_edge(self, inst: Inst, phi: Inst) -> bool:
        """A loop-carried value may be computed into its header phi's registers when, from its
        definition to the back edge, the code runs straight through (no exit could still see the
        phi's old value) and nothing reads the phi any more."""
        latch = next(pred for value, pred in zip(phi.operands, phi.targets) if value is inst)
        start, end = self.index.get(inst.block), self.index.get(latch)
        if start is None or end is None or start > end:
            return False
        for block in self.layout[start:end + 1]:
            term = block.terminator
            expected = phi.block if block is latch else self.layout[self.index[block] + 1]
            if term is None or term.op is not Op.BR or term.targets[0] is not expected:
                return False
        position = inst.block.insts.index(inst)
        for user in self.users.get(phi, []):
            if user.op is Op.PHI and user.block is phi.block:
                return False
            where = self.index.get(user.block)
            if where is None:
                continue
            if user.block is inst.block and user.block.insts.index(user) > position or start < where <= end:
                return False
        return True

    def start_tuple(self, base: VReg) -> None:
        if id(base) not in self.started_tuples:
            self.started_tuples.add(id(base))
            self.emit(IMPLICIT_DEF, [base])

    def define(self, inst: Inst, parts: list, bank: str | None = None, packed: bool = False) -> Val:
        value = Val(list(parts), bank or self.bank(inst), packed)
        self.values[inst] = value
        return value

    # ----------------------------------------------------------- register moves
    def is_vgpr(self, operand) -> bool:
        return isinstance(operand, (VReg, SubReg)) and operand.cls == "v"

    def is_sgpr(self, operand) -> bool:
        return (isinstance(operand, (VReg, SubReg)) and operand.cls == "s") or isinstance(operand, Special)

    def width(self, operand) -> int:
        if isinstance(operand, VReg):
            return operand.size
        if isinstance(operand, SubReg):
            return operand.count
        return 1

    def cached_copy(self, operand, file: str):
        if self.fresh_block:
            return None
        return self.copies.get((id(self.block), register_key(operand), file))

    def remember_copy(self, operand, file: str, copy) -> None:
        key = (id(self.block), register_key(operand), file)
        self.copies[key] = copy
        self.copy_sources.setdefault(base_id(operand), []).append(key)

    def to_vgpr(self, operand, size: int = 1):
        """``operand`` in a VGPR: registers as they are, SGPRs and constants through ``v_mov_b32``."""
        if self.is_vgpr(operand):
            return operand
        cached = self.cached_copy(operand, "v")
        if cached is not None:
            return cached
        size = max(size, self.width(operand))
        result = self.vreg("v", size)
        if size == 1:
            self.emit("v_mov_b32", [result], [operand])
        else:
            for index in range(size):
                self.emit("v_mov_b32", [result.part(index)], [self.half_of(operand, index)])
        self.remember_copy(operand, "v", result)
        return result

    def to_sgpr(self, operand, size: int = 1):
        """``operand`` in an SGPR: a uniform VGPR value through ``v_readfirstlane_b32``."""
        if self.is_sgpr(operand):
            return operand
        cached = self.cached_copy(operand, "s")
        if cached is not None:
            return cached
        if isinstance(operand, Imm):
            size = max(size, 1)
            result = self.vreg("s", size)
            self.emit("s_mov_b32" if size == 1 else "s_mov_b64", [result], [operand])
        else:
            size = self.width(operand)
            result = self.vreg("s", size)
            for index in range(size):
                target = result if size == 1 else result.part(index)
                source = operand if size == 1 else self.half_of(operand, index)
                self.emit("v_readfirstlane_b32", [target], [source])
        self.remember_copy(operand, "s", result)
        return result

    def half_of(self, operand, index: int):
        """The low (0) or high (1) 32 bits of a 64-bit operand."""
        if isinstance(operand, Imm):  # a float here is a double: its words
            number = int(operand.value) if not isinstance(operand.value, float) else \
                int.from_bytes(struct.pack("<d", operand.value), "little")
            if number < 0 and index == 1:
                return Imm(-1)
            part = (number >> (32 * index)) & 0xFFFFFFFF
            return Imm(part - (1 << 32) if part >= 0x80000000 and part - (1 << 32) >= -16 else part)
        if isinstance(operand, Special):
            return Special(f"{operand.name}_{'lo' if index == 0 else 'hi'}") if operand.name in ("exec", "vcc") \
                else operand
        if isinstance(operand, VReg):
            return operand.part(index) if operand.size > 1 else operand
        if isinstance(operand, SubReg):
            return SubReg(operand.base, operand.index + index, 1) if operand.count > 1 else operand
        return operand

    def move(self, target, source, bank: str, bits: int = 32) -> None:
        """Copy one part (a 32-bit register, or a 64-bit pair)."""
        if bank == "s":
            if self.is_vgpr(source):
                self.emit("v_readfirstlane_b32", [target], [source])
            else:
                self.emit("s_mov_b64" if self.width(target) == 2 else "s_mov_b32", [target], [source])
            return
        if self.width(target) == 2:
            for index in range(2):
                self.emit("v_mov_b32", [self.half_of(target, index)], [self.half_of(source, index)])
            return
        self.emit("v_mov_b32", [target], [source])

    def tuple_of(self, parts: list, name: str = ""):
        """The parts as one contiguous VGPR tuple operand, copying them into a new one if needed."""
        parts = [self.to_vgpr(part) for part in parts] if len(parts) == 1 else parts
        if len(parts) == 1:
            return parts[0]
        first = parts[0]
        if isinstance(first, SubReg) and first.count == 1 and all(
                isinstance(part, SubReg) and part.base is first.base and part.count == 1
                and part.index == first.index + k for k, part in enumerate(parts)):
            if first.index == 0 and len(parts) == first.base.size:
                return first.base
            return SubReg(first.base, first.index, len(parts))
        result = self.vreg("v", len(parts), name)
        self.emit(IMPLICIT_DEF, [result])
        for index, part in enumerate(parts):
            self.emit("v_mov_b32", [result.part(index)], [part])
        return result

    # ------------------------------------------------------------- whole wave
    def enter_wwm(self) -> None:
        """Whole-wave mode starts lazily, at the first instruction that needs it, and ends likewise."""
        if self.wwm_saved is None:
            saved = self.mask_reg("wwm")
            self.emit(f"s_or_saveexec_{self.b}", [saved], [Imm(-1)], comment="whole-wave mode")
            self.wwm_saved = saved

    def leave_wwm(self) -> None:
        if self.wwm_saved is not None:
            saved, self.wwm_saved = self.wwm_saved, None
            switching, self.switching_mode = self.switching_mode, True
            self.emit(f"s_mov_{self.b}", [self.exec], [saved])
            self.switching_mode = switching

    # ------------------------------------------------------------------ tuples
    def plan_tuples(self, layout: list[Block]) -> None:
        """Values stored whole get a register tuple; so do single-use parts of such a construct."""
        wanted = []
        stores = {Op.BUFFER_STORE: -1, Op.TEXTURE_STORE: -1, Op.LDS_STORE: -1, Op.SCRATCH_STORE: -1}
        for block in layout:
            for inst in block.insts:
                if inst.op in stores and inst.operands:
                    wanted.append(inst.operands[-1])
        for value in wanted:
            if value in self.placement or value.op is Op.CONST or self.bank(value) != "v":
                continue
            count = part_count(value.type, "v")
            if count < 2 or element(value.type).bits == 64:
                continue
            if value.op in _TUPLE_FRIENDLY:
                self.placement[value] = (self.vreg("v", count, self.name(value)), 0)
            elif value.op is Op.CONSTRUCT:
                self.place_construct(value, count)

    def place_construct(self, construct: Inst, count: int) -> None:
        if is_packed(construct.type, "v"):
            return
        base = self.vreg("v", count, self.name(construct))
        offset = 0
        placed = False
        for operand in construct.operands:
            size = part_count(operand.type, "v")
            if (operand.op in _TUPLE_FRIENDLY and operand.block is construct.block and operand not in self.placement
                    and len(self.users.get(operand, [])) == 1 and self.bank(operand) == "v"
                    and not is_packed(operand.type, "v") and element(operand.type).bits == 32):
                self.placement[operand] = (base, offset)
                placed = True
            offset += size
        if placed:
            self.construct_targets[construct] = base

    def finish(self) -> None:
        """Insert the kernel prologue, join each block no branch targets to the one before it when
        that one cannot branch (the middle end leaves such chains where a branch folded away: one
        block runs the other's instructions right after its own, so the clean-ups see them as one),
        and name the labels ``.LBB0_N``."""
        entry = self.mf.blocks[0]
        entry.insts[0:0] = self.prologue
        targets = {operand.name for inst in self.mf.instructions() for operand in inst.uses
                   if isinstance(operand, Label)}
        kept = []
        for block in self.mf.blocks:
            if kept and block.label not in targets and not kept[-1].may_branch:
                kept[-1].insts += block.insts
            elif block.insts or block.label in targets or not kept:
                kept.append(block)
        self.mf.blocks = kept
        renames = {}
        for number, block in enumerate(kept):
            renames[block.label] = f".LBB0_{number}"
            block.label = renames[block.label]
        for inst in self.mf.instructions():
            inst.uses = [Label(renames[op.name]) if isinstance(op, Label) and op.name in renames else op
                         for op in inst.uses]
        self.mf.targets = {renames[name] for name in targets if name in renames}


_TUPLE_FRIENDLY = frozenset({
    Op.ADD, Op.SUB, Op.MUL, Op.MIN, Op.MAX, Op.AND, Op.OR, Op.XOR, Op.SHL, Op.SHR, Op.FMA, Op.NEG, Op.ABS,
    Op.MATH, Op.SELECT, Op.CONVERT, Op.PHI, Op.DIV, Op.DPP16, Op.DPP8,
})

def select(module: Module) -> MFunction:
    """The module's kernel as RDNA2 machine IR over virtual registers."""
    selector = Selector(module)
    function = selector.run()
    function.extra_lds = selector.extra_lds  # LDS the lane exchanges add to the kernel's own
    return function
