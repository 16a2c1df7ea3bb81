// conformance: a row_major struct field is stored row by row
// buffer: a float32 = 1 2 3 4
// buffer: o uint32[5]
// expect: o = 1065353216 1073741824 1077936128 1082130432 9
StructuredBuffer<float> a;
struct Holder { row_major float2x2 m; uint tag; };
RWStructuredBuffer<Holder> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Holder h;
    h.m = float2x2(a[0], a[1], a[2], a[3]);
    h.tag = 9;
    o[0] = h;
}
