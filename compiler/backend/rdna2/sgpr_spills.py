"""What the allocator does with an SGPR value it could not keep in an SGPR.

Hardware facts: a scalar instruction (``s_*``, SMEM) reads and writes only SGPRs, and the
resource and sampler fields of a buffer or image instruction are SGPRs too, so an SGPR value
can never be used from a VGPR, nor stored to scratch, which is per lane and written from
VGPRs. What a VGPR can do is hold one dword per lane: ``v_writelane_b32 vL, sX, n`` puts
``sX`` into lane ``n`` of ``vL`` and ``v_readlane_b32 sX, vL, n`` takes it back; both ignore
exec, so they work in divergent code. A value loaded by ``s_load_*`` from the descriptor
table at a constant offset (the descriptors of the prologue) can simply be loaded again:
the table is an ABI register that stays put and its memory does not change while the
kernel runs.

The algorithm, for each spilled SGPR value, as LLVM's AMDGPU back end and ACO do it:

- *Rematerialise* it when its only definition is an ``s_load_*`` whose register operands
  are all pre-coloured ABI registers (the table at ``s[0:1]``): the load is deleted, and
  every instruction that reads the value gets its own copy of the load just before it, into
  a new register that lives only from there to the use (``waitcnt.py`` then puts the
  ``s_waitcnt lgkmcnt(0)`` between them).
- Otherwise give it lanes of a VGPR set aside for SGPR spills (``SpillLanes``): every
  instruction that writes it writes a new short-lived SGPR instead, followed by one
  ``v_writelane_b32`` per dword written, and every instruction that reads it is preceded by
  one ``v_readlane_b32`` per dword into a new short-lived SGPR.

Either way the long range becomes many short ones; the allocator then starts again
(``regalloc.allocate``). The lane VGPRs are not allocated by the linear scan: they sit
above every allocated VGPR and are never spilled themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .machine import IMPLICIT_DEF, Imm, MFunction, MInst, SubReg, VReg, renamed


@dataclass
class SpillLanes:
    """The VGPRs whose lanes hold spilled SGPR dwords, and which lanes each value has."""

    wave_size: int
    holders: list[VReg] = field(default_factory=list)
    slots: dict[VReg, tuple[VReg, int]] = field(default_factory=dict)  # value -> (holder, first lane)
    next_lane: int = 0

    def slot(self, reg: VReg) -> tuple[VReg, int]:
        """The holder and first lane of ``reg``; a tuple's dwords are in consecutive lanes of one VGPR."""
        if reg not in self.slots:
            if not self.holders or self.next_lane + reg.size > self.wave_size:
                self.holders.append(VReg("v", 1, "spilled SGPRs"))
                self.next_lane = 0
            self.slots[reg] = (self.holders[-1], self.next_lane)
            self.next_lane += reg.size
        return self.slots[reg]


def rematerialisable_load(function: MFunction, reg: VReg, fixed: set[VReg]) -> MInst | None:
    """The one ``s_load_*`` that defines all of ``reg`` from pre-coloured registers, else None."""
    definitions = [inst for inst in function.instructions() if reg in inst.registers("defs")]
    if len(definitions) != 1:
        return None
    load = definitions[0]
    if not load.mnemonic.startswith("s_load_") or load.defs != [reg]:
        return None
    if reg in load.registers("uses") or not all(source in fixed for source in load.registers("uses")):
        return None
    return load


def spill_sgprs(function: MFunction, spilled: list[VReg], fixed: set[VReg], lanes: SpillLanes) -> list[VReg]:
    """Rewrite ``function`` so no spilled SGPR value has a long range; returns those rematerialised."""
    loads = {reg: rematerialisable_load(function, reg, fixed) for reg in spilled}
    rematerialised = [reg for reg, load in loads.items() if load is not None]
    dropped = {id(load) for load in loads.values() if load is not None}
    for block in function.blocks:
        rewritten: list[MInst] = []
        for inst in block.insts:
            if id(inst) in dropped:
                continue
            rewritten.extend(_around(inst, loads, lanes))
        block.insts = rewritten
    return rematerialised


def _around(inst: MInst, loads: dict[VReg, MInst | None], lanes: SpillLanes) -> list[MInst]:
    """``inst`` with the spilled values it names replaced by fresh registers, and the reloads
    before it and lane writes after it that those need."""
    touched = [reg for reg in dict.fromkeys(inst.registers()) if reg in loads]
    if not touched:
        return [inst]
    if inst.is_marker:  # the start of a tuple built part by part: its parts now go to lanes
        return []
    fresh = {reg: VReg("s", reg.size, reg.name) for reg in touched}
    # a tuple filled dword by dword starts here (else its range would reach back to the entry)
    before = [MInst(IMPLICIT_DEF, [fresh[reg]]) for reg in touched if reg.size > 1 and loads[reg] is None]
    after: list[MInst] = []
    read = set(inst.registers("uses"))
    for reg in touched:
        load = loads[reg]
        if reg in read and load is not None:
            before.append(MInst(load.mnemonic, [fresh[reg]], list(load.uses), load.modifiers, inst.coord,
                                comment=f"{load.comment or reg.name} (reloaded)"))
        elif reg in read:
            holder, lane = lanes.slot(reg)
            before += [MInst("v_readlane_b32", [_dword(fresh[reg], k)], [holder, Imm(lane + k)], coord=inst.coord,
                             comment=f"{reg.name} (spilled SGPR)") for k in range(reg.size)]
    for operand in inst.defs:
        reg = operand.base if isinstance(operand, SubReg) else operand
        if reg not in fresh:
            continue
        holder, lane = lanes.slot(reg)
        written = range(reg.size)
        if isinstance(operand, SubReg):
            written = range(operand.index, operand.index + operand.count)
        after += [MInst("v_writelane_b32", [holder], [_dword(fresh[reg], k), Imm(lane + k)], coord=inst.coord,
                        comment=f"{reg.name} (spill SGPR)") for k in written]
    inst.defs = [renamed(operand, fresh) for operand in inst.defs]
    inst.uses = [renamed(operand, fresh) for operand in inst.uses]
    return [*before, inst, *after]


def _dword(reg: VReg, index: int) -> VReg | SubReg:
    return reg if reg.size == 1 else reg.part(index)
