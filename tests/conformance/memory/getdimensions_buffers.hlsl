// conformance: GetDimensions on structured and byte-address buffers
// buffer: sb float32 = 0 0 0 0 0 0 0 0 0 0 0 0
// buffer: raw uint32 = 0 0 0 0 0
// buffer: o uint32[3]
// expect: o = 4 12 20
StructuredBuffer<float3> sb;
ByteAddressBuffer raw;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint n, stride, bytes;
    sb.GetDimensions(n, stride);
    raw.GetDimensions(bytes);
    o[0] = n;
    o[1] = stride;
    o[2] = bytes;
}
