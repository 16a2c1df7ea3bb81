"""RDNA2 lane exchange through the LDS crossbar and between lanes and SGPRs.

The LDS-based primitives (``ds_swizzle_b32``, ``ds_bpermute_b32``, ``ds_permute_b32``,
an LDS round trip) move words within each 32-lane half; the scalar-side ones
(``v_readlane_b32``, ``v_writelane_b32``, ``v_readfirstlane_b32``, ``v_mbcnt_*``, a
``v_cmp`` ballot, ``s_bcnt1``, ``s_ff1``) move a lane's word into an SGPR or a mask
into lanes. The conventions (registers, exec masks, SGPR lane masks) and the sources
are those of ``lanes.py``, which holds DPP16, DPP8 and the permlanes;
``wavemodel.py`` re-exports both.
"""

from __future__ import annotations

import numpy as np

from .lanes import HALF_SIZE, exec_to_mask, lane_ids, masked_write, wave_size_of

# --------------------------------------------------------------------------------------
# LDS-based exchange: ds_swizzle_b32, ds_bpermute_b32, ds_permute_b32, a round trip
# --------------------------------------------------------------------------------------

SWIZZLE_QUAD_MODE = 1 << 15


def swizzle_source(lane_in_half: int, offset: int) -> int:
    """The lane (0..31, same half) that ``ds_swizzle_b32 offset:<offset>`` reads for a lane.

    Quad mode (bit 15 set, bits 8-14 clear): lane ``4k + j`` reads ``4k + offset[2j+1:2j]``.
    Bit-mask mode (bit 15 clear): with and = offset[4:0], or = offset[9:5],
    xor = offset[14:10], lane i reads ``((i & and) | or) ^ xor``. The gfx9+ FFT and
    rotate encodings (bit 15 set with bits 14-12 nonzero) are not modelled.
    """
    if offset & SWIZZLE_QUAD_MODE:
        if offset & 0x7F00:
            raise NotImplementedError(f"ds_swizzle offset {offset:#x}: FFT/rotate modes")
        quad_base = lane_in_half & ~3
        return quad_base | (offset >> (2 * (lane_in_half & 3))) & 3
    and_mask = offset & 0x1F
    or_mask = (offset >> 5) & 0x1F
    xor_mask = (offset >> 10) & 0x1F
    return ((lane_in_half & and_mask) | or_mask) ^ xor_mask


def swizzle_bitmask_offset(and_mask: int, or_mask: int, xor_mask: int) -> int:
    """Encode a bit-mask mode ``ds_swizzle_b32`` offset."""
    return (and_mask & 0x1F) | (or_mask & 0x1F) << 5 | (xor_mask & 0x1F) << 10


def swizzle_quad_offset(*selects: int) -> int:
    """Encode a quad mode ``ds_swizzle_b32`` offset (like ``swizzle(QUAD_PERM,a,b,c,d)``)."""
    return SWIZZLE_QUAD_MODE | sum((sel & 3) << (2 * index) for index, sel in enumerate(selects))


def _half_base(lanes: np.ndarray) -> np.ndarray:
    return lanes - lanes % HALF_SIZE


def ds_swizzle_b32(
    src: np.ndarray, old: np.ndarray, exec_lanes: np.ndarray, offset: int
) -> np.ndarray:
    """``ds_swizzle_b32 dst, src offset:<offset>``: a fixed pull pattern in each half.

    Each lane reads ``swizzle_source`` in its own 32-lane half; an inactive source
    reads 0; inactive destination lanes keep ``old``.
    """
    lanes = lane_ids(wave_size_of(src))
    in_half = np.array([swizzle_source(lane % HALF_SIZE, offset) for lane in lanes])
    sources = _half_base(lanes) + in_half
    fetched = np.where(exec_lanes[sources], src[sources], np.zeros_like(src))
    return masked_write(old, fetched, exec_lanes)


def _permute_slot(addr_bytes, offset: int) -> np.ndarray:
    """The dword slot (0..31 in the lane's half) a byte address selects: bits [6:2]."""
    address = (np.asarray(addr_bytes, dtype=np.int64) + offset) & 0xFFFFFFFF
    return (address >> 2) % HALF_SIZE


def ds_bpermute_b32(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    addr_bytes: np.ndarray,
    offset: int = 0,
) -> np.ndarray:
    """``ds_bpermute_b32 dst, addr, src [offset]``: pull, each lane reads the lane it names.

    Active lane i reads lane ``base(i) + ((addr[i] + offset) / 4) % 32`` where
    ``base(i)`` is the first lane of i's 32-lane half (RDNA2 wave64 does not cross
    halves). The two low address bits are ignored. Inactive sources never wrote the
    temporary buffer, so they read 0; inactive destination lanes keep ``old``.
    """
    lanes = lane_ids(wave_size_of(src))
    sources = _half_base(lanes) + _permute_slot(np.broadcast_to(addr_bytes, lanes.shape), offset)
    fetched = np.where(exec_lanes[sources], src[sources], np.zeros_like(src))
    return masked_write(old, fetched, exec_lanes)


