// conformance: ceil rounds toward +inf (ceil(-0.5) is -0)
// buffer: a float32 = 2.5 -2.5 0.5 -0.5 1.5 2.7 -2.7 -0.0 3 1e+09
// buffer: o float32[10]
// expect: o = 3 -2 1 -0.0 2 3 -2 -0.0 3 1e+09
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(10, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = ceil(x);
}
