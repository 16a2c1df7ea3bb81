// conformance: writing past a buffer's end is dropped (D3D)
// buffer: o uint32[4]
// expect: o = 1 0 2 0
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x * 2] = id.x + 1;
}
