//==============================================================================================
// ffx_spd.h -- single pass downsampler (SPD) for shc
//
// One dispatch of ((width + 63) / 64, (height + 63) / 64, slices) groups of 256 threads
// builds up to 12 mips below mip 0. Each group reduces its own 64x64 source tile to
// mips 1..6 (32x32 down to 1x1), exchanging data through quad wave ops and groupshared
// memory. Every group then bumps a global counter; the group that arrives last reads
// mip 6 back (at most 64x64 pixels) and runs the same tile routine once more to build
// mips 7..12. There is no barrier between mips at the API level: only that one counter.
//
// How the work is laid out inside a group (one tile, one pass):
//   - thread i sits on pixel (x, y) of a 16x16 grid: ARmpRed8x8 places i % 64 inside an
//     8x8 block so that every quad of lanes covers 2x2 pixels, and bits 6 and 7 of i pick
//     one of the four 8x8 blocks;
//   - mip 1 (32x32) is four 16x16 quadrants: thread (x, y) reduces the source 2x2 blocks
//     under pixel (x, y) of each quadrant, i.e. 16 source texels, and stores 4 pixels;
//   - mip 2 (16x16): a quad of lanes holds a 2x2 block of every quadrant, so a quad
//     reduction finishes mip 2 in registers; lane k of the quad stores quadrant k's
//     result and parks it in the 16x16 groupshared scratch;
//   - mips 3..6: one level per barrier, each with a quarter of the threads of the level
//     before (256, 64, 16, 4 lanes with wave ops; 64, 16, 4, 1 without). Level k keeps
//     mip k pixel (X, Y) in scratch cell (X << (k - 2), Y << (k - 2)); the thread that
//     writes a cell is the only one that read it in that level, so a level needs no
//     barrier between its own reads and writes.
//
// Integration contract. Include ffx_a.h, declare your groupshared storage, define these
// functions, then include this file.
//
//   32-bit path (compiled unless SPD_PACKED_ONLY):
//     AF4  SpdLoadSourceImage(ASU2 p, AU1 slice)
//              texel p of mip 0. With SPD_LINEAR_SAMPLER: the reduced 2x2 block whose
//              top-left texel is p, as one bilinear fetch at the block's centre
//              (uv = (p + 1) / sourceSize), so SpdReduce4 must be an average.
//     AF4  SpdLoad(ASU2 p, AU1 slice)
//              pixel p of mip 6, written by other groups of this dispatch (bind mip 6
//              globallycoherent so the last group sees their stores).
//     void SpdStore(ASU2 p, AF4 value, AU1 mip, AU1 slice)
//              write pixel p of output `mip`, counted from 0: mip 0 here is mip 1 of the
//              texture, 5 is mip 6, 11 is mip 12.
//     AF4  SpdLoadIntermediate(AU1 x, AU1 y)                16x16 groupshared scratch,
//     void SpdStoreIntermediate(AU1 x, AU1 y, AF4 value)    0 <= x, y < 16.
//     AF4  SpdReduce4(AF4 v0, AF4 v1, AF4 v2, AF4 v3)
//              2x2 -> 1; arguments in reading order: top-left, top-right, bottom-left,
//              bottom-right.
//
//   16-bit path (compiled with A_HALF): the same functions with an H suffix on AH4:
//     SpdLoadSourceImageH, SpdLoadH, SpdStoreH, SpdLoadIntermediateH,
//     SpdStoreIntermediateH, SpdReduce4H.
//
//   Both paths:
//     void SpdIncreaseAtomicCounter(AU1 slice)
//              atomically add 1 to the slice's global counter and put the value it held
//              before the add into a groupshared uint (one thread of the group calls it).
//     AU1  SpdGetAtomicCounter()            that groupshared value.
//     void SpdResetAtomicCounter(AU1 slice) set the slice's global counter back to 0, ready
//                                           for the next dispatch.
//
//   Provided here unless SPD_USER_WORKGROUP_BARRIER is defined (then define it yourself):
//     void SpdWorkgroupShuffleBarrier()     GroupMemoryBarrierWithGroupSync().
//
//   Coordinates are not bounds-checked here: for sizes that are not multiples of 64,
//   SpdLoadSourceImage and SpdLoad see p past the right and bottom edges (the integration
//   picks the border rule, e.g. clamp), and SpdStore sees p outside the mip (such stores
//   must be dropped, as D3D12 drops out-of-bounds UAV writes).
//
// Entry points (call from [numthreads(256, 1, 1)] with every thread of the group):
//     SpdDownsample (AU2 workGroupID, AU1 localInvocationIndex, AU1 mips, AU1 numWorkGroups,
//                    AU1 slice [, AU2 workGroupOffset])
//     SpdDownsampleH(... same ...)
//   mips: how many mips to build below mip 0 (1..12); numWorkGroups: groups per slice;
//   workGroupOffset is added to workGroupID (to dispatch a sub-range of tiles).
//
// Options (define before including):
//     SPD_LINEAR_SAMPLER      one SpdLoadSourceImage call per 2x2 source block.
//     SPD_NO_WAVE_OPERATIONS  mip 2..6 data exchange through groupshared memory only.
//     SPD_PACKED_ONLY         compile only the 16-bit path (needs A_HALF).
//
// Barriers are only ever reached by the whole group: every early exit below depends on
// `mips`, `baseMip` or the counter value that all threads read after a barrier.
//==============================================================================================
#ifndef FFX_SPD_H
#define FFX_SPD_H 1

