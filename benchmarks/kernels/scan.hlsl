//==============================================================================================
// scan.hlsl -- exclusive prefix sum of uint32 values, as a reduce-then-scan over wave segments
//
// A tile is GROUP_SIZE * ROWS uint4s, one group's. Each wave of the group owns a contiguous
// segment of it, ROWS rows of one uint4 per lane, which it reads row after row: a wave's loads
// are back to back and its segment streams from memory in order. The input is cut into slots of
// SLOT_VECTORS uint4s, the segment of a 4-lane wave (D3D12 waves have at least 4 lanes), so a
// wave of L lanes owns L / 4 slots whatever the wave size. Three entry points:
//
//   reduce_tiles  every wave sums its segment and writes the sum into its first slot and 0
//                 into its others: slotSums[s] covers slot s, nothing else. When the slot sums
//                 fit in one tile, the group that counts itself last in tilesDone (each counts
//                 itself once its slot sums are written, so the last sees every group's) scans
//                 them in place into their exclusive prefix sums, then sets tilesDone back to 0;
//   scan_tile     one group scans its tile alone (at most one tile of values): its waves sum
//                 their segments, the sums meet in groupshared memory (the one barrier), then
//                 each wave scans its segment from the sum of the waves before it;
//   scan_tiles    every wave scans its segment from slotOffsets[its first slot]: no barrier,
//                 no groupshared memory, the segment read once.
//
// The scan of more values than one tile (the caller's driver, benchmarks/common_kernels.py):
//   1. reduce_tiles over the input -> slotSums (GROUP_SIZE / 4 per tile); when they fit in one
//      tile (at most 16 * ROWS tiles of input), its last group turns them into slotOffsets;
//   2. otherwise the exclusive scan of slotSums -> slotOffsets, recursively;
//   3. scan_tiles over the input from slotOffsets.
// The input is read from memory twice (reduce, scan) and the output written once. No group waits
// for another (the last to count itself does the slot sums), so the groups may run in any order,
// one after another or all at once.
//
// A wave scans its segment row by row: each thread scans its own four values, WavePrefixSum
// scans the threads' totals, and the last lane's inclusive sum starts the next row. Rows that lie
// wholly inside the input skip the bounds test (a wave-uniform count, so the loop and its
// counter stay scalar); the one row the input ends in is scanned with the test.
//
// Lanes are threads in SV_GroupIndex order, so wave w holds threads w * WaveGetLaneCount() and
// up (the lane is WaveGetLaneIndex()).
//
// output[i] = values[0] + ... + values[i - 1] (0 for i = 0), modulo 2^32 like any uint sum:
// numpy.cumsum of uint32 shifted by one.
//
// Dispatch: ((vectors + 256 * ROWS - 1) / (256 * ROWS), 1, 1) for reduce_tiles and scan_tiles;
// (1, 1, 1) for scan_tile (vectors <= 256 * ROWS).
// Bindings:
//   b0  scanConstants  vectors: the number of uint4 in values (4 values each; pad with 0)
//   t0  values         StructuredBuffer<uint4>
//   t1  slotOffsets    StructuredBuffer<uint>, GROUP_SIZE / 4 per tile (scan_tiles)
//   u0  output         RWStructuredBuffer<uint4>, vectors elements (scan_tiles, scan_tile)
//   u1  slotSums       RWStructuredBuffer<uint>, GROUP_SIZE / 4 per tile (reduce_tiles; the
//                      slot offsets after it when they fit in one tile)
//   u2  tilesDone      RWStructuredBuffer<uint>, one counter: 0 before reduce_tiles and after
//==============================================================================================

#define GROUP_SIZE 256
#define MAX_WAVES (GROUP_SIZE / 4)              // D3D12 waves have at least 4 lanes
#ifndef ROWS
#define ROWS 32
#endif
#define SLOT_VECTORS (4 * ROWS)                 // uint4s of a slot: the segment of a 4-lane wave
#define SUM_UNROLL 4                            // rows an iteration of a segment's sum reads
#define TILE_SLOTS (GROUP_SIZE / 4)             // slot sums of a tile
#define MAX_SLOTS (4 * GROUP_SIZE * ROWS)       // slot sums that fit in one tile

cbuffer scanConstants : register(b0)
{
    uint vectors;
};

StructuredBuffer<uint4> values : register(t0);
StructuredBuffer<uint> slotOffsets : register(t1);
RWStructuredBuffer<uint4> output : register(u0);
globallycoherent RWStructuredBuffer<uint> slotSums : register(u1);  // one group reads every group's
globallycoherent RWStructuredBuffer<uint> tilesDone : register(u2);

groupshared uint waveTotals[MAX_WAVES];
groupshared uint lastGroup;                     // reduce_tiles: 1 in the group that counted itself last

// The first uint4 of this wave's segment of tile `group` (wave-uniform).
uint WaveSegment(uint group, uint groupIndex)
{
    uint lanes = WaveGetLaneCount();
    return group * GROUP_SIZE * ROWS + WaveReadLaneFirst(groupIndex / lanes) * lanes * ROWS;
}

// The rows of the segment at `segment` that lie wholly inside the input (wave-uniform).
uint FullRows(uint segment)
{
    return segment < vectors ? min(ROWS, (vectors - segment) / WaveGetLaneCount()) : 0;
}

// values[i], or 0 past the input when `checked`.
uint4 Load(uint i, bool checked)
{
    return !checked || i < vectors ? values[i] : 0;
}

