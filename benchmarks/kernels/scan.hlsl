//==============================================================================================
// scan.hlsl -- exclusive prefix sum of uint32 values, as a reduce-then-scan over tiles
//
// A tile is GROUP_SIZE * ROWS uint4s, one group's. Each wave of the group owns a contiguous
// segment of it, ROWS rows of one uint4 per lane, which it reads row after row: a wave's loads
// are back to back and its segment streams from memory in order. The tile is scanned in two
// passes over the segments: each wave sums its segment and the waves' sums go through
// groupshared memory (the one barrier), so each wave knows where its segment starts; then each
// wave scans its segment row by row (each thread scans its own four values, WavePrefixSum
// scans the threads' totals, the last lane's inclusive sum starts the next row), reading the
// tile again from the cache. A group does ROWS rows a wave so that starting a group and its
// barrier are paid once per 4 * GROUP_SIZE * ROWS values.
//
// A scan of more values than one tile takes three dispatches (the caller's driver,
// benchmarks/common_kernels.py, runs them):
//   1. reduce_tiles over the input: tileSums[g] = the sum of tile g;
//   2. the exclusive scan of tileSums (one tile of tile sums covers 4 * 256 * ROWS tiles;
//      more than that recurses: reduce, scan, scan again);
//   3. scan_tiles over the input with tileOffsets = that scan: each tile starts from the sum
//      of the tiles before it.
// The input is read from memory twice (scan_tiles' second pass finds its tile in the cache) and
// the output written once; no group waits for another, so the groups may run in any order.
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
#define ROWS 32
#endif

cbuffer scanConstants : register(b0)
{
    uint vectors;
};

StructuredBuffer<uint4> values : register(t0);
StructuredBuffer<uint> tileOffsets : register(t1);
RWStructuredBuffer<uint4> output : register(u0);
RWStructuredBuffer<uint> tileSums : register(u1);

groupshared uint waveTotals[MAX_WAVES];

// The first uint4 of this thread's column in its wave's segment of tile `group` (its row r is
// WaveGetLaneCount() uint4s further on per row). Lanes are threads in SV_GroupIndex order, so
// wave w holds threads w * WaveGetLaneCount() and up.
uint SegmentStart(uint group, uint groupIndex)
{
    uint lanes = WaveGetLaneCount();
    return group * GROUP_SIZE * ROWS + groupIndex / lanes * lanes * ROWS + groupIndex % lanes;
}

// The sum of this thread's column of its wave's segment.
uint ColumnSum(uint start)
{
    uint4 sum = 0;
    for (uint row = 0; row < ROWS; ++row)
    {
        uint i = start + row * WaveGetLaneCount();
        sum += i < vectors ? values[i] : 0;
    }
    return sum.x + sum.y + sum.z + sum.w;
}

// The sum of `value` over the waves before this thread's (`before`) and over the group (the
// result), in every thread. Every thread of the group calls it, once.
uint GroupSums(uint value, uint groupIndex, out uint before)
{
    uint waveTotal = WaveActiveSum(value);
    uint waveIndex = groupIndex / WaveGetLaneCount();
    if (WaveIsFirstLane())
    {
        waveTotals[waveIndex] = waveTotal;
    }
    GroupMemoryBarrierWithGroupSync();

    uint total = 0;
    before = 0;
    for (uint w = 0; w < GROUP_SIZE / WaveGetLaneCount(); ++w)    // a wave-uniform loop
    {
        uint t = waveTotals[w];
        before += w < waveIndex ? t : 0;
        total += t;
    }
    return total;
}

[numthreads(GROUP_SIZE, 1, 1)]
void reduce_tiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint before;
    uint tileSum = GroupSums(ColumnSum(SegmentStart(groupId.x, groupIndex)), groupIndex, before);
    if (groupIndex == 0)
    {
        tileSums[groupId.x] = tileSum;
    }
}

[numthreads(GROUP_SIZE, 1, 1)]
void scan_tiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint lanes = WaveGetLaneCount();
    uint start = SegmentStart(groupId.x, groupIndex);
    uint wavesBefore;
    GroupSums(ColumnSum(start), groupIndex, wavesBefore);
    uint rowStart = WaveReadLaneFirst(tileOffsets[groupId.x] + wavesBefore);   // the sum before this row
    for (uint row = 0; row < ROWS; ++row)
    {
        uint i = start + row * lanes;
        uint4 v = i < vectors ? values[i] : 0;

        uint4 inclusive;                        // this thread's own four values, scanned
        inclusive.x = v.x;
        inclusive.y = inclusive.x + v.y;
        inclusive.z = inclusive.y + v.z;
        inclusive.w = inclusive.z + v.w;

        uint before = rowStart + WavePrefixSum(inclusive.w);
        if (i < vectors)
        {
            output[i] = before + uint4(0, inclusive.xyz);
        }
        rowStart = WaveReadLaneAt(before + inclusive.w, lanes - 1);
    }
}