#if !defined(A_GPU) || !defined(A_HLSL)
 #error "ffx_spd.h: include ffx_a.h with A_GPU and A_HLSL defined first"
#endif
#if defined(SPD_PACKED_ONLY) && !defined(A_HALF)
 #error "ffx_spd.h: SPD_PACKED_ONLY builds only the 16-bit path; define A_HALF too"
#endif

#define SPD_TILE_SIZE 64u          // source texels per tile side
#define SPD_MIPS_PER_PASS 6u       // a 64x64 tile reduces to 1x1 in 6 mips

//----------------------------------------------------------------------------------------------
// Shared by both paths.
//----------------------------------------------------------------------------------------------
#if !defined(SPD_USER_WORKGROUP_BARRIER)
void SpdWorkgroupShuffleBarrier()
{
    GroupMemoryBarrierWithGroupSync();
}
#endif

// Pixel of the 16x16 thread grid that thread `idx` (0..255) works on; see the top comment.
AU2 SpdThreadXY(AU1 idx)
{
    AU2 inBlock = ARmpRed8x8(idx & 63u);
    AU2 block = AU2(ABfe(idx, 6u, 1u), ABfe(idx, 7u, 1u));
    return inBlock + block * 8u;
}

// Counts this group as done. The group that finds every other group of its slice done is
// the last one: it resets the counter and returns true. The result is the same for every
// thread of the group (they all read the groupshared copy after the barrier).
bool SpdIsLastGroup(AU1 idx, AU1 numWorkGroups, AU1 slice)
{
    if (idx == 0u)
    {
        // Thread 0 wrote this group's mip 6 pixel; make it visible device-wide before the
        // counter says so.
        DeviceMemoryBarrier();
        SpdIncreaseAtomicCounter(slice);
    }
    SpdWorkgroupShuffleBarrier();
    bool isLast = SpdGetAtomicCounter() == numWorkGroups - 1u;
    if (isLast && idx == 0u)
    {
        SpdResetAtomicCounter(slice);
    }
    return isLast;
}

//==============================================================================================
// 32-bit path.
//==============================================================================================
#if !defined(SPD_PACKED_ONLY)

// The four lanes of a quad, reduced in reading order; every lane gets the same result.
AF4 SpdReduceQuad(AF4 v)
{
    AF4 topLeft = QuadReadLaneAt(v, 0u);
    AF4 topRight = QuadReadLaneAt(v, 1u);
    AF4 bottomLeft = QuadReadLaneAt(v, 2u);
    AF4 bottomRight = QuadReadLaneAt(v, 3u);
    return SpdReduce4(topLeft, topRight, bottomLeft, bottomRight);
}

// Four scratch cells `step` apart, starting at (x, y), reduced.
AF4 SpdReduceIntermediate(AU1 x, AU1 y, AU1 step)
{
    return SpdReduce4(SpdLoadIntermediate(x, y), SpdLoadIntermediate(x + step, y),
                      SpdLoadIntermediate(x, y + step), SpdLoadIntermediate(x + step, y + step));
}

