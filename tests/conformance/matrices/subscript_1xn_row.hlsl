// conformance: m[0] of a 1x4 matrix is its float4 row; m[0][i] its elements, also at a run-time index
// buffer: o float32[5]
// expect: o = 1.5 2.5 3.5 4.5 3.5
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float1x4 m = float1x4(1.5, 2.5, 3.5, 4.5);
    float4 r = m[0];
    o[0] = r.x; o[1] = m[0][1]; o[2] = m[0].z; o[3] = m[0][3];
    uint k = id.x + 2;
    o[4] = m[0][k];
}
