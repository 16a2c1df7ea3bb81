// conformance: do-while runs its body at least once
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 1 1 2 2 3 4 4 7
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint v = a[id.x];
    uint c = 0;
    do { v /= 2; c++; } while (v > 0);
    o[id.x] = c;
}
