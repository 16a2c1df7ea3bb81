//==============================================================================================
// histogram.hlsl -- 256-bin histogram of 32-bit words (the low byte of each word picks the bin)
//
// Each group of 256 threads counts 4 * VECTORS_PER_THREAD * 256 consecutive words into its own
// groupshared bins with InterlockedAdd, then adds its 256 counts to the global bins, one
// thread per bin: the global atomics, and the cost of starting a group, are paid once per
// 4 * VECTORS_PER_THREAD * 256 words. The words are read as uint4s, lane t reading uint4
// base + k * 256 + t, so a wave's reads are back to back and each lane's is 16 bytes. Only the
// last uint4 of the buffer may hold words past `count` (the caller pads the buffer to whole
// uint4s); its lanes check each word.
// The global bins start at zero (the caller clears them) and every group adds to them, so
// the result does not depend on the order groups run in.
//
// bins[b] = the number of i < count with (words[i] & 255) == b: numpy.bincount of bytes.
//
// Dispatch: ((count + 1024 * VECTORS_PER_THREAD - 1) / (1024 * VECTORS_PER_THREAD), 1, 1).
// Bindings:
//   b0  histogramConstants  count: number of words
//   t0  words               StructuredBuffer<uint4>, (count + 3) / 4 elements
//   u0  bins                RWStructuredBuffer<uint>, 256 counts, zero before the dispatch
//==============================================================================================

#define BINS 256                                // also the group size: one thread per bin
#ifndef VECTORS_PER_THREAD
#define VECTORS_PER_THREAD 16
#endif

cbuffer histogramConstants : register(b0)
{
    uint count;
};

StructuredBuffer<uint4> words : register(t0);
RWStructuredBuffer<uint> bins : register(u0);

groupshared uint groupBins[BINS];

[numthreads(BINS, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    groupBins[groupIndex] = 0;
    GroupMemoryBarrierWithGroupSync();

    uint first = groupId.x * BINS * VECTORS_PER_THREAD + groupIndex;
    for (uint k = 0; k < VECTORS_PER_THREAD; ++k)
    {
        uint i = first + k * BINS;
        uint4 v = words[i];                     // past the end: 0, and not counted below
        if (i * 4 + 4 <= count)
        {
            InterlockedAdd(groupBins[v.x & (BINS - 1)], 1);
            InterlockedAdd(groupBins[v.y & (BINS - 1)], 1);
            InterlockedAdd(groupBins[v.z & (BINS - 1)], 1);
            InterlockedAdd(groupBins[v.w & (BINS - 1)], 1);
        }
        else
        {
            for (uint c = 0; c < 4; ++c)
            {
                if (i * 4 + c < count)
                {
                    InterlockedAdd(groupBins[v[c] & (BINS - 1)], 1);
                }
            }
        }
    }
    GroupMemoryBarrierWithGroupSync();

    uint total = groupBins[groupIndex];
    if (total != 0)
    {
        InterlockedAdd(bins[groupIndex], total);
    }
}
