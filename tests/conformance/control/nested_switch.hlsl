// conformance: a switch nested in a switch case
// buffer: a uint32 = 0 3 12 40
// buffer: o uint32[4]
// expect: o = 1 2 3 4
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint x = a[id.x];
    uint r = 0;
    switch (x / 10) {
    case 0:
        switch (x % 2) { case 0: r = 1; break; default: r = 2; break; }
        break;
    case 1:
        r = 3;
        break;
    default:
        r = 4;
    }
    o[id.x] = r;
}