// The 2x2 block with top-left texel p, reduced: from the source (first pass) or from mip 6
// (the last group's second pass).
AF4 SpdReduceBlock(ASU2 p, AU1 slice, bool fromMip6)
{
    AF4 v;
    if (fromMip6)
    {
        v = SpdReduce4(SpdLoad(p, slice), SpdLoad(p + ASU2(1, 0), slice),
                       SpdLoad(p + ASU2(0, 1), slice), SpdLoad(p + ASU2(1, 1), slice));
    }
    else
    {
#if defined(SPD_LINEAR_SAMPLER)
        v = SpdLoadSourceImage(p, slice);
#else
        v = SpdReduce4(SpdLoadSourceImage(p, slice), SpdLoadSourceImage(p + ASU2(1, 0), slice),
                       SpdLoadSourceImage(p + ASU2(0, 1), slice),
                       SpdLoadSourceImage(p + ASU2(1, 1), slice));
#endif
    }
    return v;
}

#if defined(SPD_NO_WAVE_OPERATIONS)
// Mip 2 of one mip-1 quadrant through scratch: every thread parks its pixel, then the
// first 64 threads reduce 2x2 cells. Both barriers are reached by the whole group; the
// second one keeps the next quadrant from overwriting cells still being read.
AF4 SpdMip2QuadrantThroughLds(AU1 idx, AU2 xy, AF4 mip1)
{
    SpdStoreIntermediate(xy.x, xy.y, mip1);
    SpdWorkgroupShuffleBarrier();
    AF4 mip2 = mip1;
    if (idx < 64u)
    {
        mip2 = SpdReduceIntermediate(xy.x * 2u, xy.y * 2u, 1u);
    }
    SpdWorkgroupShuffleBarrier();
    return mip2;
}
#endif

// Mips 1 and 2 of the pass (texture mips baseMip + 1 and baseMip + 2). Leaves mip 2 in
// scratch cells (X, Y) for the caller's next barrier.
void SpdMips1And2(AU2 tile, AU1 idx, AU1 mips, AU1 baseMip, AU1 slice, bool fromMip6)
{
    AU2 xy = SpdThreadXY(idx);

    // Mip 1: pixel (x, y) of each 16x16 quadrant of the tile's 32x32 block.
    ASU2 src = ASU2(tile * SPD_TILE_SIZE + xy * 2u);
    AF4 q0 = SpdReduceBlock(src, slice, fromMip6);
    AF4 q1 = SpdReduceBlock(src + ASU2(32, 0), slice, fromMip6);
    AF4 q2 = SpdReduceBlock(src + ASU2(0, 32), slice, fromMip6);
    AF4 q3 = SpdReduceBlock(src + ASU2(32, 32), slice, fromMip6);

    ASU2 dst1 = ASU2(tile * 32u + xy);
    SpdStore(dst1, q0, baseMip, slice);
    SpdStore(dst1 + ASU2(16, 0), q1, baseMip, slice);
    SpdStore(dst1 + ASU2(0, 16), q2, baseMip, slice);
    SpdStore(dst1 + ASU2(16, 16), q3, baseMip, slice);

    if (mips <= baseMip + 1u)
        return;

#if defined(SPD_NO_WAVE_OPERATIONS)
    q0 = SpdMip2QuadrantThroughLds(idx, xy, q0);
    q1 = SpdMip2QuadrantThroughLds(idx, xy, q1);
    q2 = SpdMip2QuadrantThroughLds(idx, xy, q2);
    q3 = SpdMip2QuadrantThroughLds(idx, xy, q3);
    if (idx < 64u)
    {
        // xy is now pixel (x, y) of each 8x8 quadrant of mip 2.
        ASU2 dst2 = ASU2(tile * 16u + xy);
        SpdStore(dst2, q0, baseMip + 1u, slice);
        SpdStore(dst2 + ASU2(8, 0), q1, baseMip + 1u, slice);
        SpdStore(dst2 + ASU2(0, 8), q2, baseMip + 1u, slice);
        SpdStore(dst2 + ASU2(8, 8), q3, baseMip + 1u, slice);
        SpdStoreIntermediate(xy.x, xy.y, q0);
        SpdStoreIntermediate(xy.x + 8u, xy.y, q1);
        SpdStoreIntermediate(xy.x, xy.y + 8u, q2);
        SpdStoreIntermediate(xy.x + 8u, xy.y + 8u, q3);
    }
#else
    q0 = SpdReduceQuad(q0);
    q1 = SpdReduceQuad(q1);
    q2 = SpdReduceQuad(q2);
    q3 = SpdReduceQuad(q3);
    // All four lanes of the quad now hold all four results: lane k stores quadrant k.
    AU1 k = idx & 3u;
    AF4 mine = k == 0u ? q0 : (k == 1u ? q1 : (k == 2u ? q2 : q3));
    AU2 p2 = (xy >> 1u) + AU2(k & 1u, k >> 1u) * 8u;
    SpdStore(ASU2(tile * 16u + p2), mine, baseMip + 1u, slice);
    SpdStoreIntermediate(p2.x, p2.y, mine);
#endif
}

