"""The selection tables: (IR op, type class) -> RDNA2 mnemonic.

Type classes are ``f32 f16 i32 u32 i16 u16 i64 u64`` and ``b`` (bool lane masks);
``pk_f16`` / ``pk_u16`` / ``pk_i16`` are two 16-bit components packed in one VGPR.
Anything absent from a table is a special case in ``isel_alu.py`` (division, 64-bit
VALU arithmetic, expansions of math functions).
"""

from __future__ import annotations

from ...ir.ops import Op

# Vector ALU, two sources. REVERSED_OPERANDS lists the ``*rev`` shifts, whose first
# source is the shift amount.
VALU_BINARY: dict[tuple[Op, str], str] = {
    (Op.ADD, "f32"): "v_add_f32", (Op.ADD, "f16"): "v_add_f16", (Op.ADD, "pk_f16"): "v_pk_add_f16",
    (Op.ADD, "u32"): "v_add_nc_u32", (Op.ADD, "i32"): "v_add_nc_u32",
    (Op.ADD, "u16"): "v_add_nc_u16", (Op.ADD, "i16"): "v_add_nc_u16",
    (Op.ADD, "pk_u16"): "v_pk_add_u16", (Op.ADD, "pk_i16"): "v_pk_add_u16",
    (Op.SUB, "f32"): "v_sub_f32", (Op.SUB, "f16"): "v_sub_f16",
    (Op.SUB, "u32"): "v_sub_nc_u32", (Op.SUB, "i32"): "v_sub_nc_u32",
    (Op.SUB, "u16"): "v_sub_nc_u16", (Op.SUB, "i16"): "v_sub_nc_u16",
    (Op.SUB, "pk_u16"): "v_pk_sub_u16", (Op.SUB, "pk_i16"): "v_pk_sub_i16",
    (Op.MUL, "f32"): "v_mul_f32", (Op.MUL, "f16"): "v_mul_f16", (Op.MUL, "pk_f16"): "v_pk_mul_f16",
    (Op.MUL, "u32"): "v_mul_lo_u32", (Op.MUL, "i32"): "v_mul_lo_u32",
    (Op.MUL, "u16"): "v_mul_lo_u16", (Op.MUL, "i16"): "v_mul_lo_u16",
    (Op.MUL, "pk_u16"): "v_pk_mul_lo_u16", (Op.MUL, "pk_i16"): "v_pk_mul_lo_u16",
    (Op.MIN, "f32"): "v_min_f32", (Op.MIN, "f16"): "v_min_f16", (Op.MIN, "pk_f16"): "v_pk_min_f16",
    (Op.MIN, "u32"): "v_min_u32", (Op.MIN, "i32"): "v_min_i32", (Op.MIN, "u16"): "v_min_u16",
    (Op.MIN, "i16"): "v_min_i16", (Op.MIN, "pk_u16"): "v_pk_min_u16", (Op.MIN, "pk_i16"): "v_pk_min_i16",
    (Op.MAX, "f32"): "v_max_f32", (Op.MAX, "f16"): "v_max_f16", (Op.MAX, "pk_f16"): "v_pk_max_f16",
    (Op.MAX, "u32"): "v_max_u32", (Op.MAX, "i32"): "v_max_i32", (Op.MAX, "u16"): "v_max_u16",
    (Op.MAX, "i16"): "v_max_i16", (Op.MAX, "pk_u16"): "v_pk_max_u16", (Op.MAX, "pk_i16"): "v_pk_max_i16",
    (Op.SHL, "u32"): "v_lshlrev_b32", (Op.SHL, "i32"): "v_lshlrev_b32",
    (Op.SHL, "u16"): "v_lshlrev_b16", (Op.SHL, "i16"): "v_lshlrev_b16",
    (Op.SHL, "pk_u16"): "v_pk_lshlrev_b16", (Op.SHL, "pk_i16"): "v_pk_lshlrev_b16",
    (Op.SHL, "u64"): "v_lshlrev_b64", (Op.SHL, "i64"): "v_lshlrev_b64",
    (Op.SHR, "u32"): "v_lshrrev_b32", (Op.SHR, "i32"): "v_ashrrev_i32",
    (Op.SHR, "u16"): "v_lshrrev_b16", (Op.SHR, "i16"): "v_ashrrev_i16",
    (Op.SHR, "pk_u16"): "v_pk_lshrrev_b16", (Op.SHR, "pk_i16"): "v_pk_ashrrev_i16",
    (Op.SHR, "u64"): "v_lshrrev_b64", (Op.SHR, "i64"): "v_ashrrev_i64",
}
for _op, _name in ((Op.AND, "v_and_b32"), (Op.OR, "v_or_b32"), (Op.XOR, "v_xor_b32")):
    for _tc in ("u32", "i32", "u16", "i16", "pk_u16", "pk_i16"):
        VALU_BINARY[(_op, _tc)] = _name

