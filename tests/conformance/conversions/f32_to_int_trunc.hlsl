// conformance: float to int truncates toward zero
// buffer: a float32 = 1.7 -1.7 0.5 -0.5 2.1474835e+09 -2.1474836e+09 0 -0.0
// buffer: o int32[8]
// expect: o = 1 -1 0 0 2147483520 -2147483648 0 0
StructuredBuffer<float> a;
RWStructuredBuffer<int> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (int)x;
}
