// conformance: transpose swaps rows and columns
// buffer: a float32 = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
// buffer: o float32[16]
// expect: o = 1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 16
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4x4 x = float4x4(a[0], a[1], a[2], a[3]);
    float4x4 t = transpose(x);
    for (uint r = 0; r < 4; r++) { o[r] = t[r]; }
}
