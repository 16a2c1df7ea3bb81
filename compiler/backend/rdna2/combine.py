"""Three-source merges on the machine IR: two VALU instructions become one VOP3 instruction.

Runs after selection, over virtual registers, before allocation (the way LLVM's
``SIFoldOperands`` and ACO's ``combine_instruction`` fold one instruction into its user).
A pair ``%t = inner a, b`` / ``%d = outer %t, c`` merges when it is in the table below:

    v_min_f32 (v_min_f32 a, b), c          -> v_min3_f32 d, a, b, c     (also max, i32, u32)
    v_add_nc_u32 (v_lshlrev_b32 s, a), c   -> v_lshl_add_u32 d, a, s, c
    v_or_b32 (v_lshlrev_b32 s, a), c       -> v_lshl_or_b32 d, a, s, c
    v_add_nc_u32 (v_add_nc_u32 a, b), c    -> v_add3_u32 d, a, b, c
    v_or_b32 (v_and_b32 a, b), c           -> v_and_or_b32 d, a, b, c
    v_and_b32 (v_lshrrev_b32 s, a), 2^n-1  -> v_bfe_u32 d, a, s, n       (constant s and n)
    v_cvt_f32_f16 (v_lshrrev_b32 16, a)    -> v_cvt_f32_f16_sdwa d, a src0_sel:WORD_1  (a VGPR)
    v_pack_b32_f16 a, (v_lshrrev_b32 16, a) -> v_mov_b32 d, a           (its halves, in place)
    v_pack_b32_f16 a, (v_cvt_f16_f32 b)    -> v_cvt_f16_f32_sdwa a, b dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE
                                              (into ``a``'s high half, its low half kept; ``a`` read
                                              only by the pack, which then reads as ``a``)

The outer instruction may read ``%t`` as either source (all outer ops commute). A pair
merges only when it is exact and legal:

* ``%t`` is one VGPR written once and read once, by ``outer``, later in the same block,
  and nothing between the two writes exec or redefines ``a`` or ``b`` (the merged
  instruction reads them where ``outer`` stood);
* neither instruction carries DPP or other modifiers, and ``%t`` is read without a
  source modifier (``neg``/``abs`` of the other sources carry over);
* the merged VOP3 instruction reads at most two scalar values (distinct SGPRs and a
  literal: GFX10's constant bus) and at most one literal.
"""

from __future__ import annotations

from .machine import INLINE_FLOATS, Imm, MBlock, MFunction, MInst, Special, SubReg, VReg

# outer mnemonic -> {inner mnemonic: merged mnemonic}
_MERGES = {
    "v_add_nc_u32": {"v_lshlrev_b32": "v_lshl_add_u32", "v_add_nc_u32": "v_add3_u32"},
    "v_or_b32": {"v_lshlrev_b32": "v_lshl_or_b32", "v_and_b32": "v_and_or_b32"},
    "v_and_b32": {"v_lshrrev_b32": "v_bfe_u32"},
}
for _op in ("min", "max"):
    for _kind in ("f32", "i32", "u32"):
        _MERGES[f"v_{_op}_{_kind}"] = {f"v_{_op}_{_kind}": f"v_{_op}3_{_kind}"}
# inner instructions whose sources are (shift, value): the merged form takes (value, shift)
_SHIFTS = frozenset({"v_lshlrev_b32", "v_lshrrev_b32"})
CONSTANT_BUS = 2
HIGH_HALF = "dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1"
INTO_HIGH_HALF = "dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD"


def combine(function: MFunction) -> int:
    """Merge every pair the table allows; the number of instructions saved."""
    defs, uses = _counts(function)
    renames: dict[VReg, VReg | SubReg] = {}  # a repacked value's register -> the one it came from
    saved = 0
    for block in function.blocks:
        saved += _combine_block(block, defs, uses, renames)
    if renames:
        for inst in function.instructions():
            inst.uses = [renames.get(op, op) if isinstance(op, VReg) else op for op in inst.uses]
    return saved


def _counts(function: MFunction) -> tuple[dict, dict]:
    """How often each register is written and read; a register also reached through a tuple
    part counts twice, so it never looks like a single-use value."""
    defs: dict[VReg, int] = {}
    uses: dict[VReg, int] = {}
    for inst in function.instructions():
        for table, operands in ((defs, inst.defs), (uses, inst.uses)):
            for operand in operands:
                if isinstance(operand, VReg):
                    table[operand] = table.get(operand, 0) + 1
                elif isinstance(operand, SubReg):
                    table[operand.base] = table.get(operand.base, 0) + 2
    return defs, uses


