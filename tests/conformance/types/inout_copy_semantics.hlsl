// conformance: an inout argument is copied back at return, not aliased during the call
// q is a copy of v taken at the call, so writing p does not change q; v gets p back after the call.
// buffer: a uint32 = 1 2 3
// buffer: o uint32[3]
// expect: o = 2021 3032 4043
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
uint both(inout uint p, uint q) { p = p + 1; return p * 10 + q; }

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint v = a[id.x];
    uint r = both(v, v);
    o[id.x] = r + v * 1000;
}
