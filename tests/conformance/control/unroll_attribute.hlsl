// conformance: [unroll] and [loop] loops give the same results
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 0 12 24 40 68 96 212 1392
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    [unroll] for (uint i = 0; i < 4; i++) { s += a[id.x] << i; }
    [loop] for (uint j = 0; j < 3; j++) { s ^= j * a[id.x]; }
    o[id.x] = s;
}
