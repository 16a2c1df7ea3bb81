// conformance: uint division by zero gives 0xFFFFFFFF (D3D udiv)
// buffer: a uint32 = 0 1 4294967295 12345
// buffer: b uint32 = 0 0 0 0
// buffer: o uint32[4]
// expect: o = 4294967295 4294967295 4294967295 4294967295
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] / b[id.x];
}
