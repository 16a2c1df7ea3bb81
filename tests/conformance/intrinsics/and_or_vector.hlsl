// conformance: and() / or() combine bool vectors per component
// buffer: a int32 = 1 -1
// buffer: o int32[2]
// expect: o = 13 8
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = dot((int2)and(int2(x, x) > 0, bool2(true, false)), int2(1, 2)) + 4 * dot((int2)or(int2(x, 0) > 0, bool2(false, true)), int2(1, 2));
}
