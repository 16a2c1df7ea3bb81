"""The contract between the host JIT (compiler/backend/host.py) and the runtime.

The JIT turns a kernel's final IR into one native function per kernel that runs
ONE WAVE until it finishes or reaches a group barrier:

    int32_t shc_wave(const Context *ctx, Frame *frame)

It returns a ``Status``. A wave stopped at a barrier resumes where it stopped
when called again with the same frame; the runtime runs every wave of a group up
to the barrier, then all of them past it, so a group advances region by region.

Frame (one per wave, zero-initialised by the runtime, ``frame_bytes`` long as the
JIT reports for the kernel):

    int32_t resume;          offset 0: 0 = start; otherwise the barrier to resume after
    int32_t wave_in_group;   offset 4
    int32_t group_id[3];     offset 8
    int32_t barrier_id;      offset 20: which barrier a BARRIER status stopped at
    int32_t group_slot;      offset 24: which LDS block the wave's group owns (ctx->lds[group_slot])
    int32_t worker;          offset 28: the host thread running the wave (its row of ctx->counters)
    uint8_t spill[...];      offset 64: values the JIT keeps across barriers (its own layout)

Context (one per dispatch, shared by every wave; read-only for the JIT except
through the pointers it holds):

    uint8_t  **resources;    offset 0:  one pointer per resource slot
    int64_t   *sizes;        offset 8:  bytes addressable through each slot (bounds checks)
    int32_t   *meta;         offset 16: META_INTS int32 per slot (see META_FIELDS)
    uint8_t  **lds;          offset 24: per group-slot LDS pointer (lds_bytes each, bounds-checked)
    uint8_t   *scratch;      offset 32: scratch_bytes_per_wave per wave, indexed by wave number
    volatile int32_t *stop;  offset 40: nonzero asks every wave to stop (the watchdog)
    int64_t   *counters;     offset 48: STAT_COUNTERS int64 per worker thread (stats)
    int32_t    wave_size;    offset 56
    int32_t    numthreads[3];offset 60
    int32_t    group_count[3]; offset 72
    int32_t   *history;      offset 88: HISTORY_SITES int32 per wave of a group slot, at
                             (group_slot * waves_per_group + wave_in_group) * HISTORY_SITES, zeroed
                             per dispatch: the JIT's own record of where each texture access site
                             went last time in each wave (for prefetching; any value is safe)

Resource slots: every binding in ``module.bindings`` gets ``count`` consecutive
slots (1 for a single resource, the array length for a resource array); a
cbuffer is one slot holding its bytes laid out by HLSL packing. Textures are
passed to the JIT as float32 (or uint32/int32 for integer formats) texel arrays
with 4 channels, every mip level back to back; the runtime converts formats on
the way in and out. ``meta`` tells the JIT each slot's shape.
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    DONE = 0  # the wave ran to its end (or every lane returned)
    BARRIER = 1  # stopped at a group barrier; frame->barrier_id says which
    STOPPED = 2  # ctx->stop was set (watchdog); the dispatch is abandoned
    DIVERGENT_BARRIER = 3  # a barrier was reached with only part of the wave's lanes


FRAME_HEADER_BYTES = 64
FRAME_RESUME, FRAME_WAVE_IN_GROUP, FRAME_GROUP_ID, FRAME_BARRIER_ID = 0, 4, 8, 20
FRAME_GROUP_SLOT, FRAME_WORKER = 24, 28

# Per-slot metadata, META_INTS int32 each.
META_FIELDS = (
    "kind",  # ResourceKind
    "stride",  # bytes per element (structured: the struct size; typed: the element size; textures: 16)
    "width", "height", "depth",  # elements for buffers (width only); texels for textures; depth = slices
    "mips",  # mip levels for textures
    "mip_offsets",  # index into the meta array where this texture's per-mip texel offsets start (or -1)
    "filter", "address",  # samplers: 0 point / 1 linear; 0 clamp, 1 wrap, 2 mirror, 3 border
)
# samplers, meta int 10 (9 is an unbounded resource array's length): the comparison function of
# SampleCmp*, by index here (D3D's ``ref <op> texel``)
META_COMPARISON = 10
COMPARISONS = ("never", "less", "equal", "less_equal", "greater", "not_equal", "greater_equal", "always")
# textures, meta ints 11 and 12: what a store converts through. The JIT keeps 32-bit texels for the
# whole dispatch and the runtime converts them to the caller's format after it, but a texel read
# back in the same dispatch must read as the format keeps it (as on the GPU, where the store
# converts): 11 is the caller's channel format when narrower than 32 bits (``texels.channel_format``,
# gfx10's one-channel numbers: 1 8_UNORM, 5 8_UINT, 6 8_SINT, 7 16_UNORM, 11 16_UINT, 12 16_SINT,
# 13 16_FLOAT), 0 for 32-bit channels; 12 how many of the 4 channels the caller's array lacks
# (they read as 0, 0, 0, 1 whatever is stored). Both 0: stores keep what they are given.
META_TEXEL_FORMAT = 11
META_ABSENT_CHANNELS = 12
META_INTS = 16


class ResourceKind(IntEnum):
    BUFFER = 1  # Buffer/RWBuffer, StructuredBuffer/RWStructuredBuffer
    BYTE_ADDRESS = 2
    TEXTURE = 3
    SAMPLER = 4
    CBUFFER = 5


HISTORY_SITES = 64  # texture access sites per kernel that prefetch (see host_memory._prefetch_text)

STAT_COUNTERS = 8  # VALU, SALU, LANE_EXCHANGE, LDS, VMEM, ATOMIC, active-lane sum, instructions
STAT_NAMES = ("valu", "salu", "lane_exchange", "lds", "vmem", "atomics", "active_lanes", "instructions")
