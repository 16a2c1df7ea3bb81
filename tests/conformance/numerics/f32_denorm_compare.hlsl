// conformance: comparisons see fp32 denormals as zero: a denormal equals 0 and -0 (D3D)
// D3D11.3 3.1.3.3: comparison inputs flush too; the min/max of two denormals is a zero.
// buffer: a float32 = 1e-45 -1e-45 1e-45 5.877472e-39
// buffer: b float32 = 0 0 2e-45 -5.877472e-39
// buffer: o uint32[4]
// expect: o = 1 1 1 1
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    float y = b[id.x];
    bool zero = asuint(max(x, y)) == 0u || asuint(max(x, y)) == 0x80000000u;
    o[id.x] = (x == y && !(x < y) && zero) ? 1u : 0u;
}
