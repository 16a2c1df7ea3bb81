// conformance: a cbuffer float4x4 is column_major by default: rows read correctly
// constant: mat float32 = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
// buffer: o float32[8]
// expect: o = 1 5 9 13 5 6 7 8
cbuffer C { float4x4 mat; };
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = mul(mat, float4(1, 0, 0, 0));
    o[1] = mat[1];
}
