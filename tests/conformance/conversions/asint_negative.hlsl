// conformance: asint of a negative float has the sign bit set
// buffer: a float32 = -1 -2 1
// buffer: o int32[3]
// expect: o = -1082130432 -1073741824 1065353216
StructuredBuffer<float> a;
RWStructuredBuffer<int> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = asint(x);
}
