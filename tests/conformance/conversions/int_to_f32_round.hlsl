// conformance: int to float rounds to nearest even
// buffer: a int32 = 16777217 16777219 -16777217 2147483647 -2147483648 7
// buffer: o float32[6]
// expect: o = 1.6777216e+07 1.677722e+07 -1.6777216e+07 2.1474836e+09 -2.1474836e+09 7
StructuredBuffer<int> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = (float)x;
}
