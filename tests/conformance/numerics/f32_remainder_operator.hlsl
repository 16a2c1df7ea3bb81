// conformance: the % operator on floats keeps the sign of the dividend (like fmod)
// buffer: a float32 = 5.5 -5.5 5.5 -1
// buffer: b float32 = 2 2 -2 4
// buffer: of float32[4]
// expect: of = 1.5 -1.5 1.5 -1
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> of;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    of[id.x] = a[id.x] % b[id.x];
}
