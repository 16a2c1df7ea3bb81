// conformance: f32tof16 of an fp32 denormal gives a zero; f16tof32 of a half denormal is a normal float (D3D)
// buffer: a float32 = 1e-45 -5.877472e-39 1 0
// buffer: h uint32 = 1 32769 15360 0
// buffer: o uint32[4]
// buffer: f float32[4]
// expect: o = 0 32768 15360 0
// expect: f = 5.9604645e-08 -5.9604645e-08 1 0
StructuredBuffer<float> a;
StructuredBuffer<uint> h;
RWStructuredBuffer<uint> o;
RWStructuredBuffer<float> f;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = f32tof16(a[id.x]);
    f[id.x] = f16tof32(h[id.x]);
}
