// conformance: if / else if / else picks the first true branch
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 10 10 20 20 40 30 40 40
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint x = a[id.x];
    uint r;
    if (x < 2) r = 10;
    else if (x < 5) r = 20;
    else if (x == 8) r = 30;
    else r = 40;
    o[id.x] = r;
}
