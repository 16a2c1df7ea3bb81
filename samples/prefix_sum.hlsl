//==============================================================================================
// prefix_sum.hlsl -- block-wise exclusive prefix sum with wave operations
//
// Every group of 256 threads scans its own 256 consecutive elements:
//   1. each wave scans its lanes with WavePrefixSum (a DPP row_shr ladder plus a cross-row
//      fix-up on RDNA) and its first lane parks the wave's total in groupshared memory;
//   2. one barrier;
//   3. each thread adds the totals of the waves before its own.
// The wave count is whatever the hardware picked (8 waves of 32 or 4 of 64 on RDNA); the
// kernel assumes only that lanes are threads in SV_GroupIndex order, so wave w holds
// threads w * WaveGetLaneCount() and up.
//
// output[i] = input[g * 256] + ... + input[i - 1] for i in group g (0 for the first element
// of each block); blockSums[g] = the sum of the whole block, for a second pass that scans
// the block sums and adds them back to turn this into a scan of the whole buffer.
// Sums wrap modulo 2^32 like any uint addition.
//
// Dispatch: ((count + 255) / 256, 1, 1).
// Bindings:
//   b0  scanConstants  count: number of elements in input
//   t0  input          StructuredBuffer<uint>, count elements
//   u0  output         RWStructuredBuffer<uint>, count elements
//   u1  blockSums      RWStructuredBuffer<uint>, one element per group
//==============================================================================================

#define GROUP_SIZE 256
#define MAX_WAVES (GROUP_SIZE / 4)              // D3D12 waves have at least 4 lanes

cbuffer scanConstants : register(b0)
{
    uint count;
};

StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);
RWStructuredBuffer<uint> blockSums : register(u1);

groupshared uint waveTotals[MAX_WAVES];

[numthreads(GROUP_SIZE, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint3 dispatchId : SV_DispatchThreadID,
          uint groupIndex : SV_GroupIndex)
{
    uint i = dispatchId.x;
    uint value = i < count ? input[i] : 0;      // past the end counts as 0

    // 1. Scan inside the wave. Every lane is active here: no divergence before this point.
    uint inWave = WavePrefixSum(value);
    uint waveTotal = WaveActiveSum(value);
    uint waveIndex = groupIndex / WaveGetLaneCount();
    if (WaveIsFirstLane())
    {
        waveTotals[waveIndex] = waveTotal;
    }

    // 2. All waves' totals are in groupshared memory after this.
    GroupMemoryBarrierWithGroupSync();

    // 3. Offset of this wave: the totals of the waves before it (a wave-uniform loop).
    uint waveOffset = 0;
    for (uint w = 0; w < waveIndex; ++w)
    {
        waveOffset += waveTotals[w];
    }

    uint exclusive = waveOffset + inWave;
    if (i < count)
    {
        output[i] = exclusive;
    }
    if (groupIndex == GROUP_SIZE - 1)
    {
        blockSums[groupId.x] = exclusive + value;
    }
}
