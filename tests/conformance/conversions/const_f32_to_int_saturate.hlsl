// conformance: constant-folded float to int saturates and sends nan to 0 (D3D ftoi/ftou)
// buffer: o uint32[6]
// expect: o = 2147483647 2147483648 0 4294967295 0 0
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = (uint)(int)3e9f;
    o[1] = (uint)(int)-3e9f;
    o[2] = (uint)-1.0f;
    o[3] = (uint)5e9f;
    o[4] = (uint)(int)(0.0f / 0.0f);
    o[5] = (uint)(0.0f / 0.0f);
}
