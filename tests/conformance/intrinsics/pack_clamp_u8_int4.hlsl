// conformance: pack_clamp_u8 saturates each component to [0, 255] before packing
// buffer: v int32 = 1 2 3 4 -1 256 257 -129 300 -300 127 -128 0 255 -256 65535
// buffer: o uint32[4]
// expect: o = 67305985 16776960 8323327 4278255360
StructuredBuffer<int4> v;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = pack_clamp_u8(v[id.x]);
}
