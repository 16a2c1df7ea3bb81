"""amdgcn handlers for the RDNA2 lane-exchange primitives (``ir/ops.py`` documents them).

Every primitive moves 32-bit words: a value is split into words first
(``Builder.to_dwords``: floats bitcast, 16-bit components packed in pairs, 64-bit
components split) and put back together after.

    dpp16 T %src, %old {ctrl, row_mask, bank_mask, bound_ctrl}  -> llvm.amdgcn.update.dpp.i32
    dpp8 T %src, %old {selects}                                -> llvm.amdgcn.mov.dpp8.i32
    permlanex16 T %src, %old {selects, fetch_inactive, bound_ctrl} -> llvm.amdgcn.permlanex16.i32
    ds_swizzle T %src, %old {offset}                           -> llvm.amdgcn.ds.swizzle
    ds_bpermute T %src, %old, %addr_bytes                      -> llvm.amdgcn.ds.bpermute
    readlane / readfirstlane / writelane                       -> llvm.amdgcn.readlane/... .i32
    set_inactive T %src, %identity                             -> llvm.amdgcn.set.inactive.i32
    ballot_mask M %cond                                        -> llvm.amdgcn.ballot.i32 / .i64
    mbcnt uint %mask, %addend                                  -> llvm.amdgcn.mbcnt.lo (+ .hi in wave64)
    bcnt uint %mask                                            -> llvm.ctpop
    lds_exchange T %src, %old, %source_lane                    -> a store and a load through an LDS
                                                                  area of one slot per thread
                                                                  (``@shc.exchange``)

Not expressible through LLVM's intrinsics, and dropped: the ``fi`` bit of DPP16/DPP8
(``fetch_inactive``); the ``%old`` of ``mov.dpp8``, ``ds_swizzle``, ``ds_bpermute`` and
``lds_exchange`` (lanes they do not write are undefined in LLVM). The LDS area of
``lds_exchange`` is extra LDS that shc's own figure does not count.

DPP control words (LLVM's ``SIDefines.h`` ``DppCtrl``): ``quad_perm`` 0x00-0xFF (two bits
per lane), ``row_shl:n`` 0x100+n, ``row_shr:n`` 0x110+n, ``row_ror:n`` 0x120+n,
``row_mirror`` 0x140, ``row_half_mirror`` 0x141, ``row_share:n`` 0x150+n, ``row_xmask:n``
0x160+n (the last two gfx10+; ``row_bcast`` and the wave shifts do not exist on RDNA).
"""

from __future__ import annotations

import re

from ...frontend import hlsl_types as T
from ...ir.ops import Op
from .arith import group_index
from .values import AmdgcnError, element_of, llvm_type, memory_bytes, memory_type

_ROW_CONTROLS = {"row_shl": (0x100, 1, 15), "row_shr": (0x110, 1, 15), "row_ror": (0x120, 1, 15),
                 "row_share": (0x150, 0, 15), "row_xmask": (0x160, 0, 15)}
_FIXED_CONTROLS = {"row_mirror": 0x140, "row_half_mirror": 0x141}


def dpp_control(text: str) -> int:
    """The ``dpp_ctrl`` immediate of a control written as the listing writes it."""
    text = text.replace(" ", "")
    quad = re.fullmatch(r"quad_perm:\[(\d),(\d),(\d),(\d)\]", text)
    if quad:
        lanes = [int(lane) for lane in quad.groups()]
        if max(lanes) > 3:
            raise AmdgcnError(f"quad_perm lanes are 0..3: {text}")
        return lanes[0] | lanes[1] << 2 | lanes[2] << 4 | lanes[3] << 6
    if text in _FIXED_CONTROLS:
        return _FIXED_CONTROLS[text]
    row = re.fullmatch(r"(\w+):(\d+)", text)
    if row and row.group(1) in _ROW_CONTROLS:
        base, low, high = _ROW_CONTROLS[row.group(1)]
        amount = int(row.group(2))
        if low <= amount <= high:
            return base + amount
    raise AmdgcnError(f"DPP control {text!r} does not exist on RDNA2 (gfx10)")


def _bool(flag) -> str:
    return "true" if flag else "false"


def _word_map(k, inst, source_index: int, old_index: int | None, word_op) -> str:
    """``word_op(src_word, old_word)`` over the words of the value (old: None when absent)."""
    t = inst.type
    sources = k.to_dwords(k.arg_as(inst, source_index, t), t)
    olds = k.to_dwords(k.arg_as(inst, old_index, t), t) if old_index is not None else [None] * len(sources)
    return k.from_dwords([word_op(src, old) for src, old in zip(sources, olds)], t)


def update_dpp(k, old: str, src: str, attrs: dict, ctrl_key: str) -> str:
    control = dpp_control(attrs[ctrl_key])
    return k.call("i32", "llvm.amdgcn.update.dpp.i32",
                  [("i32", old), ("i32", src), ("i32", str(control)),
                   ("i32", str(int(attrs.get("row_mask", 0xF)))), ("i32", str(int(attrs.get("bank_mask", 0xF)))),
                   ("i1", _bool(attrs.get("bound_ctrl", False)))])


