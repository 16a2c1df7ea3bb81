// conformance: isnan / isinf of constant-folded specials
// buffer: o uint32[1]
// expect: o = 7
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = (isnan(0.0f / 0.0f) ? 1u : 0u) | (isinf(1.0f / 0.0f) ? 2u : 0u) | (isinf(-1.0f / 0.0f) ? 4u : 0u) | (isfinite(3.4e38f * 10.0f) ? 8u : 0u);
}
