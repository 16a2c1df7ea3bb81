// conformance: InterlockedAdd on a RWBuffer<uint> element
// buffer: tb uint32[2]
// expect: tb = 992 1024
RWBuffer<uint> tb;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    InterlockedAdd(tb[id.x % 2], id.x);
}
