// conformance: pack_u8 keeps the low 8 bits of each int4 component, x in the lowest byte
// buffer: v int32 = 1 2 3 4 -1 256 257 -129 300 -300 127 -128 0 255 -256 65535
// buffer: o uint32[4]
// expect: o = 67305985 2130772223 2155861036 4278255360
StructuredBuffer<int4> v;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = pack_u8(v[id.x]);
}