// One of mips 3..6 of the pass (`level`), from the level before it in scratch.
void SpdMipFromIntermediate(AU2 tile, AU1 idx, AU1 level, AU1 baseMip, AU1 slice)
{
    AU2 xy = SpdThreadXY(idx);
    AU1 shift = level - 3u;                     // the input level's cells are 1 << shift apart
    AU1 tileSize = SPD_TILE_SIZE >> level;      // this level's pixels per tile side
#if defined(SPD_NO_WAVE_OPERATIONS)
    // One thread per output pixel (x, y): 64, 16, 4, 1 threads.
    if (idx < (64u >> (2u * shift)))
    {
        AU2 cell = xy << (shift + 1u);
        AF4 v = SpdReduceIntermediate(cell.x, cell.y, 1u << shift);
        SpdStore(ASU2(tile * tileSize + xy), v, baseMip + level - 1u, slice);
        if (level < SPD_MIPS_PER_PASS)
            SpdStoreIntermediate(cell.x, cell.y, v);
    }
#else
    // One thread per input pixel (x, y): 256, 64, 16, 4 threads, whole quads at a time.
    if (idx < (256u >> (2u * shift)))
    {
        AU2 cell = xy << shift;
        AF4 v = SpdReduceQuad(SpdLoadIntermediate(cell.x, cell.y));
        if ((idx & 3u) == 0u)
        {
            // The quad's top-left lane: its cell is where this level's pixel belongs.
            SpdStore(ASU2(tile * tileSize + (xy >> 1u)), v, baseMip + level - 1u, slice);
            if (level < SPD_MIPS_PER_PASS)
                SpdStoreIntermediate(cell.x, cell.y, v);
        }
    }
#endif
}

