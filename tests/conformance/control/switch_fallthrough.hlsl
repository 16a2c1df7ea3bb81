// conformance: switch: case 0 falls through into case 1; cases 3 and 4 share a body; default
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 11 10 100 1000 10000 100 10 1000
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint r = 0;
    switch (a[id.x] % 6) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case 2:
        r += 100;
        break;
    case 3:
    case 4:
        r += 1000;
        break;
    default:
        r += 10000;
        break;
    }
    o[id.x] = r;
}
