// conformance: constant-folded -0.0f + 0.0f is +0
// buffer: o float32[4]
// expect: o = 0 -0.0 -0.0 -0.0
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = -0.0f + 0.0f;
    o[1] = -0.0f - 0.0f;
    o[2] = -0.0f * 1.0f;
    o[3] = 0.0f * -1.0f;
}
