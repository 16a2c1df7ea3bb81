"""``s_waitcnt`` insertion, after register allocation (on physical registers, as LLVM's SIInsertWaitcnts).

Memory instructions return out of band and count down per class:

- ``vmcnt``: vector memory reads (buffer/image/scratch loads, returning atomics), in order;
- ``lgkmcnt``: LDS (in order) and scalar memory (``s_load``/``s_buffer_load``, *out of
  order*: waiting for one SMEM result means waiting for all, ``lgkmcnt(0)``);
- ``vscnt`` (gfx10): vector memory writes, only waited for by explicit fences.

Each register a load will write is pending until the counter drops far enough: the
first instruction that reads it (or writes it, as the hardware has no WAW interlock)
waits for ``vmcnt(N)``/``lgkmcnt(N)``, N being the number of same-class instructions
issued after that load. ``s_barrier`` waits for every LDS access first (the other
waves must see this wave's groupshared writes). Pending state flows through the
machine CFG to a fixed point (loops carry loads around their back edge); at a join
a register keeps its most recent, most demanding position. A wait the isel wrote
itself (device fences) stays only where something is outstanding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .machine import MBlock, MFunction, MInst, SubReg, VReg
from .live_ranges import successors

VM_MAX = 63
LGKM_MAX = 63


@dataclass
class State:
    """Outstanding loads per counter: register -> issue number (``issued`` so far), so a
    register's position in its queue is ``issued - 1 - number`` (same-class ops issued since)."""

    vm: dict = field(default_factory=dict)
    vm_issued: int = 0
    lgkm: dict = field(default_factory=dict)
    lgkm_issued: int = 0
    smem: bool = False  # an SMEM read is outstanding
    lds: bool = False  # an LDS access (read or write) is outstanding
    vs: bool = False  # a VMEM write is outstanding

    def copy(self) -> State:
        return State(dict(self.vm), self.vm_issued, dict(self.lgkm), self.lgkm_issued, self.smem, self.lds, self.vs)

    def ages(self, which: str) -> dict:
        table, issued = (self.vm, self.vm_issued) if which == "vm" else (self.lgkm, self.lgkm_issued)
        return {reg: issued - 1 - number for reg, number in table.items()}

    def merge(self, other: State) -> State:
        merged = State(smem=self.smem or other.smem, lds=self.lds or other.lds, vs=self.vs or other.vs)
        for which in ("vm", "lgkm"):
            ages = self.ages(which)
            for reg, age in other.ages(which).items():
                ages[reg] = min(age, ages.get(reg, age))
            issued = max(ages.values(), default=-1) + 1
            table = {reg: issued - 1 - age for reg, age in ages.items()}
            if which == "vm":
                merged.vm, merged.vm_issued = table, issued
            else:
                merged.lgkm, merged.lgkm_issued = table, issued
        return merged

    def key(self):
        return (tuple(sorted(self.ages("vm").items())), tuple(sorted(self.ages("lgkm").items())),
                self.smem, self.lds, self.vs)


def kind(inst: MInst) -> str | None:
    """The counter an instruction's completion is tracked by: vm, vs, lds, smem or None."""
    name = inst.mnemonic
    if name.startswith(("s_load_", "s_buffer_load_")):
        return "smem"
    if name.startswith("ds_"):
        return "lds"
    if name.startswith(("buffer_load", "image_load", "image_sample", "image_gather", "image_get_resinfo",
                        "scratch_load", "global_load")):
        return "vm"
    if name.startswith(("buffer_atomic", "image_atomic", "global_atomic")):
        return "vm" if inst.defs else "vs"
    if name.startswith(("buffer_store", "image_store", "scratch_store", "global_store")):
        return "vs"
    return None


def registers(operands) -> list:
    regs = []
    for operand in operands:
        if isinstance(operand, VReg) and operand.phys is not None:
            regs.extend((operand.cls, operand.phys + k) for k in range(operand.size))
        elif isinstance(operand, SubReg) and operand.base.phys is not None:
            first = operand.base.phys + operand.index
            regs.extend((operand.cls, first + k) for k in range(operand.count))
    return regs


def insert_waitcnts(function: MFunction) -> None:
    global _REGS
    _REGS = {}
    succ = successors(function)
    preds: dict[MBlock, list[MBlock]] = {block: [] for block in function.blocks}
    for block, targets in succ.items():
        for target in targets:
            preds[target].append(block)
    out_states: dict[MBlock, State] = {}
    for _ in range(8):
        changed = False
        for block in function.blocks:
            state = entry_state(block, preds, out_states)
            after = walk(block, state, insert=False)
            if block not in out_states or out_states[block].key() != after.key():
                out_states[block] = after
                changed = True
        if not changed:
            break
    for block in function.blocks:
        walk(block, entry_state(block, preds, out_states), insert=True)


