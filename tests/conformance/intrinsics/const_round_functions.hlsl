// conformance: constant-folded round / floor / ceil / trunc
// buffer: o float32[6]
// expect: o = 2 -0.0 -1 -0.0 -1 0.75
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = round(2.5f);
    o[1] = round(-0.5f);
    o[2] = floor(-0.5f);
    o[3] = ceil(-0.5f);
    o[4] = trunc(-1.5f);
    o[5] = frac(-0.25f);
}