def _combine_block(block: MBlock, defs: dict, uses: dict, renames: dict) -> int:
    written_at: dict[VReg, int] = {}  # single-def VGPRs -> index of their definition in this block
    dropped: set[int] = set()
    for index, inst in enumerate(block.insts):
        inst.uses = [renames.get(op, op) if isinstance(op, VReg) else op for op in inst.uses]
        merged = _merge(block, index, inst, written_at, defs, uses, renames)
        if merged is not None:
            dropped.add(merged)
            if inst.mnemonic == "v_mov_b32" and _renamable(inst, defs):
                renames[inst.defs[0]] = inst.uses[0]
                dropped.add(index)
        for operand in inst.defs:
            if isinstance(operand, VReg) and operand.cls == "v" and defs.get(operand) == 1:
                written_at[operand] = index
    if dropped:
        block.insts = [inst for index, inst in enumerate(block.insts) if index not in dropped]
    return len(dropped)


def _merge(block: MBlock, index: int, outer: MInst, written_at: dict, defs: dict, uses: dict,
           renames: dict) -> int | None:
    """Rewrite ``outer`` in place into its merged form; the index of the inner instruction to drop."""
    if outer.mnemonic in ("v_cvt_f32_f16", "v_pack_b32_f16"):
        merged = _merge_high_half(block, index, outer, written_at, uses)
        if merged is None and outer.mnemonic == "v_pack_b32_f16":
            merged = _convert_into_high_half(block, index, outer, written_at, defs, uses, renames)
        return merged
    table = _MERGES.get(outer.mnemonic)
    if table is None or outer.modifiers or len(outer.uses) != 2 or len(outer.defs) != 1:
        return None
    for position, operand in enumerate(outer.uses):
        if not isinstance(operand, VReg) or uses.get(operand) != 1 or operand not in written_at:
            continue
        if position in outer.source_modifiers:
            continue
        inner_index = written_at[operand]
        inner = block.insts[inner_index]
        merged = table.get(inner.mnemonic)
        if merged is None or inner.modifiers or len(inner.uses) != 2:
            continue
        other = outer.uses[1 - position]
        sources, modifiers = _sources(inner, merged, other, outer.source_modifiers.get(1 - position))
        if sources is None or not _legal(sources) or not _quiet_between(block, inner_index, index, inner):
            continue
        outer.mnemonic, outer.uses, outer.source_modifiers = merged, sources, modifiers
        return inner_index
    return None


def _merge_high_half(block: MBlock, index: int, outer: MInst, written_at: dict, uses: dict) -> int | None:
    """``v_cvt_f32_f16 (v_lshrrev_b32 16, a)`` reads the high half through SDWA instead;
    ``v_pack_b32_f16 a, (v_lshrrev_b32 16, a)`` puts ``a``'s halves back where they were."""
    packing = outer.mnemonic == "v_pack_b32_f16"
    source = outer.uses[-1]
    if packing and (len(outer.uses) != 2 or not _is_vgpr(outer.uses[0])):
        return None
    if outer.modifiers or outer.source_modifiers or not isinstance(source, VReg) or uses.get(source) != 1 \
            or source not in written_at:
        return None
    inner_index = written_at[source]
    inner = block.insts[inner_index]
    if inner.mnemonic != "v_lshrrev_b32" or inner.modifiers or inner.uses[0] != Imm(16) \
            or isinstance(inner.uses[0].value, float) or not _is_vgpr(inner.uses[1]) \
            or not _quiet_between(block, inner_index, index, inner):
        return None
    if packing:
        if not _same_register(outer.uses[0], inner.uses[1]):
            return None
        outer.mnemonic, outer.uses = "v_mov_b32", [outer.uses[0]]  # allocation coalesces it away
        return inner_index
    outer.mnemonic, outer.uses, outer.modifiers = "v_cvt_f32_f16_sdwa", [inner.uses[1]], HIGH_HALF
    return inner_index


