// conformance: half arithmetic rounds to nearest even at 16 bits
// buffer: a float16 = 1 2.048e+03 1.024e+03 0.5
// buffer: o float16[4]
// expect: o = 1.001 2.048e+03 1.024e+03 0.501
StructuredBuffer<half> a;
RWStructuredBuffer<half> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half x = a[id.x];
    o[id.x] = x + (half)0.0009765625;
}
