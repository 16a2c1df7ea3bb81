"""Running an allocated listing for one wave: what the printed instructions do, in NumPy.

    state = simulate(function, module, buffers={"out": array}, cbuffers={"C": bytes})

A test oracle for the back end (STYLE item 15): the IR interpreter says what a kernel computes,
this says what its listing computes, and tests compare the two. It runs the RDNA2 the selector
emits for buffers (``simulate_buffers.py``, typed ones in every format), LDS, images (loads, stores,
sizes and SampleLevel in ``simulate_images.py``, gather4 in ``simulate_gather.py``), scalar and vector
ALU work, DPP16 and exec-mask control flow; anything else raises ``SimulationError``. Registers are
32-bit words: VGPRs one per lane, SGPRs one per wave; a lane mask is one SGPR (wave32) or a pair
(wave64). The table at ``s[0:1]`` holds, per binding slot, a real gfx10 descriptor built from what
is bound (``simulate_descriptors.py``: V#, T# and S# words, GetDimensions reads their fields);
instructions find their array through the descriptor's base address.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

import numpy as np

from ...ir.core import Module
from ...machine import transcendentals
from . import simulate_atomics as atomics
from . import simulate_buffers as buffers
from . import simulate_denormals as denormals
from . import simulate_descriptors as descriptors
from . import simulate_gather as gathers
from . import simulate_images as images
from . import simulate_lds_pairs as lds_pairs
from . import simulate_wide as wide_alu
from .machine import Imm, Label, MFunction, MInst, Special, SubReg, VReg


class SimulationError(Exception):
    pass


@dataclass
class SimState:
    buffers: dict
    lds: np.ndarray
    steps: int = 0
    executed: dict = field(default_factory=dict)  # mnemonic -> count


def f32(words: np.ndarray) -> np.ndarray:
    return np.asarray(words, dtype=np.uint32).view(np.float32)


def u32(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).view(np.uint32) if np.asarray(values).dtype == np.float32 \
        else np.asarray(values).astype(np.uint32)


_VALU_F32 = {"add": np.add, "sub": np.subtract, "subrev": lambda a, b: b - a, "mul": np.multiply,
             "min": np.fmin, "max": np.fmax}
_VALU_U32 = {"add_nc_u32": lambda a, b: a + b, "sub_nc_u32": lambda a, b: a - b,
             "subrev_nc_u32": lambda a, b: b - a, "mul_lo_u32": lambda a, b: a * b,
             "and_b32": lambda a, b: a & b, "or_b32": lambda a, b: a | b, "xor_b32": lambda a, b: a ^ b,
             "lshlrev_b32": lambda a, b: b << (a & 31), "lshrrev_b32": lambda a, b: b >> (a & 31),
             "ashrrev_i32": lambda a, b: (b.astype(np.int32) >> (a & 31).astype(np.int32)).astype(np.uint32),
             "min_u32": np.minimum, "max_u32": np.maximum, "lshl_or_b32": lambda a, b, c: (a << (b & 31)) | c,
             "min_i32": lambda a, b: np.minimum(a.astype(np.int32), b.astype(np.int32)).astype(np.uint32),
             "max_i32": lambda a, b: np.maximum(a.astype(np.int32), b.astype(np.int32)).astype(np.uint32)}
_SALU = {"add_u32": lambda a, b: a + b, "add_i32": lambda a, b: a + b, "sub_u32": lambda a, b: a - b,
         "sub_i32": lambda a, b: a - b, "mul_i32": lambda a, b: a * b, "and_b32": lambda a, b: a & b,
         "or_b32": lambda a, b: a | b, "xor_b32": lambda a, b: a ^ b, "andn2_b32": lambda a, b: a & ~b,
         "lshl_b32": lambda a, b: a << (b & 31), "lshr_b32": lambda a, b: a >> (b & 31),
         "min_u32": min, "max_u32": max, "xnor_b32": lambda a, b: ~(a ^ b),
         "bfe_u32": lambda a, b: (a >> (b & 31)) & ((1 << ((b >> 16) & 0x7F)) - 1)}
_CONDITIONS = {"eq": np.equal, "ne": np.not_equal, "neq": lambda a, b: ~np.equal(a, b), "lg": np.not_equal,
               "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
               "u": lambda a, b: np.isnan(a) | np.isnan(b), "o": lambda a, b: ~(np.isnan(a) | np.isnan(b))}


class Machine:
    def __init__(self, function: MFunction, module: Module, buffers: dict, cbuffers: dict, lds_bytes: int):
        self.function = function
        self.module = module
        self.wave = function.wave_size
        self.v = np.zeros((256, self.wave), dtype=np.uint32)
        self.s = np.zeros(128, dtype=np.uint64)
        self.exec = np.ones(self.wave, dtype=bool)
        self.scc = False
        self.bindings = list(module.bindings)
        self.buffers = {name: _copy(array) for name, array in buffers.items()}
        self.cbuffers = dict(cbuffers)
        self.lds = np.zeros(max(lds_bytes, 4), dtype=np.uint8)
        self.scratch = np.zeros((self.wave, 1024), dtype=np.uint32)  # each lane's own 4 KiB
        self.state = SimState(self.buffers, self.lds)
        self.v[0] = np.arange(self.wave)  # thread id x: one group, lanes in order
        self.descriptor_table = self.table()
        self.flushed_sources, self.flushed_result = [], False  # the VALU instruction's fp32 roles
        self.border_colors: list = []  # the samplers' border colors, by S# border_color_ptr

    def table(self) -> dict[int, tuple[int, int]]:
        """Byte offset in the descriptor table -> (binding number, array element), as isel_memory lays it out."""
        table, offset = {}, 0
        ordered = [b for b in self.bindings if b.count is not None] + [b for b in self.bindings if b.count is None]
        for binding in ordered:
            for element in range(binding.count or 64):
                table[offset + 32 * element] = (self.bindings.index(binding), element)
            offset += 32 * (binding.count or 1)
        return table

    # ------------------------------------------------------------------ operands
    def regs(self, operand) -> tuple[str, int, int]:
        if isinstance(operand, VReg):
            return operand.cls, operand.phys, operand.size
        if isinstance(operand, SubReg):
            return operand.cls, operand.base.phys + operand.index, operand.count
        raise SimulationError(f"not a register: {operand.format()}")

    def read(self, operand, index: int = 0):
        """A 32-bit source: (W,) uint32 for VGPRs, a Python int for everything scalar."""
        if isinstance(operand, Imm):
            if isinstance(operand.value, float):
                return struct.unpack("<I", struct.pack("<f", operand.value))[0]
            return operand.value & 0xFFFFFFFF
        if isinstance(operand, Special):
            if operand.name in ("exec", "exec_lo"):
                return self.mask_word(self.exec)
            if operand.name == "exec_hi":
                return self.mask_word(self.exec) >> 32
            raise SimulationError(f"special register {operand.name}")
        cls, first, _ = self.regs(operand)
        if cls == "v":
            return self.v[first + index].copy()
        return int(self.s[first + index]) & 0xFFFFFFFF

    def read_mask(self, operand) -> np.ndarray:
        if isinstance(operand, Imm):
            value = operand.value & ((1 << self.wave) - 1) if operand.value >= 0 else (1 << self.wave) - 1
        elif isinstance(operand, Special):
            return self.exec.copy()
        else:
            value = self.read(operand) | ((self.read(operand, 1) << 32) if self.wave == 64 else 0)
        return np.array([(value >> lane) & 1 for lane in range(self.wave)], dtype=bool)

    def mask_word(self, lanes: np.ndarray) -> int:
        return sum(1 << lane for lane in range(self.wave) if lanes[lane])

    def write_s(self, operand, value: int, index: int = 0) -> None:
        if isinstance(operand, Special) and operand.name.startswith("exec"):
            self.exec = np.array([(value >> lane) & 1 for lane in range(self.wave)], dtype=bool)
            return
        _, first, _ = self.regs(operand)
        self.s[first + index] = value & 0xFFFFFFFF

    def write_mask(self, operand, lanes: np.ndarray) -> None:
        word = self.mask_word(lanes)
        if isinstance(operand, Special):
            self.exec = lanes.copy()
            return
        self.write_s(operand, word & 0xFFFFFFFF)
        if self.wave == 64:
            self.write_s(operand, word >> 32, 1)

    def write_v(self, operand, values, index: int = 0, lanes=None) -> None:
        _, first, _ = self.regs(operand)
        lanes = self.exec if lanes is None else lanes
        values = denormals.flush(values) if self.flushed_result else np.asarray(values, dtype=np.uint32)
        self.v[first + index][lanes] = np.broadcast_to(values, (self.wave,))[lanes]

    def vector(self, operand) -> np.ndarray:
        value = self.read(operand)
        value = value if isinstance(value, np.ndarray) else np.full(self.wave, value, dtype=np.uint32)
        return denormals.flush(value) if any(operand is source for source in self.flushed_sources) else value

    # ------------------------------------------------------------------- running
    def run(self, max_steps: int = 200_000) -> SimState:
        blocks = self.function.blocks
        labels = {block.label: number for number, block in enumerate(blocks)}
        number, position = 0, 0
        while number < len(blocks):
            block = blocks[number]
            if position >= len(block.insts):
                number, position = number + 1, 0
                continue
            inst = block.insts[position]
            position += 1
            self.state.steps += 1
            if self.state.steps > max_steps:
                raise SimulationError("the listing runs away")
            self.state.executed[inst.mnemonic] = self.state.executed.get(inst.mnemonic, 0) + 1
            if inst.mnemonic == "s_endpgm":
                break
            if inst.mnemonic.startswith(("s_branch", "s_cbranch")):
                target = self.branch(inst)
                if target is not None:
                    number, position = labels[target], 0
                continue
            self.execute(inst)
        return self.state

    def branch(self, inst: MInst) -> str | None:
        name = inst.mnemonic
        if not name.startswith(("s_branch", "s_cbranch")):
            return None
        label = next(op.name for op in inst.uses if isinstance(op, Label))
        taken = {"s_branch": True, "s_cbranch_scc0": not self.scc, "s_cbranch_scc1": self.scc,
                 "s_cbranch_execz": not self.exec.any(), "s_cbranch_execnz": bool(self.exec.any())}[name]
        return label if taken else None

    def execute(self, inst: MInst) -> None:
        name = inst.mnemonic
        for prefix, handler in _HANDLERS:
            if name.startswith(prefix):
                handler(self, inst)
                return
        raise SimulationError(f"cannot simulate {inst.format()}")

    # ------------------------------------------------------------------- scalar
    def salu(self, inst: MInst) -> None:
        if wide_alu.execute_scalar(self, inst):  # 64-bit data, carries
            return
        name = inst.mnemonic[2:]
        wide = name.endswith("_b64")
        if name.startswith(("and_saveexec", "andn2_saveexec", "or_saveexec")):
            old = self.exec.copy()
            source = self.read_mask(inst.uses[0])
            self.write_mask(inst.defs[0], old)
            self.exec = {"and": source & old, "andn2": source & ~old, "or": source | old}[name.split("_")[0]]
            self.scc = bool(self.exec.any())
            return
        if name.startswith("bcnt1_i32"):
            self.write_s(inst.defs[0], int(self.read_mask(inst.uses[0]).sum()))
            self.scc = bool(self.read_mask(inst.uses[0]).any())
            return
        if name.startswith("cmp_") and name.endswith("u64"):
            a, b = (self.mask_word(self.read_mask(op)) for op in inst.uses)
            self.scc = bool(_CONDITIONS[name.split("_")[1]](a, b))
            return
        if wide or name in ("and_b32", "or_b32", "xor_b32", "andn2_b32", "not_b32", "mov_b32", "xnor_b32") and \
                self.is_mask(inst):
            self.mask_op(inst, name)
            return
        if name.startswith("mov_b32"):
            self.write_s(inst.defs[0], self.read(inst.uses[0]))
        elif name.startswith("cselect_b32"):
            self.write_s(inst.defs[0], self.read(inst.uses[0 if self.scc else 1]))
        elif name.startswith("cmp_"):
            _, condition, kind = name.split("_")
            a, b = self.read(inst.uses[0]), self.read(inst.uses[1])
            if kind == "i32":
                a, b = _signed(a), _signed(b)
            self.scc = bool(_CONDITIONS[condition](a, b))
        elif name == "not_b32":
            self.write_s(inst.defs[0], ~self.read(inst.uses[0]))
        elif name == "ashr_i32":
            self.write_s(inst.defs[0], _signed(self.read(inst.uses[0])) >> (self.read(inst.uses[1]) & 31))
        elif name in _SALU:
            result = _SALU[name](self.read(inst.uses[0]), self.read(inst.uses[1])) & 0xFFFFFFFF
            self.write_s(inst.defs[0], result)
            self.scc = result != 0 if name.startswith(("and", "or", "xor", "lsh", "bfe")) else self.scc
        else:
            raise SimulationError(f"cannot simulate {inst.format()}")

    def is_mask(self, inst: MInst) -> bool:
        return self.wave == 32 or any(isinstance(op, Special) for op in inst.defs + inst.uses)

    def mask_op(self, inst: MInst, name: str) -> None:
        stem = name.rsplit("_", 1)[0]
        if stem in ("lshr", "lshl"):  # 64-bit shifts of ballot masks
            value, amount = self.mask_word(self.read_mask(inst.uses[0])), self.read(inst.uses[1]) & 63
            word = (value >> amount if stem == "lshr" else value << amount) & ((1 << 64) - 1)
            self.write_s(inst.defs[0], word & 0xFFFFFFFF)
            self.write_s(inst.defs[0], word >> 32, 1)
            self.scc = word != 0
            return
        sources = [self.read_mask(op) for op in inst.uses]
        if stem == "mov":
            result = sources[0]
        elif stem == "not":
            result = ~sources[0]
        elif stem == "cselect":
            result = sources[0] if self.scc else sources[1]
        elif stem.startswith("cmp_lg"):
            self.scc = bool(sources[0].any())
            return
        else:
            a, b = sources
            result = {"and": a & b, "or": a | b, "xor": a ^ b, "andn2": a & ~b, "xnor": ~(a ^ b)}[stem]
        self.write_mask(inst.defs[0], result)
        self.scc = bool(result.any())

    def smem(self, inst: MInst) -> None:
        (target,) = inst.defs
        _, first, count = self.regs(target)
        if inst.mnemonic.startswith("s_load_dwordx"):  # a descriptor from the table
            binding, element = self.descriptor_table[self.offset(inst.uses[1])]
            values = descriptors.words(self, binding, element) + [0] * 8
        else:
            binding, element = descriptors.resource(self, self.regs(inst.uses[0])[1])
            given = self.buffers.get(binding.name)
            given = given[element] if isinstance(given, list) else given  # an element of a buffer array
            source = given.tobytes() if given is not None else \
                self.cbuffers.get(binding.name, b"")  # a read-only buffer at a uniform offset, or constants
            data = np.frombuffer(bytes(source) + bytes(4 * (count + 64)), np.uint32)
            start = self.offset(inst.uses[1]) // 4
            values = [int(word) for word in data[start:start + count]]
        for index in range(count):
            self.s[first + index] = values[index]

    def offset(self, operand) -> int:
        if hasattr(operand, "name") and operand.name.startswith("0x"):
            return int(operand.name, 16)
        return self.read(operand)

    # ------------------------------------------------------------------- vector
    def valu(self, inst: MInst) -> None:
        name = inst.mnemonic[2:]
        if inst.mnemonic.endswith("_dpp") or "dpp8" in inst.modifiers:
            self.dpp(inst)
            return
        if wide_alu.execute(self, inst):  # doubles, 64-bit integers, halves, fma
            return
        if name.startswith("cmp_"):
            _, condition, kind = name.split("_")
            a, b = (self.vector(op) for op in inst.uses)
            a, b = (f32(a), f32(b)) if kind == "f32" else ((a.view(np.int32), b.view(np.int32)) if kind == "i32"
                                                           else (a, b))
            result = _CONDITIONS[condition](a, b) & self.exec
            self.write_mask(inst.defs[0], result)
            return
        if name == "cndmask_b32":
            false, true = self.vector(inst.uses[0]), self.vector(inst.uses[1])
            self.write_v(inst.defs[0], np.where(self.read_mask(inst.uses[2]), true, false))
            return
        if name in ("readlane_b32", "readfirstlane_b32"):
            lane = self.read(inst.uses[1]) if name == "readlane_b32" else int(np.argmax(self.exec))
            self.write_s(inst.defs[0], int(self.vector(inst.uses[0])[lane]))
            return
        if name == "permlanex16_b32":
            self.permlanex16(inst)
            return
        if name == "writelane_b32":
            lanes = np.zeros(self.wave, dtype=bool)
            lanes[self.read(inst.uses[1])] = True
            self.write_v(inst.defs[0], self.read(inst.uses[0]), lanes=lanes)
            return
        sources = [self.vector(op) for op in inst.uses]
        stem = name[:-4] if name.endswith("_f32") else None
        if stem in _VALU_F32:
            result = u32(_VALU_F32[stem](f32(sources[0]), f32(sources[1])).astype(np.float32))
        elif name in _VALU_U32:
            result = _VALU_U32[name](*sources).astype(np.uint32)
        elif name in ("fma_f32", "fmac_f32"):
            a, b = f32(sources[0]), f32(sources[1])
            c = f32(sources[2]) if name == "fma_f32" else f32(self.vector(inst.defs[0]))
            result = u32((a * b + c).astype(np.float32))
        else:
            result = self.unary(name, sources, inst)
        self.write_v(inst.defs[0], result)

    def unary(self, name: str, sources: list, inst: MInst) -> np.ndarray:
        a = sources[0]
        table = {
            "mov_b32": lambda: a, "not_b32": lambda: ~a, "pack_b32_f16": lambda: (a & 0xFFFF) | (sources[1] << 16),
            "cvt_f32_u32": lambda: u32(a.astype(np.float32)),
            "cvt_f32_i32": lambda: u32(a.view(np.int32).astype(np.float32)),
            "cvt_u32_f32": lambda: np.clip(np.nan_to_num(f32(a)), 0, 4294967295).astype(np.uint32),
            "cvt_i32_f32": lambda: np.clip(np.nan_to_num(f32(a)), -2**31, 2**31 - 1).astype(np.int32).view(np.uint32),
            "rcp_f32": lambda: u32((1 / f32(a)).astype(np.float32)),
            "rcp_iflag_f32": lambda: u32((1 / f32(a)).astype(np.float32)),
            "sqrt_f32": lambda: _sqrt(f32(a)),
            # the approximate instructions as machine/transcendentals.py defines them
            "exp_f32": lambda: u32(transcendentals.exp2(f32(a))),
            "log_f32": lambda: u32(transcendentals.log2(f32(a))),
            "rsq_f32": lambda: u32(transcendentals.rsqrt(f32(a))),
            "sin_f32": lambda: u32(transcendentals.sin_turns(f32(a))),
            "cos_f32": lambda: u32(transcendentals.cos_turns(f32(a))),
            "cvt_f32_f16": lambda: u32((a & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float32)),
            "cvt_f16_f32": lambda: f32(a).astype(np.float16).view(np.uint16).astype(np.uint32),
            "bfe_i32": lambda: ((a << (32 - sources[1] - sources[2])).view(np.int32)
                                >> (32 - sources[2]).astype(np.int32)).view(np.uint32),
            "med3_i32": lambda: np.median(np.stack([x.view(np.int32) for x in sources]), axis=0)
                                  .astype(np.int32).view(np.uint32),
            "mul_hi_u32": lambda: ((a.astype(np.uint64) * sources[1].astype(np.uint64)) >> 32).astype(np.uint32),
            "mad_u32_u24": lambda: (a & 0xFFFFFF) * (sources[1] & 0xFFFFFF) + sources[2],
            "mbcnt_lo_u32_b32": lambda: self.mbcnt(a, sources[1], 0),
            "mbcnt_hi_u32_b32": lambda: self.mbcnt(a, sources[1], 32),
            "bcnt_u32_b32": lambda: np.array([bin(int(x)).count("1") for x in a], np.uint32) + sources[1],
            "perm_b32": lambda: _perm_bytes(a, sources[1], sources[2], inst),
        }
        if name not in table:
            raise SimulationError(f"cannot simulate {inst.format()}")
        with np.errstate(all="ignore"):  # IEEE results (1/0 is inf, a cast past half's range inf) are the model
            return table[name]()

    def permlanex16(self, inst: MInst) -> None:
        """Each lane reads the other row of its 32-lane half, at the lane its 4-bit select names."""
        source = self.vector(inst.uses[0])
        selects = self.read(inst.uses[1]) | (self.read(inst.uses[2]) << 32)
        fetch_inactive = inst.modifiers.startswith("op_sel:[1")
        bound_ctrl = inst.modifiers.startswith("op_sel:[") and inst.modifiers[10:11] == "1"  # an inactive source reads 0
        lane = np.arange(self.wave)
        other_row = lane - lane % 32 + (16 - lane % 32 // 16 * 16)
        origin = other_row + np.array([(selects >> (4 * (int(k) % 16))) & 15 for k in lane])
        valid = fetch_inactive | self.exec[origin]
        old = np.zeros_like(source) if bound_ctrl else self.vector(inst.defs[0])
        self.write_v(inst.defs[0], np.where(valid, source[origin], old))

    def mbcnt(self, mask, addend, base: int) -> np.ndarray:
        mask = int(mask[0]) if isinstance(mask, np.ndarray) else mask
        lanes = np.arange(self.wave) - base
        below = [bin(mask & ((1 << max(0, min(32, int(lane)))) - 1)).count("1") for lane in lanes]
        return np.asarray(below, np.uint32) + addend

    def dpp(self, inst: MInst) -> None:
        """DPP16 within rows (quad_perm, row_shr/shl/ror/mirror/half_mirror, row_xmask) and DPP8."""
        text = inst.modifiers
        source = self.vector(inst.uses[0])
        lane = np.arange(self.wave)
        if "dpp8:" in text:
            selects = [int(x) for x in re.search(r"dpp8:\[([^\]]*)\]", text).group(1).split(",")]
            origin = lane - lane % 8 + np.array(selects)[lane % 8]
        else:
            row, within = lane - lane % 16, lane % 16
            if "quad_perm" in text:
                selects = [int(x) for x in re.search(r"quad_perm:\[([^\]]*)\]", text).group(1).split(",")]
                origin = lane - lane % 4 + np.array(selects)[lane % 4]
            elif "row_shr:" in text:
                origin = np.where(within >= int(re.search(r"row_shr:(\d+)", text).group(1)),
                                  lane - int(re.search(r"row_shr:(\d+)", text).group(1)), -1)
            elif "row_xmask:" in text:
                origin = row + (within ^ int(re.search(r"row_xmask:(\d+)", text).group(1)))
            elif "row_half_mirror" in text:
                origin = lane - lane % 8 + 7 - lane % 8
            elif "row_mirror" in text:
                origin = row + 15 - within
            else:
                raise SimulationError(f"cannot simulate {inst.format()}")
        valid = (origin >= 0) & (origin < self.wave)
        valid[valid] &= self.exec[origin[valid]]
        moved = np.where(valid, source[np.clip(origin, 0, self.wave - 1)], 0 if "bound_ctrl:1" in text else
                         self.vector(inst.defs[0]))
        write = valid | ("bound_ctrl:1" in text)
        if inst.mnemonic == "v_mov_b32_dpp":
            self.write_v(inst.defs[0], moved, lanes=self.exec & write)
            return
        plain = MInst(inst.mnemonic[:-4], inst.defs, [Imm(0)] + inst.uses[1:])
        if wide_alu.execute_with_first_source(self, plain, moved):  # halves, fmac, 64-bit ...
            return
        other = self.vector(inst.uses[1])
        name = plain.mnemonic[2:]
        if name[:-4] in _VALU_F32 and name.endswith("_f32"):
            result = u32(_VALU_F32[name[:-4]](f32(moved), f32(other)).astype(np.float32))
        else:
            result = _VALU_U32[name](moved, other).astype(np.uint32)
        self.write_v(inst.defs[0], result)

    # ------------------------------------------------------------------- memory
    def lds_access(self, inst: MInst) -> None:
        name = inst.mnemonic
        offset = int(re.search(r"offset:(\d+)", inst.modifiers).group(1)) if "offset:" in inst.modifiers else 0
        address = self.vector(inst.uses[0]).astype(np.int64) + offset
        words = self.lds.view(np.uint32)
        bits = int(re.search(r"_b(\d+)$", name).group(1)) if re.search(r"_b(\d+)$", name) else 32
        for lane in np.flatnonzero(self.exec):
            index = int(address[lane]) // 4
            if name.startswith("ds_write"):
                for k in range(bits // 32):
                    words[index + k] = self.v[self.regs(inst.uses[1])[1] + k][lane]
            elif name.startswith("ds_read"):
                for k in range(bits // 32):
                    self.v[self.regs(inst.defs[0])[1] + k][lane] = words[index + k]
            elif atomics.DS_ATOMIC.match(name):
                atomics.lds_lane_atomic(self, atomics.DS_ATOMIC.match(name), words, index, inst, lane)
            elif name == "ds_bpermute_b32":
                pass
            else:
                raise SimulationError(f"cannot simulate {inst.format()}")
        if name == "ds_bpermute_b32":
            source = self.vector(inst.uses[1])
            lanes = (self.vector(inst.uses[0]) // 4) % 32 + (np.arange(self.wave) // 32) * 32
            valid = self.exec[lanes]
            self.write_v(inst.defs[0], np.where(valid, source[lanes], 0))

    def scratch_access(self, inst: MInst) -> None:
        """``scratch_load/store_dword[xN]`` with a VGPR or SGPR address (or ``off``): each lane's own words."""
        name = inst.mnemonic
        store = name.startswith("scratch_store")
        vaddr, saddr = (inst.uses[0], inst.uses[2]) if store else (inst.uses[0], inst.uses[1])
        offset = int(re.search(r"offset:(-?\d+)", inst.modifiers).group(1)) if "offset:" in inst.modifiers else 0
        address = np.full(self.wave, offset, np.int64)
        if not isinstance(vaddr, Special):
            address += self.vector(vaddr).astype(np.int64)
        if not isinstance(saddr, Special):
            address += int(self.read(saddr))
        count = {"dword": 1, "dwordx2": 2, "dwordx3": 3, "dwordx4": 4}[name.split("_")[-1]]
        register = self.regs(inst.uses[1] if store else inst.defs[0])[1]
        for lane in np.flatnonzero(self.exec):
            index = int(address[lane]) // 4
            if index < 0 or index + count > self.scratch.shape[1]:
                raise SimulationError(f"scratch address {int(address[lane])} out of range in {inst.format()}")
            for k in range(count):
                if store:
                    self.scratch[lane, index + k] = self.v[register + k][lane]
                else:
                    self.v[register + k][lane] = self.scratch[lane, index + k]

    def nothing(self, inst: MInst) -> None:
        pass


