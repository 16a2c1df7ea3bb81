// conformance: abs clears the sign bit: -0 to +0, -inf to inf, nan stays nan
// buffer: a float32 = -0.0 -inf nan -1.5 2
// buffer: o float32[5]
// expect: o = 0 inf nan 1.5 2
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = abs(x);
}
