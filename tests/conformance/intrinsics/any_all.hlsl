// conformance: any and all on bool vectors made from comparisons
// buffer: a int32 = 0 1 -1
// buffer: o uint32[3]
// expect: o = 0 3 3
StructuredBuffer<int> a;
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = (any(int3(x, 0, 0) != 0) ? 1u : 0u) | (all(int2(x, 1) != 0) ? 2u : 0u) | (any(float2(0, 0)) ? 4u : 0u);
}