def _copy(resource):
    if isinstance(resource, list):
        return [_copy(item) for item in resource]
    return np.array(resource, copy=True)


def _signed(value: int) -> int:
    return value - (1 << 32) if value & 0x80000000 else value


_HANDLERS = [
    ("implicit_def", Machine.nothing), ("s_waitcnt", Machine.nothing), ("s_barrier", Machine.nothing),
    ("buffer_gl", Machine.nothing), ("s_load_", Machine.smem), ("s_buffer_load", Machine.smem),
    ("s_", Machine.salu), ("v_", denormals.flushing(Machine.valu)), ("buffer_", buffers.access),
    ("ds_read2", lds_pairs.pair_access), ("ds_write2", lds_pairs.pair_access), ("ds_", Machine.lds_access),
    ("image_gather4", gathers.gather4), ("image_sample", images.sample_instruction),
    ("image_", images.access), ("scratch_", Machine.scratch_access),
]


def simulate(function: MFunction, module: Module, buffers: dict | None = None, cbuffers: dict | None = None,
             lds_bytes: int | None = None, max_steps: int = 200_000) -> SimState:
    """Run an allocated ``function`` (one wave, lanes = threads 0..W-1 of group 0)."""
    machine = Machine(function, module, buffers or {}, cbuffers or {},
                      module.lds_bytes + getattr(function, "extra_lds", 0) if lds_bytes is None else lds_bytes)
    return machine.run(max_steps)


def _sqrt(values: np.ndarray) -> np.ndarray:
    """``v_sqrt_f32`` modelled as the interpreter computes it: correctly rounded, NaN below 0."""
    with np.errstate(invalid="ignore"):
        return u32(np.sqrt(values).astype(np.float32))


def _perm_bytes(high: np.ndarray, low: np.ndarray, selector, inst: MInst) -> np.ndarray:
    """``v_perm_b32``: each byte of the result is byte ``sel`` of {high, low} (low is bytes
    0-3), or zero for selector 12; the other selectors (sign replication, 0xff) are not modelled."""
    pool = (high.astype(np.uint64) << 32) | low.astype(np.uint64)
    result = np.zeros_like(low, dtype=np.uint32)
    for index in range(4):
        select = (int(np.max(selector)) >> (8 * index)) & 0xFF
        if select == 12:
            continue
        if select > 7:
            raise SimulationError(f"cannot simulate {inst.format()} (byte selector {select})")
        byte = ((pool >> np.uint64(8 * select)) & np.uint64(0xFF)).astype(np.uint32)
        result |= byte << np.uint32(8 * index)
    return result
