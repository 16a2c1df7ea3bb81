// conformance: mul(A, B) is the matrix product; A * B is per component
// buffer: a float32 = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1 0 2 -1 3 1 0 0 0 0 1 2 1 1 1 1
// buffer: o float32[32]
// expect: o = 11 6 9 9 31 14 25 17 51 22 41 25 71 30 57 33 1 0 6 -4 15 6 0 0 0 0 11 24 13 14 15 16
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4x4 x = float4x4(a[0], a[1], a[2], a[3]);
    float4x4 y = float4x4(a[4], a[5], a[6], a[7]);
    float4x4 p = mul(x, y);
    float4x4 q = x * y;
    for (uint r = 0; r < 4; r++) { o[r] = p[r]; o[4 + r] = q[r]; }
}
