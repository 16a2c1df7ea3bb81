// conformance: return inside a loop in a helper function returns that function's value
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 2 99 2 3 5 2 99 2
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
uint firstDivisor(uint x)
{
    for (uint d = 2; d < 10; d++) {
        if (x % d == 0) return d;
    }
    return 99;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = firstDivisor(a[id.x]);
}
