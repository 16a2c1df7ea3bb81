// conformance: sign(float) returns int -1, 0 or 1 (0 for -0)
// buffer: a float32 = -2.5 0 -0.0 3 inf -inf
// buffer: o int32[6]
// expect: o = -1 0 0 1 1 -1
StructuredBuffer<float> a;
RWStructuredBuffer<int> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = sign(x);
}
