// conformance: constant-folded saturate(nan) is 0 (D3D)
// buffer: o float32[3]
// expect: o = 0 1 0
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = saturate(0.0f / 0.0f);
    o[1] = saturate(2.0f);
    o[2] = saturate(-1.0f);
}
