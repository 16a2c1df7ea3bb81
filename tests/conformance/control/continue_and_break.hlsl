// conformance: continue skips to the next iteration, break leaves the loop (both divergent)
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 0 0 1 3 8 21 56 120
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    for (uint i = 0; i < 20; i++) {
        if (i % 3 == a[id.x] % 3) continue;
        if (i > a[id.x]) break;
        s += i;
    }
    o[id.x] = s;
}
