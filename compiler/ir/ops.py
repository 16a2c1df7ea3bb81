"""Every IR operation in one enum, plus named groups that passes test membership against.

The IR is SSA over a structured control-flow graph (the SPIR-V shape): blocks end
in a terminator, ``if`` headers name their merge block and loop headers their
merge and continue blocks, so every pass and the back ends can rebuild the
regions GPUs execute under exec masks.
"""

from __future__ import annotations

from enum import Enum


class Op(Enum):
    # Members are singletons compared by identity; hash them by identity too, in C,
    # rather than through Enum.__hash__ (a Python call hashing the name): passes test
    # set membership (``inst.op in PURE``) for every instruction.
    __hash__ = object.__hash__

    # constants and entry inputs
    CONST = "const"
    THREAD_INPUT = "thread_input"  # attrs: which (group_id, group_thread_id, dispatch_thread_id, group_index)
    # arithmetic (per component on vectors)
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    DIV = "div"
    REM = "rem"
    NEG = "neg"
    FMA = "fma"
    MIN = "min"
    MAX = "max"
    ABS = "abs"
    AND = "and"
    OR = "or"
    XOR = "xor"
    NOT = "not"
    SHL = "shl"
    SHR = "shr"  # arithmetic for signed element types, logical for unsigned
    MATH = "math"  # attrs: fn (sqrt, rsqrt, rcp, exp2, log2, sin, cos, floor, ceil, frac, ...)
    BITS = "bits"  # attrs: fn (countbits, firstbitlow, firstbithigh, reversebits)
    # comparisons and selection
    EQ = "eq"
    NE = "ne"
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"
    SELECT = "select"
    # conversions and vector shaping
    CONVERT = "convert"
    BITCAST = "bitcast"
    F32TOF16 = "f32tof16"
    F16TOF32 = "f16tof32"
    CONSTRUCT = "construct"  # scalars/vectors -> vector
    EXTRACT = "extract"  # attrs: index
    INSERT = "insert"  # attrs: index
    SHUFFLE = "shuffle"  # attrs: lanes (a swizzle)
    DOT = "dot"
    # memory: scratch (dynamically indexed local arrays), LDS, constant buffers, resources
    SCRATCH_LOAD = "scratch_load"
    SCRATCH_STORE = "scratch_store"
    LDS_LOAD = "lds_load"  # attrs: var, byte offset computed into the address operand
    LDS_STORE = "lds_store"
    CBUFFER_LOAD = "cbuffer_load"  # attrs: buffer, offset
    BUFFER_LOAD = "buffer_load"  # attrs: resource
    BUFFER_STORE = "buffer_store"
    TEXTURE_LOAD = "texture_load"
    TEXTURE_STORE = "texture_store"
    TEXTURE_SAMPLE = "texture_sample"  # SampleLevel, SampleGrad; SampleCmpLevelZero {compare}
    TEXTURE_GATHER = "texture_gather"  # Gather, GatherRed/Green/Blue/Alpha; GatherCmp* {compare}
    RESOURCE_INFO = "resource_info"  # GetDimensions
    # atomics (attrs: fn add/and/or/xor/min/max/exchange/cmpxchg)
    LDS_ATOMIC = "lds_atomic"
    BUFFER_ATOMIC = "buffer_atomic"
    # barriers (attrs: scope group/device/all, sync bool)
    BARRIER = "barrier"
    # HLSL wave intrinsics, before lowering (attrs: fn for reductions/scans)
    WAVE_LANE_INDEX = "wave_lane_index"
    WAVE_LANE_COUNT = "wave_lane_count"
    WAVE_IS_FIRST_LANE = "wave_is_first_lane"
    WAVE_READ_LANE_AT = "wave_read_lane_at"
    WAVE_READ_FIRST = "wave_read_first"
    WAVE_SHUFFLE_XOR = "wave_shuffle_xor"
    WAVE_ACTIVE = "wave_active"  # fn: sum product min max and or xor
    WAVE_PREFIX = "wave_prefix"  # fn: sum product
    WAVE_BALLOT = "wave_ballot"
    WAVE_COUNT_BITS = "wave_count_bits"
    WAVE_PREFIX_COUNT_BITS = "wave_prefix_count_bits"
    WAVE_ANY_TRUE = "wave_any_true"
    WAVE_ALL_TRUE = "wave_all_true"
    WAVE_ALL_EQUAL = "wave_all_equal"
    WAVE_MATCH = "wave_match"  # uint4 mask of the active lanes holding the same bits
    WAVE_MULTI_PREFIX = "wave_multi_prefix"  # %value, %mask (uint4); fn: sum product and or xor
    QUAD_READ = "quad_read"  # attrs: lanes (quad_perm pattern), e.g. across_x = [1, 0, 3, 2]
    QUAD_READ_LANE_AT = "quad_read_lane_at"
    NON_UNIFORM = "non_uniform"  # NonUniformResourceIndex marker
    # RDNA2 lane-exchange primitives, after lowering. compiler/machine/wavemodel.py defines their
    # semantics; operands and attributes (T is the value type, masks are uint for wave32
    # and uint64_t for wave64):
    #   dpp16 T %src, %old {ctrl="quad_perm:[1,0,3,2]", row_mask=15, bank_mask=15, bound_ctrl=false}
    #   dpp8 T %src, %old {selects=[...8 ints]}
    #   permlanex16 T %src, %old {selects=[...16 ints], fetch_inactive=false, bound_ctrl=false}
    #   ds_swizzle T %src, %old {offset=int}
    #   ds_bpermute T %src, %old, %addr_bytes           (reaches within each 32-lane half)
    #   readlane T %src, %lane                          (wave-uniform result; %lane uniform)
    #   readfirstlane T %src                            (lowest active lane)
    #   writelane T %old, %value, %lane
    #   set_inactive T %src, %identity                  (inactive lanes take %identity)
    #   ballot_mask M %cond                              (v_cmp into an SGPR lane mask)
    #   mbcnt uint %mask, %addend                       (set bits of %mask below each lane)
    #   bcnt uint %mask                                  (s_bcnt1)
    #   lds_exchange T %src, %old, %source_lane         (any lane of the wave, through LDS)
    # Any instruction with the attribute wwm=true runs in whole-wave mode (every lane on,
    # as ACO's reductions do). After DPP combining, a VALU op may carry dpp attributes
    # {dpp="<ctrl>", row_mask, bank_mask, bound_ctrl}: its operand 0 is read through that
    # DPP16 control (LLVM's src0 rule), e.g. add float %a, %b {dpp="quad_perm:[1,0,3,2]", ...}.
    DPP16 = "dpp16"
    DPP8 = "dpp8"
    PERMLANEX16 = "permlanex16"
    DS_SWIZZLE = "ds_swizzle"
    DS_BPERMUTE = "ds_bpermute"
    READLANE = "readlane"
    READFIRSTLANE = "readfirstlane"
    WRITELANE = "writelane"
    SET_INACTIVE = "set_inactive"
    BALLOT_MASK = "ballot_mask"
    MBCNT = "mbcnt"
    BCNT = "bcnt"
    LDS_EXCHANGE = "lds_exchange"
    # control flow
    PHI = "phi"
    BR = "br"
    COND_BR = "cond_br"
    SWITCH = "switch"
    RETURN = "ret"
    # waterfall loop pieces (NonUniformResourceIndex)
    WATERFALL_BEGIN = "waterfall_begin"
    WATERFALL_END = "waterfall_end"


