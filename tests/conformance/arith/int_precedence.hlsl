// conformance: operator precedence: * before +, << after +, & after ==
// buffer: a int32 = 1 2 100 -1
// buffer: b int32 = 2 3 50 1
// buffer: o int32[4]
// expect: o = 14 22 244 4
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] + b[id.x] * 3 << 1 & 0xFF;
}
