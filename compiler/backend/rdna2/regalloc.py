"""Linear-scan register allocation over VGPR and SGPR classes, with tuples.

Live intervals come from block liveness over the machine CFG (branch targets plus
fall-through), laid out in program order, so a value live around a loop covers
the whole loop. Each class is allocated first-fit into a bitmap of physical
registers; a tuple takes consecutive registers (64-bit SGPR pairs start at an
even register, as the hardware requires). Registers already fixed by the ABI
(``v0`` thread ids, the SGPRs holding descriptors) are pre-coloured. When a class
runs out, the interval that ends last is spilled to scratch: its definitions
store and its uses reload through reserved registers, and the spill is counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .machine import MBlock, MFunction, MInst, Special, SubReg, VReg

MAX_VGPRS = 256
MAX_SGPRS = 106
SPILL_TEMPS = 4  # VGPRs kept back for reloading spilled values


@dataclass
class Allocation:
    vgprs_used: int = 0
    sgprs_used: int = 0
    spilled: list[VReg] = field(default_factory=list)
    scratch_bytes: int = 0


def successors(function: MFunction) -> dict[MBlock, list[MBlock]]:
    by_label = {block.label: block for block in function.blocks}
    result: dict[MBlock, list[MBlock]] = {}
    for index, block in enumerate(function.blocks):
        targets = []
        last = block.insts[-1] if block.insts else None
        for inst in block.insts:
            if inst.mnemonic.startswith(("s_branch", "s_cbranch")):
                targets += [by_label[op.name] for op in inst.uses if hasattr(op, "name") and op.name in by_label]
        falls_through = last is None or last.mnemonic not in ("s_branch", "s_endpgm")
        if falls_through and index + 1 < len(function.blocks):
            targets.append(function.blocks[index + 1])
        result[block] = targets
    return result


def block_liveness(function: MFunction) -> dict[MBlock, set[VReg]]:
    """Live-out sets per block (backward data-flow to a fixed point)."""
    succ = successors(function)
    gen: dict[MBlock, set[VReg]] = {}
    kill: dict[MBlock, set[VReg]] = {}
    for block in function.blocks:
        used, defined = set(), set()
        for inst in block.insts:
            for reg in inst.registers("uses"):
                if reg not in defined:
                    used.add(reg)
            for reg, operand in zip(inst.registers("defs"), inst.defs):
                if isinstance(operand, VReg):  # a partial write keeps the rest of the tuple live
                    defined.add(reg)
        gen[block], kill[block] = used, defined
    live_in = {block: set() for block in function.blocks}
    live_out = {block: set() for block in function.blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(function.blocks):
            out = set().union(*(live_in[s] for s in succ[block])) if succ[block] else set()
            new_in = gen[block] | (out - kill[block])
            if out != live_out[block] or new_in != live_in[block]:
                live_out[block], live_in[block] = out, new_in
                changed = True
    return live_out


def intervals(function: MFunction) -> dict[VReg, list[int]]:
    """[start, end] positions of each virtual register in program order."""
    live_out = block_liveness(function)
    position = 0
    spans: dict[VReg, list[int]] = {}
    starts: dict[MBlock, int] = {}
    ends: dict[MBlock, int] = {}

    def touch(reg: VReg, where: int) -> None:
        span = spans.setdefault(reg, [where, where])
        span[0], span[1] = min(span[0], where), max(span[1], where)

    for block in function.blocks:
        starts[block] = position
        for inst in block.insts:
            for reg in inst.registers():
                touch(reg, position)
            position += 1
        ends[block] = position
    live_in_any: dict[MBlock, set[VReg]] = {}
    succ = successors(function)
    for block in function.blocks:
        for target in succ[block]:
            live_in_any.setdefault(target, set()).update(live_out[block] & set(spans))
    for block in function.blocks:
        for reg in live_out[block]:
            touch(reg, ends[block])
        for reg in live_in_any.get(block, set()):
            touch(reg, starts[block])
    # A back edge keeps everything live at the loop header alive until the branch back.
    order = {block: i for i, block in enumerate(function.blocks)}
    for block in function.blocks:
        for target in succ[block]:
            if order[target] <= order[block]:
                for reg in live_out[block]:
                    touch(reg, starts[target])
                    touch(reg, ends[block])
    return spans


class _Pool:
    def __init__(self, size: int, align_pairs: bool):
        self.free = [True] * size
        self.align_pairs = align_pairs
        self.high_water = 0

    def take(self, count: int) -> int | None:
        # SGPR tuples: pairs start even, four or more registers start on a multiple of 4
        step = 1
        if self.align_pairs and count > 1:
            step = 2 if count == 2 else 4
        for start in range(0, len(self.free) - count + 1, step):
            if all(self.free[start:start + count]):
                for index in range(start, start + count):
                    self.free[index] = False
                self.high_water = max(self.high_water, start + count)
                return start
        return None

    def release(self, start: int, count: int) -> None:
        for index in range(start, start + count):
            self.free[index] = True

    def reserve(self, start: int, count: int) -> None:
        for index in range(start, start + count):
            self.free[index] = False
        self.high_water = max(self.high_water, start + count)


def allocate(function: MFunction, max_vgprs: int = MAX_VGPRS, max_sgprs: int = MAX_SGPRS,
             scratch_base: int = 0) -> Allocation:
    """Allocate every virtual register; spill slots start at ``scratch_base`` bytes per lane."""
    spans = intervals(function)
    pools = {"v": _Pool(max_vgprs - SPILL_TEMPS, False), "s": _Pool(max_sgprs, True)}
    result = Allocation()
    for reg in spans:
        if reg.phys is not None:
            pools[reg.cls].reserve(reg.phys, reg.size)
    pending = sorted((r for r in spans if r.phys is None), key=lambda r: (spans[r][0], -r.size))
    active: list[VReg] = []
    for reg in pending:
        start = spans[reg][0]
        for other in list(active):
            if spans[other][1] < start:
                active.remove(other)
                pools[other.cls].release(other.phys, other.size)
        phys = pools[reg.cls].take(reg.size)
        if phys is None:
            victim = max((r for r in active if r.cls == reg.cls and r.size >= reg.size),
                         key=lambda r: spans[r][1], default=None)
            if victim is not None and spans[victim][1] > spans[reg][1]:
                pools[victim.cls].release(victim.phys, victim.size)
                active.remove(victim)
                victim.phys = None
                result.spilled.append(victim)
                phys = pools[reg.cls].take(reg.size)
            if phys is None:
                result.spilled.append(reg)
                continue
        reg.phys = phys
        active.append(reg)
    if result.spilled:
        _rewrite_spills(function, result, scratch_base, pools["v"].high_water)
    result.vgprs_used = pools["v"].high_water + (SPILL_TEMPS if result.spilled else 0)
    result.sgprs_used = pools["s"].high_water
    return result


def _rewrite_spills(function: MFunction, result: Allocation, scratch_base: int, temp_base: int) -> None:
    """Store spilled values after each definition and reload them before each use.

    Scratch is addressed per lane, so a spilled value takes 4 bytes per register of
    each lane's scratch, after the kernel's own scratch arrays (``scratch_base``).
    ``result.scratch_bytes`` counts the spill bytes per lane.
    """
    slots: dict[VReg, int] = {}
    for reg in result.spilled:
        slots[reg] = scratch_base + result.scratch_bytes
        result.scratch_bytes += 4 * reg.size
    for block in function.blocks:
        rewritten: list[MInst] = []
        for inst in block.insts:
            temps: dict[VReg, VReg] = {}
            next_temp = temp_base
            for reg in inst.registers():
                if reg in slots and reg not in temps:
                    temps[reg] = VReg("v", reg.size, reg.name, phys=next_temp)
                    next_temp += reg.size
            for reg in inst.registers("uses"):
                if reg in temps:
                    rewritten.append(_scratch(f"scratch_load_dword{_width(reg.size)}", temps[reg], slots[reg], True))
            inst.defs = [_swap(op, temps) for op in inst.defs]
            inst.uses = [_swap(op, temps) for op in inst.uses]
            rewritten.append(inst)
            for operand in list(inst.defs):
                base = operand.base if isinstance(operand, SubReg) else operand
                original = next((r for r, t in temps.items() if t is base), None)
                if original is not None:
                    rewritten.append(_scratch(f"scratch_store_dword{_width(original.size)}", temps[original],
                                              slots[original], False))
        block.insts = rewritten


def _width(size: int) -> str:
    return "" if size == 1 else f"x{size}"


def _scratch(mnemonic: str, temp: VReg, offset: int, load: bool) -> MInst:
    """``scratch_load_dword v, off, off offset:N`` / ``scratch_store_dword off, v, off offset:N``."""
    if load:
        return MInst(mnemonic, [temp], [Special("off"), Special("off")], f"offset:{offset}", comment="spill reload")
    return MInst(mnemonic, [], [Special("off"), temp, Special("off")], f"offset:{offset}", comment="spill")


def _swap(operand, temps: dict[VReg, VReg]):
    if isinstance(operand, VReg) and operand in temps:
        return temps[operand]
    if isinstance(operand, SubReg) and operand.base in temps:
        return SubReg(temps[operand.base], operand.index, operand.count)
    return operand

