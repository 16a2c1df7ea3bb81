// conformance: select(cond, a, b) picks per component and evaluates both
// buffer: a int32 = 1 -1 0
// buffer: o int32[3]
// expect: o = 32001 32010 32010
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = dot(select(int3(x, 0, 1) > 0, int3(1, 2, 3), int3(10, 20, 30)), int3(1, 100, 10000));
}