def ds_permute_b32(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    addr_bytes: np.ndarray,
    offset: int = 0,
) -> np.ndarray:
    """``ds_permute_b32 dst, addr, src [offset]``: push, each lane writes the lane it names.

    Within each 32-lane half, every active lane j stores ``src[j]`` into slot
    ``((addr[j] + offset) / 4) % 32`` (when two lanes pick one slot the higher lane
    wins); then every active lane reads its own slot. Slots nobody wrote read 0.
    """
    wave_size = wave_size_of(src)
    slots = _permute_slot(np.broadcast_to(addr_bytes, (wave_size,)), offset)
    buffer = np.zeros_like(src)
    for lane in range(wave_size):  # increasing lane order: the higher lane wins
        if exec_lanes[lane]:
            buffer[lane - lane % HALF_SIZE + slots[lane]] = src[lane]
    return masked_write(old, buffer, exec_lanes)


def lds_round_trip(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    read_lanes: np.ndarray,
    stale=0,
) -> np.ndarray:
    """``ds_write_b32`` of every active lane to slot = its lane id, then ``ds_read_b32``.

    Active lane i reads slot ``read_lanes[i]`` (any lane of the wave: this is how
    wave64 crosses halves). Slots whose lane was inactive hold ``stale`` (what the
    LDS held before). Inactive destination lanes keep ``old``.
    """
    wave_size = wave_size_of(src)
    memory = np.where(exec_lanes, src, np.asarray(stale, dtype=src.dtype))
    sources = np.broadcast_to(np.asarray(read_lanes, dtype=np.int64), (wave_size,)) % wave_size
    return masked_write(old, memory[sources], exec_lanes)


# --------------------------------------------------------------------------------------
# Scalar-side primitives: readlane, writelane, readfirstlane, mbcnt, ballot, s_bcnt1, s_ff1
# --------------------------------------------------------------------------------------


def v_readlane_b32(src: np.ndarray, lane: int):
    """Read one lane into an SGPR, whatever exec says (the lane number wraps to W)."""
    return src[lane % wave_size_of(src)]


def v_writelane_b32(old: np.ndarray, value, lane: int) -> np.ndarray:
    """Write an SGPR value into one lane, whatever exec says; other lanes keep ``old``."""
    result = old.copy()
    result[lane % wave_size_of(old)] = value
    return result


def v_readfirstlane_b32(src: np.ndarray, exec_lanes: np.ndarray):
    """Read the lowest active lane into an SGPR; lane 0 when exec is empty."""
    active = np.flatnonzero(exec_lanes)
    return src[active[0] if len(active) else 0]


def v_mbcnt_lo_u32_b32(mask_lo: int, addend, wave_size: int) -> np.ndarray:
    """Per lane i: ``addend + popcount(mask_lo & bits below i)`` over mask bits 0..31.

    Lanes 32 and up count all 32 bits (their "bits below" include the whole low word).
    """
    return _mbcnt(mask_lo, addend, wave_size, first_bit=0)


def v_mbcnt_hi_u32_b32(mask_hi: int, addend, wave_size: int) -> np.ndarray:
    """Per lane i: ``addend + popcount(mask_hi & bits below i - 32)``: mask bits 32..63.

    Lanes below 32 count nothing, so in wave32 this only passes ``addend`` through.
    """
    return _mbcnt(mask_hi, addend, wave_size, first_bit=32)


def _mbcnt(mask_word: int, addend, wave_size: int, first_bit: int) -> np.ndarray:
    """Shared body of the mbcnts: count set bits of a 32-bit word below each lane."""
    counts = []
    for lane in range(wave_size):
        below = min(max(lane - first_bit, 0), 32)
        counts.append(bin(mask_word & 0xFFFFFFFF & ((1 << below) - 1)).count("1"))
    total = np.array(counts, dtype=np.int64) + np.asarray(addend, dtype=np.int64)
    return (total & 0xFFFFFFFF).astype(np.uint32)


def v_cmp_ballot(condition: np.ndarray, exec_lanes: np.ndarray) -> int:
    """A ``v_cmp_*`` writing an SGPR mask: bit i set for active lanes where the condition holds."""
    return exec_to_mask(np.asarray(condition, dtype=bool) & exec_lanes)


def s_bcnt1(mask: int) -> int:
    """``s_bcnt1_i32_b32/b64``: the number of set bits."""
    return bin(mask).count("1")


def s_ff1(mask: int) -> int:
    """``s_ff1_i32_b32/b64``: the index of the lowest set bit, -1 when there is none."""
    if mask == 0:
        return -1
    return (mask & -mask).bit_length() - 1
