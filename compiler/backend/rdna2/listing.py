"""The RDNA2 listing: selection, register allocation, waits, and the text with its header.

``render_listing(module)`` runs the back end on the middle end's final IR and returns a
``Listing``: the assembly text (LLVM's spelling, block labels ``.LBB0_N``) under an
RGA-style header (entry, wave size, ``[numthreads]``, VGPRs used and allocated, SGPRs,
LDS, scratch, occupancy and its limiter, bindings and their descriptor SGPRs) and the
same figures as numbers. With ``source=True`` each HLSL line appears as a comment
(``; file:line: text``) before the first instruction that came from it. The text is
checked structurally before it is returned (``operand_classes.py``: every register in a
field of its class).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...diagnostics import SourceCache, display_path
from ...ir.core import Module
from ...machine import rdna2 as device
from ...machine.isa_classes import CLASSES, count_mnemonics
from .cleanup import CleanUp
from .isel import Selector
from .machine import MFunction, MInst
from .operand_classes import check_operand_classes
from .regalloc import Allocation, allocate
from .smem_clauses import SGPR_GRANULE
from .waitcnt import insert_waitcnts



@dataclass(eq=False)  # one of a kind: compared by identity
class Listing:
    """An RDNA2 listing: its text, its resource figures and the machine function."""

    text: str
    vgprs: int
    vgprs_allocated: int
    sgprs: int
    lds_bytes: int
    scratch_bytes: int
    occupancy: int
    limiter: str
    instructions: dict[str, int] = field(default_factory=dict)
    wave_size: int = 32
    by_limit: dict[str, int] = field(default_factory=dict)
    function: MFunction | None = None


def _is_dpp(inst: MInst) -> bool:
    return inst.mnemonic.startswith("v_") and ("_dpp" in inst.mnemonic or "dpp8:" in inst.modifiers)


def count_instructions(function: MFunction) -> dict[str, int]:
    """Instructions per class of ``machine/isa_classes.py`` (the rule ``--compare-llvm`` applies
    to LLVM's ISA too), plus ``DPP``: the VALU instructions with a DPP modifier, and
    ``s_waitcnt``: the waits among the ``waitcnt`` class."""
    insts = [inst for inst in function.instructions() if not inst.is_marker]
    counts = count_mnemonics(inst.mnemonic for inst in insts)
    counts["DPP"] = sum(1 for inst in insts if _is_dpp(inst))
    counts["s_waitcnt"] = sum(1 for inst in insts if inst.mnemonic == "s_waitcnt")
    return counts


def render_listing(module: Module, source: bool = False, sources: SourceCache | None = None) -> Listing:
    """The kernel's RDNA2 listing; ``sources`` (a ``Diagnostics().sources``) supplies the HLSL lines."""
    selector, function, allocation = select_and_allocate(module)
    insert_waitcnts(function)
    wave = function.wave_size
    x, y, z = module.function.numthreads
    vgprs = max(allocation.vgprs_used, 1)
    sgprs = allocation.sgprs_used + device.RDNA2.vcc_sgprs
    lds = module.lds_bytes + selector.extra_lds
    scratch = module.scratch_bytes + allocation.scratch_bytes
    occupancy = device.occupancy(vgprs, sgprs, lds, x * y * z, wave)
    counts = count_instructions(function)
    listing = Listing("", vgprs, device.vgprs_allocated(vgprs, wave), sgprs, lds, scratch,
                      occupancy.waves_per_simd, occupancy.limiter, counts, wave, dict(occupancy.by_limit), function)
    header = header_lines(module, selector, listing, allocation)
    body = body_lines(function, source, sources)
    listing.text = "\n".join(header + body) + "\n"
    check_operand_classes(listing.text)  # an SGPR field holding a VGPR is a back-end bug, never printed
    return listing


def select_and_allocate(module: Module) -> tuple[Selector, MFunction, Allocation]:
    """Selection and register allocation. The clean-ups that lengthen live ranges (LDS
    pairs, values computed once) weigh the VGPRs they hold themselves (``pressure.py``): none
    takes the kernel into another allocation granule. Merged scalar loads (``smem_clauses.py``)
    tie SGPRs into aligned tuples, which live counts cannot weigh (a long-lived field in a
    4-aligned tuple can push a later descriptor's tuple up): where merging took the kernel
    into another block of 8 SGPRs, or cost VGPRs or spills, the listing keeps the loads apart."""
    selector = Selector(module)
    function = selector.run()
    allocation = allocate(function, scratch_base=module.scratch_bytes, ranges=selector.clean_up.ranges)
    apart_function = selector.clean_up.unmerged  # as selected and cleaned up until the merge
    if apart_function is not None:
        apart = CleanUp(merge_smem=False)
        apart.finish(apart_function)
        apart_allocation = allocate(apart_function, scratch_base=module.scratch_bytes, ranges=apart.ranges)
        if _costlier(allocation, apart_allocation):
            copies = selector.clean_up.unmerged_registers  # the header names the copy's descriptor registers
            selector.descriptors = {key: copies.get(reg, reg) for key, reg in selector.descriptors.items()}
            return selector, apart_function, apart_allocation
    return selector, function, allocation


def _costlier(merged: Allocation, apart: Allocation) -> bool:
    def blocks(allocation: Allocation) -> int:
        return -(-(allocation.sgprs_used + device.RDNA2.vcc_sgprs) // SGPR_GRANULE)
    return (blocks(merged) > blocks(apart) or merged.vgprs_used > apart.vgprs_used
            or len(merged.spilled) > len(apart.spilled) or merged.scratch_bytes > apart.scratch_bytes)


def header_lines(module: Module, selector: Selector, listing: Listing, allocation: Allocation) -> list[str]:
    function = module.function
    x, y, z = function.numthreads
    wave = listing.wave_size
    waves = -(-(x * y * z) // wave)
    where = f"  ({display_path(function.coord.file)}:{function.coord.line})" if function.coord.line > 0 else ""
    granule = device.RDNA2.granule(wave)
    limits = ", ".join(f"{name} {value}" for name, value in listing.by_limit.items())
    lds_note = f" (+{selector.extra_lds} for lane exchanges)" if selector.extra_lds else ""
    spills = f", {len(allocation.spilled)} values spilled" if allocation.spilled else ""
    if allocation.spill_lanes:
        spills += f" ({allocation.spill_lanes} VGPR{'s' if allocation.spill_lanes != 1 else ''} holding SGPRs in lanes)"
    reloads = len(allocation.rematerialised)
    reloaded = f", {reloads} descriptor{'s' if reloads != 1 else ''} loaded again at each use" if reloads else ""
    lines = [
        f"; shc RDNA2 listing ({device.RDNA2.gfx}, wave{wave})",
        f"; entry         {function.name}{where}",
        f"; wave size     {wave}",
        f"; numthreads    [{x}, {y}, {z}]  ({waves} wave{'s' if waves != 1 else ''} per group)",
        f"; VGPRs         {listing.vgprs} used, {listing.vgprs_allocated} allocated (granule {granule}){spills}",
        f"; SGPRs         {listing.sgprs} (with VCC){reloaded}",
        f"; LDS           {listing.lds_bytes} bytes{lds_note}",
        f"; scratch       {listing.scratch_bytes} bytes per lane",
        "; float mode    MODE.FP_DENORM: fp32 denormals flushed, fp16 and fp64 kept (D3D12)",
        f"; occupancy     {listing.occupancy} waves per SIMD, limited by {listing.limiter} ({limits})",
        f"; instructions  {class_counts_text(listing.instructions)}",
    ]
    if module.bindings:
        lines.append("; bindings")
        for binding in module.bindings:
            element = f"<{binding.element}>" if binding.element is not None else ""
            count = "" if binding.count == 1 else f"[{'' if binding.count is None else binding.count}]"
            kind = f"{binding.kind}{element}{count}"
            lines.append(f";   {binding.register + ' space' + str(binding.space):<11} {kind:<30} "
                         f"{binding.name:<20} {descriptor_text(selector, binding)}")
    lines.append(f"{function.name}:")
    return lines


def class_counts_text(counts: dict[str, int]) -> str:
    """``SALU 38, VALU 22 (DPP 4), ..., other 4 (s_waitcnt 10)``: every class, as counted by
    ``count_instructions``."""
    parts = [f"{name} {counts[name]}" + (f" (DPP {counts['DPP']})" if name == "VALU" and counts["DPP"] else "")
             for name in CLASSES]
    return f"{', '.join(parts)} (s_waitcnt {counts['s_waitcnt']})"


def descriptor_text(selector: Selector, binding) -> str:
    if binding.count != 1:
        return f"loaded per access (table +0x{selector.slots[binding.name]:x}, 32 bytes per element)"
    regs = [(key[1], reg) for key, reg in selector.descriptors.items() if key[0] == binding.name]
    if not regs:
        return "unused"
    slot = selector.slots[binding.name]
    if all(reg.phys is None for _, reg in regs):  # rematerialised: each use loads it again
        return f"loaded again at each use (table +0x{slot:x})"
    shown = ", ".join(reg.format() + (f" [{index}]" if binding.count != 1 else "") for index, reg in sorted(
        regs, key=lambda item: item[0]))
    return f"{shown}  (table +0x{slot:x})"


def body_lines(function: MFunction, source: bool, sources: SourceCache | None) -> list[str]:
    targets = getattr(function, "targets", set())
    lines = []
    last_line = None
    reader = _SourceReader(sources)
    for number, block in enumerate(function.blocks):
        comment = f"  ; {block.comment}" if block.comment else ""
        if block.label in targets:
            lines.append(f"{block.label}:{comment}")
        elif number > 0 or block.comment:
            lines.append(f"; %bb.{number}:{comment}")
        for inst in block.insts:
            if inst.is_marker:
                continue
            coord = inst.coord
            if source and coord.line > 0 and (coord.file, coord.line) != last_line:
                last_line = (coord.file, coord.line)
                text = reader.line(coord.file, coord.line)
                if text is not None:
                    lines.append(f"; {display_path(coord.file)}:{coord.line}: {text.strip()}")
            text = "  " + inst.format()
            if inst.comment:
                text = f"{text:<60} ; {inst.comment}"
            lines.append(text)
    return lines


class _SourceReader:
    def __init__(self, sources: SourceCache | None):
        self.sources = sources
        self.files: dict[str, list[str] | None] = {}

    def line(self, path: str, number: int) -> str | None:
        if self.sources is not None:
            text = self.sources.line(path, number)
            if text is not None:
                return text
        if path not in self.files:
            try:
                with open(path, encoding="utf-8") as handle:
                    self.files[path] = handle.read().splitlines()
            except OSError:
                self.files[path] = None
        lines = self.files[path]
        if lines is None or not 0 < number <= len(lines):
            return None
        return lines[number - 1]
