"""The machine-IR clean-ups between selection and allocation, in order, each with its reason.

Selection expands one IR operation at a time; these passes work across the expansions over
virtual registers, before allocation (``isel.py``'s ``finish`` has already joined the chains of
blocks a folded branch leaves, so "a block" here is as long as straight-line code runs).
Computing a value once and pairing LDS accesses hold registers longer: each asks
``pressure.py`` before it does, and keeps the kernel in the VGPR granule it already needs
(merging scalar loads: at the SGPR peak it already has).
``pair_lds`` and ``machine_cse`` turn those two off, to compare listings with and without them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .combine import combine
from .lds_pairs import pair_lds_accesses
from .lds_wide_pairs import widen_read_pairs
from .live_ranges import LiveRanges
from .machine import MFunction, VReg
from .machine_cse import eliminate_common_subexpressions
from .machine_dce import remove_dead_values
from .pressure import Pressure
from .sink_descriptors import sink_descriptor_loads
from .smem_clauses import merge_scalar_loads


@dataclass(eq=False)  # one of a kind: compared by identity
class CleanUp:
    """The clean-ups after selection, which of them run, and what they did."""

    pair_lds: bool = True  # lds_pairs.py
    machine_cse: bool = True  # machine_cse.py
    merge_smem: bool = True  # smem_clauses.py
    merged_repeats: int = 0  # what they did: instructions dropped
    paired_lds: int = 0
    merged_smem: int = 0
    unmerged: MFunction | None = None  # a copy of the function from just before scalar loads merged
    unmerged_registers: dict[VReg, VReg] = field(default_factory=dict)  # each register -> its copy's
    # The live ranges of the function as the clean-ups leave it, when the last ``Pressure`` counted
    # them and nothing changed after (each clean-up returns how much it did: 0 when nothing).
    ranges: LiveRanges | None = None

    def run(self, function: MFunction, read_only: frozenset[int] = frozenset()) -> None:
        """``read_only``: the ids of the descriptor registers of resources nothing writes."""
        remove_dead_values(function)  # parts of expansions nothing reads
        sink_descriptor_loads(function)  # a descriptor needed only late holds no SGPRs before
        if self.machine_cse:  # what two IR operations' expansions compute twice
            self.merged_repeats = eliminate_common_subexpressions(function, Pressure(function))
        if self.merge_smem:  # neighbouring scalar buffer loads: one wide load, one wait
            before = function.copy(self.unmerged_registers)
            self.merged_smem = merge_scalar_loads(function, read_only, Pressure(function, "s"))
            self.unmerged = before if self.merged_smem else None
        self.finish(function)

    def finish(self, function: MFunction) -> None:
        """The clean-ups after merging scalar loads (``listing.py`` runs them on ``unmerged`` too,
        to weigh the kernel with and without the merged loads without selecting it again)."""
        self.ranges = None
        combine(function)  # pairs of VALU instructions into three-source VOP3 ones
        if self.pair_lds:  # ds_read2/ds_write2 for LDS accesses from one base
            pressure = Pressure(function)
            self.paired_lds = pair_lds_accesses(function, pressure)
            unchanged = not self.paired_lds  # since ``pressure`` counted the function's live ranges
            if self.paired_lds:  # two pairs of neighbouring dwords: one ds_read2_b64
                pressure = Pressure(function)
                widened = widen_read_pairs(function, pressure)
                removed = remove_dead_values(function)  # a moved base the wide read no longer needs
                self.paired_lds += widened
                unchanged = not widened and not removed
            if not combine(function) and unchanged:  # a moved base's addition may merge with the one before it
                self.ranges = pressure.ranges  # allocation need not compute them again
