// conformance: smoothstep(2, 4, x) rescales x to [0, 1] first
// buffer: a float32 = 1 3 5 2
// buffer: o float32[4]
// expect: o = 0 0.5 1 0
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = smoothstep(2.0f, 4.0f, x);
}
