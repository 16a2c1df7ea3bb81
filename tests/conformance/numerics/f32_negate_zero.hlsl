// conformance: unary minus flips the sign bit: -(+0) is -0, -(nan) is nan
// buffer: a float32 = 0 -0.0 1 -inf nan 3.5
// buffer: o float32[6]
// expect: o = -0.0 0 -1 inf nan -3.5
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = -x;
}