// The sum of this thread's column of the segment at `segment`.
uint ColumnSum(uint segment)
{
    uint lanes = WaveGetLaneCount();
    uint lane = WaveGetLaneIndex();
    uint full = FullRows(segment);
    uint4 sum = 0;
    uint row = 0;
    for (; row + SUM_UNROLL <= full; row += SUM_UNROLL)
    {
        [unroll] for (uint k = 0; k < SUM_UNROLL; ++k)
        {
            sum += values[segment + (row + k) * lanes + lane];
        }
    }
    for (; row < ROWS; ++row)
    {
        sum += Load(segment + row * lanes + lane, row >= full);
    }
    return sum.x + sum.y + sum.z + sum.w;
}

// Scans the row whose uint4 in this thread is values[i], starting from `rowStart` (the sum
// before the row); returns the sum before the next row.
uint ScanRow(uint i, uint rowStart, bool checked)
{
    uint4 v = Load(i, checked);

    uint4 inclusive;                            // this thread's own four values, scanned
    inclusive.x = v.x;
    inclusive.y = inclusive.x + v.y;
    inclusive.z = inclusive.y + v.z;
    inclusive.w = inclusive.z + v.w;

    uint before = rowStart + WavePrefixSum(inclusive.w);
    if (!checked || i < vectors)
    {
        output[i] = before + uint4(0, inclusive.xyz);
    }
    return WaveReadLaneAt(before + inclusive.w, WaveGetLaneCount() - 1);
}

// Scans the segment at `segment`, whose first value has `rowStart` before it.
void ScanSegment(uint segment, uint rowStart)
{
    uint lanes = WaveGetLaneCount();
    uint lane = WaveGetLaneIndex();
    uint full = FullRows(segment);
    uint row = 0;
    for (; row < full; ++row)
    {
        rowStart = ScanRow(segment + row * lanes + lane, rowStart, false);
    }
    if (row < ROWS)                             // the row the input ends in (rows after it are empty)
    {
        ScanRow(segment + row * lanes + lane, rowStart, true);
    }
}

// The exclusive scan of the `count` slot sums (at most MAX_SLOTS), in place, by one group: as
// scan_tile does with uint4s, each wave owns a contiguous segment, rows of one slot sum a lane;
// the waves' sums meet in groupshared memory, then each wave scans its segment row by row with
// WavePrefixSum from the sum of the waves before it. Each lane reads and writes only its own
// slot sums.
void ScanSlotSums(uint groupIndex, uint count)
{
    uint lanes = WaveGetLaneCount();
    uint lane = WaveGetLaneIndex();
    uint rows = (count + GROUP_SIZE - 1) / GROUP_SIZE;
    uint waveIndex = groupIndex / lanes;
    uint segment = waveIndex * rows * lanes;
    uint total = 0;
    for (uint row = 0; row < rows; ++row)
    {
        uint i = segment + row * lanes + lane;
        if (i < count)
        {
            total += slotSums[i];
        }
    }
    total = WaveActiveSum(total);
    if (WaveIsFirstLane())
    {
        waveTotals[waveIndex] = total;
    }
    GroupMemoryBarrierWithGroupSync();

    uint rowStart = 0;
    for (uint w = 0; w < waveIndex; ++w)        // a wave-uniform loop
    {
        rowStart += waveTotals[w];
    }
    for (uint r = 0; r < rows; ++r)
    {
        uint i = segment + r * lanes + lane;
        uint slot = 0;
        if (i < count)
        {
            slot = slotSums[i];
        }
        uint before = rowStart + WavePrefixSum(slot);
        if (i < count)
        {
            slotSums[i] = before;
        }
        rowStart = WaveReadLaneAt(before + slot, lanes - 1);
    }
}

[numthreads(GROUP_SIZE, 1, 1)]
void reduce_tiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint segment = WaveSegment(groupId.x, groupIndex);
    uint sum = WaveActiveSum(ColumnSum(segment));
    uint lane = WaveGetLaneIndex();
    if (lane < WaveGetLaneCount() / 4)          // this wave's slots
    {
        slotSums[segment / SLOT_VECTORS + lane] = lane == 0 ? sum : 0;
    }

    uint tiles = (vectors + GROUP_SIZE * ROWS - 1) / (GROUP_SIZE * ROWS);
    if (tiles * TILE_SLOTS <= MAX_SLOTS)        // else the caller scans the slot sums
    {
        // This group's slot sums are written, and seen by every group, before it counts itself;
        // the group that counts last reads every group's after its count.
        DeviceMemoryBarrierWithGroupSync();
        if (groupIndex == 0)
        {
            uint counted;
            InterlockedAdd(tilesDone[0], 1, counted);
            lastGroup = counted == tiles - 1 ? 1 : 0;
        }
        GroupMemoryBarrierWithGroupSync();
        if (lastGroup != 0)
        {
            DeviceMemoryBarrier();
            ScanSlotSums(groupIndex, tiles * TILE_SLOTS);
            if (groupIndex == 0)
            {
                tilesDone[0] = 0;               // every group has counted: ready for the next scan
            }
        }
    }
}

[numthreads(GROUP_SIZE, 1, 1)]
void scan_tiles(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint segment = WaveSegment(groupId.x, groupIndex);
    ScanSegment(segment, WaveReadLaneFirst(slotOffsets[segment / SLOT_VECTORS]));
}

[numthreads(GROUP_SIZE, 1, 1)]
void scan_tile(uint groupIndex : SV_GroupIndex)
{
    uint segment = WaveSegment(0, groupIndex);
    uint waveIndex = segment / (WaveGetLaneCount() * ROWS);
    uint waveTotal = WaveActiveSum(ColumnSum(segment));
    if (WaveIsFirstLane())
    {
        waveTotals[waveIndex] = waveTotal;
    }
    GroupMemoryBarrierWithGroupSync();

    uint before = 0;
    for (uint w = 0; w < waveIndex; ++w)        // a wave-uniform loop
    {
        before += waveTotals[w];
    }
    ScanSegment(segment, before);
}
