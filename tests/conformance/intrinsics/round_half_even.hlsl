// conformance: round() rounds halves to even (D3D round_ne)
// round(2.5) is 2, round(-0.5) is -0, round(1.5) is 2.
// buffer: a float32 = 2.5 -2.5 0.5 -0.5 1.5 2.7 -2.7 -0.0 3 1e+09
// buffer: o float32[10]
// expect: o = 2 -2 0 -0.0 2 3 -3 -0.0 3 1e+09
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(10, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = round(x);
}
