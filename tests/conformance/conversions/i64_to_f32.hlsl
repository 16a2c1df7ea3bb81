// conformance: int64_t to float rounds to nearest even
// buffer: a int64 = 9007199254740993 -1099511627776 9223372036854775807 3
// buffer: o float32[4]
// expect: o = 9.007199e+15 -1.0995116e+12 9.223372e+18 3
StructuredBuffer<int64_t> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int64_t x = a[id.x];
    o[id.x] = (float)x;
}
