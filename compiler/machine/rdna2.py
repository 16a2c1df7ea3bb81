"""The modeled RDNA2 device (gfx1030) and its occupancy formula.

Occupancy is how many waves of one kernel a SIMD holds at once. Three limits
decide it; the smallest wins:

- **vgprs**: a SIMD's register file is shared by its waves. A wave allocates its
  VGPRs in granules, so ``waves = min(max_waves, total_vgprs // roundup(vgprs, granule))``.
- **lds**: a workgroup's LDS is allocated whole in its WGP. The groups that fit,
  times their waves, spread over the WGP's four SIMDs:
  ``clamp(ceil(waves_per_group * groups / 4), 1, max_waves)``.
- **waves**: wave slots per SIMD (16), and workgroup slots per WGP (the WGP has
  32 barrier resources; a one-wave group needs none). This limit holds even
  with no LDS and few VGPRs.

SGPRs do not limit occupancy on RDNA: every wave gets its 106 (+ VCC).

The numbers follow LLVM's AMDGPU backend, the reference the register report is
checked against (``llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp`` and
``AMDGPUSubtarget.cpp``), for gfx10.3 (``hasGFX10_3Insts``) in WGP mode:

- ``getVGPRAllocGranule``: 16 in wave32, 8 in wave64 (gfx10.1: 8 / 4; the
  *encoding* granule, ``getVGPREncodingGranule``, stays 8 / 4 on gfx10.3: the
  kernel descriptor counts blocks of 8, the hardware allocates blocks of 16).
- ``getTotalNumVGPRs``: 1024 (wave32) / 512 (wave64); ``getAddressableNumVGPRs``: 256.
- ``getMaxWavesPerEU``: 16 on gfx10.3 in both wave sizes (20 on gfx10.1, 10 on GCN).
- ``getNumWavesPerEUWithNumVGPRs``: fewer VGPRs than one granule gives the
  maximum; otherwise ``min(max(total // alignTo(n, granule), 1), max_waves)``.
- ``getAddressableNumSGPRs``: 106 on gfx10+, plus 2 for VCC
  (``getNumExtraSGPRs``); ``getOccupancyWithNumSGPRs`` returns the maximum on gfx10+.
- LDS: 64 KiB addressable per workgroup (``AddressableLocalMemorySize``), doubled
  to 128 KiB for occupancy in WGP mode (``LocalMemorySize *= 2``).
- ``getMaxWorkGroupsPerCU``: a one-wave group: ``max_waves * 4``; otherwise
  ``min(max_waves * 4 // waves_per_group, 32)`` (32 barriers per WGP).
- ``getOccupancyWithLocalMemSize``: ``groups = min(max_groups, lds_total // lds)``
  (0 groups: occupancy 1), then ``min(ceil(groups * waves_per_group / 4), max_waves)``.

``tests/runtime/test_device.py`` checks these against the LLVM that llvmlite ships
(LLVM 20): for kernels with forced VGPR counts and LDS sizes, every case agrees when
the kernel pins its group size (``"amdgpu-flat-work-group-size"="N,N"``). With the
range ``"1,N"`` LLVM (``getOccupancyWithWorkGroupSizes``) reports the best occupancy
over *every* group size up to N, which is one wave higher than N itself allows
when a group's wave count does not divide the 64 wave slots (160 threads in wave32:
5 waves, 12 groups, 60 waves -> 15 per SIMD; LLVM with "1,160" says 16).
"""

from __future__ import annotations

from dataclasses import dataclass, field

LIMITERS = ("vgprs", "lds", "waves")


