"""Linear-scan register allocation over VGPR and SGPR classes, with tuples.

Live intervals come from block liveness over the machine CFG (branch targets plus
fall-through), laid out in program order, so a value live around a loop covers
the whole loop. Every instruction has two positions, its reads and then its
writes, so a result can take the register of an operand that dies in the same
instruction (``v_add_f32 v1, v1, v2``), as it can on the hardware; multi-register
VALU results (64-bit ops) do not, since a partial overlap there is not allowed.
Each class is allocated first-fit into a bitmap of physical registers; a tuple
takes consecutive registers (64-bit SGPR pairs start at an even register, as the
hardware requires). A plain move whose source dies there prefers the source's
register (a coalescing hint), and the moves that become ``v1 = v1`` are dropped.
Registers already fixed by the ABI (``v0`` thread ids, the SGPRs holding
descriptors) are pre-coloured and free again after their last use. When a class
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


@dataclass
class LiveRanges:
    """Where each virtual register is live, and for tuples where each component is.

    ``spans[reg]`` is ``[start, end]``. For a tuple, ``component_ends[reg][k]`` is where
    component ``k`` is last needed (liveness across blocks keeps the whole tuple alive), and
    ``first_writes`` / ``last_reads`` give each component's first write and last read by an
    instruction (``implicit_def`` is not a write: it only marks where a tuple starts).
    """

    spans: dict[VReg, list[int]] = field(default_factory=dict)
    component_ends: dict[VReg, list[int]] = field(default_factory=dict)
    first_writes: dict[VReg, list[float]] = field(default_factory=dict)
    last_reads: dict[VReg, list[int]] = field(default_factory=dict)
    last_write: dict[VReg, int] = field(default_factory=dict)

    def touch(self, reg: VReg, where: int, components: range | None = None) -> None:
        span = self.spans.setdefault(reg, [where, where])
        span[0], span[1] = min(span[0], where), max(span[1], where)
        if reg.size > 1:
            ends = self.component_ends.setdefault(reg, [where] * reg.size)
            for k in components if components is not None else range(reg.size):
                ends[k] = max(ends[k], where)

    def read(self, reg: VReg, where: int, components: range) -> None:
        self.touch(reg, where, components)
        if reg.size > 1:
            reads = self.last_reads.setdefault(reg, [-1] * reg.size)
            for k in components:
                reads[k] = max(reads[k], where)

    def write(self, reg: VReg, where: int, components: range, real: bool) -> None:
        self.touch(reg, where, components)
        if reg.size > 1 and real:
            writes = self.first_writes.setdefault(reg, [float("inf")] * reg.size)
            for k in components:
                writes[k] = min(writes[k], where)
            self.last_write[reg] = max(self.last_write.get(reg, where), where)


def _operands(operands: list) -> list[tuple[VReg, range]]:
    """The registers ``operands`` name, each with the components it covers."""
    found = []
    for operand in operands:
        if isinstance(operand, VReg):
            found.append((operand, range(operand.size)))
        elif isinstance(operand, SubReg):
            found.append((operand.base, range(operand.index, operand.index + operand.count)))
    return found


def intervals(function: MFunction) -> LiveRanges:
    """Live ranges of every virtual register in program order.

    Instruction ``i`` reads its operands at position ``2 * i`` and writes its results at
    ``2 * i + 1`` (at ``2 * i`` when the results may not overlap the operands).
    """
    live_out = block_liveness(function)
    ranges = LiveRanges()
    position = 0
    starts: dict[MBlock, int] = {}
    ends: dict[MBlock, int] = {}
    for block in function.blocks:
        starts[block] = 2 * position
        for inst in block.insts:
            for reg, components in _operands(inst.uses):
                ranges.read(reg, 2 * position, components)
            written = 2 * position + (0 if _results_must_not_overlap(inst) else 1)
            for reg, components in _operands(inst.defs):
                ranges.write(reg, written, components, inst.mnemonic != "implicit_def")
            position += 1
        ends[block] = 2 * position
    live_in_any: dict[MBlock, set[VReg]] = {}
    succ = successors(function)
    for block in function.blocks:
        for target in succ[block]:
            live_in_any.setdefault(target, set()).update(live_out[block] & set(ranges.spans))
    for block in function.blocks:
        for reg in live_out[block]:
            ranges.touch(reg, ends[block])
        for reg in live_in_any.get(block, set()):
            ranges.touch(reg, starts[block])
    # A back edge keeps everything live at the loop header alive until the branch back.
    order = {block: i for i, block in enumerate(function.blocks)}
    for block in function.blocks:
        for target in succ[block]:
            if order[target] <= order[block]:
                for reg in live_out[block]:
                    ranges.touch(reg, starts[target])
                    ranges.touch(reg, ends[block])
    return ranges


def _results_must_not_overlap(inst: MInst) -> bool:
    """A VALU op with a multi-register result (64-bit ops) must not partly overwrite its sources."""
    if not inst.mnemonic.startswith("v_"):
        return False
    return any(isinstance(op, VReg) and op.size > 1 or isinstance(op, SubReg) and op.count > 1 for op in inst.defs)


_PLAIN_MOVES = {"v_mov_b32": ("v", 1), "s_mov_b32": ("s", 1), "s_mov_b64": ("s", 2)}


def _is_plain_copy(inst: MInst) -> bool:
    """``v_mov_b32 %a, %b`` between whole registers of one class and size, without modifiers."""
    shape = _PLAIN_MOVES.get(inst.mnemonic)
    if shape is None or inst.modifiers or len(inst.defs) != 1 or len(inst.uses) != 1:
        return False
    target, source = inst.defs[0], inst.uses[0]
    return (isinstance(target, VReg) and isinstance(source, VReg) and (target.cls, target.size) == shape
            and (source.cls, source.size) == shape)


def copy_hints(function: MFunction) -> dict[VReg, VReg]:
    """For a register first written by a plain copy: the copy's source."""
    hints: dict[VReg, VReg] = {}
    written: set[VReg] = set()
    for inst in function.instructions():
        if _is_plain_copy(inst) and inst.defs[0] not in written:
            hints[inst.defs[0]] = inst.uses[0]
        written.update(inst.registers("defs"))
    return hints