REVERSED_OPERANDS = frozenset({
    "v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32", "v_lshlrev_b16", "v_lshrrev_b16", "v_ashrrev_i16",
    "v_pk_lshlrev_b16", "v_pk_lshrrev_b16", "v_pk_ashrrev_i16", "v_lshlrev_b64", "v_lshrrev_b64",
    "v_ashrrev_i64",
})
COMMUTATIVE_MNEMONICS = frozenset(
    name for (op, _), name in VALU_BINARY.items() if op in (Op.ADD, Op.MUL, Op.MIN, Op.MAX, Op.AND, Op.OR, Op.XOR))

# Scalar ALU, two sources (uniform integers, bits and lane masks).
SALU_BINARY: dict[tuple[Op, str], str] = {
    (Op.ADD, "u32"): "s_add_u32", (Op.ADD, "i32"): "s_add_i32",
    (Op.SUB, "u32"): "s_sub_u32", (Op.SUB, "i32"): "s_sub_i32",
    (Op.MUL, "u32"): "s_mul_i32", (Op.MUL, "i32"): "s_mul_i32",
    (Op.MIN, "u32"): "s_min_u32", (Op.MIN, "i32"): "s_min_i32",
    (Op.MAX, "u32"): "s_max_u32", (Op.MAX, "i32"): "s_max_i32",
    (Op.SHL, "u32"): "s_lshl_b32", (Op.SHL, "i32"): "s_lshl_b32",
    (Op.SHR, "u32"): "s_lshr_b32", (Op.SHR, "i32"): "s_ashr_i32",
    (Op.SHL, "u64"): "s_lshl_b64", (Op.SHL, "i64"): "s_lshl_b64",
    (Op.SHR, "u64"): "s_lshr_b64", (Op.SHR, "i64"): "s_ashr_i64",
}
for _tc in ("u16", "i16"):  # uniform 16-bit integers live unpacked in SGPRs
    for (_op, _wide), _name in list(SALU_BINARY.items()):
        if _wide == _tc.replace("16", "32"):
            SALU_BINARY[(_op, _tc)] = _name
for _op, _stem in ((Op.AND, "s_and"), (Op.OR, "s_or"), (Op.XOR, "s_xor")):
    for _tc in ("u32", "i32", "u16", "i16"):
        SALU_BINARY[(_op, _tc)] = f"{_stem}_b32"
    for _tc in ("u64", "i64"):
        SALU_BINARY[(_op, _tc)] = f"{_stem}_b64"

# Lane-mask logic (bools): the width suffix is added by the wave size.
MASK_BINARY = {Op.AND: "s_and", Op.OR: "s_or", Op.XOR: "s_xor", Op.NE: "s_xor", Op.EQ: "s_xnor"}

# Comparisons: v_cmp_<cond>_<type> into a lane mask; s_cmp_<cond>_<type> into SCC.
VALU_CONDITION = {Op.EQ: "eq", Op.NE: "ne", Op.LT: "lt", Op.LE: "le", Op.GT: "gt", Op.GE: "ge"}
FLOAT_CONDITION = {**VALU_CONDITION, Op.NE: "neq"}  # != is true for NaN (unordered)
SALU_CONDITION = {Op.EQ: "eq", Op.NE: "lg", Op.LT: "lt", Op.LE: "le", Op.GT: "gt", Op.GE: "ge"}
SWAPPED_CONDITION = {Op.EQ: Op.EQ, Op.NE: Op.NE, Op.LT: Op.GT, Op.LE: Op.GE, Op.GT: Op.LT, Op.GE: Op.LE}

