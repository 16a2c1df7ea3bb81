// conformance: f16tof32 reads the half in the low 16 bits and ignores the high bits
// buffer: a uint32 = 15360 4294950912 97279 1
// buffer: o float32[4]
// expect: o = 1 -2 65504 5.9604645e-08
StructuredBuffer<uint> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = f16tof32(x);
}