def _writes_every_lane(attrs: dict) -> bool:
    """Full row and bank masks with bound_ctrl: every active lane is written, %old is unread."""
    return (bool(attrs.get("bound_ctrl")) and int(attrs.get("row_mask", 0xF)) == 0xF
            and int(attrs.get("bank_mask", 0xF)) == 0xF)


def dpp_read(k, inst) -> str:
    """Operand 0 of a DPP-combined VALU op, read through its ``dpp`` control (LLVM's
    GCNDPPCombine folds the move back into the op when masks and bound_ctrl allow).
    Lanes the DPP does not write keep the destination's old contents, which SSA cannot
    name: they are poison here."""
    t = inst.operands[0].type
    words = k.to_dwords(k.value(inst.operands[0], inst), t)
    return k.from_dwords([update_dpp(k, "poison", word, inst.attrs, "dpp") for word in words], t)


def dpp16(k, inst):
    if _writes_every_lane(inst.attrs):  # %old is never read: do not make LLVM materialize it
        return _word_map(k, inst, 0, None, lambda src, old: update_dpp(k, "poison", src, inst.attrs, "ctrl"))
    return _word_map(k, inst, 0, 1, lambda src, old: update_dpp(k, old, src, inst.attrs, "ctrl"))


def dpp8(k, inst):
    selects = [int(lane) for lane in inst.attrs["selects"]]
    if len(selects) != 8 or not all(0 <= lane < 8 for lane in selects):
        raise AmdgcnError(f"dpp8 needs 8 selects of 0..7, got {selects}")
    packed = sum(lane << (3 * index) for index, lane in enumerate(selects))
    return _word_map(k, inst, 0, None, lambda src, old: k.call(
        "i32", "llvm.amdgcn.mov.dpp8.i32", [("i32", src), ("i32", str(packed))]))


def permlanex16(k, inst):
    selects = [int(lane) for lane in inst.attrs.get("selects", range(16))]
    if len(selects) != 16 or not all(0 <= lane < 16 for lane in selects):
        raise AmdgcnError(f"permlanex16 needs 16 selects of 0..15, got {selects}")
    low = sum(lane << (4 * index) for index, lane in enumerate(selects[:8]))
    high = sum(lane << (4 * index) for index, lane in enumerate(selects[8:]))
    fetch, bound = _bool(inst.attrs.get("fetch_inactive")), _bool(inst.attrs.get("bound_ctrl"))

    def word(src, old):
        return k.call("i32", "llvm.amdgcn.permlanex16.i32",
                      [("i32", old), ("i32", src), ("i32", _signed(low)), ("i32", _signed(high)),
                       ("i1", fetch), ("i1", bound)])
    return _word_map(k, inst, 0, 1, word)


def _signed(value: int) -> str:
    return str(value - (1 << 32) if value >= 1 << 31 else value)


def ds_swizzle(k, inst):
    offset = int(inst.attrs["offset"]) & 0xFFFF
    return _word_map(k, inst, 0, None, lambda src, old: k.call(
        "i32", "llvm.amdgcn.ds.swizzle", [("i32", src), ("i32", str(offset))]))


def ds_bpermute(k, inst):
    address = k.arg_as(inst, 2, T.UINT)
    offset = int(inst.attrs.get("offset", 0))
    if offset:
        address = k.assign(f"add i32 {address}, {offset}")
    return _word_map(k, inst, 0, None, lambda src, old: k.call(
        "i32", "llvm.amdgcn.ds.bpermute", [("i32", address), ("i32", src)]))


def readlane(k, inst):
    lane = k.arg_as(inst, 1, T.UINT)
    return _word_map(k, inst, 0, None, lambda src, old: k.call(
        "i32", "llvm.amdgcn.readlane.i32", [("i32", src), ("i32", lane)]))


def readfirstlane(k, inst):
    return _word_map(k, inst, 0, None, lambda src, old: k.call(
        "i32", "llvm.amdgcn.readfirstlane.i32", [("i32", src)]))


def writelane(k, inst):
    t = inst.type
    lane = k.arg_as(inst, 2, T.UINT)
    olds = k.to_dwords(k.arg_as(inst, 0, t), t)
    values = k.to_dwords(k.arg_as(inst, 1, t), t)
    words = [k.call("i32", "llvm.amdgcn.writelane.i32", [("i32", value), ("i32", lane), ("i32", old)])
             for value, old in zip(values, olds)]
    return k.from_dwords(words, t)


def set_inactive(k, inst):
    t = inst.type
    sources = k.to_dwords(k.arg_as(inst, 0, t), t)
    identities = k.to_dwords(k.arg_as(inst, 1, t), t)
    words = [k.call("i32", "llvm.amdgcn.set.inactive.i32", [("i32", src), ("i32", identity)])
             for src, identity in zip(sources, identities)]
    return k.from_dwords(words, t)


