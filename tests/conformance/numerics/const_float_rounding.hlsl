// conformance: constant-folded float arithmetic rounds at 32 bits
// buffer: o float32[4]
// expect: o = 0.3 1.6777216e+07 1 1.6777216e+07
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = 0.1f + 0.2f;
    o[1] = 16777216.0f + 1.0f;
    o[2] = 1.0f / 3.0f * 3.0f;
    o[3] = (float)16777217;
}
