// conformance: break inside a switch leaves the switch, not the enclosing loop
// buffer: a uint32 = 0 5
// buffer: o uint32[2]
// expect: o = 222 227
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    for (uint i = 0; i < 6; i++) {
        switch (i % 3) {
        case 0: s += 1; break;
        case 1: s += 10; break;
        default: s += 100; break;
        }
    }
    o[id.x] = s + a[id.x];
}