ARITHMETIC = frozenset({
    Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.REM, Op.NEG, Op.FMA, Op.MIN, Op.MAX, Op.ABS,
    Op.AND, Op.OR, Op.XOR, Op.NOT, Op.SHL, Op.SHR, Op.MATH, Op.BITS, Op.DOT,
})
COMPARISON = frozenset({Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE})
COMMUTATIVE = frozenset({Op.ADD, Op.MUL, Op.MIN, Op.MAX, Op.AND, Op.OR, Op.XOR, Op.EQ, Op.NE})
CONVERSIONS = frozenset({Op.CONVERT, Op.BITCAST, Op.F32TOF16, Op.F16TOF32})
VECTOR = frozenset({Op.CONSTRUCT, Op.EXTRACT, Op.INSERT, Op.SHUFFLE})
LOADS = frozenset({
    Op.SCRATCH_LOAD, Op.LDS_LOAD, Op.CBUFFER_LOAD, Op.BUFFER_LOAD, Op.TEXTURE_LOAD,
    Op.TEXTURE_SAMPLE, Op.TEXTURE_GATHER, Op.RESOURCE_INFO,
})
STORES = frozenset({Op.SCRATCH_STORE, Op.LDS_STORE, Op.BUFFER_STORE, Op.TEXTURE_STORE})
ATOMICS = frozenset({Op.LDS_ATOMIC, Op.BUFFER_ATOMIC})
MEMORY = LOADS | STORES | ATOMICS
BARRIERS = frozenset({Op.BARRIER})
WAVE_OPS = frozenset({
    Op.WAVE_LANE_INDEX, Op.WAVE_LANE_COUNT, Op.WAVE_IS_FIRST_LANE, Op.WAVE_READ_LANE_AT,
    Op.WAVE_READ_FIRST, Op.WAVE_SHUFFLE_XOR, Op.WAVE_ACTIVE, Op.WAVE_PREFIX, Op.WAVE_BALLOT,
    Op.WAVE_COUNT_BITS, Op.WAVE_PREFIX_COUNT_BITS, Op.WAVE_ANY_TRUE, Op.WAVE_ALL_TRUE,
    Op.WAVE_ALL_EQUAL, Op.WAVE_MATCH, Op.WAVE_MULTI_PREFIX, Op.QUAD_READ, Op.QUAD_READ_LANE_AT,
})
LANE_EXCHANGE = frozenset({
    Op.DPP16, Op.DPP8, Op.PERMLANEX16, Op.DS_SWIZZLE, Op.DS_BPERMUTE, Op.READLANE,
    Op.READFIRSTLANE, Op.WRITELANE, Op.SET_INACTIVE, Op.BALLOT_MASK, Op.MBCNT, Op.BCNT,
    Op.LDS_EXCHANGE,
})
TERMINATORS = frozenset({Op.BR, Op.COND_BR, Op.SWITCH, Op.RETURN})
# Operations with effects beyond their result: never removed, reordered or merged.
SIDE_EFFECTS = STORES | ATOMICS | BARRIERS | TERMINATORS | frozenset({
    Op.WATERFALL_BEGIN, Op.WATERFALL_END,
})
# Results that depend on which lanes are active: not movable across control flow.
EXEC_DEPENDENT = WAVE_OPS | LANE_EXCHANGE
PURE = frozenset(Op) - SIDE_EFFECTS - LOADS - EXEC_DEPENDENT - frozenset({Op.PHI, Op.THREAD_INPUT})
