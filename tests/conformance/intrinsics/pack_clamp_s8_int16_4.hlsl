// conformance: pack_clamp_s8 on int16_t4 saturates to [-128, 127]
// buffer: v int16 = 1 -2 300 -300 32767 -32768 128 -129
// buffer: o uint32[2]
// expect: o = 2155871745 2155839615
StructuredBuffer<int16_t4> v;
RWStructuredBuffer<uint> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = pack_clamp_s8(v[id.x]);
}
