// conformance: storing a float3x2 to a RWStructuredBuffer writes its columns (column_major memory)
// float3x2(1..6) has rows (1, 2), (3, 4), (5, 6); column_major memory is column 0 then column 1.
// buffer: o float32[6]
// expect: o = 1 3 5 2 4 6
RWStructuredBuffer<float3x2> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = float3x2(1, 2, 3, 4, 5, 6);
}
