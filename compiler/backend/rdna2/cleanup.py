"""The machine-IR clean-ups between selection and allocation, in order, each with its reason.

Selection expands one IR operation at a time; these passes work across the expansions over
virtual registers, before allocation. ``listing.py`` turns the last two off for a kernel
where they cost a VGPR granule (``select_and_allocate``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .combine import combine
from .lds_pairs import pair_lds_accesses
from .machine import MFunction
from .machine_cse import eliminate_common_subexpressions
from .machine_dce import remove_dead_values


@dataclass
class CleanUp:
    pair_lds: bool = True  # lds_pairs.py
    machine_cse: bool = True  # machine_cse.py
    merged_repeats: int = 0  # what they did: instructions dropped
    paired_lds: int = 0

    def run(self, function: MFunction) -> None:
        remove_dead_values(function)  # parts of expansions nothing reads
        if self.machine_cse:  # what two IR operations' expansions compute twice
            self.merged_repeats = eliminate_common_subexpressions(function)
        combine(function)  # pairs of VALU instructions into three-source VOP3 ones
        if self.pair_lds:  # ds_read2/ds_write2 for LDS accesses from one base
            self.paired_lds = pair_lds_accesses(function)
            combine(function)  # a moved base's addition may merge with the one before it
