// conformance: float to uint clamps negatives to 0 and large values to 0xFFFFFFFF, nan to 0 (D3D ftou)
// D3D11.3 3.2.3.1 (ftou): NaN becomes 0, values beyond the uint range clamp to 0 / 0xFFFFFFFF.
// buffer: a float32 = -1 -0.5 5e+09 inf -inf nan 4.294967e+09 3.99
// buffer: o uint32[8]
// expect: o = 0 0 4294967295 4294967295 0 0 4294967040 3
StructuredBuffer<float> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (uint)x;
}
