// conformance: loop bound read from a buffer element, uniform for the wave
// buffer: a uint32 = 7
// buffer: o uint32[16]
// expect: o = 0 7 14 21 28 35 42 49 56 63 70 77 84 91 98 105
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    for (uint i = 0; i < a[0]; i++) { s += id.x; }
    o[id.x] = s;
}
