// conformance: a default argument is used when the caller omits it
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 0 13 26 39 65 104 169 1300
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
uint scale(uint x, uint by = 3) { return x * by; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = scale(a[id.x]) + scale(a[id.x], 10);
}
