"""VGPR pressure over virtual registers, for the clean-ups that lengthen live ranges.

Computing a value once (``machine_cse.py``) keeps it alive from the first computation to the
last reader of the second, and pairing two LDS accesses (``lds_pairs.py``) moves a read up or
a write down: both hold a register over a stretch where it was free. That is worth an
instruction only while the kernel's VGPRs stay in the same allocation granule, since a
granule more can cost occupancy. ``Pressure`` counts the VGPRs live at every instruction
(``live_ranges.intervals``, a tuple's components each from its first write to its last read)
and answers whether holding ``count`` more over a stretch keeps the kernel within the budget,
recording the extensions it allows so the next question sees them. The budget is the end of
the granule the peak is in; when the peak already fills that granule, one VGPR below the peak:
allocation places tuples whole and aligned and can need a VGPR or two more than the count, so
stretches must not all grow to the peak there (SPD with ``A_HALF`` at wave64 sits at 24 of 24).
"""

from __future__ import annotations

from itertools import accumulate

from ...machine import rdna2 as device
from .live_ranges import intervals
from .machine import MFunction, MInst, VReg


class Pressure:
    """Live registers of class ``cls`` (``v``, or ``s`` for ``sink_descriptors.py``) at each instruction."""

    def __init__(self, function: MFunction, cls: str = "v"):
        insts = list(function.instructions())
        self.position = {id(inst): index for index, inst in enumerate(insts)}
        changes = [0] * (len(insts) + 2)  # +1 where a register becomes live, -1 after its last instruction
        self.ends: dict[VReg, int] = {}
        ranges = self.ranges = intervals(function)  # the live ranges counted, as the function stood
        for reg, (start, end) in ranges.spans.items():
            if reg.cls != cls:
                continue
            self.ends[reg] = end // 2
            ends = ranges.component_ends.get(reg, [end] * reg.size)
            firsts = ranges.first_writes.get(reg, [start] * reg.size)
            for first, last in zip(firsts, ends):  # a tuple's components come and go one by one
                first = start if first == float("inf") else int(first)
                if first // 2 <= last // 2:
                    changes[first // 2] += 1
                    changes[last // 2 + 1] -= 1
        live = list(accumulate(changes[:-1]))
        self.live = live
        peak = max(live, default=0)
        room = device.RDNA2.vgprs_allocated(peak, function.wave_size)
        self.budget = room if room > peak else peak - 1

    def where(self, inst: MInst) -> int | None:
        return self.position.get(id(inst))

    def hold(self, start: int | None, stop: int | None, count: int, slack: int = 0) -> bool:
        """Hold ``count`` more VGPRs at instructions ``start`` to ``stop - 1`` if that keeps the
        peak in budget; whether it does."""
        if start is None or stop is None:
            return False
        if stop <= start or count == 0:
            return True
        if max(self.live[start:stop]) + count > self.budget - slack:
            return False
        for index in range(start, stop):
            self.live[index] += count
        return True

    def extend(self, reg: VReg, until: int | None, also: VReg | None = None, slack: int = 0) -> bool:
        """Keep ``reg`` (a VGPR value) alive up to instruction ``until`` and on to where ``also``
        (a register it replaces) dies, if that stays in budget; whether it does."""
        if reg.cls != "v":
            return True
        end = self.ends.get(reg)
        if end is None or not self.hold(end + 1, until, reg.size, slack):
            return False
        self.ends[reg] = max(end, until or end, self.ends.get(also, end) if also is not None else end)
        return True
