//==============================================================================================
// scan.hlsl -- exclusive prefix sum of uint32 values, as a reduce-then-scan over tiles
//
// A tile is ROWS rows of 256 uint4s: one group's 256 threads, lane t of a group owning uint4 t
// of each row (four consecutive values), so a wave reads and writes back-to-back uint4s. A
// row is scanned in three steps: each thread scans its own four values; the waves scan the
// threads' totals with WavePrefixSum; the waves' totals go through groupshared memory (one
// barrier) and each thread adds those of the waves before its own. The rows of a tile are
// scanned one after the other, each starting from the total of the rows before; the waves'
// totals alternate between two halves of groupshared memory, so that a row's writes cannot
// overtake the previous row's reads and one barrier per row is enough. A group does ROWS rows
// so that the cost of starting a group is paid once per 4 * 256 * ROWS values.
//
// A scan of more values than one tile takes three dispatches (the caller's driver,
// benchmarks/common_kernels.py, runs them):
//   1. reduce_tiles over the input: tileSums[g] = the sum of tile g;
//   2. the exclusive scan of tileSums (one tile of tile sums covers 4 * 256 * ROWS tiles;
//      more than that recurses: reduce, scan, scan again);
//   3. scan_tiles over the input with tileOffsets = that scan: each tile starts from the sum
//      of the tiles before it.
// The input is read twice and the output written once; no group waits for another, so the
// groups may run in any order.
//
// output[i] = values[0] + ... + values[i - 1] (0 for i = 0), modulo 2^32 like any uint sum:
// numpy.cumsum of uint32 shifted by one.
//
// Dispatch: ((vectors + 256 * ROWS - 1) / (256 * ROWS), 1, 1), either entry point.
// Bindings:
//   b0  scanConstants  vectors: the number of uint4 in values (4 values each; pad with 0)
//   t0  values         StructuredBuffer<uint4>
//   t1  tileOffsets    StructuredBuffer<uint>, one per tile (scan_tiles)
//   u0  output         RWStructuredBuffer<uint4>, vectors elements (scan_tiles)
//   u1  tileSums       RWStructuredBuffer<uint>, one per tile (reduce_tiles)
//==============================================================================================

#define GROUP_SIZE 256
#define MAX_WAVES (GROUP_SIZE / 4)              // D3D12 waves have at least 4 lanes
#ifndef ROWS
#define ROWS 16
#endif

cbuffer scanConstants : register(b0)
{
    uint vectors;
};

StructuredBuffer<uint4> values : register(t0);
StructuredBuffer<uint> tileOffsets : register(t1);
RWStructuredBuffer<uint4> output : register(u0);
RWStructuredBuffer<uint> tileSums : register(u1);

groupshared uint waveTotals[2 * MAX_WAVES];         // two halves: rows alternate

// The sum of `value` over the group, in every thread. Every thread of the group calls it.
uint GroupSum(uint value, uint groupIndex)
{
    uint waveTotal = WaveActiveSum(value);
    if (WaveIsFirstLane())
    {
        waveTotals[groupIndex / WaveGetLaneCount()] = waveTotal;
    }
    GroupMemoryBarrierWithGroupSync();

    uint total = 0;
    for (uint w = 0; w < GROUP_SIZE / WaveGetLaneCount(); ++w)
    {
        total += waveTotals[w];
    }
    return total;
}

// The sum of `value` over the threads before this one (SV_GroupIndex order), and in `total`
// the sum over the group, through half number `side` (0 or 1) of waveTotals. Every thread of the
// group calls it: lanes are threads in SV_GroupIndex order, so wave w holds threads
// w * WaveGetLaneCount() and up.
uint GroupExclusiveSum(uint value, uint groupIndex, uint side, out uint total)
{
    uint inWave = WavePrefixSum(value);
    uint waveTotal = WaveActiveSum(value);
    uint waveIndex = groupIndex / WaveGetLaneCount();
    uint first = side * MAX_WAVES;
    if (WaveIsFirstLane())
    {
        waveTotals[first + waveIndex] = waveTotal;
    }
    GroupMemoryBarrierWithGroupSync();

    uint waveOffset = 0;                        // a wave-uniform loop over every wave
    total = 0;
    for (uint w = 0; w < GROUP_SIZE / WaveGetLaneCount(); ++w)
    {
        uint t = waveTotals[first + w];
        waveOffset += w < waveIndex ? t : 0;
        total += t;
    }
    return waveOffset + inWave;
}

[numthreads(GROUP_SIZE, 1, 1)]
void reduce_tiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint first = groupId.x * GROUP_SIZE * ROWS + groupIndex;
    uint sum = 0;
    for (uint row = 0; row < ROWS; ++row)
    {
        uint i = first + row * GROUP_SIZE;
        uint4 v = i < vectors ? values[i] : 0;
        sum += v.x + v.y + v.z + v.w;
    }
    uint tileSum = GroupSum(sum, groupIndex);
    if (groupIndex == 0)
    {
        tileSums[groupId.x] = tileSum;
    }
}

[numthreads(GROUP_SIZE, 1, 1)]
void scan_tiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint first = groupId.x * GROUP_SIZE * ROWS + groupIndex;
    uint rowStart = tileOffsets[groupId.x];     // the sum of everything before this row
    for (uint row = 0; row < ROWS; ++row)
    {
        uint i = first + row * GROUP_SIZE;
        uint4 v = i < vectors ? values[i] : 0;

        uint4 inclusive;                        // this thread's own four values, scanned
        inclusive.x = v.x;
        inclusive.y = inclusive.x + v.y;
        inclusive.z = inclusive.y + v.z;
        inclusive.w = inclusive.z + v.w;

        uint rowTotal;
        uint before = rowStart + GroupExclusiveSum(inclusive.w, groupIndex, row & 1, rowTotal);
        if (i < vectors)
        {
            output[i] = before + uint4(0, inclusive.xyz);
        }
        rowStart += rowTotal;
    }
}
