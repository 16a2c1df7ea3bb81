// conformance: abs(INT_MIN) wraps to INT_MIN
// buffer: a int32 = -2147483648 -5 5 0
// buffer: b int32 = 0 0 0 0
// buffer: o int32[4]
// expect: o = -2147483648 5 5 0
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = abs(a[id.x]) + b[id.x];
}
