// conformance: abs and sign on int3
// buffer: a int32 = -3 0 7
// buffer: o int32[3]
// expect: o = 29 0 71
StructuredBuffer<int3> a;
RWStructuredBuffer<int3> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = abs(a[id.x]) * 10 + sign(a[id.x]);
}
