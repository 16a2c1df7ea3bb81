"""Scalar buffer loads of neighbouring dwords issued as one wider load, where the first stood.

Selection loads each uniform cbuffer field (or uniform element of a buffer) with its own
``s_buffer_load_dword`` where the field is first read, so after allocation loads and
``s_waitcnt lgkmcnt(0)`` alternate. LLVM's ``SILoadStoreOptimizer`` merges such loads of one
descriptor into ``s_buffer_load_dwordx2/x4/x8``; this pass does the same over virtual
registers. In one block, loads through one descriptor at constant offsets that continue each
other (``0x0``, ``0x4``, ``0x8`` ...) gather into a run of at most 8 dwords; the run is cut into
loads of 8, 4 or 2 dwords (a part that fits none stays as it was), each standing where the
earliest of its loads stood. The loads' registers become parts of the wide one, whose tuple
allocation aligns (pairs on an even SGPR, four or more on a multiple of 4).

A later load joins a run when:

* its register is written once and not read between the run's first load and it;
* nothing between writes memory, waits at a barrier or branches, unless the descriptor is a
  read-only resource's (a cbuffer or a buffer without ``RW``): nothing in the dispatch writes
  that, so the load returns the same value earlier;
* holding its registers from the run's first load on keeps the kernel's live SGPRs (with VCC)
  in the 8-SGPR granule its peak is in (``pressure.py``, ``sgpr_budget``).

``s_load_dword`` reads only the descriptor table here (``isel_memory.py``), whose 32-byte slots
hold 4- or 8-dword descriptors, so two such loads never continue each other within 8 dwords.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...machine import rdna2 as device
from .isel_memory import Text
from .isel_tables import SMEM_DWORDS
from .machine import MFunction, MInst, SubReg, VReg
from .pressure import Pressure

LOAD = "s_buffer_load_"
MAX_DWORDS = 8
# The kernel descriptor counts SGPRs in blocks of 8 (LLVM's getSGPREncodingGranule); on gfx10 they
# never limit occupancy, so a merge may use SGPRs the kernel's block already has.
SGPR_GRANULE = 8
READ_ONLY = ("cbuffer", "Buffer", "StructuredBuffer", "ByteAddressBuffer")  # kinds nothing in a dispatch writes
WIDTHS = (8, 4, 2)
_SIZES = {f"{LOAD}{name}": size for size, name in SMEM_DWORDS.items() if size <= 4}
_WRITES = ("buffer_store", "buffer_atomic", "global_store", "global_atomic", "image_store", "image_atomic",
           "flat_", "scratch_store", "s_store", "s_buffer_store", "s_atomic", "s_barrier", "s_branch", "s_cbranch",
           "s_endpgm", "s_setpc", "s_dcache")


@dataclass
class _Run:
    """Loads through one descriptor covering ``start`` .. ``end`` (bytes) without a gap."""

    descriptor: VReg
    start: int
    end: int
    loads: list[tuple[int, MInst]] = field(default_factory=list)  # (index in the block, load)

    @property
    def first(self) -> int:
        return min(index for index, _ in self.loads)


def read_only_descriptors(descriptors: dict, bindings: dict) -> frozenset[int]:
    """The ids of the descriptor registers of resources nothing in the dispatch writes."""
    return frozenset(id(reg) for key, reg in descriptors.items() if bindings[key[0]].kind in READ_ONLY)


def merge_scalar_loads(function: MFunction, read_only: frozenset[int], sgprs: Pressure | None = None) -> int:
    """Merge neighbouring scalar buffer loads of one descriptor; the number of loads saved."""
    written: dict[int, int] = {}
    for inst in function.instructions():
        for reg in inst.registers("defs"):
            written[id(reg)] = written.get(id(reg), 0) + 1
    if sgprs is not None:
        sgprs.budget = sgpr_budget(max(sgprs.live, default=0))
    saved, parts = 0, {}
    for block in function.blocks:
        runs: list[_Run] = []  # the runs a later load may still join
        done: list[_Run] = []
        for index, inst in enumerate(block.insts):
            spot = _spot(inst, written)
            if spot is None:
                if inst.mnemonic.startswith(_WRITES):
                    done += [run for run in runs if id(run.descriptor) not in read_only]
                    runs = [run for run in runs if id(run.descriptor) in read_only]
                continue
            descriptor, offset, size = spot
            run = next((run for run in runs if run.descriptor is descriptor and run.end - run.start + 4 * size
                        <= 4 * MAX_DWORDS and offset in (run.end, run.start - 4 * size)
                        and _movable(block.insts, run.first, index, sgprs)), None)
            if run is None:
                runs.append(_Run(descriptor, offset, offset + 4 * size, [(index, inst)]))
                continue
            run.loads.append((index, inst))
            run.start, run.end = min(run.start, offset), max(run.end, offset + 4 * size)
        for run in done + runs:
            saved += _merge(block.insts, run, parts)
        block.insts = [inst for inst in block.insts if inst is not None]
    if parts:  # a merged load's register may be read in any block
        for inst in function.instructions():
            inst.uses = [_renamed(operand, parts) for operand in inst.uses]
    return saved


def sgpr_budget(peak: int) -> int:
    """Live SGPRs merged loads may reach: the end of the granule the peak (with VCC) is in, or the
    peak itself when that fills it, since tuple alignment can cost the allocation an SGPR or two."""
    vcc = device.RDNA2.vcc_sgprs
    room = -(-(peak + vcc) // SGPR_GRANULE) * SGPR_GRANULE - vcc
    return max(room, peak)


def _spot(inst: MInst, written: dict) -> tuple[VReg, int, int] | None:
    """(descriptor, byte offset, dwords) of a scalar buffer load at a constant offset."""
    size = _SIZES.get(inst.mnemonic)
    if size is None or len(inst.defs) != 1 or len(inst.uses) != 2 or not isinstance(inst.uses[1], Text):
        return None
    target, descriptor = inst.defs[0], inst.uses[0]
    if not isinstance(target, VReg) or target.size != size or written.get(id(target)) != 1 \
            or not isinstance(descriptor, VReg) or written.get(id(descriptor), 0) > 1:
        return None
    offset = int(inst.uses[1].name, 16)
    return (descriptor, offset, size) if offset % 4 == 0 else None


def _movable(insts: list, first: int, last: int, sgprs: Pressure | None) -> bool:
    """The load at ``last`` moves up to ``first``: its register is not read between, and holding
    it from there keeps the SGPR peak."""
    target = insts[last].defs[0]
    if any(inst is not None and target in inst.registers("uses") for inst in insts[first + 1:last]):
        return False
    return sgprs is None or sgprs.hold(sgprs.where(insts[first]), sgprs.where(insts[last]), target.size)


def _merge(insts: list, run: _Run, parts: dict) -> int:
    """Replace the run's loads by loads of 8, 4 or 2 dwords, recording in ``parts`` which part of
    which wide register each merged load's register became; how many loads that saves."""
    loads = sorted(run.loads, key=lambda load: int(load[1].uses[1].name, 16))
    saved = 0
    while loads:
        chunk = _chunk(loads)
        loads = loads[len(chunk):]
        if len(chunk) < 2:
            continue
        width = sum(load.defs[0].size for _, load in chunk)
        where = min(index for index, _ in chunk)
        head = chunk[0][1]
        wide = VReg("s", width, head.defs[0].name)
        dword = 0
        for index, load in chunk:
            parts[id(load.defs[0])] = (wide, dword)
            dword += load.defs[0].size
            insts[index] = None
        insts[where] = MInst(f"{LOAD}{SMEM_DWORDS[width]}", [wide], list(head.uses), head.modifiers, head.coord)
        saved += len(chunk) - 1
    return saved


def _chunk(loads: list) -> list:
    """The longest prefix of ``loads`` (by offset) that fills 8, 4 or 2 dwords exactly, each load's
    tuple at a multiple of its size (a pair read as a 64-bit operand stays even); else the first."""
    for width in WIDTHS:
        total = 0
        for count, (_, load) in enumerate(loads, 1):
            if total % load.defs[0].size:
                break
            total += load.defs[0].size
            if total == width:
                return loads[:count]
            if total > width:
                break
    return loads[:1]


def _renamed(operand, parts: dict):
    """``operand`` read from its part of the wide register its load became."""
    if isinstance(operand, VReg) and id(operand) in parts:
        wide, dword = parts[id(operand)]
        return SubReg(wide, dword, operand.size)
    if isinstance(operand, SubReg) and id(operand.base) in parts:
        wide, dword = parts[id(operand.base)]
        return SubReg(wide, dword + operand.index, operand.count)
    return operand
