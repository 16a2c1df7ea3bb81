// conformance: RWByteAddressBuffer.InterlockedMin with int values compares signed
// DXC has int overloads of the RWByteAddressBuffer Interlocked methods; Min/Max on int values are signed
// (Tint's HLSL output relies on it for WGSL's atomicMin on i32).
// buffer: raw uint32 = 0 0
// expect: raw = 4294967286 53
RWByteAddressBuffer raw;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int v = (int)gi - 10;
    raw.InterlockedMin(0, v);
    raw.InterlockedMax(4, v);
}
