// conformance: while (true) with a divergent break
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 1 102 102 102 303 303 604 5511
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    uint i = 0;
    while (true) {
        if (i * i > a[id.x]) break;
        s += i;
        i++;
    }
    o[id.x] = s * 100 + i;
}
