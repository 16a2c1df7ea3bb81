// conformance: asuint of an fp32 denormal keeps its bits; a bitcast is not arithmetic (D3D)
// D3D11.3 3.1.3.3: moves and bit reinterpretation do not flush denormals.
// buffer: a float32 = 1e-45 -1.1754942e-38 5.877472e-39 -1e-45
// buffer: o uint32[4]
// expect: o = 1 2155872255 4194304 2147483649
StructuredBuffer<float> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asuint(a[id.x]);
}
