// conformance: continue inside a switch inside a loop continues the loop
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 0 1001 1001 2101 4103 6204 10307 77550
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    for (uint i = 0; i < a[id.x]; i++) {
        switch (i & 3) {
        case 1: continue;
        case 2: s += 100; break;
        default: s += 1; break;
        }
        s += 1000;
    }
    o[id.x] = s;
}