@dataclass(frozen=True)
class Occupancy:
    """Waves per SIMD, the limit that set it, and what each limit alone allows."""

    waves_per_simd: int
    limiter: str  # one of LIMITERS
    by_limit: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Device:
    name: str
    gfx: str
    simds_per_wgp: int
    max_waves_per_simd: int
    vgprs_per_simd: dict[int, int]  # by wave size
    vgpr_granule: dict[int, int]  # allocation granule, by wave size
    vgpr_encoding_granule: dict[int, int]
    max_vgprs_per_wave: int
    max_sgprs_per_wave: int  # addressable, without VCC
    vcc_sgprs: int
    lds_per_group: int  # addressable by one workgroup
    lds_per_wgp: int  # what occupancy divides (WGP mode)
    barriers_per_wgp: int

    # -- VGPR allocation ---------------------------------------------------------

    def granule(self, wave_size: int) -> int:
        return self.vgpr_granule[_check_wave(wave_size)]

    def vgprs_allocated(self, used: int, wave_size: int) -> int:
        """The VGPRs a wave really occupies: ``used`` rounded up to whole granules (at least one)."""
        granule = self.granule(wave_size)
        return _round_up(max(1, used), granule)

    def waves_for_vgprs(self, vgprs: int, wave_size: int) -> int:
        granule = self.granule(wave_size)
        if vgprs < granule:
            return self.max_waves_per_simd
        per_wave = min(self.vgprs_allocated(vgprs, wave_size), self.vgprs_per_simd[wave_size])
        return min(max(self.vgprs_per_simd[wave_size] // per_wave, 1), self.max_waves_per_simd)

    def next_step_vgprs(self, vgprs: int, wave_size: int) -> int | None:
        """How many VGPRs to free for the VGPR limit to allow more waves; None at the maximum.

        Only the VGPR limit is considered: if LDS or wave slots hold occupancy lower,
        freeing these registers will not show until that limit is lifted too.
        """
        waves = self.waves_for_vgprs(vgprs, wave_size)
        if waves >= self.max_waves_per_simd:
            return None
        budget = _round_down(self.vgprs_per_simd[wave_size] // (waves + 1), self.granule(wave_size))
        return vgprs - min(budget, self.max_vgprs_per_wave)

    # -- LDS and wave slots ------------------------------------------------------

    def waves_per_group(self, threads_per_group: int, wave_size: int) -> int:
        return _ceil_div(max(1, threads_per_group), _check_wave(wave_size))

    def max_groups_per_wgp(self, threads_per_group: int, wave_size: int) -> int:
        """Workgroup slots: wave slots of the WGP, and one barrier per multi-wave group."""
        waves = self.waves_per_group(threads_per_group, wave_size)
        slots = self.max_waves_per_simd * self.simds_per_wgp
        if waves == 1:
            return slots
        return min(slots // waves, self.barriers_per_wgp)

    def _waves_for_groups(self, groups: int, waves_per_group: int) -> int:
        if groups <= 0:
            return 1
        waves = _ceil_div(groups * waves_per_group, self.simds_per_wgp)
        return max(1, min(waves, self.max_waves_per_simd))

    def occupancy(self, vgprs: int, sgprs: int, lds_bytes: int, threads_per_group: int,
                  wave_size: int) -> Occupancy:
        """Waves per SIMD for a kernel using ``vgprs``, ``sgprs``, ``lds_bytes`` per group.

        ``sgprs`` is accepted for the report's sake but never limits: RDNA gives
        every wave its full SGPR file.
        """
        del sgprs  # no occupancy limit on gfx10+ (getOccupancyWithNumSGPRs)
        waves_per_group = self.waves_per_group(threads_per_group, wave_size)
        lds_groups = self.lds_per_wgp // max(lds_bytes, 1)
        by_limit = {
            "vgprs": self.waves_for_vgprs(vgprs, wave_size),
            "lds": self._waves_for_groups(lds_groups, waves_per_group),
            "waves": self._waves_for_groups(self.max_groups_per_wgp(threads_per_group, wave_size),
                                            waves_per_group),
        }
        waves = min(by_limit.values())
        # Name the limit a user can act on first: registers, then LDS, then slots.
        limiter = "waves" if waves == self.max_waves_per_simd else next(
            name for name in LIMITERS if by_limit[name] == waves)
        return Occupancy(waves, limiter, by_limit)


def _check_wave(wave_size: int) -> int:
    if wave_size not in (32, 64):
        raise ValueError(f"RDNA2 runs wave32 or wave64, not wave{wave_size}")
    return wave_size


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _round_up(value: int, granule: int) -> int:
    return _ceil_div(value, granule) * granule


def _round_down(value: int, granule: int) -> int:
    return value // granule * granule


RDNA2 = Device(
    name="RDNA2",
    gfx="gfx1030",
    simds_per_wgp=4,
    max_waves_per_simd=16,
    vgprs_per_simd={32: 1024, 64: 512},
    vgpr_granule={32: 16, 64: 8},
    vgpr_encoding_granule={32: 8, 64: 4},
    max_vgprs_per_wave=256,
    max_sgprs_per_wave=106,
    vcc_sgprs=2,
    lds_per_group=64 * 1024,
    lds_per_wgp=128 * 1024,
    barriers_per_wgp=32,
)


def vgprs_allocated(used: int, wave_size: int, device: Device = RDNA2) -> int:
    return device.vgprs_allocated(used, wave_size)


def occupancy(vgprs: int, sgprs: int, lds_bytes: int, threads_per_group: int, wave_size: int,
              device: Device = RDNA2) -> Occupancy:
    return device.occupancy(vgprs, sgprs, lds_bytes, threads_per_group, wave_size)


def next_step_vgprs(vgprs: int, wave_size: int, device: Device = RDNA2) -> int | None:
    return device.next_step_vgprs(vgprs, wave_size)
