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

from dataclasses import dataclass

from .combine import combine
from .lds_pairs import pair_lds_accesses
from .lds_wide_pairs import widen_read_pairs
from .machine import MFunction
from .machine_cse import eliminate_common_subexpressions
from .machine_dce import remove_dead_values
from .pressure import Pressure
from .sink_descriptors import sink_descriptor_loads
from .smem_clauses import merge_scalar_loads


@dataclass
class CleanUp:
    pair_lds: bool = True  # lds_pairs.py
    machine_cse: bool = True  # machine_cse.py
    merge_smem: bool = True  # smem_clauses.py
    merged_repeats: int = 0  # what they did: instructions dropped
    paired_lds: int = 0
    merged_smem: int = 0

    def run(self, function: MFunction, read_only: frozenset[int] = frozenset()) -> None:
        """``read_only``: the ids of the descriptor registers of resources nothing writes."""
        remove_dead_values(function)  # parts of expansions nothing reads
        sink_descriptor_loads(function)  # a descriptor needed only late holds no SGPRs before
        if self.machine_cse:  # what two IR operations' expansions compute twice
            self.merged_repeats = eliminate_common_subexpressions(function, Pressure(function))
        if self.merge_smem:  # neighbouring scalar buffer loads: one wide load, one wait
            self.merged_smem = merge_scalar_loads(function, read_only, Pressure(function, "s"))
        combine(function)  # pairs of VALU instructions into three-source VOP3 ones
        if self.pair_lds:  # ds_read2/ds_write2 for LDS accesses from one base
            self.paired_lds = pair_lds_accesses(function, Pressure(function))
            if self.paired_lds:  # two pairs of neighbouring dwords: one ds_read2_b64
                self.paired_lds += widen_read_pairs(function, Pressure(function))
                remove_dead_values(function)  # a moved base the wide read no longer needs
            combine(function)  # a moved base's addition may merge with the one before it
