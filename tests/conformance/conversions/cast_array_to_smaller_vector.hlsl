// conformance: (uint2)arr takes the first elements of a longer array
// buffer: o uint32[2]
// expect: o = 9 8
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint a[3] = {9, 8, 7};
    uint2 v = (uint2)a;
    o[0] = v.x; o[1] = v.y;
}
