// conformance: a cbuffer array: each element on its own 16-byte row, indexed at run time
// constant: weights float32 = 1 2 3 4
// buffer: o float32[4]
// expect: o = 2 4 6 8
cbuffer Params { float weights[4]; };
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = weights[id.x] * 2.0f;
}