// Mips baseMip + 1 .. baseMip + 6 of one 64x64 tile, stopping after mip `mips`.
void SpdDownsampleTile(AU2 tile, AU1 idx, AU1 mips, AU1 baseMip, AU1 slice, bool fromMip6)
{
    SpdMips1And2(tile, idx, mips, baseMip, slice, fromMip6);
    if (mips <= baseMip + 2u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediate(tile, idx, 3u, baseMip, slice);
    if (mips <= baseMip + 3u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediate(tile, idx, 4u, baseMip, slice);
    if (mips <= baseMip + 4u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediate(tile, idx, 5u, baseMip, slice);
    if (mips <= baseMip + 5u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediate(tile, idx, 6u, baseMip, slice);
}

void SpdDownsample(AU2 workGroupID, AU1 localInvocationIndex, AU1 mips, AU1 numWorkGroups,
                   AU1 slice)
{
    SpdDownsampleTile(workGroupID, localInvocationIndex, mips, 0u, slice, false);
    if (mips <= SPD_MIPS_PER_PASS)
        return;
    if (!SpdIsLastGroup(localInvocationIndex, numWorkGroups, slice))
        return;
    // Mip 6 of the whole texture fits in one tile: tile (0, 0) of mip 6 -> mips 7..12.
    SpdDownsampleTile(AU2(0u, 0u), localInvocationIndex, mips, SPD_MIPS_PER_PASS, slice, true);
}

void SpdDownsample(AU2 workGroupID, AU1 localInvocationIndex, AU1 mips, AU1 numWorkGroups,
                   AU1 slice, AU2 workGroupOffset)
{
    SpdDownsample(workGroupID + workGroupOffset, localInvocationIndex, mips, numWorkGroups, slice);
}

#endif // !SPD_PACKED_ONLY

//==============================================================================================
// 16-bit path: the same steps on AH4 through the H hooks.
//==============================================================================================
#if defined(A_HALF)

AH4 SpdReduceQuadH(AH4 v)
{
    AH4 topLeft = QuadReadLaneAt(v, 0u);
    AH4 topRight = QuadReadLaneAt(v, 1u);
    AH4 bottomLeft = QuadReadLaneAt(v, 2u);
    AH4 bottomRight = QuadReadLaneAt(v, 3u);
    return SpdReduce4H(topLeft, topRight, bottomLeft, bottomRight);
}

AH4 SpdReduceIntermediateH(AU1 x, AU1 y, AU1 step)
{
    return SpdReduce4H(SpdLoadIntermediateH(x, y), SpdLoadIntermediateH(x + step, y),
                       SpdLoadIntermediateH(x, y + step), SpdLoadIntermediateH(x + step, y + step));
}

AH4 SpdReduceBlockH(ASU2 p, AU1 slice, bool fromMip6)
{
    AH4 v;
    if (fromMip6)
    {
        v = SpdReduce4H(SpdLoadH(p, slice), SpdLoadH(p + ASU2(1, 0), slice),
                        SpdLoadH(p + ASU2(0, 1), slice), SpdLoadH(p + ASU2(1, 1), slice));
    }
    else
    {
#if defined(SPD_LINEAR_SAMPLER)
        v = SpdLoadSourceImageH(p, slice);
#else
        v = SpdReduce4H(SpdLoadSourceImageH(p, slice), SpdLoadSourceImageH(p + ASU2(1, 0), slice),
                        SpdLoadSourceImageH(p + ASU2(0, 1), slice),
                        SpdLoadSourceImageH(p + ASU2(1, 1), slice));
#endif
    }
    return v;
}

#if defined(SPD_NO_WAVE_OPERATIONS)
AH4 SpdMip2QuadrantThroughLdsH(AU1 idx, AU2 xy, AH4 mip1)
{
    SpdStoreIntermediateH(xy.x, xy.y, mip1);
    SpdWorkgroupShuffleBarrier();
    AH4 mip2 = mip1;
    if (idx < 64u)
    {
        mip2 = SpdReduceIntermediateH(xy.x * 2u, xy.y * 2u, 1u);
    }
    SpdWorkgroupShuffleBarrier();
    return mip2;
}
#endif

void SpdMips1And2H(AU2 tile, AU1 idx, AU1 mips, AU1 baseMip, AU1 slice, bool fromMip6)
{
    AU2 xy = SpdThreadXY(idx);

    ASU2 src = ASU2(tile * SPD_TILE_SIZE + xy * 2u);
    AH4 q0 = SpdReduceBlockH(src, slice, fromMip6);
    AH4 q1 = SpdReduceBlockH(src + ASU2(32, 0), slice, fromMip6);
    AH4 q2 = SpdReduceBlockH(src + ASU2(0, 32), slice, fromMip6);
    AH4 q3 = SpdReduceBlockH(src + ASU2(32, 32), slice, fromMip6);

    ASU2 dst1 = ASU2(tile * 32u + xy);
    SpdStoreH(dst1, q0, baseMip, slice);
    SpdStoreH(dst1 + ASU2(16, 0), q1, baseMip, slice);
    SpdStoreH(dst1 + ASU2(0, 16), q2, baseMip, slice);
    SpdStoreH(dst1 + ASU2(16, 16), q3, baseMip, slice);

    if (mips <= baseMip + 1u)
        return;

#if defined(SPD_NO_WAVE_OPERATIONS)
    q0 = SpdMip2QuadrantThroughLdsH(idx, xy, q0);
    q1 = SpdMip2QuadrantThroughLdsH(idx, xy, q1);
    q2 = SpdMip2QuadrantThroughLdsH(idx, xy, q2);
    q3 = SpdMip2QuadrantThroughLdsH(idx, xy, q3);
    if (idx < 64u)
    {
        ASU2 dst2 = ASU2(tile * 16u + xy);
        SpdStoreH(dst2, q0, baseMip + 1u, slice);
        SpdStoreH(dst2 + ASU2(8, 0), q1, baseMip + 1u, slice);
        SpdStoreH(dst2 + ASU2(0, 8), q2, baseMip + 1u, slice);
        SpdStoreH(dst2 + ASU2(8, 8), q3, baseMip + 1u, slice);
        SpdStoreIntermediateH(xy.x, xy.y, q0);
        SpdStoreIntermediateH(xy.x + 8u, xy.y, q1);
        SpdStoreIntermediateH(xy.x, xy.y + 8u, q2);
        SpdStoreIntermediateH(xy.x + 8u, xy.y + 8u, q3);
    }
#else
    q0 = SpdReduceQuadH(q0);
    q1 = SpdReduceQuadH(q1);
    q2 = SpdReduceQuadH(q2);
    q3 = SpdReduceQuadH(q3);
    AU1 k = idx & 3u;
    AH4 mine = k == 0u ? q0 : (k == 1u ? q1 : (k == 2u ? q2 : q3));
    AU2 p2 = (xy >> 1u) + AU2(k & 1u, k >> 1u) * 8u;
    SpdStoreH(ASU2(tile * 16u + p2), mine, baseMip + 1u, slice);
    SpdStoreIntermediateH(p2.x, p2.y, mine);
#endif
}

void SpdMipFromIntermediateH(AU2 tile, AU1 idx, AU1 level, AU1 baseMip, AU1 slice)
{
    AU2 xy = SpdThreadXY(idx);
    AU1 shift = level - 3u;
    AU1 tileSize = SPD_TILE_SIZE >> level;
#if defined(SPD_NO_WAVE_OPERATIONS)
    if (idx < (64u >> (2u * shift)))
    {
        AU2 cell = xy << (shift + 1u);
        AH4 v = SpdReduceIntermediateH(cell.x, cell.y, 1u << shift);
        SpdStoreH(ASU2(tile * tileSize + xy), v, baseMip + level - 1u, slice);
        if (level < SPD_MIPS_PER_PASS)
            SpdStoreIntermediateH(cell.x, cell.y, v);
    }
#else
    if (idx < (256u >> (2u * shift)))
    {
        AU2 cell = xy << shift;
        AH4 v = SpdReduceQuadH(SpdLoadIntermediateH(cell.x, cell.y));
        if ((idx & 3u) == 0u)
        {
            SpdStoreH(ASU2(tile * tileSize + (xy >> 1u)), v, baseMip + level - 1u, slice);
            if (level < SPD_MIPS_PER_PASS)
                SpdStoreIntermediateH(cell.x, cell.y, v);
        }
    }
#endif
}

void SpdDownsampleTileH(AU2 tile, AU1 idx, AU1 mips, AU1 baseMip, AU1 slice, bool fromMip6)
{
    SpdMips1And2H(tile, idx, mips, baseMip, slice, fromMip6);
    if (mips <= baseMip + 2u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediateH(tile, idx, 3u, baseMip, slice);
    if (mips <= baseMip + 3u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediateH(tile, idx, 4u, baseMip, slice);
    if (mips <= baseMip + 4u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediateH(tile, idx, 5u, baseMip, slice);
    if (mips <= baseMip + 5u)
        return;
    SpdWorkgroupShuffleBarrier();
    SpdMipFromIntermediateH(tile, idx, 6u, baseMip, slice);
}

void SpdDownsampleH(AU2 workGroupID, AU1 localInvocationIndex, AU1 mips, AU1 numWorkGroups,
                    AU1 slice)
{
    SpdDownsampleTileH(workGroupID, localInvocationIndex, mips, 0u, slice, false);
    if (mips <= SPD_MIPS_PER_PASS)
        return;
    if (!SpdIsLastGroup(localInvocationIndex, numWorkGroups, slice))
        return;
    SpdDownsampleTileH(AU2(0u, 0u), localInvocationIndex, mips, SPD_MIPS_PER_PASS, slice, true);
}

void SpdDownsampleH(AU2 workGroupID, AU1 localInvocationIndex, AU1 mips, AU1 numWorkGroups,
                    AU1 slice, AU2 workGroupOffset)
{
    SpdDownsampleH(workGroupID + workGroupOffset, localInvocationIndex, mips, numWorkGroups, slice);
}

#endif // A_HALF

#endif // FFX_SPD_H
