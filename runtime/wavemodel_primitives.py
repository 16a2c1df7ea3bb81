"""A slow, obvious NumPy model of RDNA2 lane exchange and of the HLSL wave intrinsics.

This module is the living definition that the wave-op lowering and the JIT are
tested against (STYLE item 15). It has two halves:

* **Hardware primitives** (gfx10.3 / RDNA2): DPP16, DPP8, ``v_permlane16_b32``,
  ``v_permlanex16_b32``, ``ds_swizzle_b32``, ``ds_bpermute_b32``, ``ds_permute_b32``,
  ``v_readlane_b32``, ``v_writelane_b32``, ``v_readfirstlane_b32``, ``v_mbcnt_*``,
  ballots (``v_cmp`` into an SGPR mask), ``s_bcnt1``, ``s_ff1`` and an LDS round trip.
* **HLSL wave intrinsics**: what the shader means, independent of any lowering.
  Their reference compositions out of the primitives live in
  ``shc.runtime.wavemodel_ladders``.

Conventions
-----------
A wave register is a 1-D NumPy array of ``W`` lanes (``W`` is 32 or 64), of any dtype.
The exec mask is a bool array of ``W`` lanes. An SGPR lane mask (a ballot, exec as a
scalar) is a Python ``int`` of ``W`` bits, bit ``i`` for lane ``i``. Every function is
pure: it returns a new array and never changes its arguments. A primitive that
writes a VGPR takes ``old``, the destination's previous contents, and returns the
new destination: lanes it does not write keep ``old``.

Lanes are grouped in *rows* of 16 (wave32: rows 0-1; wave64: rows 0-3), each row in
four *banks* of four consecutive lanes (bank = ``(lane % 16) // 4``), and in 32-lane
*halves* (wave64 only has two).

The exact rules implemented
---------------------------
DPP16 (``dpp16``), for destination lane ``i`` in row ``r`` at row position ``p``:

1. The control maps ``p`` to a source row position ``q`` (see ``DppCtrl``); the source
   lane is ``16 * r + q``. Shifts (``row_shl``, ``row_shr``) can leave the row: then
   the source is *invalid*.
2. A source lane whose exec bit is 0 is also invalid, unless ``fetch_inactive``
   (the ``fi`` bit) is set, in which case its register value is read anyway.
3. Lane ``i`` is written only if exec[i] is 1, bit ``r`` of ``row_mask`` is 1 and
   bit ``(p // 4)`` of ``bank_mask`` is 1. The masks never restrict the *reads*.
4. A written lane with a valid source gets the source's value. A written lane with
   an invalid source gets 0 when ``bound_ctrl`` is set (the assembler spells this
   ``bound_ctrl:0`` on gfx10, for historical reasons; here it is a plain bool),
   otherwise the write is disabled and the lane keeps ``old``.

DPP8 (``dpp8``): lane ``i`` reads lane ``8 * (i // 8) + sel[i % 8]``; with ``fi=0``
(``fetch_inactive=False``, the default) a source lane with exec 0 reads as 0, with
``fi=1`` it reads its register value. There is no row/bank mask and no bound_ctrl;
exactly the active lanes are written.

``v_permlane16_b32`` / ``v_permlanex16_b32`` follow the DPP16 rule for inactive
sources (``fetch_inactive``, then ``bound_ctrl``, else keep ``old``); the selectors
never leave the row, so there are no out-of-row sources.

``ds_swizzle_b32``, ``ds_bpermute_b32`` and ``ds_permute_b32`` work per 32-lane half
(in wave64 the same pattern is applied to each half; nothing crosses halves on
RDNA2). A source lane with exec 0 contributes 0; a destination lane with exec 0 is
not written.

Sources: the DPP row/bank/bound_ctrl rules, the swizzle offset layout and the
permute write-then-read description follow the GPUOpen article "AMD GCN Assembly:
Cross-Lane Operations" (seed 002: sections "DPP Bound Control and Masking", "The
Swizzle Instruction", "Backward-Permute Example"); that article's prefix-sum example
disables bank 0 for ``row_shr:4`` and banks 0-1 for ``row_shr:8`` and calls these
masks redundant because those lanes read from outside the row anyway, which only
holds if a bank is four *consecutive* lanes of a row. The gfx10 controls
(``row_share``, ``row_xmask``), the meaning of ``fi`` for DPP16 and DPP8 and the
``bound_ctrl:0`` spelling come from LLVM's "Syntax of AMDGPU Instruction Modifiers"
(dpp16_ctrl, dpp8_sel, fi, bound_ctrl). The reach of each primitive (DPP16 rows,
DPP8 groups, permute within 32 lanes) matches seed 000 ("Optimizing for the Radeon
RDNA architecture", DPP and LDS permute slides) and DESIGN.md section 3.

The HLSL wave intrinsics built on these live in ``wavemodel.py``, which re-exports
everything here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

ROW_SIZE = 16
BANK_SIZE = 4
DPP8_GROUP = 8
HALF_SIZE = 32
WAVE_SIZES = (32, 64)


# --------------------------------------------------------------------------------------
# Lane bookkeeping
# --------------------------------------------------------------------------------------


def wave_size_of(register: np.ndarray) -> int:
    """The wave size of a register; only 32 and 64 exist on RDNA2."""
    size = len(register)
    if size not in WAVE_SIZES:
        raise ValueError(f"a wave register has 32 or 64 lanes, not {size}")
    return size


def lane_ids(wave_size: int) -> np.ndarray:
    """Lane indices 0..W-1 (what ``v_mbcnt_lo/hi`` of all ones computes)."""
    return np.arange(wave_size)


def full_exec(wave_size: int) -> np.ndarray:
    """An exec mask with every lane on (whole-wave mode)."""
    return np.ones(wave_size, dtype=bool)


def exec_to_mask(exec_lanes: np.ndarray) -> int:
    """The SGPR form of a lane mask: bit i is lane i."""
    return sum(1 << int(lane) for lane in np.flatnonzero(exec_lanes))


def mask_to_exec(mask: int, wave_size: int) -> np.ndarray:
    """The per-lane bool form of an SGPR lane mask."""
    return np.array([(mask >> lane) & 1 == 1 for lane in range(wave_size)], dtype=bool)


def masked_write(old: np.ndarray, new: np.ndarray, exec_lanes: np.ndarray) -> np.ndarray:
    """A VALU write: active lanes take ``new``, inactive lanes keep ``old``."""
    return np.where(exec_lanes, new, old).astype(old.dtype)


def valu(op: Callable, src0, src1, old: np.ndarray, exec_lanes: np.ndarray) -> np.ndarray:
    """A two-source VALU instruction ``dst = op(src0, src1)`` under ``exec_lanes``.

    Either source may be a scalar (an SGPR operand, the same for every lane).
    """
    result = op(np.asarray(src0, dtype=old.dtype), np.asarray(src1, dtype=old.dtype))
    return masked_write(old, np.broadcast_to(result, old.shape), exec_lanes)


# --------------------------------------------------------------------------------------
# DPP16 controls
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DppCtrl:
    """One gfx10 DPP16 control: ``kind`` and its argument, printed as LLVM asm prints it.

    ``arg`` is a tuple of four lane selects for ``quad_perm``, an int for the
    shift/rotate/share/xmask forms and ``None`` for the mirrors.
    """

    kind: str
    arg: int | tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        _check_dpp_ctrl(self.kind, self.arg)

    def __str__(self) -> str:
        if self.kind == "quad_perm":
            return "quad_perm:[" + ",".join(str(sel) for sel in self.arg) + "]"
        if self.arg is None:
            return self.kind
        return f"{self.kind}:{self.arg}"

    def source_position(self, position: int) -> int | None:
        """The row position lane ``position`` reads, or None when it is outside the row."""
        source = _DPP16_SOURCE[self.kind](position, self.arg)
        return source if 0 <= source < ROW_SIZE else None


_DPP16_SOURCE: dict[str, Callable[[int, object], int]] = {
    # lane p of each quad reads quad lane sel[p % 4]
    "quad_perm": lambda position, sel: (position & ~3) | sel[position & 3],
    # shift left: lane p reads p + n (the data moves towards lane 0)
    "row_shl": lambda position, amount: position + amount,
    # shift right: lane p reads p - n
    "row_shr": lambda position, amount: position - amount,
    # rotate right: lane p reads p - n, wrapping inside the row
    "row_ror": lambda position, amount: (position - amount) % ROW_SIZE,
    "row_mirror": lambda position, _: ROW_SIZE - 1 - position,
    "row_half_mirror": lambda position, _: (position & 8) | (7 - (position & 7)),
    # gfx10: every lane of the row reads row lane n
    "row_share": lambda position, lane: lane,
    # gfx10: lane p reads p xor n
    "row_xmask": lambda position, mask: position ^ mask,
}

_DPP16_ARG_RANGE = {
    "row_shl": range(1, 16),
    "row_shr": range(1, 16),
    "row_ror": range(1, 16),
    "row_share": range(0, 16),
    "row_xmask": range(0, 16),
}


def _check_dpp_ctrl(kind: str, arg) -> None:
    """Reject controls gfx10 does not have (``row_bcast``, ``wave_*``) and bad arguments."""
    if kind not in _DPP16_SOURCE:
        raise ValueError(f"{kind!r} is not a gfx10 DPP16 control")
    if kind == "quad_perm":
        if not (isinstance(arg, tuple) and len(arg) == 4 and all(0 <= sel < 4 for sel in arg)):
            raise ValueError(f"quad_perm needs four lane selects in 0..3, got {arg!r}")
    elif kind in _DPP16_ARG_RANGE:
        if arg not in _DPP16_ARG_RANGE[kind]:
            raise ValueError(f"{kind} argument {arg!r} is out of range")
    elif arg is not None:
        raise ValueError(f"{kind} takes no argument")


def quad_perm(*selects: int) -> DppCtrl:
    """``quad_perm:[a,b,c,d]``."""
    return DppCtrl("quad_perm", tuple(selects))


def row_shl(amount: int) -> DppCtrl:
    return DppCtrl("row_shl", amount)


def row_shr(amount: int) -> DppCtrl:
    return DppCtrl("row_shr", amount)


def row_ror(amount: int) -> DppCtrl:
    return DppCtrl("row_ror", amount)


def row_share(lane: int) -> DppCtrl:
    return DppCtrl("row_share", lane)


def row_xmask(mask: int) -> DppCtrl:
    return DppCtrl("row_xmask", mask)


ROW_MIRROR = DppCtrl("row_mirror")
ROW_HALF_MIRROR = DppCtrl("row_half_mirror")

_DPP_TEXT = re.compile(r"^\s*(\w+)\s*(?::\s*(.+?))?\s*$")


def parse_dpp16(text: str) -> DppCtrl:
    """Parse the asm form: ``quad_perm:[1,0,3,2]``, ``row_shr:3``, ``row_mirror``..."""
    match = _DPP_TEXT.match(text)
    if match is None:
        raise ValueError(f"cannot parse DPP control {text!r}")
    kind, arg_text = match.groups()
    if arg_text is None:
        return DppCtrl(kind)
    if kind == "quad_perm":
        return DppCtrl(kind, _parse_select_list(arg_text, 4))
    return DppCtrl(kind, int(arg_text, 0))


def parse_dpp8(text: str) -> tuple[int, ...]:
    """Parse ``dpp8:[7,6,5,4,3,2,1,0]`` into its eight lane selects."""
    match = _DPP_TEXT.match(text)
    if match is None or match.group(1) != "dpp8" or match.group(2) is None:
        raise ValueError(f"cannot parse DPP8 selects {text!r}")
    return _parse_select_list(match.group(2), DPP8_GROUP)


def _parse_select_list(text: str, count: int) -> tuple[int, ...]:
    """``[a, b, ...]`` with exactly ``count`` integers."""
    inner = text.strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        raise ValueError(f"expected a bracketed list, got {text!r}")
    selects = tuple(int(item, 0) for item in inner[1:-1].split(","))
    if len(selects) != count:
        raise ValueError(f"expected {count} selects, got {len(selects)}")
    return selects


def _as_dpp_ctrl(ctrl: DppCtrl | str) -> DppCtrl:
    return parse_dpp16(ctrl) if isinstance(ctrl, str) else ctrl


# --------------------------------------------------------------------------------------
# DPP16, DPP8
# --------------------------------------------------------------------------------------


def dpp16_fetch(
    src: np.ndarray,
    exec_lanes: np.ndarray,
    ctrl: DppCtrl | str,
    fetch_inactive: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """What each lane's DPP16 source operand reads: ``(values, valid)``.

    A source is invalid when the control points outside the row or (unless
    ``fetch_inactive``) at a lane whose exec bit is 0; invalid entries of ``values``
    are 0. This is the shared half of ``dpp16`` and ``dpp16_valu``.
    """
    ctrl = _as_dpp_ctrl(ctrl)
    values = np.zeros_like(src)
    valid = np.zeros(len(src), dtype=bool)
    for lane in range(wave_size_of(src)):
        row_base = lane - lane % ROW_SIZE
        position = ctrl.source_position(lane % ROW_SIZE)
        if position is None:
            continue
        source_lane = row_base + position
        if exec_lanes[source_lane] or fetch_inactive:
            values[lane] = src[source_lane]
            valid[lane] = True
    return values, valid


def dpp16_write_enable(
    exec_lanes: np.ndarray, row_mask: int = 0xF, bank_mask: int = 0xF
) -> np.ndarray:
    """Lanes a DPP16 instruction may write: exec and the row and bank masks."""
    lanes = lane_ids(len(exec_lanes))
    row_on = (row_mask >> (lanes // ROW_SIZE)) & 1 == 1
    bank_on = (bank_mask >> ((lanes % ROW_SIZE) // BANK_SIZE)) & 1 == 1
    return exec_lanes & row_on & bank_on


def dpp16(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    ctrl: DppCtrl | str,
    row_mask: int = 0xF,
    bank_mask: int = 0xF,
    bound_ctrl: bool = False,
    fetch_inactive: bool = False,
) -> np.ndarray:
    """``v_mov_b32_dpp dst, src <ctrl> row_mask bank_mask [bound_ctrl] [fi]``.

    Rule (module docstring, "DPP16"): enabled lanes (exec, row_mask, bank_mask) with
    a valid source take it; enabled lanes with an invalid source take 0 if
    ``bound_ctrl`` else keep ``old``; all other lanes keep ``old``.
    """
    fetched, valid = dpp16_fetch(src, exec_lanes, ctrl, fetch_inactive)
    written = dpp16_write_enable(exec_lanes, row_mask, bank_mask) & (valid | bound_ctrl)
    return masked_write(old, fetched, written)


def dpp16_valu(
    op: Callable,
    src0: np.ndarray,
    src1,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    ctrl: DppCtrl | str,
    row_mask: int = 0xF,
    bank_mask: int = 0xF,
    bound_ctrl: bool = False,
    fetch_inactive: bool = False,
) -> np.ndarray:
    """A VALU op with DPP on src0, e.g. ``v_add_f32_dpp dst, src0, src1 row_shr:1``.

    ``dst = op(src0 through the DPP control, src1)`` on enabled lanes whose source is
    valid, or whose source is invalid with ``bound_ctrl`` (then src0 reads 0); all
    other lanes keep ``old``. This is what a DPP combine folds a ``v_mov_b32_dpp``
    into, and it differs from mov-then-op exactly on the lanes that keep ``old``.
    """
    fetched, valid = dpp16_fetch(src0, exec_lanes, ctrl, fetch_inactive)
    written = dpp16_write_enable(exec_lanes, row_mask, bank_mask) & (valid | bound_ctrl)
    return valu(op, fetched, src1, old, written)


def dpp8(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    selects: tuple[int, ...] | str,
    fetch_inactive: bool = False,
) -> np.ndarray:
    """``v_mov_b32_dpp dst, src dpp8:[s0..s7] [fi:1]``.

    Lane i reads lane ``8 * (i // 8) + selects[i % 8]``. A source lane with exec 0
    reads as 0 (``fi:0``, the default) or as its register value (``fi:1``). Active
    lanes are written, inactive lanes keep ``old``.
    """
    if isinstance(selects, str):
        selects = parse_dpp8(selects)
    if len(selects) != DPP8_GROUP or not all(0 <= sel < DPP8_GROUP for sel in selects):
        raise ValueError(f"dpp8 needs eight selects in 0..7, got {selects!r}")
    lanes = lane_ids(wave_size_of(src))
    sources = lanes - lanes % DPP8_GROUP + np.array(selects)[lanes % DPP8_GROUP]
    readable = exec_lanes[sources] | fetch_inactive
    fetched = np.where(readable, src[sources], np.zeros_like(src))
    return masked_write(old, fetched, exec_lanes)


# --------------------------------------------------------------------------------------
# v_permlane16_b32, v_permlanex16_b32
# --------------------------------------------------------------------------------------


def lane_selects_from_words(select_lo: int, select_hi: int) -> tuple[int, ...]:
    """The 16 row-position selects packed in the two SGPR operands, 4 bits each.

    Row position p uses bits ``4p..4p+3`` of ``select_lo`` for p < 8 and bits
    ``4(p-8)..`` of ``select_hi`` for p >= 8.
    """
    packed = (select_hi & 0xFFFFFFFF) << 32 | (select_lo & 0xFFFFFFFF)
    return tuple((packed >> (4 * position)) & 0xF for position in range(ROW_SIZE))


def lane_select_words(selects: tuple[int, ...]) -> tuple[int, int]:
    """The inverse of ``lane_selects_from_words``: ``(select_lo, select_hi)``."""
    packed = sum((sel & 0xF) << (4 * position) for position, sel in enumerate(selects))
    return packed & 0xFFFFFFFF, packed >> 32


IDENTITY_SELECTS = tuple(range(ROW_SIZE))


def _permlane(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    selects: tuple[int, ...],
    row_flip: int,
    fetch_inactive: bool,
    bound_ctrl: bool,
) -> np.ndarray:
    """Shared body of the permlanes: lane in row r reads row ``r ^ row_flip`` at its select."""
    if len(selects) != ROW_SIZE or not all(0 <= sel < ROW_SIZE for sel in selects):
        raise ValueError(f"permlane needs 16 selects in 0..15, got {selects!r}")
    lanes = lane_ids(wave_size_of(src))
    source_rows = (lanes // ROW_SIZE) ^ row_flip
    sources = source_rows * ROW_SIZE + np.array(selects)[lanes % ROW_SIZE]
    readable = exec_lanes[sources] | fetch_inactive
    fetched = np.where(readable, src[sources], np.zeros_like(src))
    return masked_write(old, fetched, exec_lanes & (readable | bound_ctrl))


def v_permlane16_b32(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    selects: tuple[int, ...],
    fetch_inactive: bool = False,
    bound_ctrl: bool = False,
) -> np.ndarray:
    """Gather inside each row: lane at row position p reads its row's lane ``selects[p]``.

    Inactive sources follow the DPP16 rule (``fetch_inactive``, else ``bound_ctrl``
    gives 0, else the lane keeps ``old``).
    """
    return _permlane(src, old, exec_lanes, tuple(selects), 0, fetch_inactive, bound_ctrl)


def v_permlanex16_b32(
    src: np.ndarray,
    old: np.ndarray,
    exec_lanes: np.ndarray,
    selects: tuple[int, ...],
    fetch_inactive: bool = False,
    bound_ctrl: bool = False,
) -> np.ndarray:
    """Gather across the two rows of a 32-lane half: row r reads row ``r ^ 1`` at ``selects[p]``.

    With ``IDENTITY_SELECTS`` lane i reads lane ``i ^ 16``. Inactive sources follow
    the DPP16 rule, as in ``v_permlane16_b32``.
    """
    return _permlane(src, old, exec_lanes, tuple(selects), 1, fetch_inactive, bound_ctrl)


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
