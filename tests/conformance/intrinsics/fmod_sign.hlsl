// conformance: fmod has the sign of the dividend
// buffer: a float32 = 5.5 -5.5 4 -1 0.5
// buffer: o float32[5]
// expect: o = 1.5 -1.5 0 -1 0.5
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = fmod(x, 2.0f);
}
