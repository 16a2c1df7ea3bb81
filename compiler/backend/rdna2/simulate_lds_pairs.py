"""``ds_read2_b32``/``ds_write2_b32`` and their ``st64`` forms in the listing simulator.

Two dwords per lane at ``address + offset0 * unit`` and ``address + offset1 * unit``: the
unit is 4 bytes, or 256 bytes for ``st64``. A read fills the register pair, a write stores
its two data registers in order (``lds_pairs.py`` merges the pairs).
"""

from __future__ import annotations

import re

import numpy as np

_FIELD = re.compile(r"offset([01]):(\d+)")


def pair_access(machine, inst) -> None:
    unit = 256 if "st64" in inst.mnemonic else 4
    fields = {int(k): int(v) for k, v in _FIELD.findall(inst.modifiers)}
    offsets = [fields.get(0, 0) * unit, fields.get(1, 0) * unit]
    address = machine.vector(inst.uses[0]).astype(np.int64)
    words = machine.lds.view(np.uint32)
    reading = inst.mnemonic.startswith("ds_read2")
    registers = [machine.regs(inst.defs[0])[1] + k for k in range(2)] if reading \
        else [machine.regs(op)[1] for op in inst.uses[1:3]]
    for lane in np.flatnonzero(machine.exec):
        for register, offset in zip(registers, offsets):
            index = (int(address[lane]) + offset) // 4
            if reading:
                machine.v[register][lane] = words[index]
            else:
                words[index] = machine.v[register][lane]
