// conformance: a for loop whose trip count differs per thread
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 0 0 1 5 30 140 650 328350
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    for (uint i = 0; i < a[id.x]; i++) { s += i * i; }
    o[id.x] = s;
}
