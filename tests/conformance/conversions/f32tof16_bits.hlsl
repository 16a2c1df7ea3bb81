// conformance: f32tof16 returns the half's bits in the low 16 bits of a uint
// buffer: a float32 = 1 -2 0.5 65504 inf 0
// buffer: o uint32[6]
// expect: o = 15360 49152 14336 31743 31744 0
StructuredBuffer<float> a;
RWStructuredBuffer<uint> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = f32tof16(x);
}