# One-source vector ALU math: math {fn} per float width.
VALU_MATH: dict[tuple[str, str], str] = {}
for _fn, _stem in (("sqrt", "v_sqrt"), ("rsqrt", "v_rsq"), ("rcp", "v_rcp"), ("exp2", "v_exp"),
                   ("log2", "v_log"), ("floor", "v_floor"), ("ceil", "v_ceil"), ("frac", "v_fract"),
                   ("trunc", "v_trunc"), ("round", "v_rndne")):
    VALU_MATH[(_fn, "f32")] = f"{_stem}_f32"
    VALU_MATH[(_fn, "f16")] = f"{_stem}_f16"

# Conversions (from class, to class) -> one instruction. Same-width integer changes are free.
VALU_CONVERT: dict[tuple[str, str], str] = {
    ("f32", "i32"): "v_cvt_i32_f32", ("f32", "u32"): "v_cvt_u32_f32",
    ("i32", "f32"): "v_cvt_f32_i32", ("u32", "f32"): "v_cvt_f32_u32",
    ("f32", "f16"): "v_cvt_f16_f32", ("f16", "f32"): "v_cvt_f32_f16",
    ("f16", "i16"): "v_cvt_i16_f16", ("f16", "u16"): "v_cvt_u16_f16",
    ("i16", "f16"): "v_cvt_f16_i16", ("u16", "f16"): "v_cvt_f16_u16",
}

# Bit functions: bits {fn}.
VALU_BITS = {"countbits": "v_bcnt_u32_b32", "firstbitlow": "v_ffbl_b32", "reversebits": "v_bfrev_b32"}
SALU_BITS = {"countbits": "s_bcnt1_i32_b32", "firstbitlow": "s_ff1_i32_b32", "reversebits": "s_brev_b32"}

# Atomics: fn -> (LDS stem, buffer stem); min/max take the signedness of the type.
LDS_ATOMIC = {"add": "ds_add", "and": "ds_and", "or": "ds_or", "xor": "ds_xor", "exchange": "ds_wrxchg",
              "cmpxchg": "ds_cmpst"}
BUFFER_ATOMIC = {"add": "buffer_atomic_add", "and": "buffer_atomic_and", "or": "buffer_atomic_or",
                 "xor": "buffer_atomic_xor", "exchange": "buffer_atomic_swap", "cmpxchg": "buffer_atomic_cmpswap"}

# Memory widths in dwords -> suffix.
DWORDS = {1: "dword", 2: "dwordx2", 3: "dwordx3", 4: "dwordx4"}
LDS_BITS = {1: "b32", 2: "b64", 3: "b96", 4: "b128"}
SMEM_DWORDS = {1: "dword", 2: "dwordx2", 4: "dwordx4", 8: "dwordx8", 16: "dwordx16"}

# Image dimensions by resource kind.
IMAGE_DIM = {
    "Texture1D": "SQ_RSRC_IMG_1D", "RWTexture1D": "SQ_RSRC_IMG_1D",
    "Texture1DArray": "SQ_RSRC_IMG_1D_ARRAY", "RWTexture1DArray": "SQ_RSRC_IMG_1D_ARRAY",
    "Texture2D": "SQ_RSRC_IMG_2D", "RWTexture2D": "SQ_RSRC_IMG_2D",
    "Texture2DArray": "SQ_RSRC_IMG_2D_ARRAY", "RWTexture2DArray": "SQ_RSRC_IMG_2D_ARRAY",
    "Texture3D": "SQ_RSRC_IMG_3D", "RWTexture3D": "SQ_RSRC_IMG_3D",
    "TextureCube": "SQ_RSRC_IMG_CUBE", "TextureCubeArray": "SQ_RSRC_IMG_CUBE",
}
RESINFO_FIELDS = {"width": 0, "height": 1, "depth": 2, "elements": 2, "levels": 3}
