"""Checking a listing's ``s_waitcnt``: a register a memory load writes is not there until a wait covers it.

The simulator performs a load at once, so a listing that forgot a wait would still compute
the right numbers; this check makes the forgetting visible. It follows the hardware facts
``waitcnt.py`` states (RDNA2, gfx10.3):

- ``vmcnt`` counts vector-memory reads (buffer/image/scratch loads, returning atomics); they
  return in order, so ``vmcnt(N)`` completes all but the N most recent;
- ``lgkmcnt`` counts LDS accesses (in order) and scalar-memory reads (out of order): while an
  SMEM read is outstanding nobody knows which operations a count above 0 leaves, so only
  ``lgkmcnt(0)`` is taken to complete anything;
- ``vscnt`` counts vector-memory writes; they write no register, so no read can race them.

Per wave, each counter holds its outstanding operations in issue order with the registers
they will write. Reading or writing such a register (writing too: the hardware has no
write-after-write interlock, the load could land later) is a ``SimulationError`` naming the
instruction, the load and their source lines. ``s_barrier`` with an LDS access outstanding is
one as well: the other waves could miss this wave's groupshared writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .machine import MInst
from .simulate import SimulationError
from .waitcnt import kind, parse_wait, registers


@dataclass
class Operation:
    inst: MInst
    counter: str  # vm, lds or smem
    registers: frozenset


@dataclass
class Outstanding:
    """One wave's memory operations not yet waited for, per counter, oldest first."""

    vm: list[Operation] = field(default_factory=list)
    lgkm: list[Operation] = field(default_factory=list)

    def check(self, inst: MInst, where) -> None:
        """Before ``inst`` runs: it touches no register a load still owes."""
        if not (self.vm or self.lgkm):
            return
        touched = registers(inst.uses) + registers(inst.defs)
        for operation in self.vm + self.lgkm:
            clash = [reg for reg in touched if reg in operation.registers]
            if clash:
                count = "vmcnt" if operation.counter == "vm" else "lgkmcnt"
                raise SimulationError(f"{where(inst)}: '{inst.format()}' uses {_names(clash)} before an "
                                      f"s_waitcnt {count} covers '{operation.inst.format()}' "
                                      f"({where(operation.inst)})")
        if inst.mnemonic == "s_barrier":
            lds = [operation for operation in self.lgkm if operation.counter == "lds"]
            if lds:
                raise SimulationError(f"{where(inst)}: s_barrier with {len(lds)} LDS access(es) outstanding (the "
                                      f"other waves may miss them): '{lds[-1].inst.format()}' "
                                      f"({where(lds[-1].inst)}) needs s_waitcnt lgkmcnt(0) first")

    def issue(self, inst: MInst) -> None:
        """After ``inst`` runs: a memory operation joins its counter's queue."""
        counter = kind(inst)
        if counter in (None, "vs"):
            return
        operation = Operation(inst, counter, frozenset(registers(inst.defs)))
        (self.vm if counter == "vm" else self.lgkm).append(operation)

    def wait(self, inst: MInst) -> None:
        """``s_waitcnt vmcnt(N) lgkmcnt(M)``: what the counts guarantee has completed."""
        vm, lgkm = parse_wait(inst.modifiers)
        if vm is not None:
            self.vm = _newest(self.vm, vm)
        if lgkm is not None and (lgkm == 0 or not any(operation.counter == "smem" for operation in self.lgkm)):
            self.lgkm = _newest(self.lgkm, lgkm)


def _newest(queue: list, count: int) -> list:
    """What an in-order queue may still hold once at most ``count`` remain."""
    return queue[-count:] if count else []


def _names(regs) -> str:
    return ", ".join(f"{cls}{number}" for cls, number in dict.fromkeys(regs))
