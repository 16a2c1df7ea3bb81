"""The listing simulator's ``image_gather4[_c]_lz[_o]``: D3D's gather4 at mip 0 of a 2-D texture
or 2-D array, one channel (dmask 1 red, 2 green, 4 blue, 8 alpha) of the four texels of the
bilinear footprint (texels converted from the texture's format as loads convert them) into four VGPRs, x, y, z, w (``d16`` results, from Texture2D<half4>, are
not simulated).

The address VGPRs are [offset,] [reference,] u, v[, slice] as float32 bits (``_c``: GatherCmp,
each value compared with the reference, 1.0 or 0.0); the offset dword packs
6-bit signed texel offsets, u in bits 0-5 and v in bits 8-13. The texture is found through
its T#'s base address, the address mode, border color and comparison are the S#'s fields
(``simulate_descriptors.py``).
The texel footprint itself is the interpreter's model (``ir/interpret/gather.py``), so the
simulator checks the listing's operands, not a second copy of the arithmetic.
"""

from __future__ import annotations

import re

import numpy as np

from ...ir.interpret.gather import compared, gather_texels
from ...machine.abi import COMPARISONS
from . import simulate_descriptors as descriptors
from .simulate_images import Image


def _signed6(bits: int) -> int:
    return bits - 64 if bits & 0x20 else bits


def gather4(machine, inst) -> None:
    positions = [k for k, op in enumerate(inst.uses) if getattr(op, "cls", "v") == "s"]
    image = Image(machine, machine.regs(inst.uses[positions[0]])[1])
    level = image.decoded(0) if image.is_array else image.decoded(0)[0]  # 4 channels of 32 bits
    first = machine.regs(inst.uses[positions[1]])[1]
    sampler = descriptors.sampler_state([int(machine.s[first + k]) & 0xFFFFFFFF for k in range(4)],
                                        machine.border_colors)
    state = (int(sampler["linear"]), sampler["mode"], list(sampler["border"]), COMPARISONS[sampler["comparison"]])
    address = []
    for op in inst.uses[:positions[0]]:
        _, first, count = machine.regs(op)
        address.extend(machine.v[first + k] for k in range(count))
    offset = (0, 0)
    if inst.mnemonic.endswith("_o"):
        packed = address.pop(0)
    comparing = "_c_" in inst.mnemonic  # image_gather4_c_lz: the reference after the offset
    reference = address.pop(0) if comparing else None
    if " d16" in inst.modifiers:
        from .simulate import SimulationError  # here: simulate imports this module
        raise SimulationError(f"cannot simulate a d16 gather: {inst.format()}")
    channel = int(re.search(r"dmask:0x([0-9a-f]+)", inst.modifiers).group(1), 16).bit_length() - 1
    is_array = "ARRAY" in inst.modifiers
    _, first, _ = machine.regs(inst.defs[0])
    for lane in np.flatnonzero(machine.exec):
        if inst.mnemonic.endswith("_o"):
            word = int(packed[lane])
            offset = (_signed6(word & 0x3F), _signed6(word >> 8 & 0x3F))
        u, v = (np.uint32(address[k][lane]).view(np.float32) for k in range(2))
        layer = np.uint32(address[2][lane]).view(np.float32) if is_array else None
        values = gather_texels(level, u, v, layer, channel, state, offset)
        if comparing:
            values = compared(values, np.uint32(reference[lane]).view(np.float32), state)
        words = np.asarray(values, np.float32 if comparing else level.dtype).view(np.uint32)
        for k in range(4):
            machine.v[first + k][lane] = words[k]

