"""A slow, obvious NumPy model of RDNA2 lane exchange: lanes, DPP16, DPP8, permlanes.

This model, with ``exchange.py`` and ``wavemodel.py``, is the living definition
that the wave-op lowering, the interpreter, the JIT and the listing simulator are
tested against (STYLE item 15). It has three parts:

* **VALU-side hardware primitives** (gfx10.3 / RDNA2), here: DPP16, DPP8,
  ``v_permlane16_b32``, ``v_permlanex16_b32``.
* **LDS-crossbar and scalar-side primitives**, in ``exchange.py``: ``ds_swizzle_b32``,
  ``ds_bpermute_b32``, ``ds_permute_b32``, an LDS round trip, ``v_readlane_b32``,
  ``v_writelane_b32``, ``v_readfirstlane_b32``, ``v_mbcnt_*``, ballots (``v_cmp`` into
  an SGPR mask), ``s_bcnt1``, ``s_ff1``.
* **HLSL wave intrinsics**, in ``wavemodel.py``: what the shader means, independent
  of any lowering. Their reference compositions out of the primitives live in
  ``ladders.py``.

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
