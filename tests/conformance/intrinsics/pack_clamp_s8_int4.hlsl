// conformance: pack_clamp_s8 saturates each component to [-128, 127] before packing
// buffer: v int32 = 1 2 3 4 -1 256 257 -129 300 -300 127 -128 0 255 -256 65535
// buffer: o uint32[4]
// expect: o = 67305985 2155839487 2155839615 2139127552
StructuredBuffer<int4> v;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = pack_clamp_s8(v[id.x]);
}
