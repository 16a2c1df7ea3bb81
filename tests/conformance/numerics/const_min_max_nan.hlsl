// conformance: constant-folded min / max return the non-nan operand
// buffer: o float32[3]
// expect: o = 2 3 -inf
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = min(0.0f / 0.0f, 2.0f);
    o[1] = max(3.0f, 0.0f / 0.0f);
    o[2] = min(-1.0f / 0.0f, 5.0f);
}