def _mask_type(k) -> T.Type:
    return T.UINT if k.wave_size == 32 else T.UINT64


def ballot_mask(k, inst):
    condition = k.arg_as(inst, 0, T.BOOL)
    mask_type = _mask_type(k)
    llvm = llvm_type(mask_type)
    mask = k.call(llvm, f"llvm.amdgcn.ballot.{llvm}", [("i1", condition)])
    return k.convert(mask, mask_type, inst.type) if inst.type != mask_type else mask


def _mask_words(k, inst, index: int) -> tuple[str, str]:
    """The low and high 32 bits of a lane-mask operand."""
    operand = inst.operands[index]
    if element_of(operand.type).bits == 64:
        mask = k.arg_as(inst, index, T.UINT64)
        low = k.assign(f"trunc i64 {mask} to i32")
        high = k.assign(f"trunc i64 {k.assign(f'lshr i64 {mask}, 32')} to i32")
        return low, high
    return k.arg_as(inst, index, T.UINT), "0"


def mbcnt(k, inst):
    low, high = _mask_words(k, inst, 0)
    addend = k.arg_as(inst, 1, T.UINT)
    count = k.call("i32", "llvm.amdgcn.mbcnt.lo", [("i32", low), ("i32", addend)])
    if k.wave_size == 64:
        count = k.call("i32", "llvm.amdgcn.mbcnt.hi", [("i32", high), ("i32", count)])
    return k.convert(count, T.UINT, inst.type)


def bcnt(k, inst):
    operand = inst.operands[0]
    llvm = llvm_type(operand.type)
    count = k.intrinsic("ctpop", llvm, [k.arg(inst, 0)])
    if llvm == "i64":
        count = k.assign(f"trunc i64 {count} to i32")
    return k.convert(count, T.UINT, inst.type)


def _exchange_slot_bytes(k) -> int:
    sizes = [memory_bytes(inst.type) for inst in k.function.instructions() if inst.op is Op.LDS_EXCHANGE]
    return max(4, (max(sizes, default=4) + 3) & ~3)


def lds_exchange(k, inst):
    slot = _exchange_slot_bytes(k)
    x, y, z = k.function.numthreads
    if "@shc.exchange" not in "".join(k.globals):
        k.globals.append(f"@shc.exchange = internal addrspace(3) global [{x * y * z * slot} x i8] poison, align 16")
    lane_slot = group_index(k)
    source = k.arg_as(inst, 2, T.UINT)
    wave_base = k.assign(f"and i32 {lane_slot}, {-k.wave_size}")
    source_slot = k.assign(f"or i32 {wave_base}, {k.assign(f'and i32 {source}, {k.wave_size - 1}')}")
    stored = memory_type(inst.type)
    llvm = llvm_type(stored)
    value = k.arg_as(inst, 0, stored)
    write_at = k.assign(f"getelementptr inbounds i8, ptr addrspace(3) @shc.exchange, "
                        f"i32 {k.assign(f'mul i32 {lane_slot}, {slot}')}")
    k.emit(f"store {llvm} {value}, ptr addrspace(3) {write_at}, align 4")
    k.emit('fence syncscope("wavefront") acq_rel')
    read_at = k.assign(f"getelementptr inbounds i8, ptr addrspace(3) @shc.exchange, "
                       f"i32 {k.assign(f'mul i32 {source_slot}, {slot}')}")
    loaded = k.assign(f"load {llvm}, ptr addrspace(3) {read_at}, align 4")
    return k.convert(loaded, stored, inst.type)


def leave_whole_wave(k, value: str, t: T.Type) -> str:
    """``value`` (computed in whole-wave mode) as normal code reads it: llvm.amdgcn.strict.wwm."""
    if isinstance(t, (T.ArrayType, T.StructType)):
        raise AmdgcnError("an aggregate computed in whole-wave mode")
    if element_of(t).kind == "bool":
        words = T.vector(T.UINT, t.components if isinstance(t, T.VectorType) else 1)
        wide = k.convert(value, t, words)
        kept = k.intrinsic("amdgcn.strict.wwm", llvm_type(words), [wide])
        return k.convert(kept, words, t)
    return k.intrinsic("amdgcn.strict.wwm", llvm_type(t), [value])


HANDLERS = {
    Op.DPP16: dpp16, Op.DPP8: dpp8, Op.PERMLANEX16: permlanex16, Op.DS_SWIZZLE: ds_swizzle,
    Op.DS_BPERMUTE: ds_bpermute, Op.READLANE: readlane, Op.READFIRSTLANE: readfirstlane,
    Op.WRITELANE: writelane, Op.SET_INACTIVE: set_inactive, Op.BALLOT_MASK: ballot_mask,
    Op.MBCNT: mbcnt, Op.BCNT: bcnt, Op.LDS_EXCHANGE: lds_exchange,
}
