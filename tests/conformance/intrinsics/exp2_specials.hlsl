// conformance: exp2: -inf gives 0, inf gives inf, integers are exact powers of two
// buffer: a float32 = -inf inf 0 3 -2 10
// buffer: o float32[6]
// expect: o = 0 inf 1 8 0.25 1024
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = exp2(x);
}
