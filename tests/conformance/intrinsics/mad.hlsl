// conformance: mad(a, b, c) = a * b + c on exact values
// buffer: a float32 = 1 -2 0.25 0
// buffer: o float32[4]
// expect: o = 3.5 -5.5 1.25 0.5
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = mad(x, 3.0f, 0.5f);
}
