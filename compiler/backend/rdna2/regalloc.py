"""Linear-scan register allocation over VGPR and SGPR classes, with tuples.

Live ranges come from ``live_ranges.py`` (program order over the machine CFG, reads
before writes within an instruction, per-component ranges for tuples). Each class is
allocated first-fit into a bitmap of physical registers; a tuple takes consecutive
registers (64-bit SGPR pairs start at an even register, as the hardware requires).
A plain move whose source dies there prefers the source's register (a coalescing
hint), and the moves that become ``v1 = v1`` are dropped. A tuple gives back each
component after that component's last use, and a tuple computed component by
component from a same-sized tuple that dies on the way lives in its registers
(``v_mul_f32 v4, v4, v8`` ... ``v_mul_f32 v7, v7, v11``). Registers already fixed by
the ABI (``v0`` thread ids, the SGPRs holding descriptors) are pre-coloured and free
again after their last use. When a class runs out, the live value needed again furthest
ahead is spilled (Belady's choice). A spilled VGPR goes to scratch: its definitions store
and its uses reload through VGPRs kept back for that, and the spill is counted. A spilled
SGPR cannot (scalar instructions and descriptor fields take only SGPRs): ``sgpr_spills.py``
loads a descriptor again from the table where it is used, keeps any other value in lanes
of a VGPR (``v_writelane_b32`` / ``v_readlane_b32``), and allocation starts again over the
shorter ranges."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

from ...diagnostics import UNKNOWN, Unsupported
from .live_ranges import LiveRanges, intervals, operand_components
from .livereg import keeps_old_lanes
from .machine import MFunction, MInst, Special, SubReg, VReg, renamed
from .sgpr_spills import SpillLanes, spill_sgprs

MAX_VGPRS = 256
MAX_SGPRS = 106
SPILL_TEMPS = 4  # VGPRs kept back for reloading spilled values (more when one instruction needs more)
MAX_ROUNDS = 8  # allocations over the shorter ranges SGPR spills leave; two are the most seen


@dataclass(eq=False)  # one of a kind: compared by identity
class Allocation:
    """What register allocation used: registers, spills, scratch."""

    vgprs_used: int = 0
    sgprs_used: int = 0
    spilled: list[VReg] = field(default_factory=list)  # VGPR values in scratch, SGPR values in lanes
    scratch_bytes: int = 0
    rematerialised: list[VReg] = field(default_factory=list)  # SGPR values loaded again at each use
    spill_lanes: int = 0  # VGPRs holding spilled SGPRs


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
             scratch_base: int = 0, ranges: LiveRanges | None = None) -> Allocation:
    """Allocate every virtual register; spill slots start at ``scratch_base`` bytes per lane.
    ``ranges``: ``intervals(function)`` when the caller has them (the clean-ups' last count).

    A round is one linear scan. SGPRs it spills are rewritten (``spill_sgprs``) and the next
    round starts from nothing; when only VGPRs spill, the round is final if the VGPRs kept
    back suffice for the instruction naming the most spilled registers."""
    fixed = {reg for inst in function.instructions() for reg in inst.registers() if reg.phys is not None}
    lanes = SpillLanes(function.wave_size)
    rematerialised: list[VReg] = []
    lane_spilled: list[VReg] = []
    temps = SPILL_TEMPS
    for _ in range(MAX_ROUNDS):
        for inst in function.instructions():
            for reg in inst.registers():
                if reg not in fixed:
                    reg.phys = None
        scan = _LinearScan(function, max_vgprs - temps - len(lanes.holders), max_sgprs, set(lanes.holders), ranges)
        ranges = None  # a round that spills rewrites the function
        result = scan.run()
        sgprs = [reg for reg in result.spilled if reg.cls == "s"]
        if sgprs:
            rematerialised += spill_sgprs(function, sgprs, fixed, lanes)
            lane_spilled += [reg for reg in sgprs if reg not in rematerialised]
            continue
        spilled = set(result.spilled)
        needed = max((_spill_temps(inst, spilled) for inst in function.instructions()), default=0)
        if needed <= temps:
            break
        temps = needed
    else:
        raise Unsupported(f"{function.name}: more values needed at once than {max_vgprs} VGPRs and "
                          f"{max_sgprs} SGPRs hold",
                          next((inst.coord for inst in function.instructions()), UNKNOWN))
    top = scan.pools["v"].high_water
    for index, holder in enumerate(lanes.holders):
        holder.phys = top + index
    top += len(lanes.holders)
    if result.spilled:
        _rewrite_spills(function, result, scratch_base, top)
    _drop_identity_copies(function)
    result.vgprs_used = top + (temps if result.spilled else 0)
    result.sgprs_used = scan.pools["s"].high_water
    result.spilled = lane_spilled + result.spilled
    result.rematerialised = rematerialised
    result.spill_lanes = len(lanes.holders)
    return result


def _spill_temps(inst: MInst, spilled: set[VReg]) -> int:
    """The VGPRs ``inst`` needs to reload or write its spilled registers."""
    return sum(reg.size for reg in dict.fromkeys(inst.registers()) if reg in spilled)


class _LinearScan:
    """Registers in order of their ranges' starts; ``active`` holds those still live.

    ``aside`` are VGPRs the scan leaves alone (the lanes holding spilled SGPRs)."""

    def __init__(self, function: MFunction, max_vgprs: int, max_sgprs: int, aside: set[VReg] = frozenset(),
                 ranges: LiveRanges | None = None):
        self.ranges = intervals(function) if ranges is None else ranges
        self.spans = self.ranges.spans
        self.hints = copy_hints(function)
        self.tuples = tuple_sources(function)
        self.pools = {"v": _Pool(max_vgprs, False), "s": _Pool(max_sgprs, True)}
        self.active: list[VReg] = []
        self.released: dict[VReg, set[int]] = {}  # tuple components already given back
        # where the next component of each tuple dies, so live tuples are only checked when one is due
        self.part_ends = {reg: min(ends) for reg, ends in self.ranges.component_ends.items()}
        self.fixed = {reg for reg in self.spans if reg.phys is not None}
        self.aside = aside
        self.touches: dict[VReg, list[int]] = {}  # where each register is named, in program order
        for index, inst in enumerate(function.instructions()):
            for named in dict.fromkeys(inst.registers()):
                self.touches.setdefault(named, []).append(2 * index)

    def run(self) -> Allocation:
        result = Allocation()
        for reg in self.fixed:  # pre-coloured: held from the start until the last use
            self.pools[reg.cls].reserve(reg.phys, reg.size)
            self.active.append(reg)
        pending = sorted((r for r in self.spans if r.phys is None and r not in self.aside),
                         key=lambda r: (self.spans[r][0], -r.size))
        for reg in pending:
            self.expire(self.spans[reg][0])
            phys = self.choose(reg)
            if phys is None:
                phys = self.spill_for(reg, result)
                if phys is None:
                    result.spilled.append(reg)
                    continue
            reg.phys = phys
            self.active.append(reg)
        return result

    def expire(self, position: int) -> None:
        """Give back the registers (and tuple components) no longer live at ``position``."""
        for other in list(self.active):
            if self.spans[other][1] < position:
                self.active.remove(other)
                self.release(other)
            elif other.size > 1 and self.part_ends[other] < position:
                self.release_dead_parts(other, position)

    def choose(self, reg: VReg) -> int | None:
        """The copy source's register, else a dying source tuple's, else the first that fits."""
        pool = self.pools[reg.cls]
        source = self.hints.get(reg)
        if source is not None and source.phys is not None and pool.take_at(source.phys, reg.size):
            return source.phys
        if reg.size > 1:
            taken = self.take_over(reg)
            if taken is not None:
                return taken
        return pool.take(reg.size)

    def spill_for(self, reg: VReg, result: Allocation) -> int | None:
        """Spill the live register of this class needed again furthest ahead (Belady's choice; an
        accumulator read by every instruction is kept), unless ``reg`` itself is: then it returns
        None and ``reg`` is spilled. Never a pre-coloured register: the ABI put it there."""
        position = self.spans[reg][0]
        victim = max((r for r in self.active if r.cls == reg.cls and r.size >= reg.size and r not in self.fixed),
                     key=lambda r: (self.next_use(r, position), self.spans[r][1]), default=None)
        if victim is None or (self.next_use(victim, position), self.spans[victim][1]) <= \
                (self.next_use(reg, position + 1), self.spans[reg][1]):
            return None
        self.release(victim)
        self.active.remove(victim)
        victim.phys = None
        result.spilled.append(victim)
        return self.pools[reg.cls].take(reg.size)

    def next_use(self, reg: VReg, position: int) -> int:
        """The first instruction at or after ``position`` naming ``reg``; the range's end if none does
        (a value live around a loop is needed at its back edge)."""
        touches = self.touches[reg]
        index = bisect_left(touches, position)
        return touches[index] if index < len(touches) else self.spans[reg][1]

    def release(self, reg: VReg) -> None:
        done = self.released.pop(reg, set())
        for k in range(reg.size):
            if k not in done:
                self.pools[reg.cls].release(reg.phys + k, 1)

    def release_dead_parts(self, reg: VReg, position: int) -> None:
        done = self.released.setdefault(reg, set())
        ends = self.ranges.component_ends[reg]
        for k, end in enumerate(ends):
            if end < position and k not in done:
                done.add(k)
                self.pools[reg.cls].release(reg.phys + k, 1)
        self.part_ends[reg] = min((end for k, end in enumerate(ends) if k not in done), default=float("inf"))

    def take_over(self, reg: VReg) -> int | None:
        """The registers of a tuple ``reg`` is computed from, when it can live in them."""
        pool = self.pools[reg.cls]
        for source in self.tuples.get(reg, []):
            if source not in self.active or source in self.fixed or not can_take_over(self.ranges, source, reg):
                continue
            gone = self.released.get(source, set())
            if all(pool.free[source.phys + k] for k in gone):
                for k in gone:
                    pool.reserve(source.phys + k, 1)
                self.released.pop(source, None)
                self.active.remove(source)
                return source.phys
        return None


def tuple_sources(function: MFunction) -> dict[VReg, list[VReg]]:
    """For each tuple: the same-sized tuples its components are computed from, in order."""
    sources: dict[VReg, list[VReg]] = {}
    for inst in function.instructions():
        for target, _ in operand_components(inst.defs):
            if target.size == 1:
                continue
            for source, _ in operand_components(inst.uses):
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
    """Remove the plain copies allocation turned into ``v1 = v1`` (a tuple's part moved onto itself too)."""
    for block in function.blocks:
        block.insts = [inst for inst in block.insts
                       if not (_is_plain_copy(inst) and inst.defs[0].phys is not None
                               and inst.defs[0].phys == inst.uses[0].phys) and not _moves_onto_itself(inst)]


def _moves_onto_itself(inst: MInst) -> bool:
    """``v_mov_b32``/``s_mov_b32`` whose source and target are one and the same physical register."""
    if inst.mnemonic not in ("v_mov_b32", "s_mov_b32") or inst.modifiers or inst.source_modifiers:
        return False
    if len(inst.defs) != 1 or len(inst.uses) != 1:
        return False
    target, source = (_physical(operand) for operand in (inst.defs[0], inst.uses[0]))
    return target is not None and target == source


def _physical(operand) -> tuple[str, int] | None:
    """(class, register) of a one-register operand once allocated."""
    if isinstance(operand, VReg) and operand.size == 1 and operand.phys is not None:
        return operand.cls, operand.phys
    if isinstance(operand, SubReg) and operand.count == 1 and operand.base.phys is not None:
        return operand.cls, operand.base.phys + operand.index
    return None


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
            named = [reg for reg in dict.fromkeys(inst.registers()) if reg in slots]
            if not named:
                rewritten.append(inst)
                continue
            if inst.is_marker:  # a spilled tuple built part by part: each part is stored as written
                continue
            temps: dict[VReg, VReg] = {}
            next_temp = temp_base
            for reg in named:
                temps[reg] = VReg("v", reg.size, reg.name, phys=next_temp)
                next_temp += reg.size
            # an accumulating or one-lane write (v_fmac, v_writelane) also reads what it overwrites
            read = inst.registers("both" if keeps_old_lanes(inst) else "uses")
            for reg in dict.fromkeys(read):
                if reg in temps:
                    rewritten += _scratch(temps[reg], 0, reg.size, slots[reg], True)
            written = [(reg, components) for reg, components in operand_components(inst.defs) if reg in temps]
            inst.defs = [renamed(op, temps) for op in inst.defs]
            inst.uses = [renamed(op, temps) for op in inst.uses]
            rewritten.append(inst)
            for reg, components in written:  # only the registers written: the rest of the slot stays
                rewritten += _scratch(temps[reg], components.start, len(components), slots[reg], False)
        block.insts = rewritten


def _width(size: int) -> str:
    return "" if size == 1 else f"x{size}"


def _scratch(temp: VReg, first: int, count: int, slot: int, load: bool) -> list[MInst]:
    """Registers ``first .. first + count - 1`` of ``temp`` from or to their words of the slot at
    ``slot``: ``scratch_load_dwordx4 v[4:7], off, off offset:N`` / ``scratch_store_dword off, v4,
    off offset:N``, at most four dwords an instruction."""
    insts = []
    for start in range(first, first + count, 4):
        size = min(4, first + count - start)
        part = temp if size == temp.size else SubReg(temp, start, size)
        mnemonic, offset = f"scratch_{'load' if load else 'store'}_dword{_width(size)}", f"offset:{slot + 4 * start}"
        if load:
            insts.append(MInst(mnemonic, [part], [Special("off"), Special("off")], offset, comment="spill reload"))
        else:
            insts.append(MInst(mnemonic, [], [Special("off"), part, Special("off")], offset, comment="spill"))
    return insts