def _convert_into_high_half(block: MBlock, index: int, outer: MInst, written_at: dict, defs: dict, uses: dict,
                            renames: dict) -> int | None:
    """``v_pack_b32_f16 %d, %lo, (v_cvt_f16_f32 %hi, x)``: convert ``x`` straight into ``%lo``'s
    high half (SDWA, its low half kept) when the pack is ``%lo``'s only reader; ``%d`` then
    reads as ``%lo``. One conversion and no pack, rounding as the plain conversion does."""
    low, high = outer.uses if len(outer.uses) == 2 else (None, None)
    target = outer.defs[0] if len(outer.defs) == 1 else None
    if outer.modifiers or outer.source_modifiers or not isinstance(target, VReg) or defs.get(target) != 1:
        return None
    if not isinstance(low, VReg) or low.cls != "v" or defs.get(low) != 1 or uses.get(low) != 1 or low is high:
        return None
    if not isinstance(high, VReg) or uses.get(high) != 1 or high not in written_at:
        return None
    inner_index = written_at[high]
    inner = block.insts[inner_index]
    source = inner.uses[0] if len(inner.uses) == 1 else None
    if inner.mnemonic != "v_cvt_f16_f32" or inner.modifiers or not isinstance(source, VReg | SubReg) \
            or not _quiet_between(block, inner_index, index, inner):
        return None
    outer.mnemonic, outer.defs, outer.uses = "v_cvt_f16_f32_sdwa", [low], [source]
    outer.modifiers, outer.source_modifiers = INTO_HIGH_HALF, dict(inner.source_modifiers)
    defs[low] += 1  # written twice now: no longer a single-definition value for later merges
    renames[target] = low
    return inner_index


def _renamable(move: MInst, defs: dict) -> bool:
    """A repacked value's register can be read from its source instead: both written once."""
    target, source = move.defs[0], move.uses[0]
    base = source.base if isinstance(source, SubReg) else source
    return isinstance(target, VReg) and defs.get(target) == 1 and defs.get(base) == 1


def _same_register(first, second) -> bool:
    if isinstance(first, VReg) or isinstance(second, VReg):
        return first is second
    return first.base is second.base and (first.index, first.count) == (second.index, second.count)


def _is_vgpr(operand) -> bool:
    return isinstance(operand, (VReg, SubReg)) and operand.cls == "v"


def _sources(inner: MInst, merged: str, other, other_modifiers) -> tuple[list | None, dict]:
    """The merged instruction's sources and source modifiers, or None when the pair does not fit."""
    first, second = inner.uses
    modifiers = {k: v for k, v in inner.source_modifiers.items()}
    if merged == "v_bfe_u32":
        width = _mask_width(other)
        if width is None or not isinstance(first, Imm) or modifiers:
            return None, {}
        return [second, first, Imm(width)], {}
    if inner.mnemonic in _SHIFTS:
        if modifiers:
            return None, {}
        first, second = second, first
    if other_modifiers:
        modifiers[2] = other_modifiers
    return [first, second, other], modifiers


def _mask_width(operand) -> int | None:
    """n when ``operand`` is the constant 2^n - 1 (1 <= n <= 31)."""
    if not isinstance(operand, Imm) or isinstance(operand.value, float):
        return None
    value = operand.value & 0xFFFFFFFF
    width = value.bit_length()
    return width if value and value == (1 << width) - 1 and width < 32 else None


def _legal(sources: list) -> bool:
    """At most one literal and at most two scalar values on the constant bus."""
    literals = [op for op in sources if isinstance(op, Imm) and _is_literal(op)]
    scalars = {_scalar_key(op) for op in sources if _scalar_key(op) is not None}
    return len(literals) <= 1 and len(scalars) + len(literals) <= CONSTANT_BUS


def _is_literal(imm: Imm) -> bool:
    if isinstance(imm.value, float):
        return imm.value not in INLINE_FLOATS
    return not -16 <= imm.value <= 64


def _scalar_key(operand):
    if isinstance(operand, VReg) and operand.cls == "s":
        return (id(operand), 0)
    if isinstance(operand, SubReg) and operand.cls == "s":
        return (id(operand.base), operand.index)
    if isinstance(operand, Special):
        return operand.name
    return None


def _quiet_between(block: MBlock, start: int, end: int, inner: MInst) -> bool:
    """Nothing strictly between ``start`` and ``end`` writes exec or a register ``inner`` reads."""
    read = set(inner.registers("uses"))
    for inst in block.insts[start + 1:end]:
        if "exec" in inst.mnemonic or any(isinstance(op, Special) and op.name.startswith("exec")
                                          for op in inst.defs):
            return False
        if read.intersection(inst.registers("defs")):
            return False
    return True