def entry_state(block: MBlock, preds, out_states) -> State:
    state = State()
    for pred in preds[block]:
        if pred in out_states:
            state = state.merge(out_states[pred])
    return state


_REGS: dict = {}


def operand_registers(inst: MInst) -> list:
    regs = _REGS.get(id(inst))
    if regs is None:
        regs = _REGS[id(inst)] = registers(inst.uses) + registers(inst.defs)
    return regs


def walk(block: MBlock, state: State, insert: bool) -> State:
    state = state.copy()
    result = []
    for inst in block.insts:
        if inst.is_marker:  # marks where a tuple starts; reads and writes nothing
            result.append(inst)
            continue
        if not (state.vm or state.lgkm or state.lds or state.smem or state.vs):
            if inst.mnemonic in ("s_waitcnt", "s_waitcnt_vscnt"):
                continue  # nothing outstanding: an explicit wait has nothing to wait for
            if kind(inst) is not None:
                issue(state, inst)
            result.append(inst)
            continue
        if inst.mnemonic == "s_waitcnt":
            vm, lgkm = parse_wait(inst.modifiers)
            if needed(state, vm, lgkm):
                apply_wait(state, vm, lgkm)
                result.append(inst)
            continue
        if inst.mnemonic == "s_waitcnt_vscnt":
            if state.vs:
                state.vs = False
                result.append(inst)
            continue
        vm, lgkm = required(state, inst)
        if inst.mnemonic == "s_barrier" and state.lds:
            lgkm = 0
        if vm is not None or lgkm is not None:
            apply_wait(state, vm, lgkm)
            result.append(MInst("s_waitcnt", [], [], format_wait(vm, lgkm), inst.coord))
        issue(state, inst)
        result.append(inst)
    if insert:
        block.insts = result
    return state


def required(state: State, inst: MInst) -> tuple[int | None, int | None]:
    vm = lgkm = None
    if not state.vm and not state.lgkm:
        return None, None
    for reg in operand_registers(inst):
        number = state.vm.get(reg)
        if number is not None:
            age = state.vm_issued - 1 - number
            vm = age if vm is None else min(vm, age)
        number = state.lgkm.get(reg)
        if number is not None:
            age = 0 if state.smem else state.lgkm_issued - 1 - number
            lgkm = age if lgkm is None else min(lgkm, age)
    return (None if vm is None else min(vm, VM_MAX)), (None if lgkm is None else min(lgkm, LGKM_MAX))


def needed(state: State, vm: int | None, lgkm: int | None) -> bool:
    if vm is not None and any(state.vm_issued - 1 - number >= vm for number in state.vm.values()):
        return True
    return lgkm is not None and (state.lds or state.smem)


def apply_wait(state: State, vm: int | None, lgkm: int | None) -> None:
    if vm is not None:
        state.vm = {reg: number for reg, number in state.vm.items() if state.vm_issued - 1 - number < vm}
    if lgkm is not None:
        if lgkm == 0:
            state.lgkm, state.smem, state.lds = {}, False, False
        else:
            state.lgkm = {reg: n for reg, n in state.lgkm.items() if state.lgkm_issued - 1 - n < lgkm}


def issue(state: State, inst: MInst) -> None:
    counter = kind(inst)
    if counter is None:
        return
    if counter == "vs":
        state.vs = True
        return
    written = _REGS.get(("defs", id(inst)))
    if written is None:
        written = _REGS[("defs", id(inst))] = registers(inst.defs)
    if counter == "vm":
        for reg in written:
            state.vm[reg] = state.vm_issued
        state.vm_issued += 1
        return
    for reg in written:
        state.lgkm[reg] = state.lgkm_issued
    state.lgkm_issued += 1
    if counter == "smem":
        state.smem = True
    else:
        state.lds = True


_WAIT = re.compile(r"(vmcnt|lgkmcnt)\((\d+)\)")


def parse_wait(text: str) -> tuple[int | None, int | None]:
    found = dict((name, int(value)) for name, value in _WAIT.findall(text))
    return found.get("vmcnt"), found.get("lgkmcnt")


def format_wait(vm: int | None, lgkm: int | None) -> str:
    parts = []
    if vm is not None:
        parts.append(f"vmcnt({vm})")
    if lgkm is not None:
        parts.append(f"lgkmcnt({lgkm})")
    return " ".join(parts)
