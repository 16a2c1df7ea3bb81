// conformance: float to int64_t truncates toward zero
// buffer: a float32 = 1e+12 -1e+12 -2.5 4.2949673e+09
// buffer: o int64[4]
// expect: o = 999999995904 -999999995904 -2 4294967296
StructuredBuffer<float> a;
RWStructuredBuffer<int64_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (int64_t)x;
}
