// conformance: InterlockedAdd on a struct field's array element with a run-time index
// even ids 0..62 by id % 3: 11, 10, 11; odd ids 1..63: 11, 11, 10
// buffer: bins uint32[8]
// expect: bins = 11 10 11 62 11 11 10 63
struct Bins { uint counts[3]; uint peak; };
RWStructuredBuffer<Bins> bins;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    InterlockedAdd(bins[id.x % 2].counts[id.x % 3], 1);
    InterlockedMax(bins[id.x % 2].peak, id.x);
}
