// conformance: smoothstep(0, 1, x) is t*t*(3-2t) with t clamped
// buffer: a float32 = -1 0 0.5 1 2
// buffer: o float32[5]
// expect: o = 0 0 0.5 1 1
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = smoothstep(0.0f, 1.0f, x);
}
