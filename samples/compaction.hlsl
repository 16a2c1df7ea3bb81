//==============================================================================================
// compaction.hlsl -- stream compaction with ballot and mbcnt, one atomic per wave
//
// Keeps the indices of the elements whose value is above a threshold, packed at the start
// of `survivors`. The naive way gives every surviving lane its own atomic on a counter;
// here the slots are handed out at three levels, each with the cheapest tool for it:
//   - inside a wave: the lane's slot is the number of surviving lanes below it. That is
//     WavePrefixCountBits: the ballot mask (v_cmp into an SGPR pair) counted below the lane
//     (v_mbcnt_lo/hi). WaveActiveCountBits gives the wave's total (s_bcnt1).
//   - inside the group: the first lane of each wave reserves that many slots with one
//     InterlockedAdd on a groupshared counter.
//   - across groups: thread 0 reserves the group's total with one InterlockedAdd on the
//     global counter.
// Order: the survivors of one wave stay in lane order; the order of the waves inside a
// group, and of the groups, is the order in which they reach their atomics.
//
// Dispatch: ((count + 255) / 256, 1, 1). Zero survivorCount[0] before the dispatch; after
// it, survivorCount[0] is the number of survivors and survivors[0 .. n-1] their indices.
// Bindings:
//   b0  compactConstants  count: elements in values; threshold: keep values[i] > threshold
//   t0  values            StructuredBuffer<float>, count elements
//   u0  survivors         RWStructuredBuffer<uint>, room for count indices
//   u1  survivorCount     RWStructuredBuffer<uint>, one element
//==============================================================================================

#define GROUP_SIZE 256
#define MAX_WAVES (GROUP_SIZE / 4)              // D3D12 waves have at least 4 lanes

cbuffer compactConstants : register(b0)
{
    uint count;
    float threshold;
};

StructuredBuffer<float> values : register(t0);
RWStructuredBuffer<uint> survivors : register(u0);
RWStructuredBuffer<uint> survivorCount : register(u1);

groupshared uint groupSurvivors;                // slots reserved so far in this group
groupshared uint groupBase;                     // the group's first slot in `survivors`
groupshared uint waveBase[MAX_WAVES];           // each wave's first slot inside the group

[numthreads(GROUP_SIZE, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint3 dispatchId : SV_DispatchThreadID,
          uint groupIndex : SV_GroupIndex)
{
    uint i = dispatchId.x;
    if (groupIndex == 0)
    {
        groupSurvivors = 0;
    }
    GroupMemoryBarrierWithGroupSync();

    bool keep = false;
    if (i < count)                              // no read past the end
    {
        keep = values[i] > threshold;
    }

    // Wave level: no atomics at all.
    uint4 keptMask = WaveActiveBallot(keep);     // bit n: lane n keeps its element
    uint slotInWave = WavePrefixCountBits(keep); // kept lanes below this one
    uint keptInWave = WaveActiveCountBits(keep); // kept lanes in the wave
    uint waveIndex = groupIndex / WaveGetLaneCount();

    // Group level: one atomic per wave, skipped by waves that keep nothing.
    if (WaveIsFirstLane() && any(keptMask != 0))
    {
        uint base;
        InterlockedAdd(groupSurvivors, keptInWave, base);
        waveBase[waveIndex] = base;
    }
    GroupMemoryBarrierWithGroupSync();

    // Dispatch level: one atomic per group.
    if (groupIndex == 0)
    {
        uint base = 0;
        if (groupSurvivors != 0)
        {
            InterlockedAdd(survivorCount[0], groupSurvivors, base);
        }
        groupBase = base;
    }
    GroupMemoryBarrierWithGroupSync();

    if (keep)
    {
        survivors[groupBase + waveBase[waveIndex] + slotInWave] = i;
    }
}
