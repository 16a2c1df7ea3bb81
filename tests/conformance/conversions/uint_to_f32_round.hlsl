// conformance: uint to float rounds to nearest even, also above 2^31
// buffer: a uint32 = 4294967295 2147483649 16777217 3
// buffer: o float32[4]
// expect: o = 4.2949673e+09 2.1474836e+09 1.6777216e+07 3
StructuredBuffer<uint> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = (float)x;
}
