// conformance: fp16 denormals are kept through arithmetic; only fp32 ones flush (D3D)
// D3D12 min-precision / native 16-bit: half denormals are preserved.
// buffer: a float16 = 6e-08 -6e-08 3e-05 1
// buffer: o float16[4]
// expect: o = 1.192e-07 -1.192e-07 5.996e-05 2
StructuredBuffer<half> a;
RWStructuredBuffer<half> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half x = a[id.x];
    o[id.x] = x * (half)2.0;
}
