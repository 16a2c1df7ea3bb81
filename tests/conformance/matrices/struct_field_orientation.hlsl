// conformance: in a structured buffer struct, a row_major field holds rows and a default field holds columns
// r (row_major) = rows (1, 2, 3), (4, 5, 6); c (column_major) = columns (10, 20), (30, 40), (50, 60),
// so c's rows are (10, 30, 50) and (20, 40, 60).
// buffer: a float32 = 1 2 3 4 5 6 10 20 30 40 50 60
// buffer: o float32[8]
// expect: o = 1 2 3 4 10 30 50 20
struct Pair { row_major float2x3 r; float2x3 c; };
StructuredBuffer<Pair> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Pair p = a[0];
    o[0] = float4(p.r[0], p.r[1].x);
    o[1] = float4(p.c[0], p.c[1].x);
}
