"""What a dispatch reports: waves run, instructions by class, lane utilisation, LDS and atomics.

The JIT counts into ``ctx->counters``: one row of ``abi.STAT_COUNTERS`` int64 per
host worker thread (so no counter is shared between threads), in the order of
``abi.STAT_NAMES``. ``DispatchStats.from_counters`` adds the rows up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..compiler.machine.abi import STAT_COUNTERS, STAT_NAMES

# The instruction classes a user reads, in the order they are printed.
CLASSES = ("valu", "salu", "lane_exchange", "lds", "vmem")
CLASS_TITLES = {"valu": "VALU", "salu": "SALU", "lane_exchange": "lane-exchange", "lds": "LDS", "vmem": "VMEM"}


@dataclass
class DispatchStats:
    """Counts for one dispatch.

    ``instructions`` maps each class of ``CLASSES`` to the wave instructions
    executed (one per wave, whatever its active lanes); ``mean_active_lanes`` is
    the average of active lanes over every counted instruction; ``lds_bytes`` is
    the LDS a group allocates; ``atomics`` counts atomic wave instructions.
    """

    groups: tuple[int, int, int] = (1, 1, 1)
    waves: int = 0
    wave_size: int = 32
    instructions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    total_instructions: int = 0
    active_lane_sum: int = 0
    lds_bytes: int = 0
    scratch_bytes_per_wave: int = 0
    atomics: int = 0
    threads: int = 1
    seconds: float = 0.0

    @property
    def mean_active_lanes(self) -> float:
        return self.active_lane_sum / self.total_instructions if self.total_instructions else 0.0

    @property
    def lane_utilisation(self) -> float:
        """Mean active lanes as a fraction of the wave."""
        return self.mean_active_lanes / self.wave_size

    @classmethod
    def from_counters(cls, counters: np.ndarray, **fields) -> DispatchStats:
        """Sum the per-worker rows of ``ctx->counters``."""
        totals = np.asarray(counters, dtype=np.int64).reshape(-1, STAT_COUNTERS).sum(axis=0)
        named = {name: int(value) for name, value in zip(STAT_NAMES, totals)}
        stats = cls(**fields)
        stats.instructions = {name: named[name] for name in CLASSES}
        stats.atomics = named["atomics"]
        stats.active_lane_sum = named["active_lanes"]
        stats.total_instructions = named["instructions"]
        return stats

    def as_dict(self) -> dict:
        return {
            "groups": list(self.groups), "waves": self.waves, "wave_size": self.wave_size,
            "instructions": dict(self.instructions), "total_instructions": self.total_instructions,
            "mean_active_lanes": self.mean_active_lanes, "lds_bytes": self.lds_bytes,
            "scratch_bytes_per_wave": self.scratch_bytes_per_wave, "atomics": self.atomics,
            "threads": self.threads, "seconds": self.seconds,
        }

    def format(self) -> str:
        """A short human-readable report (``shc run`` prints it)."""
        gx, gy, gz = self.groups
        lines = [
            f"groups            {gx} x {gy} x {gz}  ({self.waves} waves of {self.wave_size} lanes, "
            f"{self.threads} host thread{'s' if self.threads != 1 else ''}, {self.seconds * 1e3:.2f} ms)",
            f"instructions      {self.total_instructions}",
        ]
        for name in CLASSES:
            lines.append(f"  {CLASS_TITLES[name]:<16}{self.instructions.get(name, 0)}")
        lines += [
            f"mean active lanes {self.mean_active_lanes:.2f} of {self.wave_size} "
            f"({100 * self.lane_utilisation:.1f}%)",
            f"LDS per group     {self.lds_bytes} bytes",
            f"atomics           {self.atomics}",
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()
