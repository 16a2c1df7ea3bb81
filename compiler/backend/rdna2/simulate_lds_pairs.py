"""``ds_read2_b32``/``ds_write2_b32``, ``ds_read2_b64`` and their ``st64`` forms in the listing simulator.

Two elements per lane at ``address + offset0 * unit`` and ``address + offset1 * unit``: the
unit is the element's size (4 bytes, 8 for ``_b64``), or 64 of them for ``st64``. A read fills
the register pair (two pairs for ``_b64``), a write stores its two data operands in order
(``lds_pairs.py`` and ``lds_wide_pairs.py`` merge the pairs).
"""

from __future__ import annotations

import re

import numpy as np

_FIELD = re.compile(r"offset([01]):(\d+)")


def pair_access(machine, inst) -> None:
    dwords = 2 if inst.mnemonic.endswith("_b64") else 1
    unit = 4 * dwords * (64 if "st64" in inst.mnemonic else 1)
    fields = {int(k): int(v) for k, v in _FIELD.findall(inst.modifiers)}
    offsets = [fields.get(0, 0) * unit, fields.get(1, 0) * unit]
    address = machine.vector(inst.uses[0]).astype(np.int64)
    words = machine.lds.view(np.uint32)
    reading = inst.mnemonic.startswith("ds_read2")
    registers = [machine.regs(inst.defs[0])[1] + dwords * k for k in range(2)] if reading \
        else [machine.regs(op)[1] for op in inst.uses[1:3]]
    for lane in np.flatnonzero(machine.exec):
        for register, offset in zip(registers, offsets):
            for word in range(dwords):
                index = (int(address[lane]) + offset) // 4 + word
                if reading:
                    machine.v[register + word][lane] = words[index]
                else:
                    words[index] = machine.v[register + word][lane]
