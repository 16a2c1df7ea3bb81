// conformance: a StructuredBuffer<float2x2> element is column_major in memory (DXC's default): its bytes are the columns
// Memory 1 2 3 4 is column 0 = (1, 2), column 1 = (3, 4): row 0 is (1, 3), row 1 is (2, 4).
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 1 3 4 2 5 7 8 6
StructuredBuffer<float2x2> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float2x2 x = a[id.x];
    o[id.x] = float4(x[0], x[1].yx);
}