class _Pool:
    def __init__(self, size: int, align_pairs: bool):
        self.free = [True] * size
        self.align_pairs = align_pairs
        self.high_water = 0

    def take_at(self, start: int, count: int) -> bool:
        """Take ``start .. start + count - 1`` if all of them are free."""
        if start + count > len(self.free) or not all(self.free[start:start + count]):
            return False
        self.reserve(start, count)
        return True

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
    ranges = intervals(function)
    spans = ranges.spans
    hints = copy_hints(function)
    tuples = tuple_sources(function)
    pools = {"v": _Pool(max_vgprs - SPILL_TEMPS, False), "s": _Pool(max_sgprs, True)}
    result = Allocation()
    active: list[VReg] = []
    released: dict[VReg, set[int]] = {}  # tuple components already given back
    part_ends = {reg: min(ends) for reg, ends in ranges.component_ends.items()}  # next component to free

    def release(reg: VReg) -> None:
        done = released.pop(reg, set())
        for k in range(reg.size):
            if k not in done:
                pools[reg.cls].release(reg.phys + k, 1)

    def release_dead_parts(reg: VReg, position: int) -> None:
        done = released.setdefault(reg, set())
        for k, end in enumerate(ranges.component_ends[reg]):
            if end < position and k not in done:
                done.add(k)
                pools[reg.cls].release(reg.phys + k, 1)
        part_ends[reg] = min((end for k, end in enumerate(ranges.component_ends[reg]) if k not in done),
                             default=float("inf"))

    def take_over(reg: VReg) -> int | None:
        """The registers of a tuple ``reg`` is computed from, when it can live in them."""
        for source in tuples.get(reg, []):
            if source in active and source not in fixed and can_take_over(ranges, source, reg):
                pool = pools[reg.cls]
                gone = released.get(source, set())
                if all(pool.free[source.phys + k] for k in gone):
                    for k in gone:
                        pool.reserve(source.phys + k, 1)
                    released.pop(source, None)
                    active.remove(source)
                    return source.phys
        return None

    fixed = {reg for reg in spans if reg.phys is not None}
    for reg in fixed:  # pre-coloured: held from the start until the last use
        pools[reg.cls].reserve(reg.phys, reg.size)
        active.append(reg)
    pending = sorted((r for r in spans if r.phys is None), key=lambda r: (spans[r][0], -r.size))
    for reg in pending:
        start = spans[reg][0]
        for other in list(active):
            if spans[other][1] < start:
                active.remove(other)
                release(other)
            elif other.size > 1 and part_ends[other] < start:
                release_dead_parts(other, start)
        pool = pools[reg.cls]
        source = hints.get(reg)
        if source is not None and source.phys is not None and pool.take_at(source.phys, reg.size):
            phys = source.phys
        elif reg.size > 1 and (phys := take_over(reg)) is not None:
            pass
        else:
            phys = pool.take(reg.size)
        if phys is None:
            victim = max((r for r in active if r.cls == reg.cls and r.size >= reg.size),
                         key=lambda r: spans[r][1], default=None)
            if victim is not None and spans[victim][1] > spans[reg][1]:
                release(victim)
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
    _drop_identity_copies(function)
    result.vgprs_used = pools["v"].high_water + (SPILL_TEMPS if result.spilled else 0)
    result.sgprs_used = pools["s"].high_water
    return result


def tuple_sources(function: MFunction) -> dict[VReg, list[VReg]]:
    """For each tuple: the same-sized tuples its components are computed from, in order."""
    sources: dict[VReg, list[VReg]] = {}
    for inst in function.instructions():
        for target, _ in _operands(inst.defs):
            if target.size == 1:
                continue
            for source, _ in _operands(inst.uses):
                if source is not target and (source.cls, source.size) == (target.cls, target.size):
                    known = sources.setdefault(target, [])
                    if source not in known:
                        known.append(source)
    return sources


def can_take_over(ranges: LiveRanges, source: VReg, target: VReg) -> bool:
    """Whether ``target`` may live in ``source``'s registers although they overlap in time.

    True when ``source`` is complete before ``target`` starts and every component of
    ``source`` is last needed before (or in the instruction that does) the first write of
    the same component of ``target``: ``v_mul_f32 v4, v4, v8`` component by component.
    """
    if ranges.last_write.get(source, -1) >= ranges.spans[target][0]:
        return False
    writes = ranges.first_writes.get(target)
    if writes is None:
        return False
    return all(end < write for end, write in zip(ranges.component_ends[source], writes))


def _drop_identity_copies(function: MFunction) -> None:
    """Remove the plain copies allocation turned into ``v1 = v1``."""
    for block in function.blocks:
        block.insts = [inst for inst in block.insts
                       if not (_is_plain_copy(inst) and inst.defs[0].phys is not None
                               and inst.defs[0].phys == inst.uses[0].phys)]


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

