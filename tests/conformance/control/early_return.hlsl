// conformance: return from main ends the thread; later stores do not happen for it
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 2 3 3 3 1 1 1 1
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = 1;
    if (a[id.x] > 4) return;
    o[id.x] = 2;
    if (a[id.x] == 0) return;
    o[id.x] = 3;
}
