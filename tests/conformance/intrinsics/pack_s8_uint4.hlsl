// conformance: pack_s8 on uint4 drops the unused bits too (int8_t4_packed result stored as uint)
// buffer: v uint32 = 1 2 3 4 4294967295 256 511 128 3735928559 51966 18 171
// buffer: o uint32[3]
// expect: o = 67305985 2164195583 2870148847
StructuredBuffer<uint4> v;
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (uint)pack_s8(v[id.x]);
}
